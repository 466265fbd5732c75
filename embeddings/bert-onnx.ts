// A BERT encoder written directly as an ONNX graph, with the interface of Xenova/all-MiniLM-L6-v2's
// model.onnx: inputs input_ids, attention_mask, token_type_ids (int64 [batch, seq]), output
// last_hidden_state (float32 [batch, seq, hidden]). The graph follows the Hugging Face export op by op
// (Gather embeddings, LayerNormalization, MatMul+Add projections, scaled dot-product attention with an
// additive mask, erf-GELU), so ONNX Runtime applies the same fusions it applies to the real model and
// a model of MiniLM-L6's shape costs the same FLOPs.
//
// The q8 variant is what onnxruntime.quantization.quantize_dynamic produces for BERT with
// reduce_range=True: every MatMul with a constant weight becomes DynamicQuantizeLinear (activations →
// uint8 with a per-tensor scale computed at run time) + MatMulInteger against int8 weights
// (symmetric, per-tensor, 7 bits: ±64) + rescale, and the word-embedding table is stored as int8 and
// dequantized after the Gather (weight-only).
// Why 7 bits: on AVX2 and on AVX-512 without VNNI, ONNX Runtime's u8×s8 kernel multiplies with
// VPMADDUBSW, which adds two u8·s8 products into a saturating int16. With weights up to ±127 the sum
// reaches 2·255·127 = 64,770 and is clipped at 32,767, so q8 vectors moved far from fp32 there (cosine
// 0.964 on the test model) and nowhere else. With ±64 it is at most 2·255·64 = 32,640: exact on every
// CPU, at the speed of the u8×s8 kernel (uint8 weights, 's8' → 'u8', are exact too but take the
// slower u8×u8 kernel). Measured per CPU class in docs/embeddings.md.
import { OnnxDataType } from './onnx-proto.js';
import { OnnxGraphBuilder, floatAttr } from './onnx-graph-builder.js';
import { Rng } from '../core/rng.js';

/** The hyper-parameters that fix a BERT encoder's shape (config.json names in comments). */
export interface BertShape {
  vocabSize: number; // vocab_size
  hiddenSize: number; // hidden_size
  numLayers: number; // num_hidden_layers
  numHeads: number; // num_attention_heads
  intermediateSize: number; // intermediate_size
  maxPositions: number; // max_position_embeddings
  typeVocabSize: number; // type_vocab_size
  layerNormEps: number; // layer_norm_eps
}

/** all-MiniLM-L6-v2's shape (its config.json). */
export const MINILM_L6_SHAPE: BertShape = {
  vocabSize: 30522,
  hiddenSize: 384,
  numLayers: 6,
  numHeads: 12,
  intermediateSize: 1536,
  maxPositions: 512,
  typeVocabSize: 2,
  layerNormEps: 1e-12,
};

/** A dense layer for `x · weight + bias`; weight is [in, out] row-major (the ONNX MatMul layout). */
export interface DenseWeights {
  inputs: number;
  outputs: number;
  weight: Float32Array;
  bias: Float32Array;
}

export interface BertLayerWeights {
  query: DenseWeights;
  key: DenseWeights;
  value: DenseWeights;
  attentionOutput: DenseWeights;
  attentionNormScale: Float32Array;
  attentionNormBias: Float32Array;
  intermediate: DenseWeights;
  output: DenseWeights;
  outputNormScale: Float32Array;
  outputNormBias: Float32Array;
}

export interface BertWeights {
  shape: BertShape;
  wordEmbeddings: Float32Array; // [vocab, hidden]
  positionEmbeddings: Float32Array; // [maxPositions, hidden]
  tokenTypeEmbeddings: Float32Array; // [typeVocab, hidden]
  embeddingNormScale: Float32Array;
  embeddingNormBias: Float32Array;
  layers: BertLayerWeights[];
}

/**
 * Seeded random weights. Values are uniform on [-a, a] with a = std·√3 (standard deviation `std`):
 * uniform rather than normal because it needs no transcendental functions, so the bytes are the same
 * on every platform. LayerNorm scales are 1 ± 0.1 and biases ±0.1 so that no parameter is trivial.
 */
