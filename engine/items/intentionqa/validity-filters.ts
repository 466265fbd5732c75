// Item validity beyond the released code (docs/intentionqa.md, "Validity filters"): an item is
// right only if exactly one option is right. The released code removed a candidate only when its
// text equalled the gold's; the three filters here remove what a program can find besides:
//
//   pair-asserted  a Task-1 distractor that is an intention asserted for the same unordered product
//                  pair (at any typicality, in any relation: so the index is built from ALL input
//                  assertions, before the relation and typicality filters), and a Task-2 distractor
//                  product asserted with p_A for the gold's intention;
//   generic        an intention asserted for pairs across many unrelated concept groups ("because they
//                  are both used for the same purpose.") fits any pair: never a distractor, and an
//                  assertion whose own intention is generic is dropped (reason `generic-gold`);
//   second-answer  a Task-1 distractor whose intention is close (cosine ≥ a per-encoder threshold)
//                  to an intention asserted for the pair; a Task-2 distractor product asserted with
//                  p_A for an intention close to the gold's.
//
// Intention texts are compared by `intentionKey`: the released normalize_name (lower case, `( … )`
// groups, punctuation and the articles a|an|the dropped, spaces collapsed).
import type { SentenceEncoder, VectorSet } from '../../../embeddings/sentence-encoder.js';
import type { UnitVectors } from '../../search/unit-vectors.js';
import type { Assertion } from './assertions.js';
import { intersects, kindOf, kindsMeet, phrasesMeet, phrasesOfProduct, sortedUnion } from './product-kinds.js';
import { IntentionFit, type IntentionFitVectors } from './intention-fit.js';
import { kindUsesWordsOf } from './kind-words.js';
import { shareTitleWord, titleWordsMeet, titleWordsOf } from './title-words.js';
import type { WordAndFitRules } from './intentionqa-options.js';
import {
  buildValidityIndexData,
  DEFAULT_GROUP_GENERIC_SHARE,
  intentionKey,
  type GenericIntention,
  type GroupGenericIntention,
  type IndexDataExtras,
  type ProductRows,
  type ValidityIndexData,
} from './validity-index-data.js';

export {
  buildValidityIndexData,
  conceptGroups,
  DEFAULT_GROUP_GENERIC_SHARE,
  GROUP_GENERIC_MIN_KIND_PAIRS,
  intentionKey,
  type GenericIntention,
  type GroupGenericIntention,
  type ProductRows,
  type ValidityIndexData,
} from './validity-index-data.js';

/** The filters' names: each is the refusal reason of the candidates it removes and the drop reason of the items it empties. */
export const VALIDITY_FILTERS = [
  'pair-asserted',
  'generic',
  'second-answer',
  'kind-asserted',
  'group-generic',
  'substitute',
  'vacuous',
  'fits-as-well',
  'kind-words',
  'unanchored',
  'title-words',
] as const;
export type ValidityFilter = (typeof VALIDITY_FILTERS)[number];

/** Which rules are on: the pipeline's options of these names, and `items check` (every rule on). */
export interface ValidityRules {
  excludePairAsserted: boolean;
  excludeGeneric: boolean;
  excludeSecondAnswers: boolean;
  excludeKindAsserted: boolean;
  excludeGroupGeneric: boolean;
  excludeSubstitutes: boolean;
  excludeVacuous: boolean;
  excludeUnexplained: boolean;
  excludeFitsAsWell: boolean;
  excludeKindWords: boolean;
  excludeUnanchored: boolean;
  excludeTitleWords: boolean;
  /** The unexplained rule's cut-off on the gold's pair fit (intention-fit.ts). */
  explainedMinFit: number;
  /** The fits-as-well rule's margin below the gold's fit. */
  fitMargin: number;
  /** The unanchored rule's margin: how much better a distractor must fit its own pair than the item's. */
  anchorMargin: number;
}

/** What the rules added after the first six need beyond the assertions and phrases. */
export interface ValidityExtras extends IndexDataExtras {
  /** Intention and title vectors for the rules that read fits (intention-fit.ts); absent: those rules hold for nothing. */
  fitVectors?: IntentionFitVectors;
}

