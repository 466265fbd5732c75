// `intentsim tune` fits the validity rules' cut-offs from what each distractor's rule read
// (engine/review/tune-cutoffs.ts): the cut-off on hand-made curves (the longest safe prefix, not the
// first failure); exact values on labels whose logistic fit is known in closed form (two reading
// values: the fit reproduces the two observed rates); too few readings → notTuned; a review round
// trip through the settings file into `pipeline --settings`, a flag overriding it; a bad reading is
// a clear error naming the field.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { proposeCutoff, tuneCutoffs } from '../engine/review/tune-cutoffs.js';
import { tuneReview } from '../engine/review/tune-review.js';
import { renderCutoffTable } from '../engine/review/tune-report.js';
import type { TuneItem } from '../engine/review/tune-windows.js';
import { openReview } from '../engine/review/open-review.js';
import { readItemSettings } from '../engine/items/intentionqa/item-settings-file.js';
import { addItemOptions, pipelineStageOptions } from '../cli/options/item-options.js';
import { addModelOptions } from '../cli/options/model-options.js';
import { writeItemsDir } from './support/review-fixtures.js';
import { tuneItemLine } from './support/tune-fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intentsim-tune-cutoffs-'));

describe('proposeCutoff', () => {
  it('keeps the safest readings first, as many as the target allows (hand-computed)', () => {
    // σ(−6 + 10·r) at 0.1, 0.2, 0.3, 0.4: 0.0067, 0.0180, 0.0474, 0.1192; item F-Neg of the first
    // k: 0.0199, 0.0366, 0.0704, 0.137: two kept at a target of 0.05, the cut-off between 0.2 and 0.3.
    expect(proposeCutoff({ a: -6, b: 10 }, [0.4, 0.1, 0.3, 0.2], 0.05, 'low')).toEqual({ bound: 0.25, kept: 2 });
    // Safe side high: σ(−2 − 10·r) at 0.4 … 0.1: 0.0025, 0.0067, 0.0180, 0.0474: F-Neg 0.0074,
    // 0.0137, 0.0269, 0.0549: three kept, the cut-off between 0.2 and 0.1.
    expect(proposeCutoff({ a: -2, b: -10 }, [0.1, 0.2, 0.3, 0.4], 0.05, 'high')).toEqual({ bound: 0.15, kept: 3 });
    // A slope against the rule: the first reading fails (F-Neg 0.136), two fail (0.073), all three
    // pass (0.049): the longest prefix that meets the target is all of them.
    expect(proposeCutoff({ a: 0, b: -30 }, [0.1, 0.2, 0.3], 0.05, 'low')).toEqual({ bound: null, kept: 3 });
    expect(proposeCutoff({ a: 0, b: 0 }, [0.1, 0.2], 0.05, 'low')).toBeNull();
    // Equal readings are not split.
    expect(proposeCutoff({ a: -6, b: 10 }, [0.1, 0.2, 0.2, 0.9], 0.05, 'low')).toEqual({ bound: 0.55, kept: 3 });
  });
});

/**
 * Twenty Task-1 items, three distractors each. Items 0–9: asserted_cosine 0.2 and own_fit − fit 0.6
 * (3 of their 30 distractors right: 0.1); items 10–19: 0.8 and 0.1 (15 of 30 right: 0.5). Two Task-2
 * items carry pair_fit − fit (6 readings: too few).
 */
function labelledItems(): TuneItem[] {
  const items: TuneItem[] = [];
  for (let i = 0; i < 20; i++) {
    const safe = i < 10;
    const right = safe ? [i < 3, false, false] : i < 15 ? [true, true, true] : [false, false, false];
    const reading = safe
      ? { fit: 0, own_fit: 0.6, asserted_cosine: 0.2 }
      : { fit: 0, own_fit: 0.1, asserted_cosine: 0.8 };
    items.push({
      key: `k${i}`,
      task: 1,
      similarities: [0.5, 0.5, 0.5],
      right,
      readings: [reading, reading, reading],
      window: null,
    });
  }
  for (let i = 0; i < 2; i++)
    items.push({
      key: `t${i}`,
      task: 2,
      similarities: [0.5, 0.5, 0.5],
      right: [false, false, i === 0],
      readings: [0.3, 0.2, 0.1].map((fit) => ({ fit, pair_fit: 0.4 })),
      window: null,
    });
  return items;
}

