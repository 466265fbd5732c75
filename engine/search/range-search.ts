// Range queries over unit vectors: every valid row whose EXACT cosine with a query is ≥ lo (or > lo).
//
// Three implementations behind one interface:
// - ExactScanRange (this file): scores every valid row. Complete by construction; n·dim
//   multiply-adds per query.
// - MatrixRanges (matrix-ranges.ts): the ranges around all anchor rows computed up front by
//   blocked matrix products, re-scored exactly. Complete; answers an anchor from memory (`rowRange`).
// - HnswRange (vector-index.ts): kNN candidates from the HNSW index with growing k, each
//   verified with the exact cosine. Fast on thin bands; complete only up to the index's recall
//   (measured in bench/items.ts), so results carry `exact: false`.
// Windows (windows.ts) call `range` only when they must enumerate a window (thin bands and
// `--sampling lowest`); dense windows are rejection-sampled without any range query.
// Each implementation also says how worker threads rebuild it (`toWorkerSpec`), in data this file
// declares — the HNSW build parameters and the precomputed ranges among them — so that the
// implementations, which import this file, need not be imported back.
import type { UnitVectors } from './unit-vectors.js';

export type RangeMethod = 'scan' | 'index';

/** Build parameters of an HNSW index (VectorIndex). */
export interface HnswParams {
  /** Graph degree (hnswlib M). */
  m: number;
  efConstruction: number;
  /** hnswlib's level-generator seed: same vectors + params + seed → the same graph. */
  seed: number;
}

/** The HNSW build parameters unless a run sets its own (vector-index.ts builds with them). */
export const DEFAULT_HNSW_PARAMS: HnswParams = { m: 16, efConstruction: 100, seed: 100 };

/** Everything a MatrixRanges holds; every array is in shared memory, so worker threads read it without a copy. */
export interface MatrixRangesData {
  floor: number;
  /** Per vector row: its slot in `offsets`, or -1 when its range is not stored (answered by a scan). */
  slotOfRow: Int32Array;
  /** Slot s's entries are [offsets[s], offsets[s + 1]). */
  offsets: Int32Array;
  /** Entry rows, ascending within a slot. */
  rows: Int32Array;
  /** Exact cosines (the engine's `dot`), aligned with rows. */
  scores: Float64Array;
}

/**
 * What a worker thread needs to rebuild a search over the same unit vectors: plain data, structured-
 * cloned into the thread (typed arrays in shared memory stay shared, so nothing is copied).
 */
export type RangeSearchSpec =
  | { kind: 'scan' }
  | { kind: 'matrix'; ranges: MatrixRangesData }
  | { kind: 'index'; path: string; hnsw: HnswParams; k0: number; ef: number };

/** A search made ready for worker threads. */
export interface WorkerSearch {
  spec: RangeSearchSpec;
  /** Removes what making the spec wrote (an in-memory index's temporary file); call when the workers are done. */
  release(): Promise<void>;
}

export interface RangeResult {
  /** Matching rows, ascending. */
  rows: Int32Array;
  /** Exact cosine of each row, aligned with rows. */
  scores: Float64Array;
  method: RangeMethod;
  /** True when no matching row can be missing (a full scan). */
  exact: boolean;
}

export interface RangeSearch {
  readonly method: RangeMethod;
  readonly exact: boolean;
  readonly vectors: UnitVectors;
  /** All valid rows r with cosineTo(query, r) ≥ lo (> lo when !loInclusive). `query` must be a unit vector. */
  range(query: Float32Array, lo: number, loInclusive: boolean): RangeResult;
  /** Rough cost of one `range` call in dot-product units, for choosing between rejection and enumeration. */
  estimatedCost(): number;
  /** How ranges are found and how complete they are, in words (reports and manifests). */
  readonly description: string;
  /**
   * A precomputed range around a corpus row: every valid row with cosine ≥ floor (inclusive),
   * ascending, or undefined when this search holds none for that row (the caller then calls `range`).
   */
  rowRange?(row: number, floor: number): RangeResult | undefined;
  /** What worker threads need to rebuild this search; absent when they cannot (a custom search). */
  toWorkerSpec?(): Promise<WorkerSearch>;
}

