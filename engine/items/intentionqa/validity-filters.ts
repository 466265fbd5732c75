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
import { normalizePhrase } from '../../products/normalize.js';
import type { Assertion } from './assertions.js';
import { wordsOf, type WordSet } from './concept-overlap.js';
import { DEFAULT_GROUP_GENERIC_SHARE } from './intentionqa-options.js';
import { intersects, kindOf, phrasesOfProduct, productKinds, type ProductKinds } from './product-kinds.js';

export { DEFAULT_GROUP_GENERIC_SHARE };
/** A group with fewer kind pairs than this has no generic text: "most" of one or two pairs says nothing. */
export const GROUP_GENERIC_MIN_KIND_PAIRS = 3;

/** The filters' names: each is the refusal reason of the candidates it removes and the drop reason of the items it empties. */
export const VALIDITY_FILTERS = [
  'pair-asserted',
  'generic',
  'second-answer',
  'kind-asserted',
  'group-generic',
  'substitute',
] as const;
export type ValidityFilter = (typeof VALIDITY_FILTERS)[number];

/** Intention texts are the same when their keys are: the released normalize_name. */
export function intentionKey(text: string): string {
  return normalizePhrase(text);
}

/** Which rules are on: the pipeline's options of these names, and `items check` (every rule on). */
export interface ValidityRules {
  excludePairAsserted: boolean;
  excludeGeneric: boolean;
  excludeSecondAnswers: boolean;
  excludeKindAsserted: boolean;
  excludeGroupGeneric: boolean;
  excludeSubstitutes: boolean;
}

/** What the Task-1 rules consult about an item's pair (ValidityIndex.task1Pair). */
export interface Task1Pair {
  /** The pair's product indices. */
  a: number;
  b: number;
  /** The key ids asserted for the pair. */
  asserted: ArrayLike<number>;
}

/** What a run's manifest and report record about the validity filters. */
export interface ValiditySettings {
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
  /** The texts the group-generic rule catches (empty when it is off), by group. */
  groupGenericIntentions: GroupGenericIntention[];
}

/** A text generic within one group of products (those holding a shared phrase). */
export interface GroupGenericIntention {
  text: string;
  /** The shared phrase whose holders form the group. */
  group: string;
  /** Distinct kind pairs of the group the text is asserted for, and the group's kind pairs. */
  kindPairs: number;
  of: number;
}

/** An intention text the generic filter catches, with the evidence. */
export interface GenericIntention {
  /** The first text seen with this key. */
  text: string;
  /** Distinct concept groups of the pairs it is asserted for (conceptGroups). */
  groups: number;
  /** Distinct unordered pairs it is asserted for. */
  pairs: number;
}

/**
 * How many unrelated concept groups the pairs hold: pairs are linked when their concept words
 * (both products' category phrases, split on spaces) intersect, and the groups are the connected
 * components. A pair whose products have no phrases forms a group of its own. Union–find over the
 * words, so linear in the number of words (a text asserted for 10k pairs costs no more than 10k pairs).
 */
export function conceptGroups<W>(pairWords: ReadonlyArray<Iterable<W>>): number {
  return groupsOfPairs(pairWords.length, (k) => [pairWords[k]!]);
}

/** conceptGroups of `count` pairs whose words are the union of the collections `wordsOfPair(k)` lists. */
function groupsOfPairs<W>(count: number, wordsOfPair: (k: number) => ReadonlyArray<Iterable<W>>): number {
  const parent = Array.from({ length: count }, (_, k) => k);
  const find = (k: number): number => {
    while (parent[k] !== k) {
      parent[k] = parent[parent[k]!]!;
      k = parent[k]!;
    }
    return k;
  };
  const firstWithWord = new Map<W, number>();
  for (let k = 0; k < count; k++)
    for (const words of wordsOfPair(k))
      for (const w of words) {
        const first = firstWithWord.get(w);
        if (first === undefined) firstWithWord.set(w, k);
        else parent[find(k)] = find(first);
      }
  let groups = 0;
  parent.forEach((_, k) => (groups += find(k) === k ? 1 : 0));
  return groups;
}