/** Why an assertion's own intention makes no item (ValidityIndex.goldRefusal), in the order they are checked. */
export const GOLD_REFUSALS = ['generic-gold', 'vacuous-gold', 'unexplained'] as const;
export type GoldRefusal = (typeof GOLD_REFUSALS)[number];

/** What the Task-1 rules consult about an item's pair (ValidityIndex.task1Pair). */
export interface Task1Pair {
  /** The pair's product indices. */
  a: number;
  b: number;
  /** The key ids asserted for the pair. */
  asserted: ArrayLike<number>;
  /** The gold intention's fit to the pair (intention-fit.ts); NaN when unknown (no fit vectors). */
  goldFit: number;
}

/**
 * What the Task-2 rules consult about an item (ValidityIndex.task2Pair): computed once per item, so
 * that each of a window's candidates (often a thousand, nearly all refused) costs the rules only what
 * depends on the candidate.
 */
export interface Task2Pair {
  /** The gold's intention key id (-1: a text no assertion has); the given product's and the gold's indices. */
  goldKey: number;
  given: number;
  gold: number;
  /** The gold intention's fit to the item's pair (given, gold): what fits-as-well compares with; NaN when unknown. */
  goldFit: number;
  /** The kind phrase ids of the given product and the gold, ascending: a candidate of one is a substitute. */
  kinds: Int32Array;
  /** The shared phrases of the given product within which the gold's intention is generic (group-generic). */
  genericPhrases: Int32Array;
  /** The title word ids of the given product and the gold, ascending (title-words). */
  titleWords: Int32Array;
  /** Whether the candidate's vector is within the substitute cosine of the gold's (absent: only kinds make a substitute). */
  nearGold: ((candidate: number) => boolean) | undefined;
  /** kind-asserted's answer for a candidate's kind phrase id, filled as the draw asks. */
  kindAsserted: Map<number, boolean>;
}

/** What a run's manifest and report record about the validity filters. */
export interface ValiditySettings extends WordAndFitRules {
  excludePairAsserted: boolean;
  excludeGeneric: boolean;
  excludeSecondAnswers: boolean;
  genericMinGroups: number;
  secondAnswerCosine: number;
  /** Distinct intention texts (by intentionKey) in the input assertions. */
  intentionTexts: number;
  /** Intention texts with a vector for the second-answer filter; null: no vectors (only equal texts are close). */
  intentionVectors: number | null;
  /** The texts the generic filter catches (empty when it is off), most groups first. */
  genericIntentions: GenericIntention[];
  excludeKindAsserted: boolean;
  excludeGroupGeneric: boolean;
  groupGenericShare: number;
  excludeSubstitutes: boolean;
  substituteCosine: number;
  /** Category phrases shared by several kinds of product (not a kind), most holders first. */
  sharedPhrases: string[];
  /** Titles with a vector for the fit rules; null: no fit vectors (those rules hold for nothing). */
  fitVectors: number | null;
  /** Where the product kinds come from: the category phrases, or clusters of the title vectors. */
  kindsFrom: 'category phrases' | 'title clusters';
  /** The words the vacuous rule found generic (the first 40), most concept groups first. */
  genericWords: Array<{ word: string; groups: number }>;
  /** The texts the group-generic rule catches (empty when it is off), by group. */
  groupGenericIntentions: GroupGenericIntention[];
}

/**
 * Up to this many keys, a kind pair's keys are compared with the candidate one by one; above, through
 * the candidate's close keys. Most kind pairs hold a few keys, and closeKeysOf costs a cosine with
 * every key of the run (on the 10k bench world: 600 keys of 384 dimensions), so it is kept for the
 * long lists that would cost more.
 */
export const KIND_LIST_SCAN = 16;

/** Whether `key` is in the ascending keys[from ..< to]. */
function bisect(keys: Int32Array, from: number, to: number, key: number): boolean {
  while (from < to) {
    const mid = (from + to) >>> 1;
    const k = keys[mid]!;
    if (k === key) return true;
    if (k < key) from = mid + 1;
    else to = mid;
  }
  return false;
}

/** The position of `code` in the ascending `codes`, or -1. */
function search(codes: Float64Array, code: number): number {
  let from = 0;
  let to = codes.length;
  while (from < to) {
    const mid = (from + to) >>> 1;
    const c = codes[mid]!;
    if (c === code) return mid;
    if (c < code) from = mid + 1;
    else to = mid;
  }
  return -1;
}

