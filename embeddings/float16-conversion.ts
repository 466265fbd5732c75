// float32 → float16 conversion of an ONNX model, as onnxruntime's convert_float_to_float16 does it with
// keep_io_types=True (what issue 30's fp16 run used: ../shared/gpu/run3.sh): every float initializer
// and float constant becomes float16, casts to float become casts to float16, value_info follows,
// and float graph inputs and outputs stay float32 behind Cast nodes, so callers feed and read what
// they did before. Values are rounded to nearest-even, after clamping magnitudes into
// [5.96e-8, 65504] as the converter does (min_positive_val, max_finite_val): a tiny non-zero weight
// stays non-zero, a huge one stays finite.
// For WebGPU adapters with shader-f16 (issue 30: 1.33× the fp32 speed at batch 1024 on an H200).
import { decodeModelProto, encodeModelProto, modelRoundTrips, OnnxDataType, type TensorProto } from './onnx-proto.js';
import { UserError } from '../core/errors.js';
import { toFloat16Bits } from '../core/float16.js';

/** convert_float_to_float16's defaults. */
const MIN_POSITIVE = 5.96e-8;
const MAX_FINITE = 65504;

/** The converter's clamp: |v| into [MIN_POSITIVE, MAX_FINITE], zero and NaN kept. */
export function clampForFloat16(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude === 0 || Number.isNaN(value)) return value;
  return Math.sign(value) * Math.min(MAX_FINITE, Math.max(MIN_POSITIVE, magnitude));
}

/** float16 raw data (little-endian) for float32 values, each clamped first (clampForFloat16). */
export function float16Bytes(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const magnitude = Math.abs(v);
    // clampForFloat16, inline: this loop runs once per weight (22M for MiniLM).
    const clamped =
      magnitude === 0 || magnitude !== magnitude
        ? v
        : magnitude > MAX_FINITE
          ? v < 0
            ? -MAX_FINITE
            : MAX_FINITE
          : magnitude < MIN_POSITIVE
            ? v < 0
              ? -MIN_POSITIVE
              : MIN_POSITIVE
            : v;
    view.setUint16(2 * i, toFloat16Bits(clamped), true);
  }
  return out;
}

/** The float32 values of a FLOAT tensor, from raw_data (little-endian) or float_data. */
function floatValues(tensor: TensorProto): Float32Array {
  const raw = tensor.rawData;
  if (raw && raw.byteLength > 0) {
    // A copy (Uint8Array.prototype.slice, not Buffer.slice, which is a view) is aligned for Float32Array.
    if (HOST_IS_LITTLE_ENDIAN)
      return new Float32Array(Uint8Array.prototype.slice.call(raw).buffer, 0, raw.byteLength / 4);
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    return Float32Array.from({ length: raw.byteLength / 4 }, (_, i) => view.getFloat32(i * 4, true));
  }
  return Float32Array.from(tensor.floatData ?? []);
}

const HOST_IS_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** The tensor as float16 if it is float32; anything else unchanged. */
function tensorToFloat16(tensor: TensorProto, source: string): TensorProto {
  if (tensor.dataType !== OnnxDataType.FLOAT) return tensor;
  if (tensor.dataLocation === 1 || (tensor.externalData?.length ?? 0) > 0)
    throw new UserError(
      `${source}: tensor ${tensor.name} keeps its data in an external file, which fp16 conversion does not read`,
    );
  const { floatData: _unused, ...rest } = tensor;
  void _unused;
  return { ...rest, dataType: OnnxDataType.FLOAT16, rawData: float16Bytes(floatValues(tensor)) };
}

/** What the conversion did, for the derived model's record. */
export interface Float16ConversionReport {
  initializers: number;
  constants: number;
  casts: number;
  keptFloat32Inputs: string[];
  keptFloat32Outputs: string[];
}

/**
 * The model converted to float16 inside, float32 at its inputs and outputs. `source` names the model
 * in errors. A model with fields this project's ONNX descriptor does not read is refused (they would
 * be lost): subgraphs (If, Loop) among them. So is external data.
 */
export function convertModelToFloat16(
  model: Uint8Array,
  source = 'the model',
): { model: Uint8Array; report: Float16ConversionReport } {
  const decoded = decodeModelProto(model);
  if (!modelRoundTrips(model, decoded))
    throw new UserError(
      `${source}: has ONNX fields that intentsim's converter does not read (embeddings/onnx-proto.ts); convert it with onnxruntime's convert_float_to_float16 instead`,
    );
  const graph = decoded.graph;
  const report: Float16ConversionReport = {
    initializers: 0,
    constants: 0,
    casts: 0,
    keptFloat32Inputs: [],
    keptFloat32Outputs: [],
  };
  graph.initializer = graph.initializer.map((t) => {
    if (t.dataType === OnnxDataType.FLOAT) report.initializers++;
    return tensorToFloat16(t, source);
  });
  for (const node of graph.node) {
    for (const attr of node.attribute) {
      if (attr.t) {
        if (attr.t.dataType === OnnxDataType.FLOAT) report.constants++;
        attr.t = tensorToFloat16(attr.t, source);
      }
      if (attr.tensors) attr.tensors = attr.tensors.map((t) => tensorToFloat16(t, source));
    }
    if (node.opType === 'Cast' && (node.domain ?? '') === '') {
      const to = node.attribute.find((a) => a.name === 'to');
      if (to && Number(to.i) === OnnxDataType.FLOAT) {
        to.i = OnnxDataType.FLOAT16;
        report.casts++;
      }
    }
  }
  for (const info of graph.valueInfo ?? [])
    if (info.type?.tensorType?.elemType === OnnxDataType.FLOAT) info.type.tensorType.elemType = OnnxDataType.FLOAT16;

  // Inputs and outputs stay float32: a Cast after each float input and before each float output, the
  // graph's own nodes reading and writing a renamed float16 value.
  const rename = (from: string, to: string, where: 'input' | 'output') => {
    for (const node of graph.node) node[where] = node[where].map((n) => (n === from ? to : n));
  };
  const castsIn = [];
  for (const input of graph.input) {
    if (input.type?.tensorType?.elemType !== OnnxDataType.FLOAT) continue;
    const inner = `${input.name}/float16`;
    rename(input.name, inner, 'input');
    castsIn.push(castNode(input.name, inner, OnnxDataType.FLOAT16));
    report.keptFloat32Inputs.push(input.name);
  }
  const castsOut = [];
  for (const output of graph.output) {
    if (output.type?.tensorType?.elemType !== OnnxDataType.FLOAT) continue;
    const inner = `${output.name}/float16`;
    rename(output.name, inner, 'output');
    rename(output.name, inner, 'input');
    castsOut.push(castNode(inner, output.name, OnnxDataType.FLOAT));
    report.keptFloat32Outputs.push(output.name);
  }
  graph.node = [...castsIn, ...graph.node, ...castsOut];
  return { model: encodeModelProto(decoded), report };
}

function castNode(input: string, output: string, to: number) {
  return {
    name: `intentsim_float16/cast:${output}`,
    opType: 'Cast',
    input: [input],
    output: [output],
    attribute: [{ name: 'to', type: 2, i: to }],
  };
}