/** A run's product vectors and the concept words of each row (IntentionQaContext), which the index reuses. */
export interface ProductRows {
  /** The product vectors: a product's row is its index in the validity index. */
  vectors: UnitVectors;
  /** The concept words of each row's product (wordsOf its category phrases). */
  wordsOfRow: readonly WordSet[];
}

/**
 * What a ValidityIndex is made of, as plain data (typed arrays, strings, numbers): built once by the
 * main thread and handed to the items workers (structured clone), so that they do not rebuild it.
 */
export interface ValidityIndexData {
  /** The intentionKey of each key id, in first-seen order. */
  keyOfId: string[];
  /** The key id of each input assertion's intention, in input order. */
  intentionIds: Int32Array;
  /** Product indices below this are rows of the products' vectors. */
  rows: number;
  /** Product id → product index of the products the input assertions name that have no row. */
  unrowed: Array<[string, number]>;
  /** Pair slots of product p (the pair's lower index): firstPair[p] ..< firstPair[p + 1]. */
  firstPair: Int32Array;
  /** The higher product index of each pair slot, ascending within a product's slots. */
  partner: Int32Array;
  /** The key ids asserted for pair slot s (any typicality, any relation; first seen first): pairIds[firstId[s] ..< firstId[s + 1]]. */
  firstId: Int32Array;
  pairIds: Int32Array;
  /** 1 at the key id of each generic intention. */
  genericId: Uint8Array;
  /** Generic intention key → the evidence; sorted by groups (descending), then text. */
  generic: Array<[string, GenericIntention]>;
  /** The products' phrases and kinds (product-kinds.ts), by product index. */
  kinds: ProductKinds;
  /**
   * Key ids asserted for each unordered pair of kind phrases (x ≤ y, code x · phrases + y, ascending):
   * kindPairKeys[firstKindPairKey[c] ..< firstKindPairKey[c + 1]] for the code at kindPairCode[c].
   */
  kindPairCode: Float64Array;
  firstKindPairKey: Int32Array;
  kindPairKeys: Int32Array;
  /** Group-generic (shared phrase x, key id) as codes x · keys + id, ascending. */
  groupGenericCode: Float64Array;
  groupGeneric: GroupGenericIntention[];
}

/**
 * The index's data from every input assertion. The checks run inside the window draws, so they
 * are integer work: each distinct raw intention text is normalised once into a key id, each product
 * id becomes a product index (its vector row when `products` are given, so that a draw's candidate
 * row is its product index; products without a row are numbered after the rows), and the pairs are
 * stored sorted (compressed rows: per lower product index, its partners ascending, each with the
 * key ids asserted for the pair), so that a pair is a binary search and its intentions a view of an
 * Int32Array.
 */
