// The kind of a product, from its category phrases, for the validity rules `kind-asserted`,
// `group-generic` and `substitute` (validity-filters.ts; docs/intentionqa.md, "Validity filters").
//
// A category phrase either names one kind of product ("Phone Case", "Screen Protector") or is shared
// by several kinds ("Phone Accessory" is held by cases, chargers, screen protectors and power banks).
// Only the first says what a product is; two products that share only the second are different
// kinds. The data tells them apart: the products holding a phrase P, linked when they share another
// phrase than P, form connected components; when they form one, every holder is the same kind of
// thing (P is a *kind phrase*); when they form two or more, P spans several kinds (a *shared phrase*).
// On the demo world this finds exactly the cluster-wide phrases ("phone accessory", "camping gear",
// "fashion jewelry", "drinkware", "pet food", …), whatever the number of products.
//
// A product's kind is its set of kind phrases; a product whose phrases are all shared, or that has
// none, has no kind: nothing says what it is beyond its group, so it matches nothing (the rules by
// kind then refuse less, never more).

/** Phrase ids of each product, and which phrases are shared by several kinds. */
export interface ProductKinds {
  /** Phrase text of each phrase id, in first-seen order. */
  phraseOfId: string[];
  /** Phrase ids of product p: phraseIds[firstPhrase[p] ..< firstPhrase[p + 1]], ascending. */
  firstPhrase: Int32Array;
  phraseIds: Int32Array;
  /** Kind phrase ids of product p: kindIds[firstKind[p] ..< firstKind[p + 1]], ascending. */
  firstKind: Int32Array;
  kindIds: Int32Array;
  /** 1 at each shared phrase id (held by products of two or more kinds). */
  sharedPhrase: Uint8Array;
}

/**
 * The kinds of `count` products whose phrases are `phrasesOf(p)` (undefined or empty: none). Linear in
 * the number of (product, phrase) entries: one union–find per phrase over its holders, linked through
 * their other phrases.
 */
export function productKinds(
  count: number,
  phrasesOf: (p: number) => readonly string[] | undefined,
  /** Labels that are kinds by construction (clusters of title vectors): no phrase is shared. */
  { everyPhraseAKind = false } = {},
): ProductKinds {
  const idOf = new Map<string, number>();
  const phraseOfId: string[] = [];
  const firstPhrase = new Int32Array(count + 1);
  const ids: number[] = [];
  for (let p = 0; p < count; p++) {
    firstPhrase[p] = ids.length;
    const own = new Set<number>();
    for (const phrase of phrasesOf(p) ?? []) {
      let id = idOf.get(phrase);
      if (id === undefined) {
        id = phraseOfId.length;
        idOf.set(phrase, id);
        phraseOfId.push(phrase);
      }
      own.add(id);
    }
    ids.push(...[...own].sort((a, b) => a - b));
  }
  firstPhrase[count] = ids.length;
  const phraseIds = Int32Array.from(ids);
  const phrases = phraseOfId.length;

  // Holders of each phrase (compressed rows).
  const firstHolder = new Int32Array(phrases + 1);
  for (const id of phraseIds) firstHolder[id + 1]! += 1;
  for (let x = 0; x < phrases; x++) firstHolder[x + 1]! += firstHolder[x]!;
  const holders = new Int32Array(phraseIds.length);
  const fill = firstHolder.slice(0, phrases);
  for (let p = 0; p < count; p++)
    for (let k = firstPhrase[p]!; k < firstPhrase[p + 1]!; k++) holders[fill[phraseIds[k]!]!++] = p;

  const sharedPhrase = new Uint8Array(phrases);
  const parent = new Int32Array(count);
  const find = (k: number): number => {
    while (parent[k] !== k) {
      parent[k] = parent[parent[k]!]!;
      k = parent[k]!;
    }
    return k;
  };
  const firstWith = new Map<number, number>();
  for (let x = 0; x < phrases; x++) {
    const from = firstHolder[x]!;
    const to = firstHolder[x + 1]!;
    if (to - from < 2 || everyPhraseAKind) continue;
    for (let k = from; k < to; k++) parent[holders[k]!] = holders[k]!;
    firstWith.clear();
    for (let k = from; k < to; k++) {
      const p = holders[k]!;
      for (let j = firstPhrase[p]!; j < firstPhrase[p + 1]!; j++) {
        const y = phraseIds[j]!;
        if (y === x) continue;
        const first = firstWith.get(y);
        if (first === undefined) firstWith.set(y, p);
        else parent[find(p)] = find(first);
      }
    }
    const root = find(holders[from]!);
    for (let k = from + 1; k < to; k++)
      if (find(holders[k]!) !== root) {
        sharedPhrase[x] = 1;
        break;
      }
  }

  const firstKind = new Int32Array(count + 1);
  const kinds: number[] = [];
  for (let p = 0; p < count; p++) {
    firstKind[p] = kinds.length;
    for (let k = firstPhrase[p]!; k < firstPhrase[p + 1]!; k++)
      if (sharedPhrase[phraseIds[k]!] === 0) kinds.push(phraseIds[k]!);
  }
  firstKind[count] = kinds.length;
  return { phraseOfId, firstPhrase, phraseIds, firstKind, kindIds: Int32Array.from(kinds), sharedPhrase };
}

