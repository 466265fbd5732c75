// Exact anchor ranges in blocks: MatrixRanges whose entry budget could not hold every anchor, the
// rest computed a block at a time, as the items stage reaches the anchors of that block.
//
// At 200k products and 1M assertions (issue 38) a range around an anchor at glove-100d's floor holds
// about 8,000 products: all 200k anchors' ranges are 1.6e9 entries (19 GB), so the ranges computed up
// front stop at the entry budget (about 2,000 anchors) and every other anchor's range used to be an
// exact scan of the catalogue at query time (13 ms each, 88% of the items stage). Here the items
// stage visits the unstored anchors in blocks that fit the budget (pivot-blocks.ts), and the block's
// ranges are computed together by the same blocked matrix products (3 ms an anchor), then dropped.
//
// The ranges are the same exact sets and scores whichever way they are found (MatrixRanges equals an
// exact scan, byte for byte), and `estimatedCost` is MatrixRanges' (0: always enumerate), so the
// draws do not depend on the blocks: items are identical to one computation with an unlimited budget.
import { MatrixRanges, DEFAULT_MAX_ENTRIES, type MatrixRangesStats } from './matrix-ranges.js';
import type { RangeResult, RangeSearch, WorkerSearch } from './range-search.js';
import type { UnitVectors } from './unit-vectors.js';

export interface RangeBlocksOptions {
  /** Bound on the entries of one block (default DEFAULT_MAX_ENTRIES). */
  maxEntries?: number;
  /** ONNX Runtime threads for a block's products (default: every core). */
  threads?: number;
}

export class RangeBlocks implements RangeSearch {
  readonly method = 'scan' as const;
  readonly exact = true;
  private block: MatrixRanges | undefined;
  /** What the blocks computed so far did (for the manifest). */
  readonly totals = { blocks: 0, anchors: 0, entries: 0, seconds: 0 };

  constructor(
    /** The ranges computed up front (their anchors are never in a block). */
    readonly base: MatrixRanges,
    private readonly options: RangeBlocksOptions = {},
  ) {}

  get vectors(): UnitVectors {
    return this.base.vectors;
  }

  get description(): string {
    return this.base.description;
  }

  get maxEntries(): number {
    return this.options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  }

  /**
   * Computes the ranges of `anchors` (valid rows not stored in the base), replacing the previous
   * block. Returns how many of them were stored: the budget may stop the block early, and the anchors
   * past it are then answered by an exact scan (the same sets, slower).
   */
  async load(anchors: Int32Array): Promise<MatrixRangesStats> {
    this.block = undefined; // the previous block's memory can go before the next one is computed
    const ranges = await MatrixRanges.compute(this.base.vectors, anchors, this.base.data.floor, {
      maxEntries: this.maxEntries,
      ...(this.options.threads ? { threads: this.options.threads } : {}),
      pipelined: false,
      progress: false, // the items stage's bar counts assertions
    });
    this.block = ranges;
    const stats = ranges.stats!;
    this.totals.blocks += 1;
    this.totals.anchors += stats.stored;
    this.totals.entries += stats.entries;
    this.totals.seconds += stats.seconds;
    return stats;
  }

  rowRange(row: number, floor: number = this.base.data.floor): RangeResult | undefined {
    return this.block?.rowRange(row, floor) ?? this.base.rowRange(row, floor);
  }

  range(query: Float32Array, lo: number, loInclusive: boolean): RangeResult {
    return this.base.range(query, lo, loInclusive);
  }

  /** As MatrixRanges: every window is enumerated, so draws never depend on which rows are stored. */
  estimatedCost(): number {
    return 0;
  }

  /** Workers get the base ranges (shared memory) and compute their own blocks. */
  toWorkerSpec(): Promise<WorkerSearch> {
    return this.base.toWorkerSpec();
  }
}