/**
 * The intentions asserted for each unordered pair, and the generic ones: built once per run from
 * every input assertion (buildValidityIndexData; the items workers get the main thread's `data`).
 * The integer methods serve the window draws; the text-keyed ones (assertedFor, isGeneric, close,
 * closeToAny) answer the same questions for callers that hold texts.
 */
export class ValidityIndex {
  /** What the index is made of: what the items workers receive. */
  readonly data: ValidityIndexData;
  private readonly unrowed: Map<string, number>;
  /** The fits of intentions to products (undefined without fit vectors: the fit rules then hold for nothing). */
  readonly fit: IntentionFit | undefined;
  /** Vector row of each key id's text in `vectors`, or -1 (no vector: only equal keys are close). */
  private readonly rowOfId: Int32Array;
  /** Generic intention key → the evidence; sorted by groups (descending), then text. */
  readonly generic: ReadonlyMap<string, GenericIntention>;
  /** Distinct intention keys in the input. */
  readonly keys: number;
  /** closeKeysOf's answers, filled as the draws ask. */
  private readonly closeKeys = new Map<number, Int32Array>();
  /** The key id of each input assertion's intention, in input order. */
  readonly intentionIds: Int32Array;

  constructor(
    assertions: readonly Assertion[],
    phrases: ReadonlyMap<string, readonly string[]>,
    readonly genericMinGroups: number,
    /** Unit vectors of intention texts, one row per key (ids = keys); absent: only equal keys are close. */
    readonly vectors: UnitVectors | undefined,
    readonly secondAnswerCosine: number,
    private readonly products?: ProductRows,
    /** The data of an index built from the same assertions, phrases, cut-offs and products (a worker gets the main thread's). */
    prebuilt?: ValidityIndexData,
    readonly groupGenericShare = DEFAULT_GROUP_GENERIC_SHARE,
    extras: ValidityExtras = {},
  ) {
    const { fitVectors } = extras;
    const d = (this.data =
      prebuilt ?? buildValidityIndexData(assertions, phrases, genericMinGroups, products, groupGenericShare, extras));
    this.unrowed = new Map(d.unrowed);
    this.generic = new Map(d.generic);
    this.keys = d.keyOfId.length;
    this.intentionIds = d.intentionIds;
    this.rowOfId = new Int32Array(this.keys).fill(-1);
    if (fitVectors) {
      const productIds = [...(products?.vectors.ids ?? []), ...d.unrowed.map(([id]) => id)];
      this.fit = new IntentionFit(fitVectors, d.keyOfId, productIds);
    }
    if (vectors)
      d.keyOfId.forEach((key, id) => {
        const row = vectors.row(key);
        if (row !== undefined && vectors.isValid(row)) this.rowOfId[id] = row;
      });
  }

  /** The index of a product: its row in `products`, else its index when an input assertion names it, else -1 (no pair of it is asserted). */
  productIndex(product: string): number {
    return this.products?.vectors.row(product) ?? this.unrowed.get(product) ?? -1;
  }

  /** The key ids asserted for the unordered pair of product indices (a, b); empty when none (or an index is -1). */
  assertedIds(a: number, b: number): Int32Array {
    if (a < 0 || b < 0) return NONE;
    const d = this.data;
    const l = a < b ? a : b;
    const h = a < b ? b : a;
    let from = d.firstPair[l]!;
    let to = d.firstPair[l + 1]!;
    while (from < to) {
      const mid = (from + to) >>> 1;
      const p = d.partner[mid]!;
      if (p === h) return d.pairIds.subarray(d.firstId[mid]!, d.firstId[mid + 1]!);
      if (p < h) from = mid + 1;
      else to = mid;
    }
    return NONE;
  }

  /** Whether the key id is a generic intention's. */
  isGenericId(id: number): boolean {
    return this.data.genericId[id] === 1;
  }

  /** The evidence for a generic key id (isGenericId must hold). */
  genericOfId(id: number): GenericIntention {
    return this.generic.get(this.data.keyOfId[id]!)!;
  }

