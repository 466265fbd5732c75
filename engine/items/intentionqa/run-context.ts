// Everything the two tasks look up per assertion, built once: unit product vectors, the range search
// (exact ranges by matrix products, or HNSW) with a per-row cache shared by both tasks, product
// titles and concept word sets, the filtered assertions with their product rows, the Task-1
// candidates per relation and the Task-2 product universe.
import type { VectorSet } from '../../../embeddings/sentence-encoder.js';
import { RowRangeCache, type RangeResult, type RangeSearch } from '../../search/range-search.js';
import { UnitVectors } from '../../search/unit-vectors.js';
import { MatrixRanges, openOrComputeRanges } from '../../search/matrix-ranges.js';
import { RangeBlocks } from '../../search/range-blocks.js';
import { HnswRange, VectorIndex, openOrBuildIndex } from '../../search/vector-index.js';
import type { Assertion } from './assertions.js';
import { filterDrop, type FilterDrop } from './assertion-filter.js';
import { RowWordIds, wordsOf, type WordMarker, type WordSet } from './concept-overlap.js';
import {
  anyFitRule,
  anyValidityRule,
  type Anchor,
  type IntentionQaOptions,
  type IntentionQaSettings,
} from './intentionqa-options.js';
import { normalizeOptionText } from '../option-text.js';
import { ValidityIndex, type ValidityIndexData } from './validity-filters.js';
import type { IntentionFitVectors } from './intention-fit.js';

export { TASK1_WINDOW_LOWEST, TASK1_WINDOW_UNIFORM, TASK2_WINDOW, task1Window, task2Window } from './task-windows.js';

/** Every range query of either task is at lo ≥ this (inclusive): the range cache's and MatrixRanges' floor. */
export function rangeFloor(options: Pick<IntentionQaOptions, 'task1Window' | 'task2Window'>): number {
  return Math.min(options.task1Window.lo, options.task2Window.lo);
}

export interface IntentionQaInput {
  /** Product id → title. */
  products: ReadonlyMap<string, string>;
  /** In output order; the relation and typicality filters apply here. */
  assertions: readonly Assertion[];
  /** Product context embeddings; a zero row (or a missing id) means "no vector". */
  embeddings: VectorSet | UnitVectors;
  /** Product id → normalised category phrases (for concept overlap). */
  phrases: ReadonlyMap<string, readonly string[]>;
  /** A preset and overrides, resolved by resolveOptions (intentionqa-options.ts). */
  options?: IntentionQaSettings;
  /**
   * Unit vectors of the assertions' intention texts, one row per intentionKey (validity-filters.ts),
   * made by the encoder of the product embeddings: what the second-answer filter compares. Absent:
   * that filter counts only equal texts as close (and the report says so).
   */
  intentionVectors?: UnitVectors;
  /**
   * Intention and title vectors made by the run's encoder, each centered (intention-fit.ts): what the
   * rules that read how well an intention fits a product compare (`unexplained`, `fits-as-well`).
   * Absent: those rules hold for nothing (and the report says so).
   */
  fitVectors?: IntentionFitVectors;
  /** Product id → kind labels, when kinds come from title clusters (title-kinds.ts); absent: from the phrases. */
  kindLabels?: ReadonlyMap<string, readonly string[]>;
  /**
   * The validity index's data built from these very inputs and options by another run (the items
   * workers get the main thread's, so as not to rebuild it); absent: built here.
   */
  validityIndexData?: ValidityIndexData;
}

/**
 * Ranges whose entry budget stopped before the last anchor: the others are computed in blocks when
 * the items stage reaches them (range-blocks.ts), instead of one exact scan per anchor.
 */
function inBlocksBeyondBudget(ranges: MatrixRanges, anchors: Int32Array): MatrixRanges | RangeBlocks {
  const unstored = anchors.some((row) => ranges.data.slotOfRow[row]! < 0);
  return unstored ? new RangeBlocks(ranges) : ranges;
}

