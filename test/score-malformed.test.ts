// Malformed IntentionQA items (not four options with distinct texts) through `ask --solver
// embedding` and `score intentionqa`: ask says how many it did not ask and why; score counts them
// as "malformed, not asked", by kind, never as missing. On a hand-made file, then on the released
// Task-1 file (99 malformed: 70 with fewer than 4 options, 2 with more, 27 with a repeated text).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../core/shared-files.js';
import { malformedCounts, malformedKind } from '../engine/scoring/intentionqa/intentionqa-item-file.js';
import { scoreIntentionQa } from '../engine/scoring/intentionqa/score-intentionqa.js';
import { cli } from './support/cli.js';

const jsonl = (records: readonly object[]) => records.map((r) => JSON.stringify(r) + '\n').join('');

/** A released-format Task 1 item: no task, difficulty or prompts. */
function item(id: string, gold: string, options: Record<string, string>) {
  return {
    id,
    item_a_name: 'USB Cable',
    item_b_name: 'HDMI Cable',
    relation: 'all',
    assertion: 'PersonX bought a product of Item A and a product of Item B because they both are cables.',
    distractors_asserstion: Object.values(options).slice(1),
    gold_ind: gold,
    options,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'intentsim-score-malformed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('malformed items by kind', () => {
  it('names the kind of each reason the reader gives', () => {
    expect(malformedKind('1 option (A), not 4')).toBe('fewer than 4 options');
    expect(malformedKind('3 options (A, B, C), not 4')).toBe('fewer than 4 options');
    expect(malformedKind('5 options (A, B, C, D, E), not 4')).toBe('more than 4 options');
    expect(malformedKind('options A and C have the same text')).toBe('a repeated option text');
    expect(
      malformedCounts([
        { reason: 'options B and D have the same text' },
        { reason: '2 options (A, B), not 4' },
        { reason: '1 option (A), not 4' },
      ]),
    ).toEqual({ 'fewer than 4 options': 2, 'a repeated option text': 1 });
  });
});

describe('ask --solver embedding, then score intentionqa, on a file with malformed items', () => {
  const items = join(dir, 'items.jsonl');
  writeFileSync(
    items,
    jsonl([
      item('ok1', 'A', { A: 'because w.', B: 'because x.', C: 'because y.', D: 'because z.' }),
      item('few', 'A', { A: 'because x.', B: 'because y.' }),
      item('same', 'B', { A: 'because w.', B: 'because x.', C: 'because w.', D: 'because z.' }),
      item('five', 'E', { A: 'because v.', B: 'because w.', C: 'because x.', D: 'because y.', E: 'because z.' }),
      item('ok2', 'C', { A: 'because s.', B: 'because t.', C: 'because u.', D: 'because v.' }),
    ]),
  );

  it('ask says how many it did not ask, by kind, with the first ones', async () => {
    const out = join(dir, 'answers.jsonl');
    const printed = await cli([
      'ask',
      '--solver',
      'embedding',
      '--encoder',
      'offline-hashing-v1',
      '--items',
      items,
      '--out',
      out,
    ]);
    expect(printed).toContain('2 items answered');
    expect(printed).toContain(
      'malformed, not asked: 3 (1 with fewer than 4 options, 1 with more than 4 options, 1 with a repeated option text; ' +
        `an item needs four options with distinct texts): ${items}:2 "few": 2 options (A, B), not 4; ` +
        `${items}:3 "same": options A and C have the same text; ${items}:4 "five": 5 options (A, B, C, D, E), not 4\n`,
    );

    const scores = join(dir, 'scores');
    const table = await cli(['score', 'intentionqa', '--items', items, '--responses', out, '--out', scores]);
    expect(table).toContain('| missing (no response line) | 0 |');
    expect(table).toContain('| malformed, not asked | 3 |');
    expect(table).toContain(
      'Malformed, not asked: items without four options of distinct texts, which `ask` sets apart and writes no ' +
        'response for (Task 1: 1 with fewer than 4 options, 1 with more than 4 options, 1 with a repeated option text).',
    );
    expect(table).toContain(
      `written: ${['scores.jsonl', 'summary.json', 'summary.md', 'summary.svg'].map((f) => join(scores, f)).join(', ')}\n`,
    );
  });

  it('scores a malformed item that has a response line as before, and counts an unanswered good one as missing', async () => {
    const responses = join(dir, 'other.jsonl');
    writeFileSync(
      responses,
      jsonl([
        { id: 'same', response: 'B' }, // another tool asked it: scored, as computeACC.py scores it
        { id: 'few', response: 'A' }, // fewer than 4 options: excluded, as computeACC.py excludes it
      ]),
    );
    const r = await scoreIntentionQa({
      files: [{ items, responses }],
      style: 'zero_shot',
      out: join(dir, 's2'),
      seed: 1,
    });
    expect(r.scores.map((s) => [s.id, s.status])).toEqual([
      ['ok1', 'missing'],
      ['few', 'fewer-options'],
      ['same', 'correct'],
      ['five', 'malformed'],
      ['ok2', 'missing'],
    ]);
    expect(r.summary.tasks[0]!.counts).toMatchObject({
      items: 5,
      scored: 1,
      missing: 2,
      fewer_options: 1,
      malformed: 1,
      malformed_kinds: { 'more than 4 options': 1 },
    });
  });
});

const RELEASED = join(sharedDir(), 'data', 'intentionqa', 'released_task1.jsonl');
if (!existsSync(RELEASED))
  console.warn(`SKIPPED the released Task-1 file through ask and score: ${RELEASED} is absent`);

describe.skipIf(!existsSync(RELEASED))('the released Task-1 file through ask --solver embedding and score', () => {
  it('asks 2216, says the 99 malformed were not asked and why; score counts them so, none missing', async () => {
    const out = join(dir, 'released-answers.jsonl');
    const printed = await cli([
      'ask',
      '--solver',
      'embedding',
      '--encoder',
      'offline-hashing-v1',
      '--items',
      RELEASED,
      '--out',
      out,
    ]);
    expect(printed).toContain('2216 items answered');
    expect(printed).toContain(
      'malformed, not asked: 99 (70 with fewer than 4 options, 2 with more than 4 options, 27 with a repeated option text;',
    );
    const r = await scoreIntentionQa({
      files: [{ items: RELEASED, responses: out }],
      style: 'zero_shot',
      out: join(dir, 'released-scores'),
      seed: 1,
    });
    expect(r.summary.tasks[0]!.counts).toMatchObject({
      items: 2315,
      scored: 2216,
      missing: 0,
      malformed: 99,
      malformed_kinds: { 'fewer than 4 options': 70, 'more than 4 options': 2, 'a repeated option text': 27 },
    });
  });
});
