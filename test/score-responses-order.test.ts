// `score intentionqa` with the --responses files swapped (issue 45, fault 9): the Task 1 and Task 2
// files reuse ids, so a swap scored other questions' answers with exit 0. Response lines that record
// their prompt (`prompt_hash`, as `ask` writes it) are checked against their item's prompts; lines
// without one, by their ids, when another items file holds more of them than their own.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { scoreIntentionQa } from '../engine/scoring/intentionqa/score-intentionqa.js';
import { promptHash } from '../engine/scoring/responses.js';

const jsonl = (records: readonly object[]) => records.map((r) => JSON.stringify(r) + '\n').join('');
const OPTIONS = { A: 'because a.', B: 'because b.', C: 'because c.', D: 'because d.' };

function item(task: 1 | 2, id: string, gold: string) {
  return {
    id,
    item_a_name: `${id} A`,
    item_b_name: `${id} B`,
    relation: 'usedFor',
    assertion: `PersonX bought a product of Item A and a product of Item B because ${id}.`,
    gold_ind: gold,
    options: OPTIONS,
    task,
    difficulty: 'easy',
    prompts: { zero_shot: `task ${task} zero-shot prompt of ${id}`, cot: `task ${task} CoT prompt of ${id}` },
  };
}

/** Task 1 and Task 2 items sharing ids (`ids2` for Task 2), and responses answering gold with their prompt hashes. */
function inputs(ids1: string[], ids2: string[], hashes: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-score-order-'));
  const write = (name: string, rows: object[]) => {
    writeFileSync(join(dir, name), jsonl(rows));
    return join(dir, name);
  };
  const t1 = ids1.map((id) => item(1, id, 'A'));
  const t2 = ids2.map((id) => item(2, id, 'B'));
  const answers = (items: ReturnType<typeof item>[]) =>
    items.map((i) => ({
      id: i.id,
      response: i.gold_ind,
      ...(hashes ? { prompt_hash: promptHash(i.prompts.zero_shot) } : {}),
    }));
  return {
    items1: write('task1.jsonl', t1),
    items2: write('task2.jsonl', t2),
    responses1: write('r1.jsonl', answers(t1)),
    responses2: write('r2.jsonl', answers(t2)),
  };
}

describe('score intentionqa with the responses files swapped (issue 45, fault 9)', () => {
  it('in the right order: every answer right', async () => {
    const f = inputs(['1', '2', '3'], ['1', '2', '3'], true);
    const r = await scoreIntentionQa({
      files: [
        { items: f.items1, responses: f.responses1 },
        { items: f.items2, responses: f.responses2 },
      ],
      style: 'zero_shot',
    });
    expect(r.summary.tasks.map((t) => t.model.all!.accuracy)).toEqual([1, 1]);
  });

  it('swapped, with prompt hashes: refused, naming the line and the items file the responses answer', async () => {
    const f = inputs(['1', '2', '3'], ['1', '2', '3'], true);
    const err = await scoreIntentionQa({
      files: [
        { items: f.items1, responses: f.responses2 },
        { items: f.items2, responses: f.responses1 },
      ],
      style: 'zero_shot',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      `${f.responses2}:1: the response to "1" was asked with another prompt (prompt_hash ${promptHash('task 2 zero-shot prompt of 1')}) ` +
        `than item "1" of ${f.items1} has; its responses answer the prompts of ${f.items2}: ` +
        'the responses files must be given in the order of their items files',
    );
  });

  it('swapped, without prompt hashes, ids overlapping: refused by the ids each items file holds', async () => {
    const f = inputs(['1', '2', '3', '4'], ['3', '4', '5', '6', '7'], false);
    const err = await scoreIntentionQa({
      files: [
        { items: f.items1, responses: f.responses2 },
        { items: f.items2, responses: f.responses1 },
      ],
      style: 'zero_shot',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      `${f.responses2}: 5 of its 5 response ids are items of ${f.items2}, only 2 of ${f.items1}, ` +
        'the items file it is paired with: the responses files must be given in the order of their items files',
    );
  });

  it("a response asked with the CoT prompt is accepted under another style (the hash is one of the item's prompts)", async () => {
    const f = inputs(['1'], ['1'], false);
    writeFileSync(f.responses1, jsonl([{ id: '1', response: 'A', prompt_hash: promptHash('task 1 CoT prompt of 1') }]));
    const r = await scoreIntentionQa({ files: [{ items: f.items1, responses: f.responses1 }], style: 'zero_shot' });
    expect(r.summary.tasks[0]!.model.all!.accuracy).toBe(1);
  });
});
