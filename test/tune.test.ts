// `intentsim tune`: the logistic fit by hand on a tiny input and by its score equations on a random
// one; the bound on hand-made curves; on synthetic labels drawn from a KNOWN curve (seeded), the
// bootstrap intervals of a and b contain the true ones and the proposed upper bound is the one
// computed analytically, within its interval; the same seed gives the same file; a malformed review
// or settings file is a clear error; `--settings` sets the windows, a flag overrides it, and the
// manifest fields carry the file's SHA-256.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import { fitLogistic, sigmoid } from '../engine/review/logistic-fit.js';
import { itemFNeg, proposeBound, readTuneItems, tuneWindows, type TuneItem } from '../engine/review/tune-windows.js';
import { tuneReview } from '../engine/review/tune-review.js';
import { renderTuneTable } from '../engine/review/tune-report.js';
import { openReview } from '../engine/review/open-review.js';
import { readItemSettings } from '../engine/items/intentionqa/item-settings-file.js';
import { addItemOptions, pipelineStageOptions } from '../cli/options/item-options.js';
import { addModelOptions } from '../cli/options/model-options.js';
import { writeItemsDir } from './support/review-fixtures.js';
import { labelledReview, tuneItemLine as itemLine } from './support/tune-fixtures.js';
import { ReviewStore } from '../engine/review/review-store.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intentsim-tune-'));

describe('logistic fit', () => {
  it('is exact on a hand-checked input: x = 0 gives 1 of 4 right, x = 1 gives 3 of 4', () => {
    // The saturated model: σ(a) = 1/4 → a = ln(1/3); σ(a + b) = 3/4 → a + b = ln 3, b = 2 ln 3.
    const f = fitLogistic([0, 0, 0, 0, 1, 1, 1, 1], [1, 0, 0, 0, 1, 1, 1, 0]);
    expect(f.a).toBeCloseTo(Math.log(1 / 3), 10);
    expect(f.b).toBeCloseTo(2 * Math.log(3), 10);
    expect(f).toMatchObject({ converged: true, separated: false });
    // Log-likelihood: 2 × (ln ¼ + 3 ln ¾).
    expect(f.logLikelihood).toBeCloseTo(2 * (Math.log(0.25) + 3 * Math.log(0.75)), 10);
  });

  it('solves the score equations Σ(y − p) = 0 and Σ x(y − p) = 0 on random data', () => {
    const rng = new Rng('fit-random');
    const x = Array.from({ length: 500 }, () => rng.next());
    const y = x.map((xi) => (rng.next() < sigmoid(-2 + 3 * xi) ? 1 : 0) as 0 | 1);
    const f = fitLogistic(x, y);
    const p = x.map((xi) => sigmoid(f.a + f.b * xi));
    expect(Math.abs(y.reduce<number>((s, yi, i) => s + yi - p[i]!, 0))).toBeLessThan(1e-7);
    expect(Math.abs(y.reduce<number>((s, yi, i) => s + x[i]! * (yi - p[i]!), 0))).toBeLessThan(1e-7);
  });

  it('says when the classes are separated (no finite maximum), or one class only', () => {
    expect(fitLogistic([0.1, 0.2, 0.7, 0.8], [0, 0, 1, 1]).separated).toBe(true);
    expect(fitLogistic([0.1, 0.2], [0, 0])).toMatchObject({ separated: true, a: -Infinity, b: 0 });
    expect(() => fitLogistic([], [])).toThrow('no observations');
  });
});

