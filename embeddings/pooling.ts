// Sentence-BERT pooling: mean of the token vectors where attention_mask is 1, then (optionally)
// L2 normalisation — sentence-transformers' Pooling(mean) + Normalize modules. Sums run in float64.

/**
 * Mean-pools row `b` of `hidden` ([batch, seq, dim] row-major) over the positions where `mask` is
 * non-zero, writing `dim` values at `out[outOffset…]`. Returns the number of positions pooled; a row
 * with none pooled is written as zeros (sentence-transformers divides by max(count, 1e-9)).
 */
export function meanPoolRow(
  hidden: Float32Array,
  mask: ArrayLike<number | bigint>,
  b: number,
  seq: number,
  dim: number,
  out: Float32Array,
  outOffset: number,
): number {
  const sums = new Float64Array(dim);
  let count = 0;
  for (let t = 0; t < seq; t++) {
    if (Number(mask[b * seq + t]) === 0) continue;
    count += 1;
    const base = (b * seq + t) * dim;
    for (let d = 0; d < dim; d++) sums[d] += hidden[base + d]!;
  }
  for (let d = 0; d < dim; d++) out[outOffset + d] = count === 0 ? 0 : sums[d]! / count;
  return count;
}

/** Divides `dim` values at `offset` by their L2 norm (torch.nn.functional.normalize: eps 1e-12). */
export function l2NormalizeRow(values: Float32Array, offset: number, dim: number): void {
  let squares = 0;
  for (let d = 0; d < dim; d++) squares += values[offset + d]! * values[offset + d]!;
  const norm = Math.max(Math.sqrt(squares), 1e-12);
  for (let d = 0; d < dim; d++) values[offset + d] = values[offset + d]! / norm;
}
