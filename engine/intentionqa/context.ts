// Everything the two tasks look up per assertion, built once: unit product vectors, the range search
// (exact scan or HNSW) with a per-row cache shared by both tasks, product titles and concept word
// sets, and the typicality-filtered assertions with their product rows.
import type { VectorSet } from '../../embeddings/types.js';
import { ExactScanRange, RowRangeCache, type RangeSearch } from '../range-search.js';
import { UnitVectors } from '../unit-vectors.js';
import { DEFAULT_HNSW_PARAMS, HnswRange, VectorIndex, openOrBuildIndex, type HnswParams } from '../vector-index.js';
import type { CosineWindow, Sampling, WindowStrategy } from '../windows.js';
import type { Assertion } from './assertions.js';
import { wordsOf, type WordSet } from './concept-overlap.js';
import { normaliseOptionText } from './option-text.js';

/** Task 2's window anchor: the paper's masked answer p_B, or the released code's given p_A. */
export type Anchor = 'answer' | 'given';

export function parseAnchor(value: string): Anchor {
  if (value === 'answer' || value === 'given') return value;
  throw new Error(`--anchor must be "answer" or "given", got "${value}"`);
}

/** How completely windows are enumerated: full scans (exact), the HNSW index, or by corpus size. */
export type Exactness = 'auto' | 'exact' | 'index';

/** Task 1, paper (uniform): Sim_i ∈ [0.6, 0.9]. */
export const TASK1_WINDOW_UNIFORM: CosineWindow = { lo: 0.6, hi: 0.9, loInclusive: true, hiInclusive: true };
/** Task 1, released code (lowest): candidates with Sim_i ≥ 0.6, pool rule "m-th < 0.9". */
export const TASK1_WINDOW_LOWEST: CosineWindow = { lo: 0.6, hi: 0.9, loInclusive: true, hiInclusive: false };
/** Task 2: Sim_p ∈ [0.7, 0.9). */
export const TASK2_WINDOW: CosineWindow = { lo: 0.7, hi: 0.9, loInclusive: true, hiInclusive: false };

export interface IntentionQaOptions {
  seed: number | string;
  /** Task 1 distractor sampling (Task 2 is uniform in both the paper and the released code). */
  sampling: Sampling;
  anchor: Anchor;
  /** Assertions below this typicality are dropped first (DESIGN 1.8). */
  typicalityMin: number;
  /** Only candidates whose concept words overlap (the released items' rule). */
  requireOverlap: boolean;
  tasks: ReadonlyArray<1 | 2>;
  exactness: Exactness;
  /** `auto` scans exactly up to this many products with vectors, and uses the index above it. */
  exactScanLimit: number;
  /** A ready range search (e.g. HnswRange over an index persisted next to the embeddings); overrides exactness. */
  search?: RangeSearch;
  /** Where to persist / reuse the HNSW index when one is built here. */
  indexPath?: string;
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
  exactness: 'auto',
  exactScanLimit: 10_000,
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
  readonly search: RangeSearch;
  readonly ranges: RowRangeCache;
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

  private constructor(input: IntentionQaInput, options: IntentionQaOptions, vectors: UnitVectors, search: RangeSearch) {
    this.vectors = vectors;
    this.search = search;
    this.ranges = new RowRangeCache(search, Math.min(TASK1_WINDOW_UNIFORM.lo, TASK2_WINDOW.lo));
    this.titleOfRow = vectors.ids.map((id) => input.products.get(id));
    this.normTitleOfRow = this.titleOfRow.map((t) => (t === undefined ? undefined : normaliseOptionText(t)));
    this.wordsOfRow = vectors.ids.map((id) => wordsOf([input.phrases.get(id)]));
    this.assertions = [];
    this.belowTypicality = [];
    for (const a of input.assertions) (a.typicality >= options.typicalityMin ? this.assertions : this.belowTypicality).push(a);
    const n = this.assertions.length;
    this.rowA = new Int32Array(n);
    this.rowB = new Int32Array(n);
    this.normIntention = this.assertions.map((a) => normaliseOptionText(a.intention));
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
    const vectors = input.embeddings instanceof UnitVectors ? input.embeddings : UnitVectors.fromVectorSet(input.embeddings);
    let search = options.search;
    if (search && search.vectors !== vectors) {
      throw new Error('intentionqa: options.search was built over a different UnitVectors than the embeddings given');
    }
    if (!search) {
      const useIndex =
        options.exactness === 'index' || (options.exactness === 'auto' && vectors.validRows.length > options.exactScanLimit);
      if (useIndex) {
        const index = options.indexPath
          ? (await openOrBuildIndex(options.indexPath, vectors, options.hnsw, { progress: options.progress })).index
          : VectorIndex.build(vectors, options.hnsw, { progress: options.progress });
        search = new HnswRange(index);
      } else {
        search = new ExactScanRange(vectors);
      }
    }
    return new IntentionQaContext(input, options, vectors, search);
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
