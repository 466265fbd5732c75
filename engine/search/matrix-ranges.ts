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
// 4. Pipelining. onnxruntime-node runs `session.run` synchronously on the calling thread, so on one
//    thread the products and the re-scoring take turns. The pipelined path (the default for large
//    inputs, see PIPELINE_MIN_PAIRS) runs the products in PIPELINE_LANES worker threads
//    (threshold-products-worker.ts), each with its own session and its own copy of the rows, and
//    asks for the next blocks before re-scoring the current one: the products of blocks k+1 and k+2
//    run while this thread re-scores block k, orders its entries and, at the end, builds the CSR.
//    Two lanes of one ONNX thread each rather than one of two: under a shared core's load a
//    two-thread GEMM waits for its slower thread, and the one-thread NonZero of one lane overlaps
//    the other lane's GEMM. Its model finds the same pairs group by group (threshold-products.ts),
//    with a 16× smaller NonZero. Blocks are re-scored in order, so the lists are the serial path's,
//    byte for byte (`pipelined: false` keeps that path, for comparison and tests).
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
import { Piscina } from 'piscina';
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
import { ThresholdProducts, type CandidatePairs, type ThresholdProductsInput } from './threshold-products.js';
import type { ProductTask } from './threshold-products-worker.js';
import { compiledWorkerFile } from '../../workers/worker-file.js';
import { keepOrtTelemetryOff } from '../../embeddings/ort-telemetry.js';

/** Default bound on stored (row, score) entries: 16M ≈ 200 MB (12 bytes each), like the range cache. */
export const DEFAULT_MAX_ENTRIES = 1 << 24;

/** Candidate pairs wanted per ONNX Runtime call (16 bytes each as int64 indices): sizes the blocks. */
const TARGET_CANDIDATES_PER_CALL = 4_000_000;
/** Bytes of the float32 product block Q·Vᵀ allowed per call. */
const PRODUCT_BLOCK_BYTES = 256 * 1024 * 1024;
/** Anchor rows per call: at most this many, and the first call's size (grown or shrunk by density). */
const MAX_BLOCK_ROWS = 512;
const FIRST_BLOCK_ROWS = 64;
/** Worker threads of the pipelined path, each with its own session and blocks in flight. */
export const PIPELINE_LANES = 2;
/**
 * Anchor × row pairs from which the default is the pipelined path. Starting its workers costs about
 * 0.2 s (each copies the rows and warms its session); at 10k products (5.2e7 pairs) the serial path
 * takes 0.5 s and is still faster, at 100k (5.1e9 pairs) the pipelined one is (bench/items.ts).
 */
export const PIPELINE_MIN_PAIRS = 1e9;

export interface MatrixRangesOptions {
  /** ONNX Runtime threads for the products (default: every core). */
  threads?: number;
  /** Bound on stored entries over all anchors (default DEFAULT_MAX_ENTRIES). */
  maxEntries?: number;
  progress?: boolean;
  /** Most anchor rows per ONNX Runtime call (default 512; fewer rows, smaller product blocks). */
  maxBlockRows?: number;
  /**
   * Run the products in worker threads, the next blocks' while this thread re-scores the current one
   * (true), or both on this thread in turn with the original candidate model (false: the serial
   * path, kept for comparison). Default: pipelined from PIPELINE_MIN_PAIRS anchor × row pairs, where
   * it is measured faster; below, starting the workers costs more than the overlap saves (bench/items.ts).
   * The ranges are the same either way.
   */
  pipelined?: boolean;
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

/** Entries per chunk of an EntryBuffer (16 MB): the buffer grows by chunks and never copies. */
const ENTRY_CHUNK = 1 << 20;

/** Appendable parallel arrays of (slot, row, score) entries, in chunks of ENTRY_CHUNK. */
class EntryBuffer {
  readonly chunks: Array<{ slots: Int32Array; rows: Int32Array; scores: Float64Array }> = [];
  length = 0;
  private slots = new Int32Array(0);
  private rows = new Int32Array(0);
  private scores = new Float64Array(0);
  private used = 0;

  push(slot: number, row: number, score: number): void {
    if (this.used === this.slots.length) {
      this.slots = new Int32Array(ENTRY_CHUNK);
      this.rows = new Int32Array(ENTRY_CHUNK);
      this.scores = new Float64Array(ENTRY_CHUNK);
      this.chunks.push({ slots: this.slots, rows: this.rows, scores: this.scores });
      this.used = 0;
    }
    this.slots[this.used] = slot;
    this.rows[this.used] = row;
    this.scores[this.used] = score;
    this.used += 1;
    this.length += 1;
  }

