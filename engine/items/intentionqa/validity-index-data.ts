// The validity index's data (validity-filters.ts): built once per run from every input assertion,
// as plain typed arrays and strings, so that the items workers receive it by structured clone.
// Intention texts are keyed by `intentionKey`; products are numbered by their vector row (then the
// products without a row); pairs are compressed rows; the generic and group-generic texts, the
// product kinds and the kind pairs' keys are found here.
import { normalizePhrase } from '../../products/normalize.js';
import type { UnitVectors } from '../../search/unit-vectors.js';
import type { Assertion } from './assertions.js';
import { wordsOf, type WordSet } from './concept-overlap.js';
import { intersects, kindOf, phrasesOfProduct, productKinds, type ProductKinds } from './product-kinds.js';
import { ConceptGroupCounter } from './concept-groups.js';
import { DEFAULT_GROUP_GENERIC_SHARE } from './intentionqa-options.js';
import { vacuousIntentions } from './vacuous-intentions.js';
import { kindWordsData, type KindWordsData } from './kind-words.js';
import { titleWordsData, type TitleWordsData } from './title-words.js';

export { conceptGroups } from './concept-groups.js';

export { DEFAULT_GROUP_GENERIC_SHARE };
/** A group with fewer kind pairs than this has no generic text: "most" of one or two pairs says nothing. */
export const GROUP_GENERIC_MIN_KIND_PAIRS = 3;

/** Intention texts are the same when their keys are: the released normalize_name. */
export function intentionKey(text: string): string {
  return normalizePhrase(text);
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
  /** 1 at the key id of each vacuous intention (vacuous-intentions.ts); all 0 when the rule is off. */
  vacuousId: Uint8Array;
  /** The words the vacuous rule found generic, most groups first (empty when it is off). */
  genericWords: Array<{ word: string; groups: number }>;
  /** The particular words of each key and kind (kind-words.ts); absent when that rule is off. */
  kindWords?: KindWordsData;
  /** The title words of each product index (title-words.ts); absent when that rule is off. */
  titleWords?: TitleWordsData;
}

/** What the later rules add to the index's inputs. */
export interface IndexDataExtras {
  /** The vacuous rule's cut-off (vacuous-intentions.ts); 0 or absent: the rule is off and no word is counted. */
  vacuousWordGroups?: number;
  /**
   * Product id → its kind labels, when kinds come from elsewhere than the category phrases (clusters
   * of title vectors: title-kinds.ts); every label is a kind. Absent: kinds from the phrases (product-kinds.ts).
   */
  kindLabels?: ReadonlyMap<string, readonly string[]>;
  /** Whether to gather the words of each kind (the kind-words rule, kind-words.ts; needs vacuousWordGroups). */
  kindWords?: boolean;
  /** Product id → title, for the title-words rule (title-words.ts); absent: that rule holds for nothing. */
  titleOf?: (productId: string) => string | undefined;
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
  extras: IndexDataExtras = {},
): ValidityIndexData {
  const vacuousWordGroups = extras.vacuousWordGroups ?? 0;
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
  const counter = new ConceptGroupCounter(words, (s: number) => [pairLo[s]!, partner[s]!]);
  slotsOfId.forEach((slots, id) => {
    if (slots.length < genericMinGroups) return; // fewer pairs than the cut-off cannot span enough groups
    const groups = counter.groups(slots);
    if (groups >= genericMinGroups) {
      generic.push([keyOfId[id]!, { text: textOfId[id]!, groups, pairs: slots.length }]);
      genericId[id] = 1;
    }
  });
  generic.sort((x, y) => y[1].groups - x[1].groups || (x[1].text < y[1].text ? -1 : x[1].text > y[1].text ? 1 : 0));

  const vacuous =
    vacuousWordGroups > 0
      ? vacuousIntentions(keyOfId, slotsOfId, counter, vacuousWordGroups)
      : { vacuousId: new Uint8Array(keys), genericWords: [] };

  const idOf = (p: number) => (p < rows ? products!.vectors.ids[p]! : unrowedIds[p - rows]!);
  const labels = extras.kindLabels;
  const kinds = labels
    ? productKinds(productCount, (p) => labels.get(idOf(p)), { everyPhraseAKind: true })
    : productKinds(productCount, (p) => phrases.get(idOf(p)));
  const slots = partner.length;
  const kindWords =
    extras.kindWords && vacuousWordGroups > 0
      ? kindWordsData(keyOfId, new Set(vacuous.genericWords.map((g) => g.word)), kinds, {
          lo: pairLo,
          hi: partner,
          firstId,
          ids: pairIds,
        })
      : undefined;
  const titleOf = extras.titleOf;
  const titleWords = titleOf ? titleWordsData(productCount, (p) => titleOf(idOf(p)), labels !== undefined) : undefined;
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
    ...vacuous,
    ...(kindWords ? { kindWords } : {}),
    ...(titleWords ? { titleWords } : {}),
  };
}
