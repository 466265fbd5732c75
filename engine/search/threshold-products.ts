// Candidate pairs for exact ranges: blocks of float32 matrix products in ONNX Runtime, thresholded.
//
// MatrixRanges (matrix-ranges.ts) orders the valid rows anchors first ("positions") and asks, block
// by block, for every pair (p, c) with p in [p0, p1) and c ≥ p0 whose float32 product passes
// `candidateThreshold(floor, dim)`. This file owns that step: the ONNX model (S = Q·Vᵀ, then
// GreaterOrEqual → NonZero), the session, and the float32 copy of the rows in position order that
// the products read. It runs on the main thread (the serial path) or inside a worker thread
// (threshold-products-worker.ts, the pipelined path); both give the same pairs, in the same order.
import { availableParallelism, endianness } from 'node:os';
import type * as Ort from 'onnxruntime-node';
import { ort } from '../../embeddings/onnxruntime.js';
import { OnnxDataType } from '../../embeddings/onnx-proto.js';
import { OnnxGraphBuilder } from '../../embeddings/onnx-graph-builder.js';

/** Index of the low 32-bit word of an int64 in this machine's byte order. */
const LOW_WORD = endianness() === 'LE' ? 0 : 1;

/** What the products need: plain data, so that it can be sent to a worker thread as it is. */
export interface ThresholdProductsInput {
  dim: number;
  /** Unit rows, row-major (shared memory in a worker's workerData: not copied on the way). */
  data: Float32Array;
  /** The row at each position: anchors first (see the file comment). */
  order: Int32Array;
  floor: number;
  /** ONNX Runtime intra-op threads (0 or absent: every core). */
  threads?: number;
  /**
   * Let ONNX Runtime's idle pool threads spin between parallel sections (its default). The pipelined
   * path turns it off: during the single-threaded NonZero, a spinning thread would take the core
   * that the main thread's re-scoring runs on.
   */
  spinning?: boolean;
  /** Use the grouped model (`groupedThresholdProductModel`; default false: `thresholdProductModel`). */
  grouped?: boolean;
}

/**
 * The candidate pairs of one block, as positions: pair k is (p0 + pairs[k], p0 + pairs[count + k]).
 * Sorted by query position, then column position (NonZero's row-major order).
 */
export type CandidatePairs = Int32Array;

/** floor − ε as a float32 no larger than floor − ε (ε: see matrix-ranges.ts). */
export function candidateThreshold(floor: number, dim: number): number {
  const u = 2 ** -24;
  const gamma = (dim * u) / (1 - dim * u);
  const t = floor - 2 * gamma;
  const t32 = Math.fround(t);
  // Rounded to nearest, t32 may lie above t: step a float32 ulp down then.
  return t32 <= t ? t32 : Math.fround(t - Math.abs(t) * 2 ** -23);
}

/**
 * An ONNX model with inputs q [b, d], v [m, d] and t (a scalar) computing S = q·vᵀ in float32;
 * `threshold` adds the nodes and outputs that turn S into candidate pairs.
 */
function productModel(
  dim: number,
  graphName: string,
  docString: string,
  threshold: (g: OnnxGraphBuilder, s: string, t: string) => void,
): Uint8Array {
  const g = new OnnxGraphBuilder();
  const q = g.input('q', OnnxDataType.FLOAT, ['b', dim]);
  const v = g.input('v', OnnxDataType.FLOAT, ['m', dim]);
  const t = g.input('t', OnnxDataType.FLOAT, []);
  threshold(g, g.op('Gemm', [q, v], { transB: 1 }), t);
  return g.toModel({ graphName, opset: 17, producer: 'intentsim', docString });
}

/**
 * The serial path's model: output idx [2, c], the (i, j) with S[i, j] ≥ t. NonZero runs on one
 * thread over all b·m flags: 50 of the 165 ms of a 512 × 100k call (2 threads, 384-d; the Gemm
 * takes 110, ONNX Runtime's profile).
 */
export function thresholdProductModel(dim: number): Uint8Array {
  const doc = 'Index pairs (i, j) with q_i · v_j ≥ t: candidates for exact cosine ranges.';
  return productModel(dim, 'intentsim_threshold_product', doc, (g, s, t) => {
    g.op('NonZero', [g.op('GreaterOrEqual', [s, t])], {}, 'idx');
    g.output('idx', OnnxDataType.INT64, [2, 'c']);
  });
}

/** Columns per group of the grouped model; its column count must be a multiple (see `paddedColumns`). */
export const COLUMN_GROUP = 16;

/**
 * The pipelined path's model: the same pairs, found in two steps. S [b, m] is viewed as groups of
 * COLUMN_GROUP columns; a group whose maximum passes t is gathered and its columns tested. Outputs:
 * groups [2, g], the (i, group) whose maximum is ≥ t, and lanes [2, c], the (k, column in group) of
 * group k passing t. The maximum is one of the float32 values, so a group passes exactly when one
 * of its columns does: the pairs are the other model's, in the same order, and the one-thread
 * NonZero reads 16× fewer flags (six warm 512 × 99,840 calls, 2 threads: 224 → 156 ms on average).
 */
