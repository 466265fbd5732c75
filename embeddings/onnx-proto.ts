// The subset of onnx.proto (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto, IR version 8)
// that the model generators need, declared as a protobufjs JSON descriptor so that no .proto file or
// Python toolchain is involved. Field numbers are onnx.proto's; only fields the generators write are
// listed (protobuf readers skip nothing they need: every field we omit is optional in ONNX).
import protobuf from 'protobufjs';

/** ONNX TensorProto.DataType values used here. */
export const OnnxDataType = {
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  INT32: 6,
  INT64: 7,
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
            type: { type: 'int32', id: 20 },
          },
        },
        ValueInfoProto: {
          fields: {
            name: { type: 'string', id: 1 },
            type: { type: 'TypeProto', id: 2 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
            domain: { type: 'string', id: 7 },
          },
        },
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            producerName: { type: 'string', id: 2 },
            producerVersion: { type: 'string', id: 3 },
            docString: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
            opsetImport: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
          },
        },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            dataType: { type: 'int32', id: 2 },
            name: { type: 'string', id: 8 },
            rawData: { type: 'bytes', id: 9 },
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

const root = protobuf.Root.fromJSON(descriptor);
const ModelProtoType = root.lookupType('onnx.ModelProto');

// Plain-object shapes of the messages above (camelCase, as protobufjs names them).
export interface TensorProto {
  name: string;
  dims: number[];
  dataType: OnnxDataTypeCode;
  rawData: Uint8Array;
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
  const err = ModelProtoType.verify(model);
  if (err) throw new Error(`invalid ONNX model: ${err}`);
  return ModelProtoType.encode(ModelProtoType.fromObject(model)).finish();
}

/** Decodes a model (used by tests to inspect what the generators wrote). */
export function decodeModelProto(bytes: Uint8Array): ModelProto {
  const msg = ModelProtoType.decode(bytes);
  return ModelProtoType.toObject(msg, { longs: Number, defaults: false, arrays: true }) as ModelProto;
}
