// Validity rule `kind-words`: the words the assertions use for a kind of product. A text that says
// something particular ("used for jewelry making", "a manner of jewelry", "used for children") fits
// a product when the intentions asserted for pairs with products of its kind use one of those words:
// "jewelry" is asserted for pairs of earrings, of necklaces and of charms, so "a manner of jewelry"
// is a right answer for two earrings, and a pair of charms' "used for jewelry making" is served by
// a necklace. The rule refuses
//   Task 1  a distractor intention sharing a particular word with the intentions of the kind of
//           either product of the pair (the other pair it was asserted for is not this one, but its
//           words fit this one);
//   Task 2  a distractor product of a kind whose intentions share a particular word with the gold's.
// Particular words are the words of the keys that the vacuous rule does not find generic
// (vacuous-intentions.ts), singular (WordNet noun lemma, as the concepts are): without the vacuous
// rule's counts every word would be particular, so this rule needs that rule's cut-off. On the
// blind read of items from the released IntentionQA assertions, before it, 9 of 20 Task-1 items
// with a second right answer had a category distractor ("defined as "Jewelry" on Amazon.com") and
// 6 of 7 such Task-2 items a category gold ("a type of fashion") with its category in the window.
import { lemmatizeNoun } from '../../products/wordnet-morphy.js';
import { kindOf, type ProductKinds } from './product-kinds.js';

/**
 * The asserted pairs as the validity index stores them (compressed rows): slot s is the pair of
 * product indices (lo[s], hi[s]), asserted with the key ids ids[firstId[s] ..< firstId[s + 1]].
 */
export interface AssertedSlots {
  lo: ArrayLike<number>;
  hi: ArrayLike<number>;
  firstId: ArrayLike<number>;
  ids: ArrayLike<number>;
}

/** Particular word ids of each key, and of each kind, as compressed rows (plain data: it is cloned to the workers). */
export interface KindWordsData {
  /** Word ids of key k: keyWords[firstKeyWord[k] ..< firstKeyWord[k + 1]], ascending. */
  firstKeyWord: Int32Array;
  keyWords: Int32Array;
  /** Word ids used for kind x: kindWords[firstKindWord[x] ..< firstKindWord[x + 1]], ascending. */
  firstKindWord: Int32Array;
  kindWords: Int32Array;
}

function rows(lists: ReadonlyArray<Iterable<number>>): { first: Int32Array; ids: Int32Array } {
  const first = new Int32Array(lists.length + 1);
  const ids: number[] = [];
  lists.forEach((list, k) => {
    first[k] = ids.length;
    ids.push(...[...new Set(list)].sort((a, b) => a - b));
  });
  first[lists.length] = ids.length;
  return { first, ids: Int32Array.from(ids) };
}

/**
 * The particular words of each key (`keyOfId`, generic words left out) and of each kind (the words
 * of every key asserted for a pair slot with a product of that kind).
 */
export function kindWordsData(
  keyOfId: readonly string[],
  generic: ReadonlySet<string>,
  kinds: ProductKinds,
  slots: AssertedSlots,
): KindWordsData {
  const wordId = new Map<string, number>();
  const lemma = new Map<string, string>();
  const keyLists = keyOfId.map((key) => {
    const out: number[] = [];
    for (const w of key.split(' ')) {
      if (w === '' || generic.has(w) || /\d/.test(w)) continue;
      let l = lemma.get(w);
      if (l === undefined) lemma.set(w, (l = lemmatizeNoun(w)));
      let id = wordId.get(l);
      if (id === undefined) wordId.set(l, (id = wordId.size));
      out.push(id);
    }
    return out;
  });
  const keyRows = rows(keyLists);
  const kindLists: number[][] = Array.from({ length: kinds.phraseOfId.length }, () => []);
  for (let s = 0; s < slots.lo.length; s++)
    for (const p of [slots.lo[s]!, slots.hi[s]!])
      for (const x of kindOf(kinds, p))
        for (let j = slots.firstId[s]!; j < slots.firstId[s + 1]!; j++) {
          const k = slots.ids[j]!;
          for (let w = keyRows.first[k]!; w < keyRows.first[k + 1]!; w++) kindLists[x]!.push(keyRows.ids[w]!);
        }
  const kindRows = rows(kindLists);
  return { firstKeyWord: keyRows.first, keyWords: keyRows.ids, firstKindWord: kindRows.first, kindWords: kindRows.ids };
}

/** Whether key `key` shares a particular word with the words used for a kind of product `p`. */
export function kindUsesWordsOf(d: KindWordsData, kinds: ProductKinds, key: number, p: number): boolean {
  if (key < 0 || key + 1 >= d.firstKeyWord.length) return false;
  const from = d.firstKeyWord[key]!;
  const to = d.firstKeyWord[key + 1]!;
  if (from === to) return false;
  for (const x of kindOf(kinds, p)) {
    // Both lists ascending: a merge.
    let i = from;
    let j = d.firstKindWord[x]!;
    const end = d.firstKindWord[x + 1]!;
    while (i < to && j < end) {
      const u = d.keyWords[i]!;
      const v = d.kindWords[j]!;
      if (u === v) return true;
      if (u < v) i++;
      else j++;
    }
  }
  return false;
}
