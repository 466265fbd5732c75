// Everything the two tasks look up per assertion, built once: unit product vectors, the range search
// (exact ranges by matrix products, or HNSW) with a per-row cache shared by both tasks, product
// titles and concept word sets, and the typicality-filtered assertions with their product rows.
import type { VectorSet } from '../../../embeddings/sentence-encoder.js';
import { RowRangeCache, type HnswParams, type RangeSearch } from '../../search/range-search.js';
import { UnitVectors } from '../../search/unit-vectors.js';
import { MatrixRanges, openOrComputeRanges } from '../../search/matrix-ranges.js';
import { DEFAULT_HNSW_PARAMS, HnswRange, VectorIndex, openOrBuildIndex } from '../../search/vector-index.js';
import type { CosineWindow, Sampling, WindowStrategy } from '../../search/windows.js';
import type { Assertion } from './assertions.js';
import { wordsOf, type WordSet } from './concept-overlap.js';
import { normalizeOptionText } from '../option-text.js';
import { ConfigError } from '../../../core/errors.js';
import { PAPER_DIFFICULTY, type DifficultyCuts } from './difficulty.js';

/** Task 2's window anchor: the paper's masked answer p_B, or the released code's given p_A. */
export const ANCHORS = ['answer', 'given'] as const;
export type Anchor = (typeof ANCHORS)[number];

export function parseAnchor(value: string): Anchor {
  if (value === 'answer' || value === 'given') return value;
  throw new ConfigError('anchor', `must be "answer" or "given", got "${value}"`);
}

/**
 * How windows are enumerated. `exact`: complete, from the ranges around every anchor computed up
 * front by matrix products and re-scored exactly (MatrixRanges). `index`: HNSW candidates re-scored
 * exactly (complete up to the index's recall). `auto`: exact while the matrix products stay within
 * `matrixPairLimit` (anchors × products), the index above.
 */
export const EXACTNESS_MODES = ['auto', 'exact', 'index'] as const;
export type Exactness = (typeof EXACTNESS_MODES)[number];

export function parseExactness(value: string): Exactness {
  if (value === 'auto' || value === 'exact' || value === 'index') return value;
  throw new ConfigError('exactness', `must be "auto", "exact" or "index", got "${value}"`);
}

/** A window's bounds; which bound is inclusive is each task's rule (task1Window, task2Window). */
export interface WindowBounds {
  lo: number;
  hi: number;
}

/** The paper's Task-1 window, Sim_i ∈ [0.6, 0.9], calibrated for Sentence-BERT context embeddings. */
export const PAPER_TASK1_WINDOW: WindowBounds = { lo: 0.6, hi: 0.9 };
/** The paper's Task-2 window, Sim_p ∈ [0.7, 0.9), calibrated for Sentence-BERT context embeddings. */
export const PAPER_TASK2_WINDOW: WindowBounds = { lo: 0.7, hi: 0.9 };

/** Task 1, paper (uniform): Sim_i ∈ [0.6, 0.9]. */
export const TASK1_WINDOW_UNIFORM: CosineWindow = { ...PAPER_TASK1_WINDOW, loInclusive: true, hiInclusive: true };
/** Task 1, released code (lowest): candidates with Sim_i ≥ 0.6, pool rule "m-th < 0.9". */
export const TASK1_WINDOW_LOWEST: CosineWindow = { ...PAPER_TASK1_WINDOW, loInclusive: true, hiInclusive: false };
/** Task 2: Sim_p ∈ [0.7, 0.9). */
export const TASK2_WINDOW: CosineWindow = { ...PAPER_TASK2_WINDOW, loInclusive: true, hiInclusive: false };

/** Task 1's window: the bounds of `task1Window`, the upper one inclusive for uniform sampling (the paper's "[0.6, 0.9]"). */
export function task1Window(options: Pick<IntentionQaOptions, 'sampling' | 'task1Window'>): CosineWindow {
  return { ...options.task1Window, loInclusive: true, hiInclusive: options.sampling !== 'lowest' };
}

/** Task 2's window: [lo, hi) of `task2Window`. */
export function task2Window(options: Pick<IntentionQaOptions, 'task2Window'>): CosineWindow {
  return { ...options.task2Window, loInclusive: true, hiInclusive: false };
}

/** Every range query of either task is at lo ≥ this (inclusive): the range cache's and MatrixRanges' floor. */
export function rangeFloor(options: Pick<IntentionQaOptions, 'task1Window' | 'task2Window'>): number {
  return Math.min(options.task1Window.lo, options.task2Window.lo);
}

