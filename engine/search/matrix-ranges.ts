// Exact ranges around many corpus rows at once, by blocked matrix products.
//
// The items stage enumerates windows around anchor products: R(r) = {valid rows c : cos(r, c) ≥ floor}
// for every anchor r. One exact scan per anchor costs n dot products in JavaScript; an HNSW index is
// faster but only complete up to its recall. Here the same sets are computed for all anchors
// together, exactly:
//
// 1. Candidates. ONNX Runtime (CPU) multiplies blocks of anchor rows by the whole matrix in float32
//    (S = Q·Vᵀ, the GEMM kernels run near the machine's peak) and returns the index pairs with
//    S ≥ floor − ε (GreaterOrEqual → NonZero). ε bounds the float32 rounding of a d-term dot product
//    of unit vectors (|error| ≤ γ_d·Σ|a_i b_i| ≤ γ_d, γ_d = d·u/(1 − d·u), u = 2⁻²⁴), doubled for slack,
//    so no pair whose exact cosine passes the floor can be missing from the candidates.
// 2. Exact scores. Every candidate is re-scored with `dot` (the engine's float64 cosine) and kept if it
//    passes the floor: the stored sets and scores are exactly what ExactScanRange returns.
// 3. Symmetry. cos(a, b) === cos(b, a) bit for bit (see `dot`), so each pair is computed once: rows are
//    reordered anchors first, and the anchor at position p is multiplied only by positions ≥ p; a pair
//    of two anchors is added to both lists.
//
// Stored as one CSR (compressed rows: offsets, rows ascending, exact scores) in shared memory, so
// worker threads drafting items read it without a copy. `openOrComputeRanges` saves it next to the
// embeddings (`<path>` + a `<path>.json` sidecar with checksums of the vectors and the anchors) and
// reuses it on a rerun only when both match. Memory is bounded by `maxEntries`: anchors
// past the budget (a collapsed embedding space, where every range is nearly the whole corpus) are
// answered by an exact scan at query time, which is what such a range costs anyway.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { availableParallelism, endianness } from 'node:os';
import * as ort from 'onnxruntime-node';
import { OnnxDataType } from '../../embeddings/onnx-proto.js';
import { OnnxGraphBuilder } from '../../embeddings/onnx-graph-builder.js';
import { openAtomicWriter } from '../../core/atomic.js';
import { notice } from '../../core/notice.js';
import { nothingSaved, readMatchingSidecar, removeSidecar, writeSidecar } from '../../core/sidecar.js';
import { createProgress } from '../../core/progress.js';
import {
  ExactScanRange,
  filterRange,
  type MatrixRangesData,
  type RangeResult,
  type RangeSearch,
  type WorkerSearch,
} from './range-search.js';
import { dot, type UnitVectors } from './unit-vectors.js';
import { vectorsChecksum } from './vector-index.js';

/** Default bound on stored (row, score) entries: 16M ≈ 200 MB (12 bytes each), like the range cache. */
export const DEFAULT_MAX_ENTRIES = 1 << 24;

/** Candidate pairs wanted per ONNX Runtime call (16 bytes each as int64 indices): sizes the blocks. */
const TARGET_CANDIDATES_PER_CALL = 4_000_000;
/** Bytes of the float32 product block Q·Vᵀ allowed per call. */
const PRODUCT_BLOCK_BYTES = 256 * 1024 * 1024;
/** Anchor rows per call: at most this many, and the first call's size (grown or shrunk by density). */
const MAX_BLOCK_ROWS = 512;
const FIRST_BLOCK_ROWS = 64;

/** Index of the low 32-bit word of an int64 in this machine's byte order. */
const LOW_WORD = endianness() === 'LE' ? 0 : 1;

export interface MatrixRangesOptions {
  /** ONNX Runtime threads for the products (default: every core). */
  threads?: number;
  /** Bound on stored entries over all anchors (default DEFAULT_MAX_ENTRIES). */
  maxEntries?: number;
  progress?: boolean;
}

/** What a computation did, for reports. */
export interface MatrixRangesStats {
  anchors: number;
  /** Anchors whose range is stored (the rest exceeded the entry budget: exact scan at query time). */
  stored: number;
  entries: number;
  /** Pairs the float32 products proposed, and ONNX Runtime calls made. */
  candidates: number;
  calls: number;
  seconds: number;
}