  /** Entries held by chunk k (every chunk but the last is full). */
  chunkLength(k: number): number {
    return k < this.chunks.length - 1 ? ENTRY_CHUNK : this.length - ENTRY_CHUNK * (this.chunks.length - 1);
  }
}

/**
 * Where a block's candidate pairs come from: a session on this thread (serial: the products and the
 * re-scoring take turns, one block at a time), or `lanes` worker threads with a session each (the
 * next blocks' products are asked for before this block is re-scored, so the two overlap).
 */
interface CandidateSource {
  /** Blocks asked for ahead of the one being re-scored (0: serial). */
  readonly lanes: number;
  pairs(p0: number, p1: number): Promise<CandidatePairs>;
  close(): Promise<void>;
}

async function openCandidateSource(input: ThresholdProductsInput, pipelined: boolean): Promise<CandidateSource> {
  if (!pipelined) {
    const products = await ThresholdProducts.open(input);
    return { lanes: 0, pairs: (p0, p1) => products.pairs(p0, p1), close: () => products.release() };
  }
  const threads = input.threads && input.threads > 0 ? input.threads : availableParallelism();
  const lanes = PIPELINE_LANES;
  keepOrtTelemetryOff(); // the workers open ORT sessions; only this thread can set the variable
  const pool = new Piscina<ProductTask, CandidatePairs>({
    filename: compiledWorkerFile(new URL('./threshold-products-worker.js', import.meta.url)),
    minThreads: lanes,
    maxThreads: lanes,
    workerData: {
      ...input,
      threads: Math.max(1, Math.floor(threads / lanes)),
      spinning: false,
      grouped: true,
    } satisfies ThresholdProductsInput,
  });
  // Blocks still in flight when the entry budget stops the scan are dropped, but the pool is destroyed
  // only once they have settled: Piscina throws an uncaught "Unexpected message from Worker" when a
  // result arrives for a task of a pool being destroyed.
  const inFlight = new Set<Promise<unknown>>();
  return {
    lanes,
    pairs: (p0, p1) => {
      const task = pool.run({ p0, p1 });
      const settled: Promise<unknown> = task.then(
        () => inFlight.delete(settled),
        () => inFlight.delete(settled), // observed when awaited
      );
      inFlight.add(settled);
      return task;
    },
    close: async () => {
      await Promise.all(inFlight);
      await pool.destroy();
    },
  };
}

async function computeRanges(
  vectors: UnitVectors,
  anchorList: ArrayLike<number>,
  floor: number,
  opts: MatrixRangesOptions,
): Promise<{ data: MatrixRangesData; stats: Omit<MatrixRangesStats, 'seconds'> }> {
  const { dim, size, data } = vectors;
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  // Positions: anchors first (ascending), then the other valid rows.
  const isAnchor = new Uint8Array(size);
  for (let k = 0; k < anchorList.length; k++) {
    const r = anchorList[k]!;
    if (!vectors.isValid(r)) throw new Error(`matrix ranges: anchor row ${r} ("${vectors.ids[r]}") has no vector`);
    isAnchor[r] = 1;
  }
  const valid = vectors.validRows;
  const order = new Int32Array(valid.length);
  let anchors = 0;
  for (const r of valid) if (isAnchor[r]) order[anchors++] = r;
  for (let m = anchors, k = 0; k < valid.length; k++) if (!isAnchor[valid[k]!]) order[m++] = valid[k]!;
  const m = order.length;

  const entries = new EntryBuffer();
  const columns = new ColumnScratch(valid.length);
  let candidates = 0;
  let calls = 0;
  let stored = 0; // anchors [0, stored) are complete
  const progress = createProgress({ label: 'window ranges', total: anchors, unit: 'anchors', enabled: opts.progress });
  const source =
    anchors > 0
      ? await openCandidateSource(
          { dim, data, order, floor, threads: opts.threads },
          opts.pipelined ?? anchors * m >= PIPELINE_MIN_PAIRS,
        )
      : undefined;
  try {
    const maxRows = Math.max(
      1,
      Math.min(opts.maxBlockRows ?? MAX_BLOCK_ROWS, Math.floor(PRODUCT_BLOCK_BYTES / (4 * m))),
    );
    let blockRows = Math.min(FIRST_BLOCK_ROWS, maxRows);
    // Blocks asked for, in position order; each is re-scored when its turn comes.
    const asked: Array<{ p0: number; p1: number; pairs: Promise<CandidatePairs> }> = [];
    let askedUpTo = 0;
    const ask = () => {
      if (askedUpTo >= anchors) return;
      const p1 = Math.min(anchors, askedUpTo + blockRows);
      asked.push({ p0: askedUpTo, p1, pairs: source!.pairs(askedUpTo, p1) });
      askedUpTo = p1;
    };
    ask();
    for (let k = 0; k < (source?.lanes ?? 0) - 1; k++) ask();
    for (let block = asked.shift(); block; block = asked.shift()) {
      const { p0, p1 } = block;
      const pairs = await block.pairs;
      calls += 1;
      const count = pairs.length / 2;
      candidates += count;
      // Next block: as many rows as keep the candidate pairs near the target, within the memory bound.
      const perRow = Math.max(1, count / (p1 - p0));
      blockRows = Math.max(1, Math.min(maxRows, Math.floor(TARGET_CANDIDATES_PER_CALL / perRow)));
      if (source!.lanes > 0) ask();
      if (entries.length + 2 * count <= maxEntries) {
        // The whole block fits the budget whatever the scores: re-score it column by column.
        rescoreByColumn(pairs, p0, count, order, anchors, data, dim, floor, entries, columns);
        stored = p1;
        progress.increment(p1 - p0);
        if (source!.lanes === 0) ask();
        continue;
      }
      // Pairs come sorted by query position: each anchor's run is handled as a whole (the budget is per anchor).
      let k = 0;
      for (let p = p0; p < p1; p++) {
        const runStart = k;
        while (k < count && pairs[k]! + p0 === p) k += 1;
        if (entries.length + 2 * (k - runStart) > maxEntries) break;
        const row = order[p]!;
        for (let c = runStart; c < k; c++) {
          const pc = pairs[count + c]! + p0;
          if (pc < p) continue; // the pair (pc, p) is this block's too: counted once, below the diagonal
          const col = order[pc]!;
          const s = dot(data, row * dim, data, col * dim, dim);
          if (s < floor) continue;
          entries.push(p, col, s);
          if (pc < anchors && pc !== p) entries.push(pc, row, s);
        }
        stored = p + 1;
      }
      progress.increment(stored - p0);
      if (stored < p1) break; // the entry budget is spent
      if (source!.lanes === 0) ask();
    }
  } finally {
    progress.stop();
    await source?.close();
  }
  const csr = toCsr(vectors, order, stored, entries, floor);
  return { data: csr, stats: { anchors, stored, entries: csr.rows.length, candidates, calls } };
}

/** Scratch of rescoreByColumn, allocated once per computation: a count or start per column position. */
class ColumnScratch {
  readonly starts: Int32Array;
  private queries = new Int32Array(0);
  constructor(positions: number) {
    this.starts = new Int32Array(positions + 1);
  }
  /** An array for `n` query positions (grown, never shrunk). */
  queriesFor(n: number): Int32Array {
    if (this.queries.length < n) this.queries = new Int32Array(Math.max(n, 2 * this.queries.length));
    return this.queries;
  }
}

/**
 * The exact scores of one block's candidate pairs, taken column by column: each candidate row is read
 * from memory once for all the block's anchors whose pair it is, while the anchors' rows stay in the
 * cache (row by row, each anchor read all of its ~8,000 candidate rows anew: at 200k products this
 * loop was bound by those reads). The scores are the same `dot`s; only the order the entries arrive
 * in differs, and toCsr orders every slot by row.
 */
function rescoreByColumn(
  pairs: CandidatePairs,
  p0: number,
  count: number,
  order: Int32Array,
  anchors: number,
  data: Float32Array,
  dim: number,
  floor: number,
  entries: EntryBuffer,
  scratch: ColumnScratch,
): void {
  // Counting sort of the pairs (p, pc), pc ≥ p, by column position pc − p0 (stable: p ascending within a column).
  const starts = scratch.starts;
  const width = order.length - p0;
  starts.fill(0, 0, width + 1);
  for (let c = 0; c < count; c++) {
    const q = pairs[c]!;
    const col = pairs[count + c]!;
    if (col >= q) starts[col + 1]! += 1;
  }
  for (let col = 0; col < width; col++) starts[col + 1]! += starts[col]!;
  const queries = scratch.queriesFor(starts[width]!);
  const fill = starts.slice(0, width);
  for (let c = 0; c < count; c++) {
    const q = pairs[c]!;
    const col = pairs[count + c]!;
    if (col >= q) queries[fill[col]!++] = q;
  }
  for (let col = 0; col < width; col++) {
    const from = starts[col]!;
    const to = starts[col + 1]!;
    if (from === to) continue;
    const pc = col + p0;
    const colRow = order[pc]!;
    for (let at = from; at < to; at++) {
      const p = queries[at]! + p0;
      const row = order[p]!;
      const s = dot(data, row * dim, data, colRow * dim, dim);
      if (s < floor) continue;
      entries.push(p, colRow, s);
      if (pc < anchors && pc !== p) entries.push(pc, row, s);
    }
  }
}

/**
 * Entries grouped by slot (counting sort), rows ascending within a slot, in shared memory.
 *
 * Within a slot the entries arrive as two ascending runs of rows: the anchors (first those found
 * from earlier anchors, whose rows are smaller, then its own from its row up) and then the other
 * rows (see `computeRanges`: positions are anchors ascending, then the other rows ascending). So a
 * merge of the two runs orders a slot; a slot that is not two runs (never seen) is sorted instead.
 */
function toCsr(
  vectors: UnitVectors,
  order: Int32Array,
  stored: number,
  entries: EntryBuffer,
  floor: number,
): MatrixRangesData {
  const int32s = (n: number) => new Int32Array(new SharedArrayBuffer(n * 4));
  const slotOfRow = int32s(vectors.size).fill(-1);
  for (let p = 0; p < stored; p++) slotOfRow[order[p]!] = p;
  const offsets = int32s(stored + 1);
  entries.chunks.forEach((chunk, c) => {
    for (let e = 0, n = entries.chunkLength(c); e < n; e++) {
      const s = chunk.slots[e]!;
      if (s < stored) offsets[s + 1]! += 1;
    }
  });
  let longest = 0;
  for (let s = 0; s < stored; s++) {
    longest = Math.max(longest, offsets[s + 1]!);
    offsets[s + 1]! += offsets[s]!;
  }
  const total = offsets[stored]!;
  const rows = int32s(total);
  const scores = new Float64Array(new SharedArrayBuffer(total * 8));
  const fill = offsets.slice(0, stored);
  entries.chunks.forEach((chunk, c) => {
    for (let e = 0, n = entries.chunkLength(c); e < n; e++) {
      const s = chunk.slots[e]!;
      if (s >= stored) continue;
      const at = fill[s]!++;
      rows[at] = chunk.rows[e]!;
      scores[at] = chunk.scores[e]!;
    }
  });
  const runRows = new Int32Array(longest);
  const runScores = new Float64Array(longest);
  for (let s = 0; s < stored; s++) {
    const from = offsets[s]!;
    const to = offsets[s + 1]!;
    let split = from + 1;
    while (split < to && rows[split - 1]! < rows[split]!) split += 1;
    if (split >= to) continue; // one ascending run
    let end = split + 1;
    while (end < to && rows[end - 1]! < rows[end]!) end += 1;
    if (end < to) {
      sortByRow(vectors, rows, scores, from, to);
      continue;
    }
    // Merge [from, split) and [split, to) through the scratch arrays.
    runRows.set(rows.subarray(from, to));
    runScores.set(scores.subarray(from, to));
    let a = 0;
    let b = split - from;
    const aEnd = b;
    const bEnd = to - from;
    for (let at = from; at < to; at++) {
      const takeA = b === bEnd || (a < aEnd && runRows[a]! < runRows[b]!);
      const k = takeA ? a++ : b++;
      rows[at] = runRows[k]!;
      scores[at] = runScores[k]!;
    }
  }
  return { floor, slotOfRow, offsets, rows, scores };
}

/**
 * Sorts entries [from, to) by row, keeping each score with its row. Each entry is keyed
 * row · length + k, exact in a float64 while rows · length < 2⁵³ (checked), so a native numeric sort
 * of the keys orders the rows and still says where each score was.
 */
function sortByRow(vectors: UnitVectors, rows: Int32Array, scores: Float64Array, from: number, to: number): void {
  const len = to - from;
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
