// A small builder for ONNX graphs: named initializers, nodes with typed attributes, graph inputs and
// outputs. Value names are generated from a prefix and a counter so that the same build calls always
// produce the same bytes (the generated models are deterministic).
import {
  encodeModelProto,
  OnnxAttributeType,
  OnnxDataType,
  type AttributeProto,
  type GraphProto,
  type NodeProto,
  type OnnxDataTypeCode,
  type TensorProto,
  type ValueInfoProto,
} from './onnx-proto.js';

/** An attribute value: numbers are INT unless wrapped with `floatAttr`; arrays of numbers are INTS. */
export type AttrValue = number | number[] | string | { float: number } | { floats: number[] } | { tensor: TensorProto };

export function floatAttr(value: number): { float: number } {
  return { float: value };
}

/** Graph input/output dimension: a fixed size or a symbolic name such as 'batch_size'. */
export type Dim = number | string;

export class OnnxGraphBuilder {
  private readonly nodes: NodeProto[] = [];
  private readonly initializers: TensorProto[] = [];
  private readonly inputs: ValueInfoProto[] = [];
  private readonly outputs: ValueInfoProto[] = [];
  private readonly names = new Set<string>();
  private counter = 0;

  /**
   * `namespace` starts every generated name, so that nodes added to an existing graph
   * (graph-pooling.ts) do not take the names of its own values.
   */
  constructor(private readonly namespace = '') {}

  /** A fresh value name (`prefix_N`), unique within the graph. */
  fresh(prefix: string): string {
    let name: string;
    do name = `${this.namespace}${prefix}_${this.counter++}`;
    while (this.names.has(name));
    this.names.add(name);
    return name;
  }

  private claim(name: string): string {
    if (this.names.has(name)) throw new Error(`ONNX value name used twice: ${name}`);
    this.names.add(name);
    return name;
  }

  input(name: string, elemType: OnnxDataTypeCode, dims: Dim[]): string {
    this.inputs.push(valueInfo(this.claim(name), elemType, dims));
    return name;
  }

  /** Declares an existing value as a graph output. */
  output(name: string, elemType: OnnxDataTypeCode, dims: Dim[]): void {
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  private tensor(name: string, dataType: OnnxDataTypeCode, dims: number[], raw: Uint8Array): string {
    const expected = dims.reduce((a, b) => a * b, 1) * bytesPerElement(dataType);
    if (raw.byteLength !== expected) {
      throw new Error(`initializer ${name}: ${raw.byteLength} bytes for dims [${dims}] (expected ${expected})`);
    }
    this.initializers.push({ name: this.claim(name), dims, dataType, rawData: raw });
    return name;
  }

  floats(name: string, dims: number[], values: Float32Array): string {
    return this.tensor(name, OnnxDataType.FLOAT, dims, littleEndianBytes(values));
  }

  int64s(name: string, dims: number[], values: readonly number[]): string {
    const data = new BigInt64Array(values.map((v) => BigInt(v)));
    return this.tensor(name, OnnxDataType.INT64, dims, littleEndianBytes(data));
  }

  int8s(name: string, dims: number[], values: Int8Array): string {
    return this.tensor(
      name,
      OnnxDataType.INT8,
      dims,
      new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
    );
  }

  uint8s(name: string, dims: number[], values: Uint8Array): string {
    return this.tensor(name, OnnxDataType.UINT8, dims, values);
  }

  /** A scalar constant (0-d tensor). */
  scalarFloat(name: string, value: number): string {
    return this.floats(name, [], Float32Array.of(value));
  }

  scalarInt8(name: string, value: number): string {
    return this.int8s(name, [], Int8Array.of(value));
  }

  scalarUint8(name: string, value: number): string {
    return this.uint8s(name, [], Uint8Array.of(value));
  }

  /**
   * Adds a node; `outputs` is a count (fresh names from the op type) or explicit names.
   * Returns the output names.
   */
  node(
    opType: string,
    inputs: string[],
    attrs: Record<string, AttrValue> = {},
    outputs: number | string[] = 1,
  ): string[] {
    const outNames =
      typeof outputs === 'number'
        ? Array.from({ length: outputs }, () => this.fresh(opType))
        : outputs.map((n) => this.claim(n));
    this.nodes.push({
      name: this.fresh(`n_${opType}`),
      opType,
      input: inputs,
      output: outNames,
      attribute: Object.entries(attrs).map(([name, value]) => attribute(name, value)),
    });
    return outNames;
  }

  /** One-output convenience form of `node`. */
  op(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, outputName?: string): string {
    return this.node(opType, inputs, attrs, outputName === undefined ? 1 : [outputName])[0]!;
  }

  /** What was built, as additions to another graph (onnx-proto.ts's appendToGraph). */
  toGraphAdditions(): Pick<GraphProto, 'node' | 'initializer' | 'output'> {
    return { node: this.nodes, initializer: this.initializers, output: this.outputs };
  }

  /** Every name this builder has given out or claimed. */
  get usedNames(): ReadonlySet<string> {
    return this.names;
  }

  toModel(opts: { graphName: string; opset: number; producer: string; docString: string }): Uint8Array {
    return encodeModelProto({
      irVersion: 8,
      producerName: opts.producer,
      producerVersion: '1',
      docString: opts.docString,
      opsetImport: [{ domain: '', version: opts.opset }],
      graph: {
        name: opts.graphName,
        node: this.nodes,
        initializer: this.initializers,
        input: this.inputs,
        output: this.outputs,
      },
    });
  }
}

function valueInfo(name: string, elemType: number, dims: Dim[]): ValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

function attribute(name: string, value: AttrValue): AttributeProto {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`attribute ${name}: ${value} is not an integer (use floatAttr)`);
    return { name, type: OnnxAttributeType.INT, i: value };
  }
  if (typeof value === 'string') return { name, type: OnnxAttributeType.STRING, s: new TextEncoder().encode(value) };
  if (Array.isArray(value)) return { name, type: OnnxAttributeType.INTS, ints: value };
  if ('float' in value) return { name, type: OnnxAttributeType.FLOAT, f: value.float };
  if ('floats' in value) return { name, type: OnnxAttributeType.FLOATS, floats: value.floats };
  return { name, type: OnnxAttributeType.TENSOR, t: value.tensor };
}

function bytesPerElement(t: OnnxDataTypeCode): number {
  switch (t) {
    case OnnxDataType.FLOAT:
    case OnnxDataType.INT32:
      return 4;
    case OnnxDataType.FLOAT16:
      return 2;
    case OnnxDataType.INT64:
      return 8;
    case OnnxDataType.INT8:
    case OnnxDataType.UINT8:
      return 1;
  }
}

/** ONNX raw_data is little-endian; typed arrays are host-endian, so copy byte-wise on big-endian hosts. */
function littleEndianBytes(values: Float32Array | BigInt64Array): Uint8Array {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (HOST_IS_LITTLE_ENDIAN) return bytes;
  const out = new Uint8Array(bytes.length);
  const view = new DataView(out.buffer);
  if (values instanceof Float32Array) values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  else values.forEach((v, i) => view.setBigInt64(i * 8, v, true));
  return out;
}

const HOST_IS_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