export function randomBertWeights(shape: BertShape, seed: number | string, std: number): BertWeights {
  if (shape.hiddenSize % shape.numHeads !== 0) throw new Error('hiddenSize must be a multiple of numHeads');
  const rng = Rng.derive(seed, 'bert-weights');
  const half = std * Math.sqrt(3);
  const uniform = (n: number, centre: number, radius: number) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = centre + (rng.next() * 2 - 1) * radius;
    return out;
  };
  const random = (n: number) => uniform(n, 0, half);
  const dense = (inputs: number, outputs: number): DenseWeights => ({
    inputs,
    outputs,
    weight: random(inputs * outputs),
    bias: random(outputs),
  });
  const h = shape.hiddenSize;
  return {
    shape,
    wordEmbeddings: random(shape.vocabSize * h),
    positionEmbeddings: random(shape.maxPositions * h),
    tokenTypeEmbeddings: random(shape.typeVocabSize * h),
    embeddingNormScale: uniform(h, 1, 0.1),
    embeddingNormBias: uniform(h, 0, 0.1),
    layers: Array.from({ length: shape.numLayers }, () => ({
      query: dense(h, h),
      key: dense(h, h),
      value: dense(h, h),
      attentionOutput: dense(h, h),
      attentionNormScale: uniform(h, 1, 0.1),
      attentionNormBias: uniform(h, 0, 0.1),
      intermediate: dense(h, shape.intermediateSize),
      output: dense(shape.intermediateSize, h),
      outputNormScale: uniform(h, 1, 0.1),
      outputNormBias: uniform(h, 0, 0.1),
    })),
  };
}

/**
 * How the q8 graph stores its weights, as quantize_dynamic's options name them:
 * - 's8': int8, symmetric, ±127 (weight_type=QInt8, its default): saturates on AVX2 (see above);
 * - 's8-reduced': int8, symmetric, ±64 (weight_type=QInt8, reduce_range=True: 7 bits), the default;
 * - 'u8': uint8, asymmetric with a zero point (weight_type=QUInt8).
 */
export type Q8WeightFormat = 's8' | 's8-reduced' | 'u8';

/** Symmetric per-tensor int8 quantisation (zero point 0), as quantize_dynamic does for QInt8 weights. */
export function quantizeSymmetricInt8(values: Float32Array, qmax = 127): { data: Int8Array; scale: number } {
  let maxAbs = 0;
  for (const v of values) maxAbs = Math.max(maxAbs, Math.abs(v));
  // Math.fround: the scale is stored as float32; quantise with the value the runtime will see.
  const scale = Math.fround(maxAbs > 0 ? maxAbs / qmax : 1);
  const data = new Int8Array(values.length);
  for (let i = 0; i < values.length; i++) data[i] = Math.max(-qmax, Math.min(qmax, Math.round(values[i]! / scale)));
  return { data, scale };
}

/**
 * Asymmetric per-tensor uint8 quantisation, as quantize_dynamic does for QUInt8 weights: the range
 * [min(0, min), max(0, max)] onto 0…255, so that 0 is exactly representable (the zero point).
 */
export function quantizeAsymmetricUint8(values: Float32Array): { data: Uint8Array; scale: number; zeroPoint: number } {
  let lo = 0;
  let hi = 0;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const scale = Math.fround(hi > lo ? (hi - lo) / 255 : 1);
  const zeroPoint = Math.max(0, Math.min(255, Math.round(-lo / scale)));
  const data = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++)
    data[i] = Math.max(0, Math.min(255, Math.round(values[i]! / scale) + zeroPoint));
  return { data, scale, zeroPoint };
}

export type BertPrecision = 'fp32' | 'q8';