  /** Whether two key ids are close: equal, or a cosine ≥ secondAnswerCosine between their vectors. */
  closeIds(id: number, other: number): boolean {
    if (id === other) return true;
    const i = this.rowOfId[id]!;
    const j = this.rowOfId[other]!;
    return i >= 0 && j >= 0 && this.vectors!.cosine(i, j) >= this.secondAnswerCosine;
  }

  /**
   * The largest cosine between key id `id`'s vector and those of `ids`: what the second-answer rule
   * compares with secondAnswerCosine (rule-readings.ts records it); NaN when no two have vectors.
   */
  largestCosine(id: number, ids: ArrayLike<number>): number {
    const i = id >= 0 ? this.rowOfId[id]! : -1;
    let best = NaN;
    if (i < 0) return best;
    for (let k = 0; k < ids.length; k++) {
      const j = this.rowOfId[ids[k]!]!;
      if (j < 0) continue;
      const c = this.vectors!.cosine(i, j);
      if (!(c <= best)) best = c;
    }
    return best;
  }

  /** Whether key id `id` is close to any of `ids`. */
  closeToAnyId(id: number, ids: ArrayLike<number>): boolean {
    for (let k = 0; k < ids.length; k++) if (this.closeIds(id, ids[k]!)) return true;
    return false;
  }

  // The rules, one predicate each, called by the pipeline's window draws (task1.ts, task2.ts,
  // build-items.ts) and by `items check` (engine/evaluation/check-items.ts) on an existing item: one
  // implementation. The order of the checks is the order the refusal reasons are recorded in.

  /** What the Task-1 rules consult about the item's pair (product indices a, b): computed once per item. */
  task1Pair(a: number, b: number, goldKey = -1): Task1Pair {
    return { a, b, asserted: this.assertedIds(a, b), goldFit: this.fit?.pairFit(goldKey, a, b) ?? NaN };
  }

  /**
   * Task 1: the rule that refuses intention key id `key` as a distractor of `pair` (task1Pair);
   * undefined when none does. -1 (a text no assertion has) is refused by no rule.
   */
  task1Refusal(
    key: number,
    pair: Task1Pair,
    rules: ValidityRules,
    /** The product indices of the pair the candidate is asserted for, when known: it must explain them. */
    own?: { a: number; b: number },
  ): ValidityFilter | undefined {
    if (key < 0) return undefined;
    if (rules.excludePairAsserted && includesId(pair.asserted, key)) return 'pair-asserted';
    if (rules.excludeGeneric && this.isGenericId(key)) return 'generic';
    if (rules.excludeSecondAnswers && this.closeToAnyId(key, pair.asserted)) return 'second-answer';
    if (rules.excludeKindAsserted && this.kindAssertedCloseTo(key, pair.a, pair.b)) return 'kind-asserted';
    if (rules.excludeGroupGeneric && this.groupGenericFor(key, pair.a, pair.b)) return 'group-generic';
    if (rules.excludeVacuous && this.isVacuousId(key)) return 'vacuous';
    // A candidate that explains nothing of its own pair says nothing of any (NaN: not known, not refused).
    const ownFit = own && this.fit ? this.fit.pairFit(key, own.a, own.b) : NaN;
    if (rules.excludeUnexplained && ownFit < rules.explainedMinFit) return 'vacuous';
    // Unanchored (intention-fit.ts); a comparison with NaN (no vectors) is false: not refused. Task 1
    // has no fits-as-well: refusing what fits the pair nearly as well as the gold refuses exactly what
    // an embedding solver would pick, and unanchored catches the readers' second answers as well.
    const fit = this.fit ? this.fit.pairFit(key, pair.a, pair.b) : NaN;
    if (rules.excludeUnanchored && fit > ownFit - rules.anchorMargin) return 'unanchored';
    if (rules.excludeTitleWords && own && this.data.titleWords?.task1 === true && this.pairsShareTitleWord(own, pair))
      return 'title-words';
    return undefined;
  }

