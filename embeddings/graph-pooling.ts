// Mean pooling and L2 normalisation inside the ONNX graph, for the GPU providers: the session then
// returns [batch, hidden] instead of [batch, seq, hidden], so the device does the pooling and only the
// sentence vectors cross back to the CPU (issue 30: on an H200 the [B, T, 384] floats cost 0.6 s of
// pooling on the JavaScript thread for 50k sentences).
//
// The semantics are pooling.ts's (sentence-transformers' Pooling(mean) + Normalize): the sum of the
// token vectors where attention_mask is 1, divided by max(mask sum, 1e-9) (a row without tokens gives
// zeros), then divided by max(‖v‖₂, 1e-12). Two outputs are added, so that one graph serves both
// encode({ normalize }) settings: POOLED_OUTPUT (the mean) and NORMALIZED_OUTPUT (the mean, L2
// normalised). The sums are float32 MatMuls on the device where pooling.ts sums in float64, so the
// vectors differ in the last bits (measured in test/graph-pooling.test.ts); the CPU default stays on
// pooling.ts, which is bit-exact with the vectors of every earlier run.
//
// Only ops whose signature is the same in every opset from 13 back to 7 are used (MatMul, Reshape with
// a shape input, Transpose, Cast, Max, Div, Sqrt), so the transform fits any BERT export's opset. The
// model's own bytes are kept as they are: the nodes are appended as a second ModelProto.graph field,
// which protobuf merges into the first (onnx-proto.ts's appendToGraph).
import { OnnxGraphBuilder } from './onnx-graph-builder.js';
import { appendToGraph, decodeModelProto, OnnxDataType } from './onnx-proto.js';
import { UserError } from '../core/errors.js';

/** The output holding each sentence's masked mean of token vectors, [batch, hidden]. */
export const POOLED_OUTPUT = 'intentsim_pooling/mean';
/** The output holding the masked mean, L2-normalised, [batch, hidden]. */
export const NORMALIZED_OUTPUT = 'intentsim_pooling/normalized';

/** Where pooling runs: in the ONNX graph, in JavaScript (pooling.ts), or chosen by provider. */
export type PoolingMode = 'graph' | 'js';
export type PoolingRequest = PoolingMode | 'auto';
export const POOLING_REQUESTS: readonly PoolingRequest[] = ['auto', 'graph', 'js'];

/** auto: in the graph on a GPU provider, in JavaScript (bit-exact with earlier runs) on the CPU. */
export function poolingForProvider(request: PoolingRequest, provider: string): PoolingMode {
  if (request !== 'auto') return request;
  return provider === 'cpu' ? 'js' : 'graph';
}

/** The graph output a pooled session is asked for. */
export function pooledOutputName(normalize: boolean): string {
  return normalize ? NORMALIZED_OUTPUT : POOLED_OUTPUT;
}

/**
 * The model with masked mean pooling (and its L2-normalised twin) appended after its token output
 * (last_hidden_state, else its first output). `source` names the model in errors.
 */
export function appendMeanPooling(model: Uint8Array, source = 'the model'): Uint8Array {
  const graph = decodeModelProto(model).graph;
  const tokenOutput = graph.output.find((o) => o.name === 'last_hidden_state') ?? graph.output[0];
  if (!tokenOutput) throw new UserError(`${source}: the graph has no output to pool`);
  const type = tokenOutput.type?.tensorType;
  if (type?.elemType !== OnnxDataType.FLOAT || (type.shape?.dim?.length ?? 3) !== 3)
    throw new UserError(
      `${source}: output ${tokenOutput.name} must be float32 [batch, seq, hidden] to be pooled in the graph`,
    );
  if (!graph.input.some((i) => i.name === 'attention_mask'))
    throw new UserError(`${source}: the graph has no attention_mask input, which mean pooling needs`);
  const hidden = type.shape?.dim?.[2]?.dimValue;

  const g = new OnnxGraphBuilder('intentsim_pooling/');
  const rowShape = g.int64s('intentsim_pooling/row_shape', [3], [0, 1, -1]);
  const flatShape = g.int64s('intentsim_pooling/flat_shape', [2], [0, -1]);
  const countFloor = g.scalarFloat('intentsim_pooling/count_floor', 1e-9);
  const normFloor = g.scalarFloat('intentsim_pooling/norm_floor', 1e-12);

  // mask [B, T] → float [B, 1, T]; sum = mask · tokens [B, 1, H]; count = mask · maskᵀ [B, 1, 1]
  // (Σ mask², which is Σ mask for a 0/1 mask).
  const mask = g.op('Reshape', [g.op('Cast', ['attention_mask'], { to: OnnxDataType.FLOAT }), rowShape]);
  const sum = g.op('MatMul', [mask, tokenOutput.name]);
  const count = g.op('MatMul', [mask, g.op('Transpose', [mask], { perm: [0, 2, 1] })]);
  const mean = g.op('Div', [sum, g.op('Max', [count, countFloor])]);
  g.op('Reshape', [mean, flatShape], {}, POOLED_OUTPUT);
  // ‖mean‖₂ = √(mean · meanᵀ) [B, 1, 1].
  const squares = g.op('MatMul', [mean, g.op('Transpose', [mean], { perm: [0, 2, 1] })]);
  const norm = g.op('Max', [g.op('Sqrt', [squares]), normFloor]);
  g.op('Reshape', [g.op('Div', [mean, norm]), flatShape], {}, NORMALIZED_OUTPUT);
  const dims = ['batch_size', typeof hidden === 'number' && hidden > 0 ? hidden : 'hidden_size'];
  g.output(POOLED_OUTPUT, OnnxDataType.FLOAT, dims);
  g.output(NORMALIZED_OUTPUT, OnnxDataType.FLOAT, dims);

  const existing = new Set([
    ...graph.input.map((v) => v.name),
    ...graph.initializer.map((t) => t.name),
    ...graph.node.flatMap((n) => n.output),
  ]);
  const clash = [...g.usedNames].find((n) => existing.has(n));
  if (clash !== undefined)
    throw new UserError(`${source}: already has a value named ${clash}; cannot pool in the graph`);
  return appendToGraph(model, g.toGraphAdditions());
}
