// Sentence-BERT pooling: mean of the token vectors where attention_mask is 1, then (optionally)
// L2 normalisation — sentence-transformers' Pooling(mean) + Normalize modules. Sums run in float64.
// The encoder right-pads its batches, so the mask of row r is 1 on its first tokenCounts[r] positions
// and 0 after: pooling reads the counts, never the mask, and sums into one float64 row reused for the
// whole batch. The earlier per-row version (a new Float64Array a row, Number() on every mask element)
// took 19 µs a sentence against numpy's 4.5 µs (issue 19); bench/startup.ts measures both.

/**
 * Mean-pools every row of a right-padded batch `hidden` ([rows, seq, dim] row-major): row r averages
 * its first `tokenCounts[r]` token vectors and is written at `out[outRows[r] * dim …]`. A row with no
 * tokens is written as zeros (sentence-transformers divides by max(count, 1e-9)). `sums` is scratch
 * space of at least `dim` float64 values, reused across calls to spare the allocation.
 */
export function meanPoolBatch(
  hidden: Float32Array,
  seq: number,
  dim: number,
  tokenCounts: ArrayLike<number>,
  out: Float32Array,
  outRows: ArrayLike<number>,
  sums: Float64Array = new Float64Array(dim),
): void {
  if (sums.length < dim) throw new RangeError(`pooling scratch holds ${sums.length} values, needs ${dim}`);
  for (let r = 0; r < tokenCounts.length; r++) {
    const count = tokenCounts[r]!;
    if (count > seq) throw new RangeError(`row ${r} has ${count} tokens, more than the batch's ${seq} positions`);
    sums.fill(0, 0, dim);
    for (let t = 0; t < count; t++) {
      const base = (r * seq + t) * dim;
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