  /**
   * What the Task-2 rules consult about the item of the gold's intention key id `goldKey`, the given
   * product index `given` and the gold product index `gold`: computed once per item. `nearGold`
   * answers whether a candidate's vector is within the substitute cosine of the gold's (absent: no
   * vectors, only kinds make a substitute).
   */
  task2Pair(goldKey: number, given: number, gold: number, nearGold?: (candidate: number) => boolean): Task2Pair {
    const d = this.data;
    const known = goldKey >= 0;
    const genericPhrases = known
      ? phrasesOfProduct(d.kinds, given).filter((x) => this.genericInGroup(goldKey, x))
      : NONE;
    const words = d.titleWords;
    return {
      goldKey,
      given,
      gold,
      goldFit: known && this.fit ? this.fit.pairFit(goldKey, given, gold) : NaN,
      kinds: sortedUnion(kindOf(d.kinds, given), kindOf(d.kinds, gold)),
      genericPhrases,
      titleWords: words ? sortedUnion(titleWordsOf(words, given), titleWordsOf(words, gold)) : NONE,
      nearGold,
      kindAsserted: new Map(),
    };
  }

  /**
   * Task 2: the rule that refuses product index `candidate` as a distractor of `pair` (task2Pair);
   * undefined when none does.
   */
  task2Refusal(pair: Task2Pair, candidate: number, rules: ValidityRules): ValidityFilter | undefined {
    const { goldKey, given } = pair;
    const known = goldKey >= 0;
    const asserted = known ? this.assertedIds(given, candidate) : NONE;
    if (rules.excludePairAsserted && known && includesId(asserted, goldKey)) return 'pair-asserted';
    if (rules.excludeSecondAnswers && known && this.closeToAnyId(goldKey, asserted)) return 'second-answer';
    // Of the given product's kind or the gold's (sameKind with either), or near the gold.
    if (
      rules.excludeSubstitutes &&
      (kindsMeet(this.data.kinds, candidate, pair.kinds) || pair.nearGold?.(candidate) === true)
    )
      return 'substitute';
    if (rules.excludeKindAsserted && known && this.kindAssertedForPair(pair, candidate)) return 'kind-asserted';
    // groupGenericFor(goldKey, given, candidate), the given product's side read once per pair.
    if (rules.excludeGroupGeneric && known && phrasesMeet(this.data.kinds, candidate, pair.genericPhrases))
      return 'group-generic';
    // The gold's fit is its intention's fit to the item's pair (the given product and the gold), as in Task 1.
    if (
      rules.excludeFitsAsWell &&
      known &&
      this.fit &&
      this.fit.fit(goldKey, candidate) >= pair.goldFit - rules.fitMargin
    )
      return 'fits-as-well';
    if (rules.excludeKindWords && known && this.kindUsesWordsOf(goldKey, candidate)) return 'kind-words';
    // shareTitleWord with the gold or with the given product: one merge with both titles' words.
    const words = this.data.titleWords;
    if (rules.excludeTitleWords && words && titleWordsMeet(words, candidate, pair.titleWords)) return 'title-words';
    return undefined;
  }

  /**
   * kindAssertedCloseTo(pair.goldKey, pair.given, candidate), each of the candidate's kinds answered
   * once per item: a window's candidates share few kinds.
   */
  private kindAssertedForPair(pair: Task2Pair, candidate: number): boolean {
    const k = this.data.kinds;
    if (candidate < 0 || candidate + 1 >= k.firstKind.length) return false;
    // The candidate's kinds (kindOf) read in place, and the given product's only for a kind not yet
    // answered: this runs for nearly every window member.
    for (let at = k.firstKind[candidate]!; at < k.firstKind[candidate + 1]!; at++) {
      const y = k.kindIds[at]!;
      let answer = pair.kindAsserted.get(y);
      if (answer === undefined) {
        answer = false;
        for (const x of kindOf(k, pair.given)) if ((answer = this.kindPairCloseTo(pair.goldKey, x, y))) break;
        pair.kindAsserted.set(y, answer);
      }
      if (answer) return true;
    }
    return false;
  }

  /** Whether a title of one pair shares a content word with a title of the other (title-words.ts). */
  pairsShareTitleWord(x: { a: number; b: number }, y: { a: number; b: number }): boolean {
    return (
      this.shareTitleWord(x.a, y.a) ||
      this.shareTitleWord(x.a, y.b) ||
      this.shareTitleWord(x.b, y.a) ||
      this.shareTitleWord(x.b, y.b)
    );
  }