describe('tuneCutoffs', () => {
  it('fits each rule from its reading: exact values where the fit is known in closed form', () => {
    const cutoffs = tuneCutoffs(labelledItems(), { maxFNeg: 0.3, bootstrap: 0 });
    expect(cutoffs.map((c) => c.setting)).toEqual(['anchorMargin', 'fitMargin', 'secondAnswerCosine']);
    const [anchor, fitMargin, cosine] = cutoffs;
    // Two reading values: the fit gives each its observed rate, 0.1 and 0.5. All kept: p̄ 0.3, F-Neg
    // 1 − 0.7³ = 0.657 > 0.3; the safe half: 1 − 0.9³ = 0.271 ≤ 0.3.
    expect(cosine).toMatchObject({ reading: 'asserted_cosine', keep: '<', items: 20, distractors: 60, right: 18 });
    expect(cosine!.observed).toMatchObject({ lo: 0.2, hi: 0.8 });
    expect(cosine!.observed.estimatedFNeg).toBeCloseTo(1 - 0.7 ** 3, 6);
    expect(cosine!.proposed).toMatchObject({ value: 0.5, keptShare: 0.5 });
    expect(cosine!.proposed!.estimatedFNeg).toBeCloseTo(1 - 0.9 ** 3, 6);
    expect(cosine!.fit.a! + cosine!.fit.b! * 0.2).toBeCloseTo(Math.log(0.1 / 0.9), 6);
    expect(anchor).toMatchObject({ reading: 'own_fit − fit', keep: '≥', proposed: { value: 0.35, keptShare: 0.5 } });
    expect(fitMargin).toMatchObject({
      reading: 'pair_fit − fit',
      distractors: 6,
      proposed: null,
      noProposal: 'only 6 labelled distractors carry pair_fit − fit (at least 10 needed)',
    });
    // A target the whole range meets: nothing proposed (the items' own cut-off stands).
    const loose = tuneCutoffs(labelledItems(), { maxFNeg: 0.7, bootstrap: 0 })[2]!;
    expect(loose.proposed).toBeNull();
    expect(loose.noProposal).toMatch(/^every observed asserted_cosine meets the target/);
    // One that even the safe half misses.
    expect(tuneCutoffs(labelledItems(), { maxFNeg: 0.2, bootstrap: 0 })[2]!.noProposal).toMatch(
      /^no cut-off meets the target/,
    );
    // Items without readings give no rule at all.
    expect(tuneCutoffs(labelledItems().map(({ readings: _, ...i }) => i))).toEqual([]);
  });

  it('gives intervals by bootstrap over items, the same for the same seed', () => {
    const a = tuneCutoffs(labelledItems(), { maxFNeg: 0.3, bootstrap: 200, seed: 3 });
    expect(tuneCutoffs(labelledItems(), { maxFNeg: 0.3, bootstrap: 200, seed: 3 })).toEqual(a);
    const p = a[2]!.proposed!;
    expect(p.value95.low!).toBeLessThanOrEqual(0.5);
    expect(p.value95.high!).toBeGreaterThanOrEqual(0.5);
    expect(p.estimatedFNeg95.low!).toBeLessThan(p.estimatedFNeg95.high!);
    const table = renderCutoffTable(a).join('\n');
    expect(table).toContain('| secondAnswerCosine | asserted_cosine < cut-off | 1, 2 | 20 | 18/60 |');
    expect(table).toContain('fitMargin: only 6 labelled distractors carry pair_fit − fit (at least 10 needed).');
  });
});