describe('the proposed bound', () => {
  it('keeps what a hand-made curve allows', () => {
    // A step at 0.5: the three below are never right, the two above always.
    const step = { a: -1000, b: 2000 };
    expect(proposeBound(step, [0.7, 0.1, 0.6, 0.3, 0.2], 0.05, 'hi')).toEqual({ bound: 0.45, kept: 3 });
    // Falling: the lower bound goes up instead (right below 0.5: 0.7 and 0.6 kept).
    expect(proposeBound({ a: 1000, b: -2000 }, [0.7, 0.1, 0.6, 0.3, 0.2], 0.05, 'lo')).toEqual({
      bound: 0.45,
      kept: 2,
    });
    // p ≡ 0.01: F-Neg = 1 − 0.99³ = 0.0297 ≤ 0.05, everything kept; p ≡ 0.5: nothing can be.
    expect(proposeBound({ a: Math.log(0.01 / 0.99), b: 0 }, [0.2, 0.4], 0.05, 'hi')).toEqual({ bound: null, kept: 2 });
    expect(proposeBound({ a: 0, b: 0 }, [0.2, 0.4], 0.05, 'hi')).toBeNull();
    expect(itemFNeg(0.01)).toBeCloseTo(0.029701, 6);
  });
});

/** log(1 + e^t). */
const softplus = (t: number) => (t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t)));

/**
 * The analytic upper bound: similarities uniform on [lo, H], P(right | s) = σ(a + b·s). The mean of σ
 * over [lo, h] is (softplus(a + b·h) − softplus(a + b·lo)) / (b (h − lo)); F-Neg(h) = 1 − (1 − mean)³
 * rises with h; bisection for F-Neg(h) = target.
 */
function analyticHi(a: number, b: number, lo: number, H: number, target: number): number {
  const fneg = (h: number) => itemFNeg((softplus(a + b * h) - softplus(a + b * lo)) / (b * (h - lo)));
  let x = lo + 1e-9;
  let y = H;
  for (let i = 0; i < 200; i++) {
    const m = (x + y) / 2;
    if (fneg(m) <= target) x = m;
    else y = m;
  }
  return x;
}

/** `n` items of three distractors, s uniform on [lo, H], right with probability σ(a + b·s). */
function syntheticItems(n: number, a: number, b: number, lo: number, H: number, seed: string): TuneItem[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const similarities = [0, 1, 2].map(() => lo + (H - lo) * rng.next());
    return {
      key: `S${i}`,
      task: 1 as const,
      similarities,
      right: similarities.map((s) => rng.next() < sigmoid(a + b * s)),
      window: { lo, hi: H },
    };
  });
}

describe('tune on synthetic labels from a known curve', () => {
  it('recovers a, b and the analytic upper bound within their bootstrap intervals', () => {
    const [a, b, lo, H, target] = [-12, 16, 0.3, 0.9, 0.05];
    const truth = analyticHi(a, b, lo, H, target);
    expect(truth).toBeGreaterThan(0.5);
    expect(truth).toBeLessThan(0.7);
    const r = tuneWindows(syntheticItems(600, a, b, lo, H, 'synthetic/1'), {
      maxFNeg: target,
      bootstrap: 400,
      seed: 3,
    });
    const t = r.tasks[0]!;
    expect(t.fit.a95.low!).toBeLessThan(a);
    expect(t.fit.a95.high!).toBeGreaterThan(a);
    expect(t.fit.b95.low!).toBeLessThan(b);
    expect(t.fit.b95.high!).toBeGreaterThan(b);
    expect(t.proposed).not.toBeNull();
    const p = t.proposed!;
    expect(p.moved).toBe('hi');
    expect(p.lo).toBe(lo);
    expect(p.bound95.low!).toBeLessThan(truth);
    expect(p.bound95.high!).toBeGreaterThan(truth);
    expect(p.bound95.low!).toBeLessThanOrEqual(p.hi);
    expect(p.bound95.high!).toBeGreaterThanOrEqual(p.hi);
    expect(Math.abs(p.hi - truth)).toBeLessThan(0.03);
    // The estimate at the proposed window is at the target, the current window's far above it.
    expect(p.estimatedFNeg).toBeLessThanOrEqual(target);
    expect(p.estimatedFNeg).toBeGreaterThan(0.04);
    expect(t.current.estimatedFNeg).toBeGreaterThan(0.5);
    expect(p.keptShare).toBeCloseTo((truth - lo) / (H - lo), 1);
    expect(renderTuneTable(r).join('\n')).toContain('| Task 1 (Sim_i) | 600 |');
    process.stdout.write(
      `tune synthetic: true a ${a}, b ${b}; analytic hi ${truth.toFixed(4)}\n${renderTuneTable(r).join('\n')}\n`,
    );
  });

  it('is the same for the same seed and differs for another', () => {
    const items = syntheticItems(80, -8, 12, 0.3, 0.9, 'synthetic/2');
    const run = (seed: number) => JSON.stringify(tuneWindows(items, { bootstrap: 50, seed }));
    expect(run(1)).toBe(run(1));
    expect(run(2)).not.toBe(run(1));
  });
});