  /** Whether the titles of product indices p and q share a content word (title-words.ts); false without titles. */
  shareTitleWord(p: number, q: number): boolean {
    const d = this.data.titleWords;
    return d !== undefined && shareTitleWord(d, p, q);
  }

  /** Whether the intentions asserted for product `p`'s kind use a particular word of key `key` (kind-words.ts). */
  kindUsesWordsOf(key: number, p: number): boolean {
    const d = this.data.kindWords;
    return d !== undefined && kindUsesWordsOf(d, this.data.kinds, key, p);
  }

  /**
   * Why the assertion of pair (a, b) whose intention is key id `goldKey` makes no item: its intention
   * is generic (`generic-gold`), vacuous (`vacuous-gold`), or fits its own pair less than the cut-off
   * (`unexplained`: it explains nothing); undefined when it may.
   */
  goldRefusal(goldKey: number, a: number, b: number, rules: ValidityRules): GoldRefusal | undefined {
    if (goldKey < 0) return undefined;
    if (rules.excludeGeneric && this.isGenericId(goldKey)) return 'generic-gold';
    if (rules.excludeVacuous && this.isVacuousId(goldKey)) return 'vacuous-gold';
    if (rules.excludeUnexplained && this.fit && this.fit.pairFit(goldKey, a, b) < rules.explainedMinFit)
      return 'unexplained';
    return undefined;
  }

  /** Whether the key id is a vacuous intention's (every word generic: vacuous-intentions.ts). */
  isVacuousId(id: number): boolean {
    return this.data.vacuousId[id] === 1;
  }

  /** The key id of an intention text (by intentionKey), or -1 when no input assertion has it. */
  intentionId(text: string): number {
    this.idOfKey ??= new Map(this.data.keyOfId.map((key, id) => [key, id]));
    return this.idOfKey.get(intentionKey(text)) ?? -1;
  }

  private idOfKey: Map<string, number> | undefined;

  /**
   * The key ids asserted for any pair of the same kinds as the unordered pair of product indices
   * (a, b): a pair (c, d) with a kind phrase of a in c's kind and one of b in d's, or crosswise
   * (product-kinds.ts). Includes the pair's own. Repeats are possible; empty when none.
   */
  kindAssertedIds(a: number, b: number): number[] {
    const d = this.data;
    const n = d.kinds.phraseOfId.length;
    const out: number[] = [];
    for (const x of kindOf(d.kinds, a))
      for (const y of kindOf(d.kinds, b)) {
        const c = search(d.kindPairCode, x <= y ? x * n + y : y * n + x);
        if (c >= 0)
          for (let j = d.firstKindPairKey[c]!; j < d.firstKindPairKey[c + 1]!; j++) out.push(d.kindPairKeys[j]!);
      }
    return out;
  }

  /**
   * Whether key id `id`, or a key close to it (closeIds), is asserted for a pair of the same kinds as
   * (a, b): closeToAnyId(id, kindAssertedIds(a, b)), without building the list. A kind pair with
   * few keys (KIND_LIST_SCAN) is scanned, a cosine each; in a longer one, which is sorted, each key
   * close to `id` is a bisection, and the keys close to a key are computed once per index
   * (closeKeysOf: a cosine with every key), not once per candidate.
   */
  kindAssertedCloseTo(id: number, a: number, b: number): boolean {
    const d = this.data;
    const kb = kindOf(d.kinds, b);
    for (const x of kindOf(d.kinds, a)) for (const y of kb) if (this.kindPairCloseTo(id, x, y)) return true;
    return false;
  }

  /** Whether key id `id`, or a key close to it, is asserted for a pair of kind phrase ids x and y (kindAssertedCloseTo). */
  private kindPairCloseTo(id: number, x: number, y: number): boolean {
    const d = this.data;
    const n = d.kinds.phraseOfId.length;
    const c = search(d.kindPairCode, x <= y ? x * n + y : y * n + x);
    if (c < 0) return false;
    const from = d.firstKindPairKey[c]!;
    const to = d.firstKindPairKey[c + 1]!;
    if (to - from <= KIND_LIST_SCAN) {
      for (let j = from; j < to; j++) if (this.closeIds(id, d.kindPairKeys[j]!)) return true;
    } else for (const k of this.closeKeysOf(id)) if (bisect(d.kindPairKeys, from, to, k)) return true;
    return false;
  }

