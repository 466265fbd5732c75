// Windows, difficulty cut points and centering as options, the per-encoder defaults, and the report's
// similarity distribution — on synthetic vectors, so that none of it needs a model.
import { describe, expect, it } from 'vitest';
import { intentionQaWorld } from '../bench/support/intentionqa-world.js';
import { IntentionQaRun } from '../engine/items/intentionqa/build-items.js';
import { resolveOptions } from '../engine/items/intentionqa/intentionqa-options.js';
import {
  calibratedSettings,
  calibrationFor,
  GLOVE_CALIBRATION,
  GLOVE_TITLE_CALIBRATION,
  PAPER_CALIBRATION,
} from '../engine/items/intentionqa/calibration.js';
import { difficultyOf } from '../engine/items/intentionqa/difficulty.js';
import type { IntentionQaItem, IntentionQaRecord } from '../engine/items/intentionqa/item-types.js';
import {
  renderMarkdown,
  SIMILARITY_BINS,
  similarityBinsFor,
  StatsAccumulator,
} from '../engine/items/intentionqa/intentionqa-report.js';
import { binOf, QUANTILES, SAMPLE_PAIRS } from '../engine/items/intentionqa/similarity-distribution.js';
import { centerVectors } from '../engine/search/centering.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { ConfigError } from '../core/errors.js';
import { checkItemInvariants } from './support/intentionqa-invariants.js';

async function items(records: AsyncIterable<IntentionQaRecord>): Promise<IntentionQaItem[]> {
  const out: IntentionQaItem[] = [];
  for await (const r of records) if (r.kind === 'item') out.push(r.item);
  return out;
}

describe('centerVectors', () => {
  it('subtracts the mean of the usable rows; rows without a vector stay without one', () => {
    const set = { ids: ['a', 'b', 'c', 'd'], dim: 2, data: Float32Array.of(1, 2, 3, 4, 0, 0, NaN, 1) };
    const { centered, mean } = centerVectors(set);
    expect(Array.from(mean)).toEqual([2, 3]);
    expect(Array.from(centered.data)).toEqual([-1, -1, 1, 1, 0, 0, 0, 0]);
    expect(centered.ids).toBe(set.ids);
    expect(Array.from(set.data.subarray(0, 4))).toEqual([1, 2, 3, 4]); // the input is left alone
    const unit = UnitVectors.fromVectorSet(centered);
    expect(Array.from(unit.valid)).toEqual([1, 1, 0, 0]);
    expect(unit.cosine(0, 1)).toBeCloseTo(-1, 6); // before centering: 0.98 (float32 unit rows)
  });
});

