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
import { wordsOf } from './concept-overlap.js';

/** The filters' names: each is the refusal reason of the candidates it removes and the drop reason of the items it empties. */
export const VALIDITY_FILTERS = ['pair-asserted', 'generic', 'second-answer'] as const;
export type ValidityFilter = (typeof VALIDITY_FILTERS)[number];

/** Intention texts are the same when their keys are: the released normalize_name. */
export function intentionKey(text: string): string {
  return normalizePhrase(text);
}

/** An unordered product pair as one string (ids cannot hold U+0000: they come from JSON ids checked non-empty). */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
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
export function conceptGroups(pairWords: ReadonlyArray<ReadonlySet<string>>): number {
  const parent = pairWords.map((_, k) => k);
  const find = (k: number): number => {
    while (parent[k] !== k) {
      parent[k] = parent[parent[k]!]!;
      k = parent[k]!;
    }
    return k;
  };
  const firstWithWord = new Map<string, number>();
  pairWords.forEach((words, k) => {
    for (const w of words) {
      const first = firstWithWord.get(w);
      if (first === undefined) firstWithWord.set(w, k);
      else parent[find(k)] = find(first);
    }
  });
  let groups = 0;
  parent.forEach((_, k) => (groups += find(k) === k ? 1 : 0));
  return groups;
}

/**
 * The intentions asserted for each unordered pair, and the generic ones: built once per run from
 * every input assertion.
 */
export class ValidityIndex {
  /** Pair → the intention keys asserted for it (any typicality, any relation). */
  private readonly ofPair = new Map<string, string[]>();
  /** Generic intention key → the evidence; sorted by groups (descending), then text. */
  readonly generic: ReadonlyMap<string, GenericIntention>;
  /** Distinct intention keys in the input, and how many concept groups each spans (for the report's cut-off). */
  readonly keys: number;

  constructor(
    assertions: readonly Assertion[],
    phrases: ReadonlyMap<string, readonly string[]>,
    readonly genericMinGroups: number,
    /** Unit vectors of intention texts, one row per key (ids = keys); absent: only equal keys are close. */
    readonly vectors: UnitVectors | undefined,
    readonly secondAnswerCosine: number,
  ) {
    const pairsOfKey = new Map<string, { text: string; pairs: Map<string, [string, string]> }>();
    for (const a of assertions) {
      const key = intentionKey(a.intention);
      const pair = pairKey(a.itemA, a.itemB);
      let keys = this.ofPair.get(pair);
      if (!keys) this.ofPair.set(pair, (keys = []));
      if (!keys.includes(key)) keys.push(key);
      let entry = pairsOfKey.get(key);
      if (!entry) pairsOfKey.set(key, (entry = { text: a.intention, pairs: new Map() }));
      entry.pairs.set(pair, [a.itemA, a.itemB]);
    }
    this.keys = pairsOfKey.size;
    const generic: Array<[string, GenericIntention]> = [];
    for (const [key, { text, pairs }] of pairsOfKey) {
      if (pairs.size < genericMinGroups) continue; // fewer pairs than the cut-off cannot span enough groups
      const words = [...pairs.values()].map(([a, b]) => wordsOf([phrases.get(a), phrases.get(b)]));
      const groups = conceptGroups(words);
      if (groups >= genericMinGroups) generic.push([key, { text, groups, pairs: pairs.size }]);
    }
    generic.sort((x, y) => y[1].groups - x[1].groups || (x[1].text < y[1].text ? -1 : x[1].text > y[1].text ? 1 : 0));
    this.generic = new Map(generic);
  }

  /** The intention keys asserted for the unordered pair (a, b); empty when none. */
  assertedFor(a: string, b: string): readonly string[] {
    return this.ofPair.get(pairKey(a, b)) ?? [];
  }

  isGeneric(key: string): boolean {
    return this.generic.has(key);
  }

  /** Whether two intention keys are close: equal, or a cosine ≥ secondAnswerCosine between their vectors. */
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