  /** The key ids close to key id `id` (closeIds), itself included, ascending; computed once per key. */
  closeKeysOf(id: number): Int32Array {
    let close = this.closeKeys.get(id);
    if (close === undefined) {
      const out: number[] = [];
      if (this.rowOfId[id]! < 0) out.push(id);
      else for (let k = 0; k < this.keys; k++) if (this.closeIds(id, k)) out.push(k);
      this.closeKeys.set(id, (close = Int32Array.from(out)));
    }
    return close;
  }

  /** Whether key id `id` is generic within a group (a shared phrase) that products a and b both hold. */
  groupGenericFor(id: number, a: number, b: number): boolean {
    const pb = phrasesOfProduct(this.data.kinds, b);
    for (const x of phrasesOfProduct(this.data.kinds, a)) if (pb.includes(x) && this.genericInGroup(id, x)) return true;
    return false;
  }

  /** Whether key id `id` is generic within the group of phrase id x (a shared phrase). */
  private genericInGroup(id: number, x: number): boolean {
    const d = this.data;
    return (
      d.kinds.sharedPhrase[x] === 1 &&
      d.groupGenericCode.length > 0 &&
      search(d.groupGenericCode, x * this.keys + id) >= 0
    );
  }

  /** Whether products a and b are the same kind: their kinds share a kind phrase. */
  sameKind(a: number, b: number): boolean {
    return intersects(kindOf(this.data.kinds, a), kindOf(this.data.kinds, b));
  }

  /** Category phrases shared by several kinds (not a kind), most holders first, then by text. */
  sharedPhrases(): string[] {
    const k = this.data.kinds;
    const holders = new Map<number, number>();
    for (const x of k.phraseIds) if (k.sharedPhrase[x] === 1) holders.set(x, (holders.get(x) ?? 0) + 1);
    return [...holders]
      .sort((u, v) => v[1] - u[1] || (k.phraseOfId[u[0]]! < k.phraseOfId[v[0]]! ? -1 : 1))
      .map(([x]) => k.phraseOfId[x]!);
  }

  /** The intention keys asserted for the unordered pair (a, b) of product ids; empty when none. */
  assertedFor(a: string, b: string): string[] {
    return Array.from(this.assertedIds(this.productIndex(a), this.productIndex(b)), (id) => this.data.keyOfId[id]!);
  }

  isGeneric(key: string): boolean {
    return this.generic.has(key);
  }

  /** Whether two intention keys are close: equal, or a cosine ≥ secondAnswerCosine between their vectors (closeIds by text). */
  close(key: string, other: string): boolean {
    if (key === other) return true;
    const v = this.vectors;
    if (!v) return false;
    const i = v.row(key);
    const j = v.row(other);
    if (i === undefined || j === undefined || !v.isValid(i) || !v.isValid(j)) return false;
    return v.cosine(i, j) >= this.secondAnswerCosine;
  }

  /** Whether `key` is close to any of `keys`. */
  closeToAny(key: string, keys: readonly string[]): boolean {
    for (const k of keys) if (this.close(key, k)) return true;
    return false;
  }
}

const NONE = new Int32Array(0);

function includesId(ids: ArrayLike<number>, id: number): boolean {
  for (let k = 0; k < ids.length; k++) if (ids[k] === id) return true;
  return false;
}

/**
 * The intention texts of the assertions encoded by `encoder` (normalised), one row per distinct
 * intentionKey, in first-seen order (the first text seen stands for its key): the second-answer
 * filter's vectors, before any centering.
 */
export async function encodeIntentionTexts(
  encoder: SentenceEncoder,
  assertions: readonly Assertion[],
): Promise<VectorSet> {
  const textOfKey = new Map<string, string>();
  for (const a of assertions) {
    const key = intentionKey(a.intention);
    if (!textOfKey.has(key)) textOfKey.set(key, a.intention);
  }
  const data = await encoder.encode([...textOfKey.values()], { normalize: true });
  return { ids: [...textOfKey.keys()], dim: encoder.dim, data };
}
