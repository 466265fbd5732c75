// Analytic FLOP count of a BERT encoder's forward pass, to turn a measured sentences/s into an
// achieved GFLOP/s and a share of the CPU's peak. Counted: the matrix products, which are nearly all
// of the work. Per token and layer, in multiply-adds (one multiply-add = 2 FLOPs):
//   - Q, K, V and attention-output projections: 4·h²
//   - feed-forward (h → I → h):                 2·h·I
//   - attention scores Q·Kᵀ and the weighted sum of V over a padded length L: L·h each, 2·L·h
// Not counted (each well under 1% of the total at MiniLM's shape): embedding look-ups, LayerNorm,
// softmax, GELU, biases, the mean pooling. Padding tokens ARE counted: the model computes them.
import type { BertShape } from '../../embeddings/bert-onnx.js';
import type { BatchPlan } from '../../embeddings/length-batching.js';

export type EncoderShape = Pick<BertShape, 'hiddenSize' | 'numLayers' | 'intermediateSize'>;

/** Multiply-adds for one token in one layer, at padded sequence length `paddedLength`. */
export function multiplyAddsPerTokenLayer(shape: EncoderShape, paddedLength: number): number {
  const h = shape.hiddenSize;
  return 4 * h * h + 2 * h * shape.intermediateSize + 2 * paddedLength * h;
}

/** FLOPs of one forward pass over `rows` sentences padded to `paddedLength` tokens. */
export function batchFlops(shape: EncoderShape, rows: number, paddedLength: number): number {
  return 2 * rows * paddedLength * shape.numLayers * multiplyAddsPerTokenLayer(shape, paddedLength);
}

/** FLOPs of every batch of a plan (what the engine runs for one encode() call). */
export function planFlops(shape: EncoderShape, plan: Pick<BatchPlan, 'batches'>): number {
  let total = 0;
  for (const b of plan.batches) total += batchFlops(shape, b.indices.length, b.paddedLength);
  return total;
}
