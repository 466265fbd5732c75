// `review start --blind`: what the page is sent holds no gold (no answer, no id, no difficulty or
// relation, no product B in Task 2, options in an order of their own), marks made in the letters
// shown are stored in the item's; the paper's per-item measures (majority of votes) and the
// consistency flags on a scenario worked by hand; `--keep valid` ignores a "valid" that contradicts
// its marks; the blind MTurk batch holds no gold and its results come back in the item's letters.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { openReview } from '../engine/review/open-review.js';
import { ReviewStore } from '../engine/review/review-store.js';
import { serveReview } from '../engine/review/review-server.js';
import { exportReview } from '../engine/review/export-review.js';
import { importMturkResults, MTURK_BLIND_INPUT_COLUMNS } from '../engine/review/mturk.js';
import { blindLetters, blindOrder, blindRef, blindView } from '../engine/review/blind-view.js';
import { itemMeasures, majorityRight } from '../engine/review/item-measures.js';
import { intentionQaLine, manyIntentionQaItems, writeItemsDir } from './support/review-fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intentsim-review-blind-'));

/** `n` Task-2 items whose product B (the gold) and id, difficulty and relation are easy to find in text. */
function task2Items(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    intentionQaLine({
      id: `SECRETID${i}`,
      task: 2,
      difficulty: ['easy', 'medium', 'hard'][i % 3]!,
      relation: 'xRelationZ',
      a: `Given Kettle ${i}`,
      b: `Brass Teapot ${i}`,
      options: (['A', 'B', 'C', 'D'] as const).map((l) =>
        l === 'ABCD'[i % 4] ? `Brass Teapot ${i}` : `Other ${l}${i}`,
      ) as [string, string, string, string],
      gold: 'ABCD'[i % 4] as 'A',
    }),
  );
}

async function blindReview(lines: Record<string, string[]>, annotators = ['a']) {
  const dir = tmp();
  const items = writeItemsDir(join(dir, 'items'), lines);
  const opened = await openReview({
    itemsDir: items,
    reviewDir: join(dir, 'review'),
    annotators,
    seed: 4,
    blind: true,
  });
  return { dir, items, ...opened };
}