/**
 * A RangeSearch whose ranges around the given anchor rows are precomputed (see the file comment).
 * `rowRange(row)` answers an anchor from memory; any other query is an exact scan. Both are exact.
 */
export class MatrixRanges implements RangeSearch {
  readonly method = 'scan' as const;
  readonly exact = true;
  readonly description = 'exact: every anchor range by blocked matrix products, re-scored exactly (complete)';
  private readonly scan: ExactScanRange;

  constructor(
    readonly vectors: UnitVectors,
    readonly data: MatrixRangesData,
    readonly stats?: MatrixRangesStats,
  ) {
    if (data.slotOfRow.length !== vectors.size)
      throw new Error(`matrix ranges: ${data.slotOfRow.length} row slots for ${vectors.size} vectors`);
    this.scan = new ExactScanRange(vectors);
  }

  /** Computes the ranges at `floor` around every row of `anchors` (valid rows; duplicates allowed). */
  static async compute(
    vectors: UnitVectors,
    anchors: ArrayLike<number>,
    floor: number,
    opts: MatrixRangesOptions = {},
  ): Promise<MatrixRanges> {
    const started = performance.now();
    const { data, stats } = await computeRanges(vectors, anchors, floor, opts);
    return new MatrixRanges(vectors, data, { ...stats, seconds: (performance.now() - started) / 1000 });
  }

  /**
   * The range of an anchor at `floor` (inclusive), ascending, exact; undefined when it is not stored
   * or `floor` is below the computed one. At the computed floor the result views shared memory: do
   * not modify it.
   */
  rowRange(row: number, floor: number = this.data.floor): RangeResult | undefined {
    const slot = this.data.slotOfRow[row]!;
    if (slot < 0 || floor < this.data.floor) return undefined;
    const from = this.data.offsets[slot]!;
    const to = this.data.offsets[slot + 1]!;
    const all: RangeResult = {
      rows: this.data.rows.subarray(from, to),
      scores: this.data.scores.subarray(from, to),
      method: 'scan',
      exact: true,
    };
    return floor === this.data.floor ? all : filterRange(all, floor, true);
  }

  /** Any query vector: an exact scan (the stored ranges are found through `rowRange`). */
  range(query: Float32Array, lo: number, loInclusive: boolean): RangeResult {
    return this.scan.range(query, lo, loInclusive);
  }

  /**
   * Enumerating an anchor's window reads a stored list: no dot products. So windows are always
   * enumerated (never rejection-sampled), whichever rows happen to be stored, which keeps every draw
   * independent of the entry budget and of the float32 arithmetic of the machine.
   */
  estimatedCost(): number {
    return 0;
  }

  /** The ranges are in shared memory: workers read them as they are. */
  async toWorkerSpec(): Promise<WorkerSearch> {
    return { spec: { kind: 'matrix', ranges: this.data }, release: async () => {} };
  }
}

/**
 * `<path>.json` next to saved ranges: what they were computed from (a load checks every field) and,
 * as in every sidecar, the checksum of `<path>` (core/sidecar.ts).
 */
export interface RangesSidecar {
  format: 'intentsim-matrix-ranges/1';
  /** Byte order of the arrays in `<path>` (the machine's own). */
  endianness: 'LE' | 'BE';
  floor: number;
  dim: number;
  rows: number;
  /** SHA-256 of ids, validity and unit vectors (as for the HNSW index), and of the distinct anchor rows. */
  vectors: string;
  anchors: string;
  maxEntries: number;
  /** Lengths of the arrays stored one after another: slotOfRow (rows), offsets (stored + 1), rows and scores (entries). */
  stored: number;
  entries: number;
}

/** The distinct anchor rows, ascending (what the ranges depend on). */
function distinctRows(anchors: ArrayLike<number>): Int32Array {
  return Int32Array.from(new Set(Array.from(anchors))).sort();
}

/** What saved ranges must have been computed from to be reused: the sidecar less the array lengths. */
type RangesIdentity = Omit<RangesSidecar, 'stored' | 'entries'>;

