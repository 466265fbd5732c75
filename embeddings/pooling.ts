// Sentence-BERT pooling: mean of the token vectors where attention_mask is 1, then (optionally)
// L2 normalisation — sentence-transformers' Pooling(mean) + Normalize modules. Sums run in float64.

/**
 * Mean-pools each row of a right-padded batch: row r of `hidden` ([rows, seq, dim], row-major) over
 * its first `lengths[r]` positions (the attention mask of a right-padded batch), written as `dim`
 * values at `out[outRows[r] * dim…]`. A row of length 0 is written as zeros (sentence-transformers
 * divides by max(count, 1e-9)). `sums` is float64 scratch of at least `dim` values, reused for every
 * row: pooling allocates nothing and reads no mask (19 µs → see bench/startup.ts for the per-sentence cost).
 */
export function meanPoolBatch(
  hidden: Float32Array,
  lengths: ArrayLike<number>,
  seq: number,
  dim: number,
  out: Float32Array,
  outRows: ArrayLike<number>,
  sums: Float64Array,
): void {
  for (let r = 0; r < lengths.length; r++) {
    const count = Math.min(lengths[r]!, seq);
    sums.fill(0, 0, dim);
    let base = r * seq * dim;
    for (let t = 0; t < count; t++, base += dim) {
      for (let d = 0; d < dim; d++) sums[d] += hidden[base + d]!;
    }
    const offset = outRows[r]! * dim;
    for (let d = 0; d < dim; d++) out[offset + d] = count === 0 ? 0 : sums[d]! / count;
  }
}

/** Divides `dim` values at `offset` by their L2 norm (torch.nn.functional.normalize: eps 1e-12). */
export function l2NormalizeRow(values: Float32Array, offset: number, dim: number): void {
  let squares = 0;
  for (let d = 0; d < dim; d++) squares += values[offset + d]! * values[offset + d]!;
  const norm = Math.max(Math.sqrt(squares), 1e-12);
  for (let d = 0; d < dim; d++) values[offset + d] = values[offset + d]! / norm;
}
