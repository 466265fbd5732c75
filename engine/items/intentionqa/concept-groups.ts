// Concept groups: pairs of products are linked when their concept words (both products' category
// phrases, split on spaces) intersect, and the groups are the connected components. The generic
// filter counts the groups of the pairs a text is asserted for; the vacuous rule, those of a word.
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
export function groupsOfPairs<W>(count: number, wordsOfPair: (k: number) => ReadonlyArray<Iterable<W>>): number {
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