export interface IntentionQaOptions {
  seed: number | string;
  /** Task 1 distractor sampling (Task 2 is uniform in both the paper and the released code). */
  sampling: Sampling;
  anchor: Anchor;
  /** Assertions below this typicality are dropped first. */
  typicalityMin: number;
  /** Only candidates whose concept words overlap (the released items' rule). */
  requireOverlap: boolean;
  tasks: ReadonlyArray<1 | 2>;
  /** Task 1's distractor window on Sim_i (default the paper's, PAPER_TASK1_WINDOW). */
  task1Window: WindowBounds;
  /** Task 2's distractor window on Sim_p (default the paper's, PAPER_TASK2_WINDOW). */
  task2Window: WindowBounds;
  /** Difficulty cut points on Sim_p(p1, p2) (default the paper's, PAPER_DIFFICULTY). */
  difficulty: DifficultyCuts;
  exactness: Exactness;
  /** `auto` uses MatrixRanges up to this many anchor × product pairs, and the HNSW index above. */
  matrixPairLimit: number;
  /** ONNX Runtime threads for MatrixRanges (0 = every core). */
  matrixThreads: number;
  /** A ready range search (e.g. HnswRange over an index persisted next to the embeddings); overrides exactness. */
  search?: RangeSearch;
  /** Where to persist / reuse the HNSW index when one is built here. */
  indexPath?: string;
  /** Where to persist / reuse MatrixRanges when they are computed here. */
  rangesPath?: string;
  hnsw: HnswParams;
  /** Force rejection sampling or enumeration (tests, measurements); default by estimated cost. */
  strategy: WindowStrategy;
  progress: boolean;
}

export const DEFAULT_INTENTIONQA_OPTIONS: IntentionQaOptions = {
  seed: 0,
  sampling: 'uniform',
  anchor: 'answer',
  typicalityMin: 0.5,
  requireOverlap: true,
  tasks: [1, 2],
  task1Window: PAPER_TASK1_WINDOW,
  task2Window: PAPER_TASK2_WINDOW,
  difficulty: PAPER_DIFFICULTY,
  exactness: 'auto',
  // Matrix products grow as anchors × products, the index as products · log: at 100k products and
  // assertions on 2 cores the products take 28 s against 60 s of index build plus ~80 s of kNN
  // queries (bench/items.ts), so they stay ahead up to a few 100k. 1e11 pairs is about 400k products
  // with as many assertions (0.6 distinct anchors per assertion there).
  matrixPairLimit: 1e11,
  matrixThreads: 0,
  hnsw: DEFAULT_HNSW_PARAMS,
  strategy: 'auto',
  progress: false,
};

export interface IntentionQaInput {
  /** Product id → title. */
  products: ReadonlyMap<string, string>;
  /** In output order; typicality filtering happens here. */
  assertions: readonly Assertion[];
  /** Product context embeddings; a zero row (or a missing id) means "no vector". */
  embeddings: VectorSet | UnitVectors;
  /** Product id → normalised category phrases (for concept overlap). */
  phrases: ReadonlyMap<string, readonly string[]>;
  options?: Partial<IntentionQaOptions>;
}

export class IntentionQaContext {
  readonly vectors: UnitVectors;
  /** Title and normalised title per vector row ('' / undefined when the catalogue lacks the product). */
  readonly titleOfRow: Array<string | undefined>;
  readonly normTitleOfRow: Array<string | undefined>;
  readonly wordsOfRow: WordSet[];
  /** Typicality-passing assertions, in input order, and their product rows (-1 = not in the vector set). */
  readonly assertions: Assertion[];
  readonly rowA: Int32Array;
  readonly rowB: Int32Array;
  readonly normIntention: string[];
  /** Assertion indices whose both products have vectors: the Task-1 universe. */
  readonly validAssertions: Int32Array;
  /** Product row → indices of valid assertions that mention it. */
  readonly assertionsOfRow: Map<number, number[]>;
  /** Assertions removed by the typicality filter, with their values. */
  readonly belowTypicality: Assertion[];
  /** Scratch for enumerations: visitStamps[j] === current stamp means "assertion j already seen". */
  readonly visitStamps: Uint32Array;
  /** Scratch per product row for enumerations: membership stamp and the pivot's score. */
  readonly rowStamps: Uint32Array;
  readonly rowScratch: Float64Array;
  private stamp = 0;
  /** Set once by `create`, after the assertions are known (MatrixRanges needs their anchors). */
  private searchInUse: RangeSearch | undefined;
  /** The file the search was reloaded from (saved ranges or index), or undefined when computed here or given. */
  reusedSearchFrom: string | undefined;
  private rangeCache: RowRangeCache | undefined;

  get search(): RangeSearch {
    return this.searchInUse!;
  }

  /** Range queries around corpus rows, at the lowest lo either task uses, shared by both tasks. */
  get ranges(): RowRangeCache {
    return this.rangeCache!;
  }

