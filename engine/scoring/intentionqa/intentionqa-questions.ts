// An IntentionQA item as evaluation reads it back: what is asked (its prompts and products), its
// answer key, and what the tables break accuracy down by. Reads the engine's items and the released
// files (released_task1.jsonl, released_task2.jsonl), which have no `task`, `difficulty` or
// `prompts`: the task then comes from the file's name (`…task1…`, `…task2…`) or else from the
// distractor field the record has, and the prompts are built as the released askLM scripts built them.
import { basename } from 'node:path';
import type { InputLocation } from '../../../core/errors.js';
import { FieldReader } from '../../../core/jsonl.js';
import { DIFFICULTIES, difficultyOf, type Difficulty } from '../../items/intentionqa/difficulty.js';
import { extractIntention } from '../../items/intentionqa/intention-text.js';
import { task1Prompts, task2Prompts, type PromptPair } from '../../items/intentionqa/intentionqa-prompts.js';

export type IntentionQaTask = 1 | 2;

/** Items with fewer options than this are not scored (the released computeACC.py: `len(options) < 4`). */
export const MIN_SCORED_OPTIONS = 4;

export interface IntentionQaQuestion {
  id: string;
  task: IntentionQaTask;
  /** Letter → option text, in file order (engine items: A–D; released ones also fewer, or an E). */
  options: Record<string, string>;
  gold: string;
  /** From `difficulty`, else from `pair_similarity`; null when the item has neither (released files). */
  difficulty: Difficulty | null;
  relation: string;
  /** The products the question names: both (Task 1), or the given one (Task 2). */
  questionProducts: string[];
  /** item_a_name and item_b_name, as the file holds them (Task 2: the given product, then the gold). */
  productNames: [string, string];
  prompts: PromptPair;
}

/** Reads one items line; errors name the field. */
export function parseIntentionQaQuestion(
  json: unknown,
  at: Required<Pick<InputLocation, 'file' | 'line'>>,
): IntentionQaQuestion {
  const r = new FieldReader(json, at);
  const id = r.id('id');
  const task = taskOf(r, at.file);
  const rawOptions = r.object('options');
  const options: Record<string, string> = {};
  for (const [letter, text] of Object.entries(rawOptions)) {
    if (!/^[A-Z]$/.test(letter)) throw r.error(`options.${letter}`, 'an option key must be one letter A–Z');
    if (typeof text !== 'string') throw r.error(`options.${letter}`, 'expected a string');
    options[letter] = text;
  }
  if (Object.keys(options).length === 0) throw r.error('options', 'has no options');
  const gold = r.string('gold_ind');
  if (!(gold in options))
    throw r.error('gold_ind', `"${gold}" is not one of the options (${Object.keys(options).join(', ')})`);
  const productA = r.string('item_a_name', { allowEmpty: true });
  const productB = r.string('item_b_name', { allowEmpty: true });
  let prompts: PromptPair;
  if (r.has('prompts')) {
    const p = r.object('prompts');
    if (typeof p.zero_shot !== 'string') throw r.error('prompts.zero_shot', 'expected a string');
    if (typeof p.cot !== 'string') throw r.error('prompts.cot', 'expected a string');
    prompts = { zero_shot: p.zero_shot, cot: p.cot };
  } else if (task === 1) {
    prompts = task1Prompts(productA, productB, options);
  } else {
    const intention = extractIntention(r.string('assertion'));
    if (intention === undefined) throw r.error('assertion', 'has neither "because" nor "as a result, "');
    prompts = task2Prompts(productA, intention, options);
  }
  return {
    id,
    task,
    options,
    gold,
    difficulty: difficultyFrom(r),
    relation: r.has('relation') ? r.string('relation') : '',
    questionProducts: task === 1 ? [productA, productB] : [productA],
    productNames: [productA, productB],
    prompts,
  };
}

/** The task a file's name tells (`released_task1.jsonl`, `intentionqa_task2.jsonl`, …); undefined when it tells none or both. */
export function taskOfFileName(file: string): IntentionQaTask | undefined {
  const name = basename(file).toLowerCase();
  const one = /task[-_]?1(?!\d)/.test(name);
  const two = /task[-_]?2(?!\d)/.test(name);
  return one === two ? undefined : one ? 1 : 2;
}

function taskOf(r: FieldReader, file: string): IntentionQaTask {
  if (r.has('task')) {
    const task = r.raw('task');
    if (task !== 1 && task !== 2) throw r.error('task', 'must be 1 or 2');
    return task;
  }
  const named = taskOfFileName(file);
  if (named !== undefined) return named;
  // Released files: Task 1 lists distractor assertions (spelled so), Task 2 distractor products.
  if (r.has('distractors_asserstion')) return 1;
  if (r.has('distractors_product')) return 2;
  throw r.error('task', 'missing (and no distractors_asserstion or distractors_product to tell the task by)');
}

function difficultyFrom(r: FieldReader): Difficulty | null {
  if (r.has('difficulty')) {
    const d = r.raw('difficulty');
    if (!(DIFFICULTIES as readonly unknown[]).includes(d)) throw r.error('difficulty', 'must be easy, medium or hard');
    return d as Difficulty;
  }
  if (r.has('pair_similarity')) return difficultyOf(r.number('pair_similarity'));
  return null;
}
