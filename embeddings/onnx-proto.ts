// The subset of onnx.proto (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto, IR version 8)
// that the model generators need, declared as a protobufjs JSON descriptor so that no .proto file or
// Python toolchain is involved. Field numbers are onnx.proto's. The fields the generators write are
// listed, and the others a BERT export uses (typed data arrays, value_info, doc strings, metadata), so
// that a transform (graph-pooling.ts, float16-conversion.ts) can read an exported model; protobufjs
// skips fields it does not know, which is why a transform checks that a model round-trips whole
// (modelRoundTrips) before rewriting it.
import { createRequire } from 'node:module';
import type * as Protobuf from 'protobufjs';

/** ONNX TensorProto.DataType values used here. */
export const OnnxDataType = {
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  INT32: 6,
  INT64: 7,
  FLOAT16: 10,
} as const;
export type OnnxDataTypeCode = (typeof OnnxDataType)[keyof typeof OnnxDataType];

/** ONNX AttributeProto.AttributeType values used here. */
export const OnnxAttributeType = {
  FLOAT: 1,
  INT: 2,
  STRING: 3,
  TENSOR: 4,
  FLOATS: 6,
  INTS: 7,
} as const;

const descriptor = {
  nested: {
    onnx: {
      nested: {
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            t: { type: 'TensorProto', id: 5 },
            floats: { rule: 'repeated', type: 'float', id: 7 },
            ints: { rule: 'repeated', type: 'int64', id: 8 },
            strings: { rule: 'repeated', type: 'bytes', id: 9 },
            tensors: { rule: 'repeated', type: 'TensorProto', id: 10 },
            docString: { type: 'string', id: 13 },
            type: { type: 'int32', id: 20 },
            refAttrName: { type: 'string', id: 21 },
          },
        },
        ValueInfoProto: {
          fields: {
            name: { type: 'string', id: 1 },
            type: { type: 'TypeProto', id: 2 },
            docString: { type: 'string', id: 3 },
          },
        },
        StringStringEntryProto: {
          fields: {
            key: { type: 'string', id: 1 },
            value: { type: 'string', id: 2 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
            docString: { type: 'string', id: 6 },
            domain: { type: 'string', id: 7 },
          },
        },
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            producerName: { type: 'string', id: 2 },
            producerVersion: { type: 'string', id: 3 },
            domain: { type: 'string', id: 4 },
            modelVersion: { type: 'int64', id: 5 },
            docString: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
            opsetImport: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
            metadataProps: { rule: 'repeated', type: 'StringStringEntryProto', id: 14 },
          },
        },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            docString: { type: 'string', id: 10 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
            valueInfo: { rule: 'repeated', type: 'ValueInfoProto', id: 13 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            dataType: { type: 'int32', id: 2 },
            floatData: { rule: 'repeated', type: 'float', id: 4, options: { packed: true } },
            int32Data: { rule: 'repeated', type: 'int32', id: 5, options: { packed: true } },
            int64Data: { rule: 'repeated', type: 'int64', id: 7, options: { packed: true } },
            name: { type: 'string', id: 8 },
            rawData: { type: 'bytes', id: 9 },
            doubleData: { rule: 'repeated', type: 'double', id: 10, options: { packed: true } },
            docString: { type: 'string', id: 12 },
            externalData: { rule: 'repeated', type: 'StringStringEntryProto', id: 13 },
            dataLocation: { type: 'int32', id: 14 },
          },
        },
        TensorShapeProto: {
          fields: {
            dim: { rule: 'repeated', type: 'Dimension', id: 1 },
          },
          nested: {
            Dimension: {
              oneofs: { value: { oneof: ['dimValue', 'dimParam'] } },
              fields: {
                dimValue: { type: 'int64', id: 1 },
                dimParam: { type: 'string', id: 2 },
                denotation: { type: 'string', id: 3 },
              },
            },
          },
        },
        TypeProto: {
          oneofs: { value: { oneof: ['tensorType'] } },
          fields: {
            tensorType: { type: 'Tensor', id: 1 },
          },
          nested: {
            Tensor: {
              fields: {
                elemType: { type: 'int32', id: 1 },
                shape: { type: 'TensorShapeProto', id: 2 },
              },
            },
          },
        },
        OperatorSetIdProto: {
          fields: {
            domain: { type: 'string', id: 1 },
            version: { type: 'int64', id: 2 },
          },
        },
      },
    },
  },
};

/**
 * protobufjs and the message types, loaded when a model is first encoded or decoded: an encoder that
 * pools in JavaScript (the CPU's default) never parses its model, and does not load them (issue 50).
 */
let loaded: { protobuf: typeof Protobuf; ModelProtoType: Protobuf.Type; GraphProtoType: Protobuf.Type } | undefined;
function proto(): NonNullable<typeof loaded> {
  if (loaded === undefined) {
    const protobuf = createRequire(import.meta.url)('protobufjs') as typeof Protobuf;
    const root = protobuf.Root.fromJSON(descriptor);
    loaded = {
      protobuf,
      ModelProtoType: root.lookupType('onnx.ModelProto'),
      GraphProtoType: root.lookupType('onnx.GraphProto'),
    };
  }
  return loaded;
}