describe('tune --review', () => {
  it('reads a review, writes a settings file that --settings reads, a flag overriding it', async () => {
    const dir = tmp();
    const { right } = await labelledReview(dir, 60);
    const out = join(dir, 'tuned.json');
    const r = await tuneReview({ reviewDir: join(dir, 'review'), settingsOut: out, bootstrap: 100, seed: 1 });
    expect(r.blind).toBe(true);
    const t = r.result.tasks[0]!;
    expect([t.items, t.distractors]).toEqual([60, 180]);
    expect(t.right).toBe(right.reduce((s, x) => s + x.length - 1, 0));
    expect(t.current).toMatchObject({ lo: 0.3, hi: 0.9 });
    expect(r.settings.task1Window).toEqual({ lo: 0.3, hi: t.proposed!.hi });
    const first = readFileSync(out);
    await tuneReview({ reviewDir: join(dir, 'review'), settingsOut: out, bootstrap: 100, seed: 1 });
    expect(readFileSync(out).equals(first)).toBe(true);

    const read = readItemSettings(out);
    expect(read.items).toEqual({ task1Window: r.settings.task1Window });
    expect(read.sha256).toBe(createHash('sha256').update(first).digest('hex'));

    const parse = (args: string[]) => {
      const cmd = addItemOptions(addModelOptions(new Command())).exitOverride();
      cmd.parse(args, { from: 'user' });
      return pipelineStageOptions(cmd.opts());
    };
    const fromFile = parse(['--settings', out, '--task2-window', '0.5,0.8']);
    expect(fromFile.items.task1Window).toEqual(r.settings.task1Window);
    expect(fromFile.items.task2Window).toEqual({ lo: 0.5, hi: 0.8 });
    expect(fromFile.settingsFile).toEqual({ file: out, sha256: read.sha256 });
    expect(parse(['--settings', out, '--task1-window', '0.4,0.7']).items.task1Window).toEqual({ lo: 0.4, hi: 0.7 });
    expect(parse([]).settingsFile).toBeUndefined();
  });

  it('says clearly what is wrong with a review or a settings file', async () => {
    const dir = tmp();
    await expect(tuneReview({ reviewDir: join(dir, 'none'), settingsOut: join(dir, 'x.json') })).rejects.toThrow(
      `${join(dir, 'none')} (reviewDir): no such folder`,
    );
    await expect(tuneReview({ reviewDir: dir, settingsOut: join(dir, 'x.json') })).rejects.toThrow(
      'not a review folder',
    );
    const noScores = JSON.parse(itemLine(0, [0.4, 0.5, 0.6], 'A')) as Record<string, unknown>;
    delete noScores.distractors;
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': [JSON.stringify(noScores)] });
    const { store } = await openReview({ itemsDir: items, reviewDir: join(dir, 'review') });
    store.close();
    await expect(tuneReview({ reviewDir: join(dir, 'review'), settingsOut: join(dir, 'x.json') })).rejects.toThrow(
      'no labelled IntentionQA item in the review',
    );
    const again = (await openReview({ itemsDir: items, reviewDir: join(dir, 'review') })).store;
    again.save(
      'annotator',
      0,
      { correct: ['A'], validity: 'valid', reasons: [], otherText: '', ms: 1 },
      new Date(0),
      'browser',
    );
    again.close();
    await expect(tuneReview({ reviewDir: join(dir, 'review'), settingsOut: join(dir, 'x.json') })).rejects.toThrow(
      `${join(items, 'intentionqa_task1.jsonl')}:1 (field "distractors"): missing`,
    );
    expect(() => tuneWindows([], { maxFNeg: 0 })).toThrow('the F-Neg target must be in (0, 1), got 0');

    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ format: 'intentsim-item-settings/1', items: { task3Window: { lo: 0, hi: 1 } } }),
    );
    expect(() => readItemSettings(bad)).toThrow(`${bad} (field "items.task3Window"): unknown setting`);
    writeFileSync(
      bad,
      JSON.stringify({ format: 'intentsim-item-settings/1', items: { task1Window: { lo: 0.9, hi: 0.2 } } }),
    );
    expect(() => readItemSettings(bad)).toThrow(`${bad} (field "items.task1Window"): expected -1 ≤ lo < hi ≤ 1`);
    writeFileSync(bad, '{"format": "other"}');
    expect(() => readItemSettings(bad)).toThrow(`${bad} (field "format"): expected "intentsim-item-settings/1"`);
  });
});