/** The identity of ranges over these inputs (hashes every vector: computed once per open). */
function rangesIdentity(
  vectors: UnitVectors,
  anchors: ArrayLike<number>,
  floor: number,
  maxEntries: number,
): RangesIdentity {
  const rows = distinctRows(anchors);
  return {
    format: 'intentsim-matrix-ranges/1',
    endianness: endianness(),
    floor,
    dim: vectors.dim,
    rows: vectors.size,
    vectors: vectorsChecksum(vectors),
    anchors: createHash('sha256')
      .update(new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength))
      .digest('hex'),
    maxEntries,
  };
}

/**
 * Writes `<path>` (the four arrays) then `<path>.json`, each atomically, the old sidecar removed
 * first: no sidecar ever vouches for a partial file or for another computation's.
 */
async function saveRanges(ranges: MatrixRanges, path: string, identity: RangesIdentity): Promise<void> {
  const d = ranges.data;
  await removeSidecar(path);
  const out = await openAtomicWriter(path);
  try {
    for (const a of [d.slotOfRow, d.offsets, d.rows, d.scores])
      await out.write(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    await out.commit();
  } catch (err) {
    await out.abort();
    throw err;
  }
  const side: RangesSidecar = { ...identity, stored: d.offsets.length - 1, entries: d.rows.length };
  await writeSidecar(path, side);
}

/** Loads ranges saved for exactly these vectors, anchors, floor and budget; otherwise says why not. */
export async function loadRanges(
  path: string,
  vectors: UnitVectors,
  anchors: ArrayLike<number>,
  floor: number,
  maxEntries = DEFAULT_MAX_ENTRIES,
): Promise<MatrixRanges | { stale: string }> {
  return loadMatchingRanges(path, vectors, rangesIdentity(vectors, anchors, floor, maxEntries));
}

async function loadMatchingRanges(
  path: string,
  vectors: UnitVectors,
  identity: RangesIdentity,
): Promise<MatrixRanges | { stale: string }> {
  const side = await readMatchingSidecar<RangesSidecar>(path, identity, 'ranges');
  if ('stale' in side) return side;
  const floor = identity.floor;
  const bytes = await readFile(path);
  const lengths = [vectors.size, side.stored + 1, side.entries, side.entries];
  const widths = [4, 4, 4, 8];
  const size = lengths.reduce((sum, n, k) => sum + n * widths[k]!, 0);
  if (bytes.byteLength !== size)
    return { stale: `${path} has ${bytes.byteLength} bytes, the sidecar describes ${size}` };
  let at = 0;
  const [slotOfRow, offsets, rows, scores] = lengths.map((n, k) => {
    const shared = new Uint8Array(new SharedArrayBuffer(n * widths[k]!));
    shared.set(bytes.subarray(at, at + n * widths[k]!));
    at += n * widths[k]!;
    return k === 3 ? new Float64Array(shared.buffer) : new Int32Array(shared.buffer);
  }) as [Int32Array, Int32Array, Int32Array, Float64Array];
  return new MatrixRanges(vectors, { floor, slotOfRow, offsets, rows, scores });
}

/**
 * Reuses the ranges saved at `path` when they match (inputs and content checksum), else computes and
 * saves them and says why: in `recomputed`, and on stderr when a saved file was there but unusable.
 */
export async function openOrComputeRanges(
  path: string,
  vectors: UnitVectors,
  anchors: ArrayLike<number>,
  floor: number,
  opts: MatrixRangesOptions = {},
): Promise<{ ranges: MatrixRanges; recomputed?: string }> {
  const identity = rangesIdentity(vectors, anchors, floor, opts.maxEntries ?? DEFAULT_MAX_ENTRIES);
  const loaded = await loadMatchingRanges(path, vectors, identity);
  if (loaded instanceof MatrixRanges) return { ranges: loaded };
  if (loaded.stale !== nothingSaved('ranges')) notice(`${path}: ${loaded.stale}; computing the window ranges again`);
  const ranges = await MatrixRanges.compute(vectors, anchors, floor, opts);
  await saveRanges(ranges, path, identity);
  return { ranges, recomputed: loaded.stale };
}

/** floor − ε as a float32 no larger than floor − ε (see the file comment for ε). */
export function candidateThreshold(floor: number, dim: number): number {
  const u = 2 ** -24;
  const gamma = (dim * u) / (1 - dim * u);
  const t = floor - 2 * gamma;
  const t32 = Math.fround(t);
  // Rounded to nearest, t32 may lie above t: step a float32 ulp down then.
  return t32 <= t ? t32 : Math.fround(t - Math.abs(t) * 2 ** -23);
}

/** The ONNX model: inputs q [b, d], v [m, d], t (scalar); output idx [2, c], the (i, j) with (q·vᵀ)[i, j] ≥ t. */
export function thresholdProductModel(dim: number): Uint8Array {
  const g = new OnnxGraphBuilder();
  const q = g.input('q', OnnxDataType.FLOAT, ['b', dim]);
  const v = g.input('v', OnnxDataType.FLOAT, ['m', dim]);
  const t = g.input('t', OnnxDataType.FLOAT, []);
  const s = g.op('Gemm', [q, v], { transB: 1 });
  g.op('NonZero', [g.op('GreaterOrEqual', [s, t])], {}, 'idx');
  g.output('idx', OnnxDataType.INT64, [2, 'c']);
  return g.toModel({
    graphName: 'intentsim_threshold_product',
    opset: 17,
    producer: 'intentsim',
    docString: 'Index pairs (i, j) with q_i · v_j ≥ t: candidates for exact cosine ranges.',
  });
}

/** Growable parallel arrays of (slot, row, score) entries. */
class EntryBuffer {
  slots = new Int32Array(1 << 16);
  rows = new Int32Array(1 << 16);
  scores = new Float64Array(1 << 16);
  length = 0;

  push(slot: number, row: number, score: number): void {
    if (this.length === this.slots.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.slots = grow(this.slots);
      this.rows = grow(this.rows);
      this.scores = grow(this.scores);
    }
    this.slots[this.length] = slot;
    this.rows[this.length] = row;
    this.scores[this.length] = score;
    this.length += 1;
  }
}

async function computeRanges(
  vectors: UnitVectors,
  anchorList: ArrayLike<number>,
  floor: number,
  opts: MatrixRangesOptions,
): Promise<{ data: MatrixRangesData; stats: Omit<MatrixRangesStats, 'seconds'> }> {
  const { dim, size } = vectors;
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  // Positions: anchors first (ascending), then the other valid rows.
  const isAnchor = new Uint8Array(size);
  for (let k = 0; k < anchorList.length; k++) {
    const r = anchorList[k]!;
    if (!vectors.isValid(r)) throw new Error(`matrix ranges: anchor row ${r} ("${vectors.ids[r]}") has no vector`);
    isAnchor[r] = 1;
  }
  const order: number[] = [];
  for (const r of vectors.validRows) if (isAnchor[r]) order.push(r);
  const anchors = order.length;
  for (const r of vectors.validRows) if (!isAnchor[r]) order.push(r);
  const m = order.length;
  const permuted = new Float32Array(m * dim);
  order.forEach((r, p) => permuted.set(vectors.data.subarray(r * dim, (r + 1) * dim), p * dim));

  const entries = new EntryBuffer();
  let candidates = 0;
  let calls = 0;
  let stored = 0; // anchors [0, stored) are complete
  const progress = createProgress({ label: 'window ranges', total: anchors, unit: 'anchors', enabled: opts.progress });
  const session =
    anchors > 0
      ? await ort.InferenceSession.create(thresholdProductModel(dim), sessionOptions(opts.threads))
      : undefined;
  try {
    const threshold = new ort.Tensor('float32', Float32Array.of(candidateThreshold(floor, dim)), []);
    const maxRowsByMemory = Math.max(1, Math.min(MAX_BLOCK_ROWS, Math.floor(PRODUCT_BLOCK_BYTES / (4 * m))));
    let blockRows = Math.min(FIRST_BLOCK_ROWS, maxRowsByMemory);
    let budgetExhausted = false;
    for (let p0 = 0; p0 < anchors && !budgetExhausted;) {
      const p1 = Math.min(anchors, p0 + blockRows);
      const q = new ort.Tensor('float32', permuted.subarray(p0 * dim, p1 * dim), [p1 - p0, dim]);
      const v = new ort.Tensor('float32', permuted.subarray(p0 * dim), [m - p0, dim]);
      const out = await session!.run({ q, v, t: threshold });
      calls += 1;
      const idx = out.idx!;
      const count = idx.dims[1]!;
      // int64 indices below 2³¹, read as their low 32-bit words: reading a BigInt64Array element
      // allocates a BigInt, which would cost more than the exact dot product of the pair.
      const int64 = idx.data as BigInt64Array;
      const words = new Int32Array(int64.buffer, int64.byteOffset, 2 * int64.length);
      const low = LOW_WORD;
      candidates += count;
      // Pairs come sorted by query row: handle each anchor's run as a whole (the budget is per anchor).
      let k = 0;
      for (let p = p0; p < p1; p++) {
        const runStart = k;
        while (k < count && words[2 * k + low]! + p0 === p) k += 1;
        if (entries.length + 2 * (k - runStart) > maxEntries) {
          budgetExhausted = true;
          break;
        }
        const row = order[p]!;
        for (let c = runStart; c < k; c++) {
          const pc = words[2 * (count + c) + low]! + p0;
          if (pc < p) continue; // the pair (pc, p) is this block's too: counted once, below the diagonal
          const col = order[pc]!;
          const s = dot(vectors.data, row * dim, vectors.data, col * dim, dim);
          if (s < floor) continue;
          entries.push(p, col, s);
          if (pc < anchors && pc !== p) entries.push(pc, row, s);
        }
        stored = p + 1;
      }
      progress.increment(stored - p0);
      // Next block: as many rows as keep the candidate pairs near the target, within the memory bound.
      const perRow = Math.max(1, count / (p1 - p0));
      blockRows = Math.max(1, Math.min(maxRowsByMemory, Math.floor(TARGET_CANDIDATES_PER_CALL / perRow)));
      p0 = p1;
    }
  } finally {
    progress.stop();
    await session?.release();
  }
  const data = toCsr(vectors, order, stored, entries, floor);
  return { data, stats: { anchors, stored, entries: data.rows.length, candidates, calls } };
}

/** Entries grouped by slot (counting sort), rows ascending within a slot, in shared memory. */
function toCsr(
  vectors: UnitVectors,
  order: readonly number[],
  stored: number,
  entries: EntryBuffer,
  floor: number,
): MatrixRangesData {
  const int32s = (n: number) => new Int32Array(new SharedArrayBuffer(n * 4));
  const slotOfRow = int32s(vectors.size).fill(-1);
  for (let p = 0; p < stored; p++) slotOfRow[order[p]!] = p;
  const offsets = int32s(stored + 1);
  for (let e = 0; e < entries.length; e++) {
    const s = entries.slots[e]!;
    if (s < stored) offsets[s + 1]! += 1;
  }
  for (let s = 0; s < stored; s++) offsets[s + 1]! += offsets[s]!;
  const total = offsets[stored]!;
  const rows = int32s(total);
  const scores = new Float64Array(new SharedArrayBuffer(total * 8));
  const fill = offsets.slice(0, stored);
  for (let e = 0; e < entries.length; e++) {
    const s = entries.slots[e]!;
    if (s >= stored) continue;
    const at = fill[s]!++;
    rows[at] = entries.rows[e]!;
    scores[at] = entries.scores[e]!;
  }
  // Rows ascending within each slot, as an exact scan returns them. Each entry is keyed
  // row · length + k, exact in a float64 while rows · length < 2⁵³ (checked), so a native numeric
  // sort of the keys orders the rows and still says where each score was.
  for (let s = 0; s < stored; s++) {
    const from = offsets[s]!;
    const len = offsets[s + 1]! - from;
    if (len < 2) continue;
    if (vectors.size * len > Number.MAX_SAFE_INTEGER)
      throw new Error(`matrix ranges: ${len} members in one range is beyond the sort's exact keys`);
    const keys = new Float64Array(len);
    for (let k = 0; k < len; k++) keys[k] = rows[from + k]! * len + k;
    keys.sort();
    const sortedScores = new Float64Array(len);
    for (let k = 0; k < len; k++) {
      const at = keys[k]! % len;
      rows[from + k] = (keys[k]! - at) / len;
      sortedScores[k] = scores[from + at]!;
    }
    scores.set(sortedScores, from);
  }
  return { floor, slotOfRow, offsets, rows, scores };
}

function sessionOptions(threads: number | undefined): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads && threads > 0 ? threads : availableParallelism(),
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  };
}
