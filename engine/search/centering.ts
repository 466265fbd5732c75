// Centering: subtract the corpus mean from every vector before cosines. Averaged vectors share a
// large common component — the mean of averaged GloVe context embeddings dominates each of them, so
// their raw pairwise cosines sit near 0.9 whatever the products (median 0.91 on the demo world, see
// docs/embeddings.md) — and removing it leaves the part that tells products apart. It is the
// "common component removal" of SIF (Arora et al. 2017) with the mean in place of the first
// principal component, and it changes every cosine, so it is an option recorded with the outputs.
import type { VectorSet } from '../../embeddings/sentence-encoder.js';

/**
 * The mean of the usable rows (non-zero, finite; accumulated in float64, returned as float32) and
 * the rows minus it. Unusable rows stay all zeros (no vector). A row equal to the mean becomes zero
 * and so has no vector either: it has no direction of its own in the corpus.
 */
export function centerVectors(set: VectorSet): { centered: VectorSet; mean: Float32Array } {
  const { ids, dim, data } = set;
  const usable = (row: number) => {
    let any = false;
    for (let d = row * dim; d < (row + 1) * dim; d++) {
      if (!Number.isFinite(data[d]!)) return false;
      if (data[d] !== 0) any = true;
    }
    return any;
  };
  const sum = new Float64Array(dim);
  const rows: number[] = [];
  for (let row = 0; row < ids.length; row++) {
    if (!usable(row)) continue;
    rows.push(row);
    for (let d = 0; d < dim; d++) sum[d]! += data[row * dim + d]!;
  }
  const mean = new Float32Array(dim);
  if (rows.length > 0) for (let d = 0; d < dim; d++) mean[d] = sum[d]! / rows.length;
  const centered = new Float32Array(data.length);
  for (const row of rows) for (let d = 0; d < dim; d++) centered[row * dim + d] = data[row * dim + d]! - mean[d]!;
  return { centered: { ids, dim, data: centered }, mean };
}