/** A review of Task-1 items with the given distractor scores, every item labelled with `marks(i)`. */
async function reviewOf(
  dir: string,
  scores: Array<[number, number, number]>,
  marks: (i: number) => 'all' | 'gold',
): Promise<string> {
  const lines = scores.map((s, i) => itemLine(i, s, 'A'));
  const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': lines });
  const { store } = await openReview({ itemsDir: items, reviewDir: join(dir, 'review'), blind: true });
  for (const item of store.items()) {
    const i = Number(item.id.slice(1));
    const correct = marks(i) === 'all' ? ['A', 'B', 'C', 'D'] : ['A'];
    const label = { correct, validity: 'valid' as const, reasons: [], otherText: '', ms: 1 };
    store.save('annotator', store.positionOf(item.key)!, label, new Date(0), 'browser');
  }
  store.close();
  return join(dir, 'review');
}

describe('tune when nothing can be proposed (issue 45, faults 7, 8 and 21)', () => {
  it('scores all below their window: no window written (never lo > hi), no F-Neg estimate from nothing', async () => {
    const dir = tmp();
    // The items say [0.3, 0.9] (tuneItemLine); every distractor score lies below 0.3.
    const scores = Array.from(
      { length: 12 },
      (_, i) => [0.1 + i / 100, 0.2, 0.25 - i / 200] as [number, number, number],
    );
    const review = await reviewOf(dir, scores, (i) => (i % 3 === 0 ? 'all' : 'gold'));
    const out = join(dir, 'tuned.json');
    const r = await tuneReview({ reviewDir: review, settingsOut: out, bootstrap: 20 });
    const t = r.result.tasks[0]!;
    expect(t.current).toMatchObject({ lo: 0.3, hi: 0.9, inside: 0, estimatedFNeg: null });
    expect(t.proposed).toBeNull();
    expect(t.noProposal).toBe(
      "none of the 36 distractor similarities lies inside the items' window [0.3, 0.9]: nothing to estimate from",
    );
    expect(r.file).toBeNull();
    expect(r.notTuned).toEqual({ task1Window: t.noProposal });
    expect(existsSync(out)).toBe(false);
    const table = renderTuneTable(r.result).join('\n');
    expect(table).toContain(
      '[0.300, 0.900] (no similarity inside) | – [–, –] | none: nothing observed inside the window',
    );
    expect(table).not.toContain('0.0%');
  });

  it('no window meets the target: nothing written, the reason recorded', async () => {
    const dir = tmp();
    const scores = Array.from({ length: 10 }, (_, i) => [0.4 + i / 100, 0.5, 0.6] as [number, number, number]);
    const review = await reviewOf(dir, scores, (i) => (i % 2 === 0 ? 'all' : 'gold'));
    const out = join(dir, 'tuned.json');
    const r = await tuneReview({ reviewDir: review, settingsOut: out, bootstrap: 0 });
    expect(r.result.tasks[0]!.proposed).toBeNull();
    expect(r.notTuned.task1Window).toMatch(/^no window meets the target \(estimated F-Neg ≤ 0.05\)/);
    expect(r.file).toBeNull();
    expect(existsSync(out)).toBe(false);
  });

  it('a task without a proposal is listed in notTuned, and read back', () => {
    const dir = tmp();
    const file = join(dir, 's.json');
    writeFileSync(
      file,
      JSON.stringify({
        format: 'intentsim-item-settings/1',
        items: { task1Window: { lo: 0.3, hi: 0.6 } },
        notTuned: { task2Window: 'no window meets the target' },
      }),
    );
    expect(readItemSettings(file)).toMatchObject({
      items: { task1Window: { lo: 0.3, hi: 0.6 } },
      notTuned: { task2Window: 'no window meets the target' },
    });
  });

  it('all similarities tied: "tied, no fit", not "separated"', () => {
    const f = fitLogistic([0.5, 0.5, 0.5, 0.5], [1, 0, 0, 1]);
    expect(f).toMatchObject({ tied: true, separated: false, b: 0 });
    expect(f.a).toBeCloseTo(0, 12);
    expect(fitLogistic([0.1, 0.2, 0.7, 0.8], [0, 0, 1, 1])).toMatchObject({ tied: false, separated: true });
    const items: TuneItem[] = Array.from({ length: 8 }, (_, i) => ({
      key: `k${i}`,
      task: 1,
      similarities: [0.5, 0.5, 0.5],
      right: [i % 4 === 0, false, false],
      window: null,
    }));
    const table = renderTuneTable(tuneWindows(items, { bootstrap: 0 })).join('\n');
    expect(table).toContain('tied, no fit (every similarity is the same)');
    expect(table).not.toContain('separated');
  });

  it('a settings file that starts with a UTF-8 BOM is read', () => {
    const dir = tmp();
    const file = join(dir, 'bom.json');
    const json = JSON.stringify({ format: 'intentsim-item-settings/1', items: { task2Window: { lo: 0.4, hi: 0.8 } } });
    writeFileSync(file, '\ufeff' + json);
    expect(readItemSettings(file).items).toEqual({ task2Window: { lo: 0.4, hi: 0.8 } });
  });
});

describe('tune reads options as the file spells them', () => {
  it('a title with an HTML entity, which the review shows decoded, still matches its distractor', async () => {
    // The released Amazon titles hold "&quot;": the review shows '"', distractors[].text keeps the
    // file's text; tune matched the shown text and stopped on real data (options.D not among them).
    const dir = tmp();
    const line = itemLine(0, [0.4, 0.5, 0.6], 'A').replaceAll(
      'because reason 0.1.',
      'because reason 0.1 &quot;x&quot;.',
    );
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': [line] });
    const { store } = await openReview({ itemsDir: items, reviewDir: join(dir, 'review'), blind: true });
    expect(store.items()[0]!.options.map((o) => o.text)).toContain('because reason 0.1 "x".');
    const label = { correct: ['A', 'C'], validity: 'valid' as const, reasons: [], otherText: '', ms: 1 };
    store.save('annotator', 0, label, new Date(0), 'browser');
    store.close();
    const again = ReviewStore.open(join(dir, 'review'));
    try {
      expect(readTuneItems(again)).toMatchObject([{ similarities: [0.4, 0.5, 0.6], right: [false, true, false] }]);
    } finally {
      again.close();
    }
  });
});
