// Spherical k-means over unit rows (cosine similarity), seeded and deterministic: k-means++ seeding
// from the seed's generator, then a fixed number of Lloyd rounds (assign each row to its most similar
// centroid, recompute each centroid as the normalised mean of its rows). Used to group products by
// their title vectors into kinds (engine/items/intentionqa/title-kinds.ts). Rows beyond `fitRows` are
// only assigned, so the cost stays rows × k × dim once, plus fitRows × k × dim a round.
import { Rng } from '../../core/rng.js';
import type { UnitVectors } from './unit-vectors.js';

export interface KMeansOptions {
  k: number;
  seed: number | string;
  /** Lloyd rounds (default 20). */
  rounds?: number;
  /** At most this many valid rows (a seeded sample) fit the centroids; all are assigned (default 20,000). */
  fitRows?: number;
}

/** The cluster of each row (-1 for a row without a vector), and the centroids (k × dim, unit rows). */
export interface KMeansResult {
  clusterOfRow: Int32Array;
  centroids: Float32Array;
  k: number;
}

function dot(a: Float32Array, i: number, b: Float32Array, j: number, dim: number): number {
  let s = 0;
  for (let d = 0, x = i * dim, y = j * dim; d < dim; d++) s += a[x + d]! * b[y + d]!;
  return s;
}

function nearest(vectors: UnitVectors, row: number, centroids: Float32Array, k: number): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let c = 0; c < k; c++) {
    const s = dot(vectors.data, row, centroids, c, vectors.dim);
    if (s > bestScore) {
      bestScore = s;
      best = c;
    }
  }
  return best;
}

export function sphericalKMeans(vectors: UnitVectors, options: KMeansOptions): KMeansResult {
  const dim = vectors.dim;
  const rng = new Rng(options.seed);
  const valid = [...vectors.validRows];
  const fit = valid.length > (options.fitRows ?? 20_000) ? rng.sample(valid, options.fitRows ?? 20_000) : valid;
  fit.sort((a, b) => a - b);
  const k = Math.max(1, Math.min(options.k, fit.length));
  const centroids = new Float32Array(k * dim);
  const clusterOfRow = new Int32Array(vectors.size).fill(-1);
  if (fit.length === 0) return { clusterOfRow, centroids, k: 0 };

  // k-means++: each next centroid drawn with probability ∝ (1 − best cosine so far), the cosine
  // distance squared's stand-in for unit rows.
  const far = new Float64Array(fit.length).fill(Infinity);
  let chosen = fit[rng.int(fit.length)]!;
  for (let c = 0; c < k; c++) {
    centroids.set(vectors.data.subarray(chosen * dim, (chosen + 1) * dim), c * dim);
    let total = 0;
    for (let i = 0; i < fit.length; i++) {
      const d = Math.max(0, 1 - dot(vectors.data, fit[i]!, centroids, c, dim));
      if (d < far[i]!) far[i] = d;
      total += far[i]! * far[i]!;
    }
    if (c + 1 === k) break;
    let pick = rng.next() * total;
    let next = fit.length - 1;
    for (let i = 0; i < fit.length; i++) {
      pick -= far[i]! * far[i]!;
      if (pick <= 0) {
        next = i;
        break;
      }
    }
    chosen = fit[next]!;
  }

  const sums = new Float64Array(k * dim);
  for (let round = 0; round < (options.rounds ?? 20); round++) {
    sums.fill(0);
    let moved = 0;
    for (const row of fit) {
      const c = nearest(vectors, row, centroids, k);
      if (clusterOfRow[row] !== c) moved += 1;
      clusterOfRow[row] = c;
      for (let d = 0; d < dim; d++) sums[c * dim + d]! += vectors.data[row * dim + d]!;
    }
    for (let c = 0; c < k; c++) {
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += sums[c * dim + d]! ** 2;
      // An empty cluster keeps its centroid.
      if (norm === 0) continue;
      const inv = 1 / Math.sqrt(norm);
      for (let d = 0; d < dim; d++) centroids[c * dim + d] = sums[c * dim + d]! * inv;
    }
    if (moved === 0) break;
  }
  for (const row of valid) clusterOfRow[row] = nearest(vectors, row, centroids, k);
  return { clusterOfRow, centroids, k };
}