describe('tune --review with readings', () => {
  it('writes the cut-offs into the settings file; --settings applies them, a flag overrides', async () => {
    const dir = tmp();
    const source = labelledItems().filter((i) => i.task === 1);
    const lines = source.map((item, i) =>
      tuneItemLine(i, [0.4 + i / 100, 0.5, 0.6] as [number, number, number], 'A', item.readings),
    );
    const itemsDir = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': lines });
    const { store } = await openReview({ itemsDir, reviewDir: join(dir, 'review'), blind: true });
    for (const item of store.items()) {
      const i = Number(item.id.slice(1));
      const correct = ['A', ...['B', 'C', 'D'].filter((_, k) => source[i]!.right[k])];
      const label = { correct, validity: 'valid' as const, reasons: [], otherText: '', ms: 1 };
      store.save('annotator', store.positionOf(item.key)!, label, new Date(0), 'browser');
    }
    store.close();
    const out = join(dir, 'tuned.json');
    const r = await tuneReview({ reviewDir: join(dir, 'review'), settingsOut: out, maxFNeg: 0.3, bootstrap: 0 });
    expect(r.settings).toMatchObject({ anchorMargin: 0.35, secondAnswerCosine: 0.5 });
    expect(r.settings.fitMargin).toBeUndefined();
    const read = readItemSettings(out);
    expect(read.items).toMatchObject({ anchorMargin: 0.35, secondAnswerCosine: 0.5 });
    const json = JSON.parse(readFileSync(out, 'utf8')) as { tune: { cutoffs: Array<{ setting: string }> } };
    expect(json.tune.cutoffs.map((c) => c.setting)).toEqual(['anchorMargin', 'secondAnswerCosine']);

    const parse = (args: string[]) => {
      const cmd = addItemOptions(addModelOptions(new Command())).exitOverride();
      cmd.parse(args, { from: 'user' });
      return pipelineStageOptions(cmd.opts()).items;
    };
    expect(parse(['--settings', out])).toMatchObject({ anchorMargin: 0.35, secondAnswerCosine: 0.5 });
    expect(parse(['--settings', out]).fitMargin).toBeUndefined();
    expect(parse(['--settings', out, '--anchor-margin', '0.1', '--second-answer-cosine', '0.9'])).toMatchObject({
      anchorMargin: 0.1,
      secondAnswerCosine: 0.9,
    });
    expect(parse([]).anchorMargin).toBeUndefined();
  });

  it('a reading that is not a number, or a cut-off out of range, is a clear error', async () => {
    const dir = tmp();
    const line = tuneItemLine(0, [0.4, 0.5, 0.6], 'A', [{ fit: 0.1 }, { fit: 0.2 }, { fit: 0.3 }]).replace(
      '"fit":0.2',
      '"fit":"high"',
    );
    const itemsDir = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': [line] });
    const { store } = await openReview({ itemsDir, reviewDir: join(dir, 'review'), blind: true });
    store.save(
      'annotator',
      0,
      { correct: ['A'], validity: 'valid', reasons: [], otherText: '', ms: 1 },
      new Date(0),
      'browser',
    );
    store.close();
    await expect(tuneReview({ reviewDir: join(dir, 'review'), settingsOut: join(dir, 'x.json') })).rejects.toThrow(
      `${join(itemsDir, 'intentionqa_task1.jsonl')}:1 (field "distractors.1.fit"): expected a number, got "high"`,
    );
    const bad = join(dir, 'bad.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bad, JSON.stringify({ format: 'intentsim-item-settings/1', items: { secondAnswerCosine: 1.5 } }));
    expect(() => readItemSettings(bad)).toThrow(
      `${bad} (field "items.secondAnswerCosine"): expected a number in [-1, 1], got 1.5`,
    );
  });
});

describe('tune --items: the reviewed items made again', () => {
  it('reads the readings from the new folder, joined by file and id; other options are an error', async () => {
    const dir = tmp();
    const source = labelledItems().filter((i) => i.task === 1);
    const scores = (i: number) => [0.4 + i / 100, 0.5, 0.6] as [number, number, number];
    // The review is of items without readings (made before they were recorded) …
    const before = writeItemsDir(join(dir, 'before'), {
      'intentionqa_task1.jsonl': source.map((_, i) => tuneItemLine(i, scores(i), 'A')),
    });
    const { store } = await openReview({ itemsDir: before, reviewDir: join(dir, 'review'), blind: true });
    for (const item of store.items()) {
      const i = Number(item.id.slice(1));
      const correct = ['A', ...['B', 'C', 'D'].filter((_, k) => source[i]!.right[k])];
      const label = { correct, validity: 'valid' as const, reasons: [], otherText: '', ms: 1 };
      store.save('annotator', store.positionOf(item.key)!, label, new Date(0), 'browser');
    }
    store.close();
    const review = join(dir, 'review');
    const plain = await tuneReview({ reviewDir: review, settingsOut: join(dir, 'a.json'), maxFNeg: 0.3, bootstrap: 0 });
    expect(plain.cutoffs).toEqual([]);
    // … the same items made again, in another order, with readings.
    const lines = source.map((item, i) => tuneItemLine(i, scores(i), 'A', item.readings)).reverse();
    const after = writeItemsDir(join(dir, 'after'), { 'intentionqa_task1.jsonl': lines });
    const r = await tuneReview({
      reviewDir: review,
      itemsDir: after,
      settingsOut: join(dir, 'b.json'),
      maxFNeg: 0.3,
      bootstrap: 0,
    });
    expect(r.settings).toMatchObject({ anchorMargin: 0.35, secondAnswerCosine: 0.5 });
    // An item whose options changed: its labels do not hold.
    const changed = writeItemsDir(join(dir, 'changed'), {
      'intentionqa_task1.jsonl': [
        ...lines.slice(1),
        lines[0]!.replace('because the gold 19.', 'because another gold.'),
      ],
    });
    await expect(
      tuneReview({ reviewDir: review, itemsDir: changed, settingsOut: join(dir, 'c.json'), bootstrap: 0 }),
    ).rejects.toThrow(
      `${join(changed, 'intentionqa_task1.jsonl')}:20 (field "options"): differs from the reviewed item intentionqa_task1.jsonl#T19`,
    );
    const missing = writeItemsDir(join(dir, 'missing'), { 'intentionqa_task1.jsonl': lines.slice(1) });
    await expect(
      tuneReview({ reviewDir: review, itemsDir: missing, settingsOut: join(dir, 'd.json'), bootstrap: 0 }),
    ).rejects.toThrow(`no item "T19": the reviewed item intentionqa_task1.jsonl#T19 is not in ${missing}`);
  });
});