// Plain-object shapes of the messages above (camelCase, as protobufjs names them).
export interface TensorProto {
  name: string;
  dims: number[];
  dataType: OnnxDataTypeCode;
  rawData: Uint8Array;
  /** The typed alternative to rawData (some exporters write small constants this way). */
  floatData?: number[];
  /** 1 (EXTERNAL): the data lives in another file, which the transforms here do not read. */
  dataLocation?: number;
  externalData?: Array<{ key: string; value: string }>;
}
export interface AttributeProto {
  name: string;
  type: number;
  f?: number;
  i?: number;
  s?: Uint8Array;
  t?: TensorProto;
  floats?: number[];
  ints?: number[];
  tensors?: TensorProto[];
}
export interface NodeProto {
  name: string;
  opType: string;
  input: string[];
  output: string[];
  attribute: AttributeProto[];
  domain?: string;
}
export interface ValueInfoProto {
  name: string;
  type: { tensorType: { elemType: number; shape: { dim: Array<{ dimValue?: number; dimParam?: string }> } } };
}
export interface GraphProto {
  name: string;
  node: NodeProto[];
  initializer: TensorProto[];
  input: ValueInfoProto[];
  output: ValueInfoProto[];
  valueInfo?: ValueInfoProto[];
}
export interface ModelProto {
  irVersion: number;
  producerName: string;
  producerVersion: string;
  docString: string;
  graph: GraphProto;
  opsetImport: Array<{ domain: string; version: number }>;
}

/** Serialises a model to the ONNX wire format (what InferenceSession loads). */
export function encodeModelProto(model: ModelProto): Uint8Array {
  const { ModelProtoType } = proto();
  const err = ModelProtoType.verify(model);
  if (err) throw new Error(`invalid ONNX model: ${err}`);
  return ModelProtoType.encode(ModelProtoType.fromObject(model)).finish();
}

/** Decodes a model (the transforms read models with it; tests inspect what the generators wrote). */
export function decodeModelProto(bytes: Uint8Array): ModelProto {
  const { ModelProtoType } = proto();
  const msg = ModelProtoType.decode(mergeGraphFields(bytes));
  return ModelProtoType.toObject(msg, { longs: Number, defaults: false, arrays: true }) as ModelProto;
}

/** Whether `bytes` decodes into the fields above with nothing left out (re-encoding gives as many bytes). */
export function modelRoundTrips(bytes: Uint8Array, decoded: ModelProto = decodeModelProto(bytes)): boolean {
  // The writer's length, without finish(): the byte copies (most of the time, for 90 MB) are skipped.
  const { ModelProtoType } = proto();
  return ModelProtoType.encode(ModelProtoType.fromObject(decoded)).len === bytes.byteLength;
}

/**
 * Appends nodes, initializers and outputs to a model's graph without decoding it: protobuf merges a
 * repeated embedded message field (ModelProto.graph, field 7) that appears twice, concatenating its
 * repeated fields, so the bytes of the model stay as they were, fields unknown to this file included.
 */
export function appendToGraph(
  model: Uint8Array,
  additions: Pick<GraphProto, 'node' | 'initializer' | 'output'>,
): Uint8Array {
  const { protobuf, GraphProtoType } = proto();
  const err = GraphProtoType.verify(additions);
  if (err) throw new Error(`invalid ONNX graph additions: ${err}`);
  const graph = GraphProtoType.encode(GraphProtoType.fromObject(additions)).finish();
  const field = protobuf.Writer.create()
    .uint32((7 << 3) | 2)
    .bytes(graph)
    .finish();
  const out = new Uint8Array(model.byteLength + field.byteLength);
  out.set(model, 0);
  out.set(field, model.byteLength);
  return out;
}

/**
 * The model with its ModelProto.graph fields merged into one. Protobuf merges an embedded message
 * that appears twice (what appendToGraph relies on, and what ONNX Runtime does), but protobufjs's
 * decoder keeps only the last one; concatenating the payloads is the merge the wire format defines.
 */
function mergeGraphFields(bytes: Uint8Array): Uint8Array {
  const { protobuf } = proto();
  const reader = protobuf.Reader.create(bytes);
  const graphs: Array<[number, number]> = [];
  const others: Array<[number, number]> = [];
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const tag = reader.uint32();
    if (tag >>> 3 === 7 && (tag & 7) === 2) {
      const length = reader.uint32();
      graphs.push([reader.pos, reader.pos + length]);
      reader.skip(length);
    } else {
      reader.skipType(tag & 7);
      others.push([start, reader.pos]);
    }
  }
  if (graphs.length < 2) return bytes;
  const merged = Buffer.concat(graphs.map(([from, to]) => bytes.subarray(from, to)));
  const head = Buffer.concat(others.map(([from, to]) => bytes.subarray(from, to)));
  const graphField = protobuf.Writer.create()
    .uint32((7 << 3) | 2)
    .bytes(merged)
    .finish();
  return Buffer.concat([head, graphField]);
}
