// Where a run's cosines fall, so that a user who changes the encoder can see where the windows and
// the difficulty cut points should go (the paper's values are calibrated for Sentence-BERT context
// embeddings; averaged word vectors, for one, sit much closer together). Three distributions:
//   - Sim_p of product pairs: Task 2's window is on it;
//   - Sim_i of assertion pairs (the minimum over their four product pairs): Task 1's window;
//   - Sim_p of each assertion's own co-buy pair (p1, p2): the difficulty cut points.
// The first two are sampled (seeded, so the report stays byte-identical) once there are more than
// SAMPLE_PAIRS pairs; below that every pair is counted.
import { Rng } from '../../../core/rng.js';
import { inWindow, type CosineWindow } from '../../search/windows.js';
import { difficultyOf, type Difficulty, type DifficultyCuts } from './difficulty.js';
import type { IntentionQaContext } from './run-context.js';

/** Pairs sampled per distribution: quantiles to about ±0.01 of rank, in milliseconds. */
export const SAMPLE_PAIRS = 20_000;

/** The quantiles the report prints. */
export const QUANTILES = [0, 0.05, 0.25, 0.5, 0.75, 0.95, 1] as const;

export interface CosineSummary {
  /** Pairs counted. */
  n: number;
  /** Pairs there are (n < total when sampled). */
  total: number;
  /** Values at QUANTILES (nearest rank), or empty when n is 0. */
  quantiles: number[];
  /** Counts per bin of width BIN_WIDTH from -1: bin k is [-1 + k·w, -1 + (k+1)·w), the last one closed. */
  histogram: number[];
}

export interface SimilarityDistribution {
  productPairs: CosineSummary & { inTask2Window: number };
  assertionPairs: CosineSummary & { inTask1Window: number };
  coBuyPairs: CosineSummary & { difficulty: Record<Difficulty, number> };
}

export const BIN_WIDTH = 0.1;
const BINS = Math.round(2 / BIN_WIDTH);

export function binOf(cosine: number): number {
  return Math.min(BINS - 1, Math.max(0, Math.floor((cosine + 1) / BIN_WIDTH)));
}

function summarize(values: Float64Array, total: number): CosineSummary {
  const sorted = values.slice().sort();
  const histogram = new Array<number>(BINS).fill(0);
  for (const v of sorted) histogram[binOf(v)]! += 1;
  const quantiles =
    sorted.length === 0
      ? []
      : QUANTILES.map((q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return { n: sorted.length, total, quantiles, histogram };
}

/**
 * `count` pairs (a, b), a < b, of 0..n-1: every pair when there are at most `count`, else `count`
 * pairs drawn uniformly (with replacement) by `rng`.
 */
function pairs(n: number, count: number, rng: Rng, visit: (a: number, b: number) => void): number {
  const total = (n * (n - 1)) / 2;
  if (total <= count) {
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) visit(a, b);
    return total;
  }
  for (let k = 0; k < count; k++) {
    const a = rng.int(n);
    let b = rng.int(n - 1);
    if (b >= a) b += 1;
    visit(Math.min(a, b), Math.max(a, b));
  }
  return total;
}

export function similarityDistribution(
  ctx: IntentionQaContext,
  windows: { task1: CosineWindow; task2: CosineWindow; difficulty: DifficultyCuts },
  seed: number | string,
): SimilarityDistribution {
  const rows = ctx.vectors.validRows;
  const productValues: number[] = [];
  const productTotal = pairs(rows.length, SAMPLE_PAIRS, Rng.derive(seed, 'similarity/products'), (a, b) =>
    productValues.push(ctx.vectors.cosine(rows[a]!, rows[b]!)),
  );
  const valid = ctx.validAssertions;
  const assertionValues: number[] = [];
  const assertionTotal = pairs(valid.length, SAMPLE_PAIRS, Rng.derive(seed, 'similarity/assertions'), (a, b) =>
    assertionValues.push(ctx.intentionSimilarity(valid[a]!, valid[b]!)),
  );
  const coBuyValues = Array.from(valid, (i) => ctx.vectors.cosine(ctx.rowA[i]!, ctx.rowB[i]!));
  const difficulty: Record<Difficulty, number> = { easy: 0, medium: 0, hard: 0 };
  for (const v of coBuyValues) difficulty[difficultyOf(v, windows.difficulty)] += 1;
  return {
    productPairs: {
      ...summarize(Float64Array.from(productValues), productTotal),
      inTask2Window: productValues.filter((v) => inWindow(v, windows.task2)).length,
    },
    assertionPairs: {
      ...summarize(Float64Array.from(assertionValues), assertionTotal),
      inTask1Window: assertionValues.filter((v) => inWindow(v, windows.task1)).length,
    },
    coBuyPairs: { ...summarize(Float64Array.from(coBuyValues), coBuyValues.length), difficulty },
  };
}