/** See IntentionQaContext.pivotCandidates. */
export interface PivotCandidates {
  keys: Int32Array;
  pivotMin: Float64Array;
}

export class IntentionQaContext {
  readonly vectors: UnitVectors;
  /** Title per vector row (undefined when the catalogue lacks the product). */
  readonly titleOfRow: Array<string | undefined>;
  readonly wordsOfRow: WordSet[];
  /** The same words as integers, with one marker per task (the overlap test on every window member). */
  readonly task1Words: WordMarker;
  readonly task2Words: WordMarker;
  /** Assertions kept by the filters, in input order, and their product rows (-1 = not in the vector set). */
  readonly assertions: Assertion[];
  readonly rowA: Int32Array;
  readonly rowB: Int32Array;
  readonly normIntention: string[];
  /** Assertion indices whose both products have vectors: the Task-1 universe. */
  readonly validAssertions: Int32Array;
  /** The valid assertion indices of each relation, ascending: the Task-1 universe with relationScope `same`. */
  readonly validAssertionsOfRelation: Map<string, Int32Array>;
  /**
   * Product row → the valid assertions whose first product it is, ascending, and their second
   * product's row: those of row r sit at [assertionsOfRowAStart[r], assertionsOfRowAStart[r + 1]) of
   * assertionsOfRowA and secondRowOfRowA (compressed rows: a Map of lists cost more than the visits
   * themselves at 1M assertions). Each valid assertion is listed once, so a pass over the rows of a
   * range meets it at most once, and its second product is read next to it rather than from rowB.
   */
  readonly assertionsOfRowAStart: Int32Array;
  readonly assertionsOfRowA: Int32Array;
  readonly secondRowOfRowA: Int32Array;
  /** An id per distinct normalised title (-1: no title), for the comparisons made on every window member. */
  readonly titleIdOfRow: Int32Array;
  /** The rows Task-2 distractors come from, ascending (task2Universe), and a 1 at each of them. */
  readonly task2Rows: Int32Array;
  readonly inTask2Universe: Uint8Array;
  /** The validity filters' index over every input assertion (undefined when all three filters are off). */
  readonly validity: ValidityIndex | undefined;
  /**
   * The validity index's key id of each kept assertion's intention (filled only when a validity
   * filter is on); its product index of a product with a vector is the product's row.
   */
  readonly intentionIds: Int32Array;
  /** Assertions removed by the filters, in input order, with why. */
  readonly filtered: Array<{ assertion: Assertion; drop: FilterDrop }>;
  /**
   * Scratch per product row for enumerations: rowStamps[r] === the current stamp (nextRowStamp) says
   * row r holds a value of this enumeration in rowScratch (the pivot's score in pivotCandidates, the
   * other product's in a Task-1 listing). No clearing between enumerations.
   */
  readonly rowStamps: Uint32Array;
  readonly rowScratch: Float64Array;
  private stamp = 0;
  /** Set once by `create`, after the assertions are known (MatrixRanges needs their anchors). */
  private searchInUse: RangeSearch | undefined;
  /** The file the search was reloaded from (saved ranges or index), or undefined when computed here or given. */
  reusedSearchFrom: string | undefined;
  /** Why the saved ranges or index were not reused (nothing saved, other inputs, a damaged file), when computed here. */
  searchComputedBecause: string | undefined;
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
    this.wordsOfRow = vectors.ids.map((id) => wordsOf([input.phrases.get(id)]));
    const wordIds = new RowWordIds(this.wordsOfRow);
    this.task1Words = wordIds.marker();
    this.task2Words = wordIds.marker();
    this.assertions = [];
    this.filtered = [];
    const excluded = new Set(options.excludeRelations);
    /** The input position of each kept assertion. */
    const kept: number[] = [];
    input.assertions.forEach((a, k) => {
      const drop = filterDrop(a, options, excluded);
      if (drop) this.filtered.push({ assertion: a, drop });
      else {
        this.assertions.push(a);
        kept.push(k);
      }
    });
    const n = this.assertions.length;
    this.rowA = new Int32Array(n);
    this.rowB = new Int32Array(n);
    this.normIntention = this.assertions.map((a) => normalizeOptionText(a.intention));
    this.validity = anyValidityRule(options)
      ? new ValidityIndex(
          input.assertions,
          input.phrases,
          options.genericMinGroups,
          options.excludeSecondAnswers ? input.intentionVectors : undefined,
          options.secondAnswerCosine,
          { vectors, wordsOfRow: this.wordsOfRow },
          input.validityIndexData,
          options.groupGenericShare,
          {
            vacuousWordGroups: options.excludeVacuous || options.excludeKindWords ? options.vacuousWordGroups : 0,
            // Words by kind need coarse kinds: title clusters. With category phrases (a concepts file,
            // a graph), kind-asserted and group-generic do this work and the rule holds for nothing.
            kindWords: options.excludeKindWords && input.kindLabels !== undefined,
            ...(input.kindLabels ? { kindLabels: input.kindLabels } : {}),
            ...(anyFitRule(options) ? { fitVectors: input.fitVectors } : {}),
            ...(options.excludeTitleWords ? { titleOf: (id: string) => input.products.get(id) } : {}),
          },
        )
      : undefined;
    const ofInput = this.validity?.intentionIds;
    this.intentionIds = ofInput ? Int32Array.from(kept, (k) => ofInput[k]!) : new Int32Array(0);
    const valid: number[] = [];
    this.assertionsOfRowAStart = new Int32Array(vectors.size + 1);
    for (let i = 0; i < n; i++) {
      const a = this.assertions[i]!;
      const ra = vectors.row(a.itemA) ?? -1;
      const rb = vectors.row(a.itemB) ?? -1;
      this.rowA[i] = ra;
      this.rowB[i] = rb;
      if (ra >= 0 && rb >= 0 && vectors.isValid(ra) && vectors.isValid(rb)) {
        valid.push(i);
        this.assertionsOfRowAStart[ra + 1]! += 1;
      }
    }
    for (let r = 0; r < vectors.size; r++) this.assertionsOfRowAStart[r + 1]! += this.assertionsOfRowAStart[r]!;
    this.assertionsOfRowA = new Int32Array(valid.length);
    this.secondRowOfRowA = new Int32Array(valid.length);
    const fill = this.assertionsOfRowAStart.slice(0, vectors.size);
    for (const i of valid) {
      const at = fill[this.rowA[i]!]!++;
      this.assertionsOfRowA[at] = i;
      this.secondRowOfRowA[at] = this.rowB[i]!;
    }
    const titleIds = new Map<string, number>();
    this.titleIdOfRow = Int32Array.from(this.titleOfRow, (title) => {
      if (title === undefined) return -1;
      const t = normalizeOptionText(title);
      let id = titleIds.get(t);
      if (id === undefined) titleIds.set(t, (id = titleIds.size));
      return id;
    });
    this.validAssertions = Int32Array.from(valid);
    const ofRelation = new Map<string, number[]>();
    for (const i of valid) {
      const r = this.assertions[i]!.relation;
      let list = ofRelation.get(r);
      if (!list) ofRelation.set(r, (list = []));
      list.push(i);
    }
    this.validAssertionsOfRelation = new Map([...ofRelation].map(([r, list]) => [r, Int32Array.from(list)]));
    if (options.task2Universe === 'catalog') {
      this.task2Rows = vectors.validRows;
      this.inTask2Universe = vectors.valid;
    } else {
      // The released code embedded only the products of its kept assertions, so only those can be drawn.
      this.inTask2Universe = new Uint8Array(vectors.size);
      for (let i = 0; i < n; i++)
        for (const r of [this.rowA[i]!, this.rowB[i]!]) if (r >= 0 && vectors.isValid(r)) this.inTask2Universe[r] = 1;
      this.task2Rows = Int32Array.from(vectors.validRows.filter((r) => this.inTask2Universe[r] === 1));
    }
    this.rowStamps = new Uint32Array(vectors.size);
    this.rowScratch = new Float64Array(vectors.size);
  }

  /** A fresh stamp for one enumeration (a Set per query would dominate the cost on dense windows). */
  nextRowStamp(): number {
    this.stamp += 1;
    if (this.stamp === 0xffffffff) {
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
      if (!options.rangesPath)
        return inBlocksBeyondBudget(await MatrixRanges.compute(vectors, anchors, floor, opts), anchors);
      const opened = await openOrComputeRanges(options.rangesPath, vectors, anchors, floor, opts);
      if (opened.recomputed === undefined) this.reusedSearchFrom = options.rangesPath;
      this.searchComputedBecause = opened.recomputed;
      return inBlocksBeyondBudget(opened.ranges, anchors);
    }
    if (!options.indexPath)
      return new HnswRange(VectorIndex.build(vectors, options.hnsw, { progress: options.progress }));
    const opened = await openOrBuildIndex(options.indexPath, vectors, options.hnsw, { progress: options.progress });
    if (opened.rebuilt === undefined) this.reusedSearchFrom = options.indexPath;
    this.searchComputedBecause = opened.rebuilt;
    return new HnswRange(opened.index);
  }

  private lastPivot: { pivot: number; lo: number; loInclusive: boolean; candidates: PivotCandidates } | undefined;

  /**
   * The valid assertions with both products in the pivot's range `near` (at lo), ascending, and the
   * lower of their two pivot similarities: what every Task-1 window around this pivot is drawn from. The last
   * pivot's are kept, since pivot blocks draft a pivot's assertions one after another.
   */
  pivotCandidates(pivot: number, near: RangeResult, lo: number, loInclusive: boolean): PivotCandidates {
    const last = this.lastPivot;
    if (last && last.pivot === pivot && last.lo === lo && last.loInclusive === loInclusive) return last.candidates;
    // Mark the range: an assertion with a product outside it has Sim_i < lo without any arithmetic.
    const stamp = this.nextRowStamp();
    const inRange = this.rowStamps;
    const pivotScore = this.rowScratch;
    for (let k = 0; k < near.rows.length; k++) {
      inRange[near.rows[k]!] = stamp;
      pivotScore[near.rows[k]!] = near.scores[k]!;
    }
    // Every assertion with both products in the range is listed under its first product, once.
    const found: number[] = [];
    const starts = this.assertionsOfRowAStart;
    const list = this.assertionsOfRowA;
    const second = this.secondRowOfRowA;
    for (const row of near.rows) {
      for (let at = starts[row]!; at < starts[row + 1]!; at++) {
        if (inRange[second[at]!] === stamp) found.push(list[at]!);
      }
    }
    // Ascending (a native sort, once per pivot), so that every window drawn from them is listed in
    // key order and the draw need not sort its members again.
    const keys = Int32Array.from(found).sort();
    const pivotMin = Float64Array.from(keys, (j) => Math.min(pivotScore[this.rowA[j]!]!, pivotScore[this.rowB[j]!]!));
    const candidates = { keys, pivotMin };
    this.lastPivot = { pivot, lo, loInclusive, candidates };
    return candidates;
  }

  /** Whether the ranges are computed in blocks as the items stage reaches their anchors (pivot-blocks.ts). */
  get rangeBlocks(): RangeBlocks | undefined {
    return this.searchInUse instanceof RangeBlocks ? this.searchInUse : undefined;
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

  /** Whether valid assertions i and j mention a product in common (rows stand for product ids one to one). */
  sharesProduct(i: number, j: number): boolean {
    const a = this.rowA[i]!;
    const b = this.rowB[i]!;
    const c = this.rowA[j]!;
    const d = this.rowB[j]!;
    return a === c || a === d || b === c || b === d;
  }
}