export function buildValidityIndexData(
  assertions: readonly Assertion[],
  phrases: ReadonlyMap<string, readonly string[]>,
  genericMinGroups: number,
  products?: ProductRows,
  groupGenericShare = DEFAULT_GROUP_GENERIC_SHARE,
): ValidityIndexData {
  const n = assertions.length;
  const rows = products ? products.vectors.size : 0;
  const idOfText = new Map<string, number>();
  const idOfKey = new Map<string, number>();
  const keyOfId: string[] = [];
  const textOfId: string[] = [];
  const unrowed = new Map<string, number>();
  const productIndexOrAdd = (product: string): number => {
    const row = products?.vectors.row(product);
    if (row !== undefined) return row;
    let index = unrowed.get(product);
    if (index === undefined) unrowed.set(product, (index = rows + unrowed.size));
    return index;
  };
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  const intentionIds = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const a = assertions[k]!;
    let id = idOfText.get(a.intention);
    if (id === undefined) {
      const key = intentionKey(a.intention);
      id = idOfKey.get(key);
      if (id === undefined) {
        id = keyOfId.length;
        idOfKey.set(key, id);
        keyOfId.push(key);
        textOfId.push(a.intention); // the first text seen stands for its key
      }
      idOfText.set(a.intention, id);
    }
    intentionIds[k] = id;
    const x = productIndexOrAdd(a.itemA);
    const y = productIndexOrAdd(a.itemB);
    lo[k] = x < y ? x : y;
    hi[k] = x < y ? y : x;
  }
  const keys = keyOfId.length;
  const productCount = rows + unrowed.size;

  // Assertions ordered by (lo, hi, input order): a counting sort by lo (stable), then each
  // product's bucket by hi (stable); runs of one (lo, hi) are the pair slots.
  const bucket = new Int32Array(productCount + 1);
  for (let k = 0; k < n; k++) bucket[lo[k]! + 1]! += 1;
  for (let p = 0; p < productCount; p++) bucket[p + 1]! += bucket[p]!;
  const order = new Int32Array(n);
  const fill = bucket.slice(0, productCount);
  for (let k = 0; k < n; k++) order[fill[lo[k]!]!++] = k;
  const firstPair = new Int32Array(productCount + 1);
  const partner: number[] = [];
  const firstId: number[] = [];
  const pairIds: number[] = [];
  /** Per key id, the pair slots it is asserted for (each slot once, ascending). */
  const slotsOfId: number[][] = Array.from({ length: keys }, () => []);
  const pairLo: number[] = [];
  for (let p = 0; p < productCount; p++) {
    const from = bucket[p]!;
    const to = bucket[p + 1]!;
    if (to - from > 1)
      order.set(
        order.subarray(from, to).sort((u, v) => hi[u]! - hi[v]! || u - v),
        from,
      );
    firstPair[p] = partner.length;
    for (let k = from; k < to; k++) {
      const a = order[k]!;
      if (k === from || hi[a] !== hi[order[k - 1]!]) {
        partner.push(hi[a]!);
        pairLo.push(p);
        firstId.push(pairIds.length);
      }
      const id = intentionIds[a]!;
      const slot = partner.length - 1;
      let seen = false;
      for (let j = firstId[slot]!; j < pairIds.length; j++) if (pairIds[j] === id) seen = true;
      if (!seen) {
        pairIds.push(id);
        slotsOfId[id]!.push(slot);
      }
    }
  }
  firstPair[productCount] = partner.length;
  firstId.push(pairIds.length);

  // Generic: the concept groups of each key's pairs (a row's words are the context's already).
  const unrowedIds: string[] = [...unrowed.keys()];
  const wordsOfUnrowed: Array<WordSet | undefined> = [];
  const words = (p: number): WordSet =>
    p < rows ? products!.wordsOfRow[p]! : (wordsOfUnrowed[p - rows] ??= wordsOf([phrases.get(unrowedIds[p - rows]!)]));
  const genericId = new Uint8Array(keys);
  const generic: Array<[string, GenericIntention]> = [];
  slotsOfId.forEach((slots, id) => {
    if (slots.length < genericMinGroups) return; // fewer pairs than the cut-off cannot span enough groups
    const groups = groupsOfPairs(slots.length, (k) => [words(pairLo[slots[k]!]!), words(partner[slots[k]!]!)]);
    if (groups >= genericMinGroups) {
      generic.push([keyOfId[id]!, { text: textOfId[id]!, groups, pairs: slots.length }]);
      genericId[id] = 1;
    }
  });
  generic.sort((x, y) => y[1].groups - x[1].groups || (x[1].text < y[1].text ? -1 : x[1].text > y[1].text ? 1 : 0));

  const kinds = productKinds(productCount, (p) =>
    phrases.get(p < rows ? products!.vectors.ids[p]! : unrowedIds[p - rows]!),
  );
  const slots = partner.length;
  const phraseCount = kinds.phraseOfId.length;
  // Kind pairs: every asserted pair's keys under each (kind phrase of one, kind phrase of the other).
  const keysOfKindPair = new Map<number, Set<number>>();
  for (let s = 0; s < slots; s++) {
    const ka = kindOf(kinds, pairLo[s]!);
    const kb = kindOf(kinds, partner[s]!);
    for (const x of ka)
      for (const y of kb) {
        const code = x <= y ? x * phraseCount + y : y * phraseCount + x;
        let set = keysOfKindPair.get(code);
        if (!set) keysOfKindPair.set(code, (set = new Set()));
        for (let j = firstId[s]!; j < firstId[s + 1]!; j++) set.add(pairIds[j]!);
      }
  }
  const kindPairCode = Float64Array.from([...keysOfKindPair.keys()].sort((a, b) => a - b));
  const firstKindPairKey = new Int32Array(kindPairCode.length + 1);
  const kindPairKeys: number[] = [];
  kindPairCode.forEach((code, c) => {
    firstKindPairKey[c] = kindPairKeys.length;
    kindPairKeys.push(...[...keysOfKindPair.get(code)!].sort((a, b) => a - b));
  });
  firstKindPairKey[kindPairCode.length] = kindPairKeys.length;

  // Group-generic: within the group of each shared phrase (the pairs whose two products both hold
  // it), the distinct kind pairs, and per key the kind pairs it is asserted for.
  const kindSignature = new Map<string, number>();
  const signatureOf = (p: number): number => {
    const text = kindOf(kinds, p).join(',');
    let id = kindSignature.get(text);
    if (id === undefined) kindSignature.set(text, (id = kindSignature.size));
    return id;
  };
  const signatures = Int32Array.from({ length: productCount }, (_, p) => signatureOf(p));
  const groupPairs = new Map<number, Set<string>>();
  const groupKeyPairs = new Map<number, Map<number, Set<string>>>();
  for (let s = 0; s < slots; s++) {
    const a = pairLo[s]!;
    const b = partner[s]!;
    const pa = phrasesOfProduct(kinds, a);
    const pb = phrasesOfProduct(kinds, b);
    if (!intersects(pa, pb)) continue;
    const sa = signatures[a]!;
    const sb = signatures[b]!;
    const kindPair = sa <= sb ? `${sa},${sb}` : `${sb},${sa}`;
    for (const x of pa) {
      if (kinds.sharedPhrase[x] !== 1 || !pb.includes(x)) continue;
      let pairsOfGroup = groupPairs.get(x);
      if (!pairsOfGroup) groupPairs.set(x, (pairsOfGroup = new Set()));
      pairsOfGroup.add(kindPair);
      let byKey = groupKeyPairs.get(x);
      if (!byKey) groupKeyPairs.set(x, (byKey = new Map()));
      for (let j = firstId[s]!; j < firstId[s + 1]!; j++) {
        const id = pairIds[j]!;
        let set = byKey.get(id);
        if (!set) byKey.set(id, (set = new Set()));
        set.add(kindPair);
      }
    }
  }
  const groupGenericCodes: number[] = [];
  const groupGeneric: GroupGenericIntention[] = [];
  for (const [x, pairsOfGroup] of groupPairs) {
    const of = pairsOfGroup.size;
    if (of < GROUP_GENERIC_MIN_KIND_PAIRS) continue;
    for (const [id, set] of groupKeyPairs.get(x)!) {
      if (set.size < groupGenericShare * of) continue;
      groupGenericCodes.push(x * keys + id);
      groupGeneric.push({ text: textOfId[id]!, group: kinds.phraseOfId[x]!, kindPairs: set.size, of });
    }
  }
  groupGeneric.sort(
    (u, v) =>
      (u.group < v.group ? -1 : u.group > v.group ? 1 : 0) ||
      v.kindPairs - u.kindPairs ||
      (u.text < v.text ? -1 : u.text > v.text ? 1 : 0),
  );
  return {
    keyOfId,
    intentionIds,
    rows,
    unrowed: [...unrowed],
    firstPair,
    partner: Int32Array.from(partner),
    firstId: Int32Array.from(firstId),
    pairIds: Int32Array.from(pairIds),
    genericId,
    generic,
    kinds,
    kindPairCode,
    firstKindPairKey,
    kindPairKeys: Int32Array.from(kindPairKeys),
    groupGenericCode: Float64Array.from(groupGenericCodes.sort((a, b) => a - b)),
    groupGeneric,
  };
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
  ) {
    const d = (this.data =
      prebuilt ?? buildValidityIndexData(assertions, phrases, genericMinGroups, products, groupGenericShare));
    this.unrowed = new Map(d.unrowed);
    this.generic = new Map(d.generic);
    this.keys = d.keyOfId.length;
    this.intentionIds = d.intentionIds;
    this.rowOfId = new Int32Array(this.keys).fill(-1);
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

  /** Whether key id `id` is close to any of `ids`. */
  closeToAnyId(id: number, ids: ArrayLike<number>): boolean {
    for (let k = 0; k < ids.length; k++) if (this.closeIds(id, ids[k]!)) return true;
    return false;
  }

  // The rules, one predicate each, called by the pipeline's window draws (task1.ts, task2.ts,
  // build-items.ts) and by `items check` (engine/evaluation/check-items.ts) on an existing item: one
  // implementation. The order of the checks is the order the refusal reasons are recorded in.

  /** What the Task-1 rules consult about the item's pair (product indices a, b): computed once per item. */
  task1Pair(a: number, b: number): Task1Pair {
    return { a, b, asserted: this.assertedIds(a, b) };
  }

  /**
   * Task 1: the rule that refuses intention key id `key` as a distractor of `pair` (task1Pair);
   * undefined when none does. -1 (a text no assertion has) is refused by no rule.
   */
  task1Refusal(key: number, pair: Task1Pair, rules: ValidityRules): ValidityFilter | undefined {
    if (key < 0) return undefined;
    if (rules.excludePairAsserted && includesId(pair.asserted, key)) return 'pair-asserted';
    if (rules.excludeGeneric && this.isGenericId(key)) return 'generic';
    if (rules.excludeSecondAnswers && this.closeToAnyId(key, pair.asserted)) return 'second-answer';
    if (rules.excludeKindAsserted && this.kindAssertedCloseTo(key, pair.a, pair.b)) return 'kind-asserted';
    if (rules.excludeGroupGeneric && this.groupGenericFor(key, pair.a, pair.b)) return 'group-generic';
    return undefined;
  }

  /**
   * Task 2: the rule that refuses product index `candidate` as a distractor for the given product
   * index `given`, the gold product index `gold` and the gold's intention key id `goldKey`; undefined
   * when none does. `nearGold` answers whether the candidate's vector is within the substitute cosine
   * of the gold's (absent: no vectors, only kinds make a substitute).
   */
  task2Refusal(
    goldKey: number,
    given: number,
    gold: number,
    candidate: number,
    rules: ValidityRules,
    nearGold?: () => boolean,
  ): ValidityFilter | undefined {
    const known = goldKey >= 0;
    const asserted = known ? this.assertedIds(given, candidate) : NONE;
    if (rules.excludePairAsserted && known && includesId(asserted, goldKey)) return 'pair-asserted';
    if (rules.excludeSecondAnswers && known && this.closeToAnyId(goldKey, asserted)) return 'second-answer';
    if (
      rules.excludeSubstitutes &&
      (this.sameKind(candidate, gold) || this.sameKind(candidate, given) || nearGold?.() === true)
    )
      return 'substitute';
    if (rules.excludeKindAsserted && known && this.kindAssertedCloseTo(goldKey, given, candidate))
      return 'kind-asserted';
    if (rules.excludeGroupGeneric && known && this.groupGenericFor(goldKey, given, candidate)) return 'group-generic';
    return undefined;
  }

  /** Whether an item whose gold is intention key id `goldKey` is refused: its intention is generic (`generic-gold`). */
  goldRefused(goldKey: number, rules: ValidityRules): boolean {
    return rules.excludeGeneric && goldKey >= 0 && this.isGenericId(goldKey);
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
    const ka = kindOf(d.kinds, a);
    const kb = kindOf(d.kinds, b);
    if (ka.length === 0 || kb.length === 0) return false;
    const n = d.kinds.phraseOfId.length;
    let close: Int32Array | undefined;
    for (const x of ka)
      for (const y of kb) {
        const c = search(d.kindPairCode, x <= y ? x * n + y : y * n + x);
        if (c < 0) continue;
        const from = d.firstKindPairKey[c]!;
        const to = d.firstKindPairKey[c + 1]!;
        if (to - from <= KIND_LIST_SCAN) {
          for (let j = from; j < to; j++) if (this.closeIds(id, d.kindPairKeys[j]!)) return true;
        } else {
          close ??= this.closeKeysOf(id);
          for (const k of close) if (bisect(d.kindPairKeys, from, to, k)) return true;
        }
      }
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
    const d = this.data;
    if (d.groupGenericCode.length === 0) return false;
    const pa = phrasesOfProduct(d.kinds, a);
    const pb = phrasesOfProduct(d.kinds, b);
    for (const x of pa)
      if (d.kinds.sharedPhrase[x] === 1 && pb.includes(x) && search(d.groupGenericCode, x * this.keys + id) >= 0)
        return true;
    return false;
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