/** Builds the ONNX model bytes for `weights` in the given precision. */
export function buildBertOnnx(
  weights: BertWeights,
  precision: BertPrecision,
  weightFormat: Q8WeightFormat = 's8-reduced',
): Uint8Array {
  const s = weights.shape;
  const h = s.hiddenSize;
  const headDim = h / s.numHeads;
  const g = new OnnxGraphBuilder();

  const inputIds = g.input('input_ids', OnnxDataType.INT64, ['batch_size', 'sequence_length']);
  const attentionMask = g.input('attention_mask', OnnxDataType.INT64, ['batch_size', 'sequence_length']);
  const tokenTypeIds = g.input('token_type_ids', OnnxDataType.INT64, ['batch_size', 'sequence_length']);

  // Shared constants.
  const one = g.scalarFloat('const_one', 1);
  const half = g.scalarFloat('const_half', 0.5);
  const sqrt2 = g.scalarFloat('const_sqrt2', Math.SQRT2);
  const maskFill = g.scalarFloat('const_mask_fill', -10000);
  const attentionScale = g.scalarFloat('const_attention_scale', Math.sqrt(headDim));
  const headsShape = g.int64s('const_heads_shape', [4], [0, 0, s.numHeads, headDim]);
  const hiddenShape = g.int64s('const_hidden_shape', [3], [0, 0, h]);
  const maskAxes = g.int64s('const_mask_axes', [2], [1, 2]);
  // A quantised weight tensor: its values, scale and zero point as graph names.
  const int8Zero = precision === 'q8' && weightFormat !== 'u8' ? g.scalarInt8('const_int8_zero', 0) : '';
  const quantizedWeight = (name: string, dims: number[], values: Float32Array): [string, string, string] => {
    if (weightFormat === 'u8') {
      const { data, scale, zeroPoint } = quantizeAsymmetricUint8(values);
      return [
        g.uint8s(`${name}_quantized`, dims, data),
        g.scalarFloat(`${name}_scale`, scale),
        g.scalarUint8(`${name}_zero_point`, zeroPoint),
      ];
    }
    const { data, scale } = quantizeSymmetricInt8(values, weightFormat === 's8-reduced' ? 64 : 127);
    return [g.int8s(`${name}_quantized`, dims, data), g.scalarFloat(`${name}_scale`, scale), int8Zero];
  };

  const layerNorm = (x: string, scale: Float32Array, bias: Float32Array, name: string, outName?: string) =>
    g.op(
      'LayerNormalization',
      [x, g.floats(`${name}.weight`, [h], scale), g.floats(`${name}.bias`, [h], bias)],
      { axis: -1, epsilon: floatAttr(s.layerNormEps) },
      outName,
    );

  // quantize_dynamic quantises each activation once, however many MatMuls read it (Q, K and V share one).
  const quantizedActivations = new Map<string, [string, string, string]>();
  const quantizeActivation = (x: string) => {
    let q = quantizedActivations.get(x);
    if (!q) {
      q = g.node('DynamicQuantizeLinear', [x], {}, 3) as [string, string, string];
      quantizedActivations.set(x, q);
    }
    return q;
  };

  const dense = (x: string, w: DenseWeights, name: string) => {
    const bias = g.floats(`${name}.bias`, [w.outputs], w.bias);
    if (precision === 'fp32') {
      const product = g.op('MatMul', [x, g.floats(`${name}.weight`, [w.inputs, w.outputs], w.weight)]);
      return g.op('Add', [product, bias]);
    }
    const [xq, xScale, xZeroPoint] = quantizeActivation(x);
    const [wq, wScale, wZeroPoint] = quantizedWeight(`${name}.weight`, [w.inputs, w.outputs], w.weight);
    const integerProduct = g.op('MatMulInteger', [xq, wq, xZeroPoint, wZeroPoint]);
    const asFloat = g.op('Cast', [integerProduct], { to: OnnxDataType.FLOAT });
    const combinedScale = g.op('Mul', [xScale, wScale]);
    return g.op('Add', [g.op('Mul', [asFloat, combinedScale]), bias]);
  };

  // Embeddings: word + position + token type, then LayerNorm.
  let word: string;
  if (precision === 'fp32') {
    word = g.op(
      'Gather',
      [g.floats('embeddings.word_embeddings.weight', [s.vocabSize, h], weights.wordEmbeddings), inputIds],
      { axis: 0 },
    );
  } else {
    const [table, scale, zeroPoint] = quantizedWeight(
      'embeddings.word_embeddings.weight',
      [s.vocabSize, h],
      weights.wordEmbeddings,
    );
    const rows = g.op('Gather', [table, inputIds], { axis: 0 });
    word = g.op('DequantizeLinear', [rows, scale, zeroPoint]);
  }
  const inputShape = g.op('Shape', [inputIds]);
  const seqLen = g.op('Gather', [inputShape, g.int64s('const_seq_axis', [], [1])], { axis: 0 });
  const positionIds = g.op('Range', [
    g.int64s('const_range_start', [], [0]),
    seqLen,
    g.int64s('const_range_step', [], [1]),
  ]);
  const position = g.op(
    'Gather',
    [g.floats('embeddings.position_embeddings.weight', [s.maxPositions, h], weights.positionEmbeddings), positionIds],
    { axis: 0 },
  );
  const tokenType = g.op(
    'Gather',
    [
      g.floats('embeddings.token_type_embeddings.weight', [s.typeVocabSize, h], weights.tokenTypeEmbeddings),
      tokenTypeIds,
    ],
    { axis: 0 },
  );
  const summed = g.op('Add', [g.op('Add', [word, position]), tokenType]);
  let hidden = layerNorm(summed, weights.embeddingNormScale, weights.embeddingNormBias, 'embeddings.LayerNorm');

  // Additive attention mask [batch, 1, 1, seq]: 0 on real tokens, -10000 on padding (exp underflows to 0).
  const maskFloat = g.op('Cast', [attentionMask], { to: OnnxDataType.FLOAT });
  const inverted = g.op('Sub', [one, maskFloat]);
  const additiveMask = g.op('Unsqueeze', [g.op('Mul', [inverted, maskFill]), maskAxes]);

  weights.layers.forEach((layer, i) => {
    const p = `encoder.layer.${i}`;
    const heads = (x: string, perm: number[]) => g.op('Transpose', [g.op('Reshape', [x, headsShape])], { perm });
    const q = heads(dense(hidden, layer.query, `${p}.attention.self.query`), [0, 2, 1, 3]);
    const k = heads(dense(hidden, layer.key, `${p}.attention.self.key`), [0, 2, 3, 1]);
    const v = heads(dense(hidden, layer.value, `${p}.attention.self.value`), [0, 2, 1, 3]);
    const scores = g.op('Add', [g.op('Div', [g.op('MatMul', [q, k]), attentionScale]), additiveMask]);
    const probs = g.op('Softmax', [scores], { axis: -1 });
    const context = g.op('Reshape', [
      g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: [0, 2, 1, 3] }),
      hiddenShape,
    ]);
    const attended = dense(context, layer.attentionOutput, `${p}.attention.output.dense`);
    hidden = layerNorm(
      g.op('Add', [attended, hidden]),
      layer.attentionNormScale,
      layer.attentionNormBias,
      `${p}.attention.output.LayerNorm`,
    );

    // GELU(x) = x · 0.5 · (1 + erf(x / √2)), in the op order of the PyTorch export (what ORT fuses).
    const pre = dense(hidden, layer.intermediate, `${p}.intermediate.dense`);
    const erf = g.op('Erf', [g.op('Div', [pre, sqrt2])]);
    const gelu = g.op('Mul', [g.op('Mul', [pre, g.op('Add', [erf, one])]), half]);
    const out = dense(gelu, layer.output, `${p}.output.dense`);
    const last = i === weights.layers.length - 1;
    hidden = layerNorm(
      g.op('Add', [out, hidden]),
      layer.outputNormScale,
      layer.outputNormBias,
      `${p}.output.LayerNorm`,
      last ? 'last_hidden_state' : undefined,
    );
  });
  if (weights.layers.length === 0) hidden = g.op('Identity', [hidden], {}, 'last_hidden_state');

  g.output('last_hidden_state', OnnxDataType.FLOAT, ['batch_size', 'sequence_length', h]);
  return g.toModel({
    graphName: 'intentsim_generated_bert',
    opset: 17,
    producer: 'intentsim',
    docString: `Generated BERT encoder (${precision}) with random seeded weights: not a trained model; its similarities mean nothing.`,
  });
}