describe('blind view', () => {
  it('sends the page no gold: Task 2 without product B, no id, difficulty or relation; options reordered', async () => {
    const r = await blindReview({ 'intentionqa_task2.jsonl': task2Items(12) });
    const server = await serveReview({ store: r.store });
    try {
      const token = r.annotators[0]!.token;
      const get = async (path: string) =>
        (await fetch(`${server.url}${path.slice(1)}`, { headers: { Authorization: `Bearer ${token}` } })).text();
      expect(JSON.parse(await get('/api/session'))).toMatchObject({ blind: true, total: 12 });
      const items = r.store.items();
      let moved = 0;
      for (let p = 0; p < 12; p++) {
        const body = await get(`/api/items/${p}`);
        const item = items[p]!;
        const goldText = item.options.find((o) => o.letter === item.gold[0])!.text;
        // The gold's text once: as an option, never among the products.
        expect(body.split(goldText).length - 1, body).toBe(1);
        for (const hint of ['SECRETID', 'xRelationZ', 'gold', 'easy', 'medium', 'hard', 'intentionqa_task2.jsonl']) {
          expect(body, hint).not.toContain(hint);
        }
        const sent = JSON.parse(body) as { item: Record<string, unknown> };
        expect(Object.keys(sent.item).sort()).toEqual(['options', 'products', 'question', 'ref', 'task']);
        expect(sent.item.products).toEqual([item.products[0]]);
        const shown = (sent.item.options as Array<{ letter: string; text: string }>).map((o) => o.letter);
        expect(shown).toEqual(['A', 'B', 'C', 'D']);
        const shownGold = blindLetters(item, 4).toShown.get(item.gold[0]!)!;
        expect((sent.item.options as Array<{ letter: string; text: string }>)[shown.indexOf(shownGold)]!.text).toBe(
          goldText,
        );
        if (shownGold !== item.gold[0]) moved++;
      }
      // A seeded order per item: most golds are shown under another letter than the item's.
      expect(moved).toBeGreaterThan(3);
    } finally {
      await server.close();
      r.store.close();
    }
  });

  it('stores marks made in the letters shown as the item’s letters, and shows them back in the letters shown', async () => {
    const r = await blindReview({ 'intentionqa_task1.jsonl': manyIntentionQaItems(3) });
    const server = await serveReview({ store: r.store });
    try {
      const headers = { Authorization: `Bearer ${r.annotators[0]!.token}`, 'Content-Type': 'application/json' };
      const item = r.store.items()[1]!;
      const order = blindOrder(item, 4);
      // Shown B and D are the item's order[1] and order[3].
      const res = await fetch(`${server.url}api/items/1`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ correct: ['D', 'B'], validity: 'invalid', reasons: ['second-right-answer'], ms: 5 }),
      });
      expect(res.status).toBe(200);
      expect(r.store.labels('a')[0]!.correct).toEqual([order[1]!, order[3]!].sort());
      const back = (await (await fetch(`${server.url}api/items/1`, { headers })).json()) as {
        label: { correct: string[] };
      };
      expect(back.label.correct).toEqual(['B', 'D']);
      const bad = await fetch(`${server.url}api/items/1`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ correct: ['E'], validity: 'valid', reasons: [], ms: 5 }),
      });
      expect(bad.status).toBe(400);
      // The blind page offers no "gold wrong": the server takes none either (issue 45).
      const goldWrong = await fetch(`${server.url}api/items/1`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ correct: ['A'], validity: 'invalid', reasons: ['gold-wrong'], ms: 5 }),
      });
      expect(goldWrong.status).toBe(400);
      expect(await goldWrong.json()).toEqual({ error: 'a blind review offers no reason "gold-wrong"' });
      expect(r.store.labels('a')[0]!.reasons).toEqual(['second-right-answer']);
    } finally {
      await server.close();
      r.store.close();
    }
  });

  it('keeps SIB options in their order and letters; the view is the same for the same seed', async () => {
    const r = await blindReview({ 'intentionqa_task1.jsonl': manyIntentionQaItems(2) });
    const item = r.store.items()[0]!;
    expect(blindView(item, 4)).toEqual(blindView(item, 4));
    expect(blindRef(item)).toMatch(/^item-[0-9a-f]{16}$/);
    const sib = { ...item, benchmark: 'sib' as const, task: 'sib-1' };
    expect(blindOrder(sib, 4)).toEqual(['A', 'B', 'C', 'D']);
    r.store.close();
  });

  it('a review is blind or not from its start: resuming it otherwise is refused', async () => {
    const r = await blindReview({ 'intentionqa_task1.jsonl': manyIntentionQaItems(2) });
    r.store.close();
    await expect(openReview({ itemsDir: r.items, reviewDir: join(r.dir, 'review'), blind: false })).rejects.toThrow(
      /was started blind/,
    );
    const again = await openReview({ itemsDir: r.items, reviewDir: join(r.dir, 'review') });
    expect(again.store.settings().blind).toBe(true);
    again.store.close();
  });
});

/**
 * Four Task-1 items (manyIntentionQaItems(4): gold A, B, C, D; easy, medium, hard, easy), three
 * annotators. Worked by hand:
 *   Q1 a [A] v, b [A] v, c [A,B] i      → right {A}: Valid, Correct
 *   Q2 a [B,C] i, b [C] v*, c [B,C] i   → right {B,C}: F-Neg, Correct       (* valid without the gold,
 *   Q3 a [A] v*, b [A] v*, c [C] v      → right {A}: F-Neg, not Correct       and with a distractor)
 *   Q4 a [D] v, b [] u, c [A,D] v+      → right {D}: Valid, Correct       (+ valid with a distractor)
 * Items: Valid 2/4, F-Neg 2/4, Correct 3/4; easy 2/2, 0/2, 2/2; medium 0/1, 1/1, 1/1; hard 0/1, 1/1, 0/1.
 * Judgements (12): exact gold 4, a distractor marked 7, the gold marked 8, verdict valid 8.
 * Flags: 3 valid without the gold (each marks a distractor instead), 4 with a distractor. Kept: Q1 only (the verdicts alone: Q1, Q3, Q4).
 */
const SCENARIO: Array<[string, string, string[], 'valid' | 'invalid' | 'unsure']> = [
  ['a', 'Q1', ['A'], 'valid'],
  ['b', 'Q1', ['A'], 'valid'],
  ['c', 'Q1', ['A', 'B'], 'invalid'],
  ['a', 'Q2', ['B', 'C'], 'invalid'],
  ['b', 'Q2', ['C'], 'valid'],
  ['c', 'Q2', ['B', 'C'], 'invalid'],
  ['a', 'Q3', ['A'], 'valid'],
  ['b', 'Q3', ['A'], 'valid'],
  ['c', 'Q3', ['C'], 'valid'],
  ['a', 'Q4', ['D'], 'valid'],
  ['b', 'Q4', [], 'unsure'],
  ['c', 'Q4', ['A', 'D'], 'valid'],
];