/** The kind phrase ids of product p (ascending; empty for an index outside the products). */
export function kindOf(k: ProductKinds, p: number): Int32Array {
  if (p < 0 || p + 1 >= k.firstKind.length) return NO_IDS;
  return k.kindIds.subarray(k.firstKind[p]!, k.firstKind[p + 1]!);
}

/** The phrase ids of product p (ascending; empty for an index outside the products). */
export function phrasesOfProduct(k: ProductKinds, p: number): Int32Array {
  if (p < 0 || p + 1 >= k.firstPhrase.length) return NO_IDS;
  return k.phraseIds.subarray(k.firstPhrase[p]!, k.firstPhrase[p + 1]!);
}

/** Whether two ascending id lists share an id. */
export function intersects(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return intersectsRange(a, 0, a.length, b);
}

/** Whether the ascending a[from ..< to] and the ascending list b share an id (no view of a is made). */
export function intersectsRange(a: ArrayLike<number>, from: number, to: number, b: ArrayLike<number>): boolean {
  let i = from;
  let j = 0;
  while (i < to && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) return true;
    if (x < y) i++;
    else j++;
  }
  return false;
}

/**
 * intersects(kindOf(k, p), ids) and intersects(phrasesOfProduct(k, p), ids) without the views: the
 * Task-2 rules ask them of every window member (task2Refusal).
 */
export function kindsMeet(k: ProductKinds, p: number, ids: ArrayLike<number>): boolean {
  return p >= 0 && p + 1 < k.firstKind.length && intersectsRange(k.kindIds, k.firstKind[p]!, k.firstKind[p + 1]!, ids);
}

export function phrasesMeet(k: ProductKinds, p: number, ids: ArrayLike<number>): boolean {
  return (
    p >= 0 &&
    p + 1 < k.firstPhrase.length &&
    intersectsRange(k.phraseIds, k.firstPhrase[p]!, k.firstPhrase[p + 1]!, ids)
  );
}

/** The ids of two ascending id lists, ascending, each once. */
export function sortedUnion(a: ArrayLike<number>, b: ArrayLike<number>): Int32Array {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? a[i]! : Infinity;
    const y = j < b.length ? b[j]! : Infinity;
    const z = x <= y ? x : y;
    if (out.length === 0 || out[out.length - 1] !== z) out.push(z);
    if (x === z) i++;
    if (y === z) j++;
  }
  return Int32Array.from(out);
}

const NO_IDS = new Int32Array(0);
