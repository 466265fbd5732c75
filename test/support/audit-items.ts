// A small hand-made IntentionQA items folder for the audit tests: Task 1 items q1–q4 and Task 2
// items q1–q3 (the tasks reuse ids, as the engine's do), with their golds, difficulties and
// relations chosen so that every expected count can be worked out by hand. Product names say which
// item a prompt is (`P1-q3`: Task 1, q3), so that a fake judge can answer per item.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { task1Prompts, task2Prompts } from '../../engine/items/intentionqa/intentionqa-prompts.js';

export interface HandItem {
  task: 1 | 2;
  id: string;
  gold: string;
  difficulty: 'easy' | 'medium' | 'hard';
  relation: string;
}

export const HAND_ITEMS: readonly HandItem[] = [
  { task: 1, id: 'q1', gold: 'A', difficulty: 'easy', relation: 'usedFor' },
  { task: 1, id: 'q2', gold: 'B', difficulty: 'easy', relation: 'usedFor' },
  { task: 1, id: 'q3', gold: 'C', difficulty: 'medium', relation: 'isA' },
  { task: 1, id: 'q4', gold: 'D', difficulty: 'hard', relation: 'isA' },
  { task: 2, id: 'q1', gold: 'A', difficulty: 'easy', relation: 'usedFor' },
  { task: 2, id: 'q2', gold: 'C', difficulty: 'medium', relation: 'usedFor' },
  { task: 2, id: 'q3', gold: 'D', difficulty: 'medium', relation: 'isA' },
];

export function itemRecord(h: HandItem): Record<string, unknown> {
  const a = `P${h.task}-${h.id}`;
  const options =
    h.task === 1
      ? { A: 'because a.', B: 'because b.', C: 'because c.', D: 'because d.' }
      : { A: 'a mug', B: 'a lamp', C: 'a towel', D: 'a pen' };
  const prompts =
    h.task === 1 ? task1Prompts(a, 'its companion', options) : task2Prompts(a, 'because they like tea', options);
  return {
    id: h.id,
    item_a_id: `${a}-a`,
    item_b_id: `${a}-b`,
    item_a_name: a,
    item_b_name: 'its companion',
    relation: h.relation,
    assertion: `PersonX bought ${a} and its companion because they like tea.`,
    gold_ind: h.gold,
    options,
    task: h.task,
    difficulty: h.difficulty,
    prompts,
  };
}

/** The JSONL line of an item, as the folder holds it. */
export const itemLine = (h: HandItem) => JSON.stringify(itemRecord(h));

/** The dropped assertion the folder lists (kept at the head of a filtered set's dropped file). */
export const DROPPED_LINE = '{"id":"q9","task":1,"reason":"window-empty","detail":"no member"}';

/** Writes the items folder; returns its path. */
export function writeHandItems(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const task of [1, 2] as const)
    writeFileSync(
      join(dir, `intentionqa_task${task}.jsonl`),
      HAND_ITEMS.filter((h) => h.task === task)
        .map((h) => itemLine(h) + '\n')
        .join(''),
    );
  writeFileSync(join(dir, 'intentionqa_dropped.jsonl'), DROPPED_LINE + '\n');
  return dir;
}

/** The item a judge prompt is about, from its product name. */
export function itemOfPrompt(prompt: string): HandItem {
  const m = /customer buys P(\d)-(q\d)/.exec(prompt);
  if (!m) throw new Error(`no item in prompt: ${prompt.slice(0, 80)}`);
  return HAND_ITEMS.find((h) => h.task === Number(m[1]) && h.id === m[2])!;
}