describe('windows and difficulty cut points as options', () => {
  const world = intentionQaWorld({ products: 300, assertions: 600, dim: 16, clusters: 6, seed: 5 });
  const bounds = {
    task1: { lo: 0.75, hi: 0.95 },
    task2: { lo: 0.8, hi: 0.97 },
    difficulty: { medium: 0.9, easy: 0.97 },
  };

  it('draws every distractor from the windows given and grades difficulty by the cut points given', async () => {
    const run = await IntentionQaRun.prepare({
      ...world,
      options: { seed: 2, task1Window: bounds.task1, task2Window: bounds.task2, difficulty: bounds.difficulty },
    });
    const all = await items(run.records());
    expect(all.filter((i) => i.task === 1).length).toBeGreaterThan(50);
    expect(all.filter((i) => i.task === 2).length).toBeGreaterThan(50);
    const vectors = UnitVectors.fromVectorSet(world.embeddings);
    for (const item of all) checkItemInvariants(item, world, vectors, bounds);
    for (const item of all) expect(item.selection.window).toBe(item.task === 1 ? '[0.75, 0.95]' : '[0.8, 0.97)');
    // The cut points are really used: the paper's would grade some of these items otherwise.
    expect(all.some((i) => i.difficulty !== difficultyOf(i.pair_similarity))).toBe(true);
    const settings = run.settings();
    expect(settings).toMatchObject({
      task1Window: '[0.75, 0.95]',
      task2Window: '[0.8, 0.97)',
      difficulty: 'easy ≥ 0.97, medium ≥ 0.9, hard below',
    });
    // The paper's windows draw other distractors from the same world.
    const paper = await items((await IntentionQaRun.prepare({ ...world, options: { seed: 2 } })).records());
    expect(paper.map((i) => i.distractors_id)).not.toEqual(all.map((i) => i.distractors_id));
  });

  it('refuses windows and cut points that are not windows, naming the field', () => {
    const refuse = (partial: Parameters<typeof resolveOptions>[0], field: string) => {
      const err = (() => {
        try {
          resolveOptions(partial);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).field).toBe(field);
    };
    refuse({ task1Window: { lo: 0.9, hi: 0.6 } }, 'task1Window');
    refuse({ task2Window: { lo: -1.5, hi: 0.6 } }, 'task2Window');
    refuse({ task2Window: { lo: 0.5, hi: 1.5 } }, 'task2Window');
    refuse({ difficulty: { medium: 0.9, easy: 0.8 } }, 'difficulty');
    expect(resolveOptions({}).task1Window).toEqual({ lo: 0.6, hi: 0.9 });
  });

  it('defaults per encoder: the paper for Sentence-BERT and the stand-in, the measured values for glove-100d', () => {
    expect(calibrationFor('onnx-sentence-bert')).toBe(PAPER_CALIBRATION);
    expect(calibrationFor('offline-hashing-v1')).toBe(PAPER_CALIBRATION);
    expect(PAPER_CALIBRATION).toEqual({
      center: false,
      task1Window: { lo: 0.6, hi: 0.9 },
      task2Window: { lo: 0.7, hi: 0.9 },
      difficulty: { easy: 0.85, medium: 0.6 },
      secondAnswerCosine: 0.8,
      substituteCosine: 0.9,
      explainedMinFit: -0.1,
      fitMargin: -0.1,
      anchorMargin: -0.1,
      requireOverlap: true,
    });
    expect(calibrationFor('glove-100d')).toBe(GLOVE_CALIBRATION);
    expect(GLOVE_CALIBRATION).toMatchObject({
      center: true,
      task1Window: { lo: 0.3, hi: 0.9 },
      task2Window: { lo: 0.4, hi: 0.9 },
      secondAnswerCosine: 0.75,
    });
    // Title vectors (a catalog index of glove-100d), measured on the released IntentionQA data.
    expect(calibrationFor('glove-100d', 'title')).toBe(GLOVE_TITLE_CALIBRATION);
    expect(GLOVE_TITLE_CALIBRATION).toEqual({
      center: true,
      task1Window: { lo: 0.2, hi: 0.7 },
      task2Window: { lo: 0.4, hi: 0.8 },
      difficulty: { easy: 0.85, medium: 0.6 },
      secondAnswerCosine: 0.75,
      substituteCosine: 0.9,
      explainedMinFit: 0.05,
      fitMargin: 0.05,
      anchorMargin: 0.2,
      requireOverlap: false,
    });
    // Another encoder's title vectors: no calibration of its own.
    expect(calibrationFor('onnx-sentence-bert', 'title')).toBe(PAPER_CALIBRATION);
  });
});

describe("the order of resolution: library defaults < the encoder's calibration < the preset < the fields given", () => {
  const resolve = (encoder: string, given: Parameters<typeof calibratedSettings>[1]) => {
    const { center, settings } = calibratedSettings(encoder, given);
    return { center, options: resolveOptions(settings) };
  };

  it("fills only what is not given: glove-100d's windows and centering under either preset", () => {
    for (const preset of ['paper', 'released'] as const) {
      const { center, options } = resolve('glove-100d', { preset, task1Window: undefined, center: undefined });
      expect(center).toBe(true);
      expect(options).toMatchObject({
        preset,
        task1Window: { lo: 0.3, hi: 0.9 },
        task2Window: { lo: 0.4, hi: 0.9 },
        difficulty: { medium: 0.6, easy: 0.85 },
        // The preset's own fields are the preset's.
        sampling: preset === 'paper' ? 'uniform' : 'lowest',
        anchor: preset === 'paper' ? 'answer' : 'given',
      });
    }
  });

  it('lets every given field win over the calibration and the preset', () => {
    const { center, options } = resolve('glove-100d', {
      preset: 'released',
      center: false,
      task2Window: { lo: 0.5, hi: 0.8 },
      difficulty: { medium: 0.2, easy: 0.7 },
      sampling: 'uniform',
    });
    expect(center).toBe(false);
    expect(options).toMatchObject({
      task1Window: { lo: 0.3, hi: 0.9 }, // not given: the calibration's
      task2Window: { lo: 0.5, hi: 0.8 },
      difficulty: { medium: 0.2, easy: 0.7 },
      sampling: 'uniform',
      anchor: 'given', // not given: the preset's
    });
  });

  it("gives Sentence-BERT and the stand-in the library defaults, the paper's values uncentered", () => {
    for (const encoder of ['onnx-sentence-bert', 'offline-hashing-v1']) {
      const { center, options } = resolve(encoder, { preset: 'released' });
      expect(center).toBe(false);
      const library = resolveOptions({ preset: 'released' });
      expect(options).toEqual(library);
      expect(options.task1Window).toEqual({ lo: 0.6, hi: 0.9 });
    }
  });
});

describe('distractor similarity histogram bins', () => {
  it("reach down to the lowest window, and stay the paper's [0.5, 1] otherwise", () => {
    expect(similarityBinsFor(0.6)).toEqual(SIMILARITY_BINS);
    expect(similarityBinsFor(0.3)).toEqual({ lo: 0.3, width: 0.025, count: 28 });
    expect(similarityBinsFor(0.31)).toEqual({ lo: 0.3, width: 0.025, count: 28 });
    expect(similarityBinsFor(-0.2)).toEqual({ lo: -0.2, width: 0.025, count: 48 });
  });
});

describe('similarity distribution', () => {
  /** Nearest-rank quantiles of values, as the report computes them. */
  const quantiles = (values: number[]) => {
    const s = [...values].sort((a, b) => a - b);
    return QUANTILES.map((q) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!);
  };

  it('counts every pair of a small run exactly: quantiles, histogram and window shares equal brute force', async () => {
    const world = intentionQaWorld({ products: 120, assertions: 150, dim: 8, clusters: 4, seed: 9 });
    const run = await IntentionQaRun.prepare({ ...world, options: { seed: 1 } });
    const d = run.similarityDistribution();
    const ctx = run.context;
    const rows = Array.from(ctx.vectors.validRows);
    const products: number[] = [];
    for (let a = 0; a < rows.length; a++)
      for (let b = a + 1; b < rows.length; b++) products.push(ctx.vectors.cosine(rows[a]!, rows[b]!));
    expect(d.productPairs.n).toBe(products.length);
    expect(d.productPairs.total).toBe(products.length);
    expect(d.productPairs.quantiles).toEqual(quantiles(products));
    expect(d.productPairs.inTask2Window).toBe(products.filter((c) => c >= 0.7 && c < 0.9).length);
    const histogram = new Array<number>(20).fill(0);
    for (const c of products) histogram[binOf(c)]! += 1;
    expect(d.productPairs.histogram).toEqual(histogram);
    const valid = Array.from(ctx.validAssertions);
    const coBuy = valid.map((i) => ctx.vectors.cosine(ctx.rowA[i]!, ctx.rowB[i]!));
    expect(d.coBuyPairs.quantiles).toEqual(quantiles(coBuy));
    expect(d.coBuyPairs.difficulty.easy).toBe(coBuy.filter((c) => c >= 0.85).length);
    expect(d.coBuyPairs.difficulty.hard).toBe(coBuy.filter((c) => c < 0.6).length);
    const assertionPairs = (valid.length * (valid.length - 1)) / 2;
    expect(d.assertionPairs.total).toBe(assertionPairs);
    expect(d.assertionPairs.n).toBe(Math.min(assertionPairs, SAMPLE_PAIRS));
  });

  it('samples a large run, the same pairs for the same seed', async () => {
    const world = intentionQaWorld({ products: 400, assertions: 300, dim: 8, clusters: 4, seed: 9 });
    const a = (await IntentionQaRun.prepare({ ...world, options: { seed: 1 } })).similarityDistribution();
    const b = (await IntentionQaRun.prepare({ ...world, options: { seed: 1 } })).similarityDistribution();
    const c = (await IntentionQaRun.prepare({ ...world, options: { seed: 2 } })).similarityDistribution();
    expect(a.productPairs.n).toBe(SAMPLE_PAIRS);
    expect(a.productPairs.total).toBe((400 * 399) / 2);
    expect(b).toEqual(a);
    expect(c.productPairs.histogram).not.toEqual(a.productPairs.histogram);
    // 20,000 pairs of 79,800: the sampled median is within 0.05 of the exact one.
    const ctx = (await IntentionQaRun.prepare({ ...world, options: { seed: 1 } })).context;
    const all: number[] = [];
    for (let i = 0; i < 400; i++) for (let j = i + 1; j < 400; j++) all.push(ctx.vectors.cosine(i, j));
    expect(Math.abs(a.productPairs.quantiles[3]! - quantiles(all)[3]!)).toBeLessThan(0.05);
  });

  it('the report shows the section, marks the bounds, and says when the thresholds were calibrated for another encoder', async () => {
    const world = intentionQaWorld({ products: 120, assertions: 150, dim: 8, clusters: 4, seed: 9 });
    const run = await IntentionQaRun.prepare({ ...world, options: { seed: 1 } });
    const stats = new StatsAccumulator().stats;
    const glove = renderMarkdown(
      stats,
      run.settings({ encoder: { name: 'glove-100d', sentenceBert: false, centered: true } }),
      'x.svg',
    );
    expect(glove).toContain('## Similarity distribution');
    expect(glove).toContain("calibrated for Sentence-BERT context embeddings. This run's encoder is glove-100d");
    expect(glove).toContain('(glove-100d, centered: the mean product embedding subtracted before the cosine)');
    expect(glove).toMatch(/\| \[0\.6, 0\.7\) \|.*\| Task 1 lo 0\.6, medium ≥ 0\.6 \|/);
    expect(glove).toMatch(/\| \[0\.8, 0\.9\) \|.*\| Task 1 hi 0\.9, Task 2 hi 0\.9, easy ≥ 0\.85 \|/);
    const sbert = renderMarkdown(
      stats,
      run.settings({ encoder: { name: 'Xenova/all-MiniLM-L6-v2', sentenceBert: true, centered: false } }),
      'x.svg',
    );
    expect(sbert).toContain('## Similarity distribution');
    expect(sbert).not.toContain('calibrated for Sentence-BERT');
    expect(glove).toContain("it uses the paper's values: place the windows from the distribution below");
    const calibrated = await IntentionQaRun.prepare({
      ...world,
      options: { seed: 1, task1Window: { lo: 0.3, hi: 0.9 }, task2Window: { lo: 0.4, hi: 0.9 } },
    });
    const own = renderMarkdown(
      stats,
      calibrated.settings({ encoder: { name: 'glove-100d', sentenceBert: false, centered: true } }),
      'x.svg',
    );
    expect(own).toContain('the windows and cut points in the settings above were chosen for it');
  });
});