  private constructor(input: IntentionQaInput, options: IntentionQaOptions, vectors: UnitVectors) {
    this.vectors = vectors;
    this.titleOfRow = vectors.ids.map((id) => input.products.get(id));
    this.normTitleOfRow = this.titleOfRow.map((t) => (t === undefined ? undefined : normalizeOptionText(t)));
    this.wordsOfRow = vectors.ids.map((id) => wordsOf([input.phrases.get(id)]));
    this.assertions = [];
    this.belowTypicality = [];
    for (const a of input.assertions)
      (a.typicality >= options.typicalityMin ? this.assertions : this.belowTypicality).push(a);
    const n = this.assertions.length;
    this.rowA = new Int32Array(n);
    this.rowB = new Int32Array(n);
    this.normIntention = this.assertions.map((a) => normalizeOptionText(a.intention));
    const valid: number[] = [];
    this.assertionsOfRow = new Map();
    for (let i = 0; i < n; i++) {
      const a = this.assertions[i]!;
      const ra = vectors.row(a.itemA) ?? -1;
      const rb = vectors.row(a.itemB) ?? -1;
      this.rowA[i] = ra;
      this.rowB[i] = rb;
      if (ra >= 0 && rb >= 0 && vectors.isValid(ra) && vectors.isValid(rb)) {
        valid.push(i);
        for (const r of [ra, rb]) {
          let list = this.assertionsOfRow.get(r);
          if (!list) this.assertionsOfRow.set(r, (list = []));
          list.push(i);
        }
      }
    }
    this.validAssertions = Int32Array.from(valid);
    this.visitStamps = new Uint32Array(n);
    this.rowStamps = new Uint32Array(vectors.size);
    this.rowScratch = new Float64Array(vectors.size);
  }

  /** A fresh stamp for one enumeration (a Set per query would dominate the cost on dense windows). */
  nextVisitStamp(): number {
    this.stamp += 1;
    if (this.stamp === 0xffffffff) {
      this.visitStamps.fill(0);
      this.rowStamps.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  static async create(input: IntentionQaInput, options: IntentionQaOptions): Promise<IntentionQaContext> {
    const vectors =
      input.embeddings instanceof UnitVectors ? input.embeddings : UnitVectors.fromVectorSet(input.embeddings);
    if (options.search && options.search.vectors !== vectors) {
      throw new Error('intentionqa: options.search was built over a different UnitVectors than the embeddings given');
    }
    const ctx = new IntentionQaContext(input, options, vectors);
    ctx.searchInUse = options.search ?? (await ctx.chooseSearch(options));
    ctx.rangeCache = new RowRangeCache(ctx.searchInUse, rangeFloor(options));
    return ctx;
  }

  /** The distinct anchor rows (Task-2 anchor = Task-1 pivot) of the valid assertions, ascending. */
  anchorRows(anchor: Anchor): Int32Array {
    const rows = new Set<number>();
    for (const i of this.validAssertions) rows.add(anchor === 'answer' ? this.rowB[i]! : this.rowA[i]!);
    return Int32Array.from(rows).sort();
  }

  private async chooseSearch(options: IntentionQaOptions): Promise<RangeSearch> {
    const vectors = this.vectors;
    const products = vectors.validRows.length;
    const anchors = this.anchorRows(options.anchor);
    if (
      options.exactness === 'exact' ||
      (options.exactness === 'auto' && anchors.length * products <= options.matrixPairLimit)
    ) {
      const opts = { threads: options.matrixThreads, progress: options.progress };
      const floor = rangeFloor(options);
      if (!options.rangesPath) return MatrixRanges.compute(vectors, anchors, floor, opts);
      const opened = await openOrComputeRanges(options.rangesPath, vectors, anchors, floor, opts);
      if (opened.recomputed === undefined) this.reusedSearchFrom = options.rangesPath;
      return opened.ranges;
    }
    if (!options.indexPath)
      return new HnswRange(VectorIndex.build(vectors, options.hnsw, { progress: options.progress }));
    const opened = await openOrBuildIndex(options.indexPath, vectors, options.hnsw, { progress: options.progress });
    if (opened.rebuilt === undefined) this.reusedSearchFrom = options.indexPath;
    return new HnswRange(opened.index);
  }

  /** Whether a product row has a vector. */
  hasVector(row: number): boolean {
    return row >= 0 && this.vectors.isValid(row);
  }

  /** Sim_i(i, j) = min over the four product pairs of Sim_p (both assertions must be valid). */
  intentionSimilarity(i: number, j: number): number {
    const v = this.vectors;
    const a = this.rowA[i]!;
    const b = this.rowB[i]!;
    const c = this.rowA[j]!;
    const d = this.rowB[j]!;
    return Math.min(v.cosine(a, c), v.cosine(a, d), v.cosine(b, c), v.cosine(b, d));
  }

  sharesProduct(i: number, j: number): boolean {
    const a = this.assertions[i]!;
    const b = this.assertions[j]!;
    return a.itemA === b.itemA || a.itemA === b.itemB || a.itemB === b.itemA || a.itemB === b.itemB;
  }
}