describe('per-item measures and consistency', () => {
  it('gives the hand-worked Valid / F-Neg / Correct, per-judgement rates and flags; --keep valid keeps Q1 only', async () => {
    const r = await blindReview({ 'intentionqa_task1.jsonl': manyIntentionQaItems(4) }, ['a', 'b', 'c']);
    for (const [who, id, correct, validity] of SCENARIO) {
      const position = r.store.positionOf(`intentionqa_task1.jsonl#${id}`)!;
      r.store.save(who, position, { correct, validity, reasons: [], otherText: '', ms: 10 }, new Date(0), 'browser');
    }
    r.store.close();
    const out = join(r.dir, 'export');
    const { summary, kept } = await exportReview({ reviewDir: join(r.dir, 'review'), out, keep: 'valid' });
    expect(summary.blind).toBe(true);
    const row = (d: string) => summary.measures.find((m) => m.difficulty === d)!;
    const counts = (d: string) => [row(d).valid, row(d).fNeg, row(d).correct].map((p) => `${p.successes}/${p.n}`);
    expect(summary.measures.map((m) => m.difficulty)).toEqual(['easy', 'medium', 'hard', 'all']);
    expect(counts('all')).toEqual(['2/4', '2/4', '3/4']);
    expect(counts('easy')).toEqual(['2/2', '0/2', '2/2']);
    expect(counts('medium')).toEqual(['0/1', '1/1', '1/1']);
    expect(counts('hard')).toEqual(['0/1', '1/1', '0/1']);
    expect(row('all').valid.low).toBeCloseTo(0.150039, 6);
    const j = row('all').perJudgement;
    expect([j.exact, j.distractorMarked, j.goldMarked, j.validVerdict].map((p) => `${p.successes}/${p.n}`)).toEqual([
      '4/12',
      '7/12',
      '8/12',
      '8/12',
    ]);
    // Exact gold per item (a, b, c): Q1 e e n, Q2 n n n, Q3 n n e, Q4 e n n → rows [2,1] [0,3] [1,2] [1,2];
    // P̄ = (1/3 + 1 + 1/3 + 1/3) / 4 = 1/2; p = (4/12, 8/12), P_e = 5/9; κ = (1/2 − 5/9) / (4/9) = −1/8.
    expect(summary.agreementOnMarks).toMatchObject({ method: 'fleiss', on: 'exact-gold', items: 4, raters: 3 });
    expect(summary.agreementOnMarks!.categoryTotals).toEqual([4, 8]);
    expect(summary.agreementOnMarks!.kappa).toBeCloseTo(-0.125, 12);
    expect(summary.consistency).toMatchObject({ validLabels: 8, validWithoutGold: 3, validWithDistractor: 4 });
    expect(
      summary.consistency.labels.map((f) => `${f.annotator} ${f.item.split('#')[1]} ${f.flags.join()}`).sort(),
    ).toEqual([
      'a Q3 valid-without-gold,valid-with-distractor',
      'b Q2 valid-without-gold,valid-with-distractor',
      'b Q3 valid-without-gold,valid-with-distractor',
      'c Q4 valid-with-distractor',
    ]);
    expect(kept).toEqual({ 'intentionqa_task1.jsonl': 1 });
    expect(readFileSync(join(out, 'items', 'intentionqa_task1.jsonl'), 'utf8')).toBe(manyIntentionQaItems(4)[0] + '\n');
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toContain('| intentionqa-1 | all | 4 | 50.0% [15.0, 85.0] (2/4) | 50.0% [15.0, 85.0] (2/4) |');
    expect(md).toContain('of 8 labels that say valid, 3 leave the gold unmarked and 4 mark a distractor');
    const flagged = readFileSync(join(out, 'labels.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { flags: string[] })
      .filter((l) => l.flags.length > 0);
    expect(flagged).toHaveLength(4);
  });

  it('majority means more than half: a tie is not a majority', async () => {
    const item = {
      options: ['A', 'B', 'C', 'D'].map((letter) => ({ letter, text: letter })),
      gold: ['A'],
    } as Parameters<typeof majorityRight>[0];
    expect(majorityRight(item, [{ correct: ['A', 'B'] }, { correct: ['A'] }])).toEqual(['A']);
    expect(itemMeasures([], [])).toEqual([]);
  });
});

describe('blind review with Mechanical Turk', () => {
  it('writes a batch with no gold and no id, and reads rightOptions back in the item’s letters', async () => {
    const r = await blindReview({ 'intentionqa_task2.jsonl': task2Items(4) });
    r.store.close();
    const batch = join(r.dir, 'batch.csv');
    await exportReview({ reviewDir: join(r.dir, 'review'), out: join(r.dir, 'out'), mturkCsv: batch });
    const text = readFileSync(batch, 'utf8');
    for (const hint of ['SECRETID', 'xRelationZ', 'gold', 'easy', 'medium', 'hard', 'intentionqa_task2.jsonl']) {
      expect(text, hint).not.toContain(hint);
    }
    const input = parse(text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(input[0]!)).toEqual([...MTURK_BLIND_INPUT_COLUMNS]);
    for (const row of input) {
      const i = Number(/Given Kettle (\d+)/.exec(row.products!)![1]);
      expect(row.products).toBe(`Given Kettle ${i}`);
      expect(text.split(`Brass Teapot ${i}`).length - 1).toBe(1);
    }
    const store = ReviewStore.open(join(r.dir, 'review'));
    const items = store.items();
    const options = ['A', 'B', 'C', 'D'].map((l) => `Input.option_${l}`);
    const head = ['WorkerId', 'AssignmentStatus', 'SubmitTime', 'WorkTimeInSeconds', 'Input.item_ref', ...options];
    const answers = ['Answer.rightOptions', 'Answer.validity', 'Answer.reasons', 'Answer.other_text'];
    const shown = (row: Record<string, string>) => ['A', 'B', 'C', 'D'].map((l) => row[`option_${l}`]!);
    const rows = input.map((row, k) => [
      'W1',
      'Submitted',
      'Mon Jan 05 10:01:42 PST 2026',
      '30',
      row.item_ref!,
      ...shown(row),
      k === 0 ? 'A|C' : 'B',
      k === 0 ? 'invalid' : 'valid',
      k === 0 ? 'second-right-answer' : '',
      '',
    ]);
    const results = join(r.dir, 'results.csv');
    writeFileSync(results, stringify([[...head, ...answers], ...rows], { quoted: true }));
    expect(await importMturkResults(store, results)).toEqual({
      imported: 4,
      replaced: 0,
      unchanged: 0,
      rejected: 0,
      workers: 1,
    });
    for (const [k, row] of input.entries()) {
      const position = items.findIndex((item) => blindRef(item) === row.item_ref);
      const letters = blindLetters(items[position]!, 4);
      const want = (k === 0 ? ['A', 'C'] : ['B']).map((l) => letters.toItem.get(l)!).sort();
      expect(store.labels('mturk-W1').find((l) => l.position === position)!.correct).toEqual(want);
    }
    const bad = join(r.dir, 'bad.csv');
    writeFileSync(
      bad,
      stringify([
        [...head, ...answers],
        [...rows[0]!.slice(0, 9), 'E', 'valid', '', ''],
      ]),
    );
    await expect(importMturkResults(store, bad)).rejects.toThrow(
      `${bad}:2 (field "Answer.rightOptions"): "E" is not an option`,
    );
    writeFileSync(
      bad,
      stringify([
        [...head, ...answers],
        [...rows[0]!.slice(0, 4), 'item-0', ...rows[0]!.slice(5, 9), 'A', 'valid', '', ''],
      ]),
    );
    await expect(importMturkResults(store, bad)).rejects.toThrow(
      `${bad}:2 (field "Input.item_ref"): "item-0" is not an item of this review`,
    );
    // Issue 45: "gold wrong" is no reason of a blind batch (its template shows no gold).
    writeFileSync(
      bad,
      stringify([
        [...head, ...answers],
        [...rows[0]!.slice(0, 9), 'A', 'invalid', 'gold-wrong', ''],
      ]),
    );
    await expect(importMturkResults(store, bad)).rejects.toThrow(
      `${bad}:2 (field "Answer.reasons"): "gold-wrong" is not a reason of a blind review (its template shows no gold)`,
    );
    expect(store.labels('mturk-W1')).toHaveLength(4);
    store.close();
  });
});