export function groupedThresholdProductModel(dim: number): Uint8Array {
  const doc = 'Index pairs (i, j) with q_i · v_j ≥ t, found group by group: candidates for exact cosine ranges.';
  return productModel(dim, 'intentsim_grouped_threshold_product', doc, (g, s, t) => {
    const grouped = g.op('Reshape', [s, g.int64s('group_shape', [3], [0, -1, COLUMN_GROUP])]);
    const maxima = g.op('ReduceMax', [grouped], { axes: [2], keepdims: 0 });
    const groups = g.op('NonZero', [g.op('GreaterOrEqual', [maxima, t])], {}, 'groups');
    const values = g.op('GatherND', [grouped, g.op('Transpose', [groups], { perm: [1, 0] })]);
    g.op('NonZero', [g.op('GreaterOrEqual', [values, t])], {}, 'lanes');
    g.output('groups', OnnxDataType.INT64, [2, 'g']);
    g.output('lanes', OnnxDataType.INT64, [2, 'c']);
  });
}

/** Columns the grouped model is given for `columns` real ones: rounded up to whole groups (zero rows after the end). */
function paddedColumns(columns: number): number {
  return Math.ceil(columns / COLUMN_GROUP) * COLUMN_GROUP;
}

/** The low 32-bit words of int64 values below 2³¹, as a view (no BigInt per element). */
function lowWords(tensor: Ort.Tensor): { words: Int32Array; length: number } {
  const int64 = tensor.data as BigInt64Array;
  return { words: new Int32Array(int64.buffer, int64.byteOffset, 2 * int64.length), length: int64.length };
}

export class ThresholdProducts {
  private constructor(
    private readonly session: Ort.InferenceSession,
    /**
     * The rows in position order, in ordinary memory (ONNX Runtime refuses tensors over shared
     * memory), followed by COLUMN_GROUP zero rows for the grouped model's padding.
     */
    private readonly permuted: Float32Array,
    private readonly positions: number,
    private readonly dim: number,
    private readonly threshold: Ort.Tensor,
    private readonly grouped: boolean,
  ) {}

  static async open(input: ThresholdProductsInput): Promise<ThresholdProducts> {
    const { dim, data, order } = input;
    const grouped = input.grouped ?? false;
    const permuted = new Float32Array((order.length + (grouped ? COLUMN_GROUP : 0)) * dim);
    for (let p = 0; p < order.length; p++) {
      const from = order[p]! * dim;
      permuted.set(data.subarray(from, from + dim), p * dim);
    }
    const model = grouped ? groupedThresholdProductModel(dim) : thresholdProductModel(dim);
    const session = await ort.InferenceSession.create(model, {
      executionProviders: ['cpu'],
      intraOpNumThreads: input.threads && input.threads > 0 ? input.threads : availableParallelism(),
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      ...(input.spinning === false ? { extra: { session: { intra_op: { allow_spinning: '0' } } } } : {}),
    });
    const threshold = new ort.Tensor('float32', Float32Array.of(candidateThreshold(input.floor, dim)), []);
    return new ThresholdProducts(session, permuted, order.length, dim, threshold, grouped);
  }

  /** The candidate pairs of query positions [p0, p1) against every position ≥ p0. */
  async pairs(p0: number, p1: number): Promise<CandidatePairs> {
    const { dim, permuted } = this;
    const columns = this.positions - p0;
    const width = this.grouped ? paddedColumns(columns) : columns;
    const q = new ort.Tensor('float32', permuted.subarray(p0 * dim, p1 * dim), [p1 - p0, dim]);
    const v = new ort.Tensor('float32', permuted.subarray(p0 * dim, (p0 + width) * dim), [width, dim]);
    const out = await this.session.run({ q, v, t: this.threshold });
    // int64 indices below 2³¹ are read as their low 32-bit words: reading a BigInt64Array element
    // allocates a BigInt, which would cost more than the exact dot product of the pair.
    if (!this.grouped) {
      const { words, length } = lowWords(out.idx!);
      const pairs = new Int32Array(length);
      for (let k = 0; k < length; k++) pairs[k] = words[2 * k + LOW_WORD]!;
      return pairs;
    }
    const groups = lowWords(out.groups!);
    const lanes = lowWords(out.lanes!);
    const ng = groups.length / 2;
    const count = lanes.length / 2;
    const query = new Int32Array(count);
    const column = new Int32Array(count);
    let kept = 0;
    for (let k = 0; k < count; k++) {
      const group = lanes.words[2 * k + LOW_WORD]!;
      const c = groups.words[2 * (ng + group) + LOW_WORD]! * COLUMN_GROUP + lanes.words[2 * (count + k) + LOW_WORD]!;
      if (c >= columns) continue; // a padding row: its product 0 passes a threshold ≤ 0
      query[kept] = groups.words[2 * group + LOW_WORD]!;
      column[kept] = c;
      kept += 1;
    }
    const pairs = new Int32Array(2 * kept);
    pairs.set(query.subarray(0, kept));
    pairs.set(column.subarray(0, kept), kept);
    return pairs;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