/** The members of `base` whose score passes lo (a fresh result; `base` is not modified). */
export function filterRange(base: RangeResult, lo: number, loInclusive: boolean): RangeResult {
  const rows: number[] = [];
  const scores: number[] = [];
  for (let i = 0; i < base.rows.length; i++) {
    if (passesLo(base.scores[i]!, lo, loInclusive)) {
      rows.push(base.rows[i]!);
      scores.push(base.scores[i]!);
    }
  }
  return { rows: Int32Array.from(rows), scores: Float64Array.from(scores), method: base.method, exact: base.exact };
}

export function passesLo(score: number, lo: number, loInclusive: boolean): boolean {
  return loInclusive ? score >= lo : score > lo;
}

export class ExactScanRange implements RangeSearch {
  readonly method = 'scan' as const;
  readonly exact = true;
  readonly description = 'exact scan (complete)';
  constructor(readonly vectors: UnitVectors) {}

  range(query: Float32Array, lo: number, loInclusive: boolean): RangeResult {
    const v = this.vectors;
    const rows: number[] = [];
    const scores: number[] = [];
    for (const r of v.validRows) {
      const s = v.cosineTo(query, r);
      if (passesLo(s, lo, loInclusive)) {
        rows.push(r);
        scores.push(s);
      }
    }
    return { rows: Int32Array.from(rows), scores: Float64Array.from(scores), method: 'scan', exact: true };
  }

  estimatedCost(): number {
    return this.vectors.validRows.length;
  }

  async toWorkerSpec(): Promise<WorkerSearch> {
    return { spec: { kind: 'scan' }, release: async () => {} };
  }
}

/**
 * Memoises range results per query ROW (a corpus member used as a query, e.g. a Task-2 anchor that
 * is also the Task-1 pivot) at a floor `lo`: one query at the lowest threshold any caller uses
 * serves every higher threshold by filtering. Bounded: the oldest entries are evicted first.
 */
export class RowRangeCache {
  private readonly cache = new Map<number, RangeResult>();
  hits = 0;
  misses = 0;
  /** Answers read from the search's own precomputed ranges (MatrixRanges), never cached here. */
  precomputed = 0;

  /** Rows held over all cached results (what the memory bound counts). */
  private heldRows = 0;

  get rowsHeld(): number {
    return this.heldRows;
  }

  constructor(
    readonly search: RangeSearch,
    /** Lowest threshold (inclusive) that will ever be asked; results are cached at this floor. */
    readonly floor: number,
    /**
     * Bound on the rows held over all entries (12 bytes each; default 16M ≈ 200 MB). Counted in rows,
     * not entries: where most products are within the floor of each other (a collapsed embedding
     * space), each entry holds nearly every row.
     */
    private readonly capacityRows = 1 << 24,
  ) {}

  has(row: number): boolean {
    return this.cache.has(row);
  }

  aroundRow(row: number, lo: number, loInclusive: boolean): RangeResult {
    if (lo < this.floor) {
      this.misses += 1;
      return this.search.range(this.search.vectors.vector(row), lo, loInclusive);
    }
    const base = this.floorRange(row);
    if (lo === this.floor && loInclusive) return base;
    return filterRange(base, lo, loInclusive);
  }

  private floorRange(row: number): RangeResult {
    const precomputed = this.search.rowRange?.(row, this.floor);
    if (precomputed) {
      this.precomputed += 1;
      return precomputed;
    }
    let base = this.cache.get(row);
    if (base) this.hits += 1;
    else {
      this.misses += 1;
      base = this.search.range(this.search.vectors.vector(row), this.floor, true);
      while (this.cache.size > 0 && this.heldRows + base.rows.length > this.capacityRows) {
        const [oldest, evicted] = this.cache.entries().next().value!;
        this.cache.delete(oldest);
        this.heldRows -= evicted.rows.length;
      }
      if (base.rows.length <= this.capacityRows) {
        this.cache.set(row, base);
        this.heldRows += base.rows.length;
      }
    }
    return base;
  }
}
