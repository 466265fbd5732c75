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
  const counter = new ConceptGroupCounter(
    (k: number) => pairWords[k]!,
    (k: number) => [k],
  );
  return counter.groups(Int32Array.from(pairWords, (_, k) => k));
}

/**
 * Counts the concept groups of many sets of pairs ("slots") over the same words. A slot's words are
 * those of its members (a pair's two products); each member's words become integer ids the first
 * time it is met, so that counting thousands of overlapping sets (each generic word's pairs at 1M
 * assertions) is integer work on typed arrays, not a string Map per set: the vacuous rule took 22 s
 * of the items stage's preparation at 1M assertions that way, and takes about 7 s now.
 */
export class ConceptGroupCounter<W> {
  private readonly idOfWord = new Map<W, number>();
  private readonly idsOfMember: Array<Int32Array | undefined> = [];
  /** Per word id: the count (stamp) that last met it, and the position of the pair it was first met in. */
  private stampOfWord = new Int32Array(64);
  private firstPairOfWord = new Int32Array(64);
  private stamp = 0;
  private parent = new Int32Array(64);

  constructor(
    private readonly wordsOfMember: (member: number) => Iterable<W>,
    private readonly membersOfSlot: (slot: number) => ArrayLike<number>,
  ) {}

  /** The concept groups of the pairs `slots` (a slot listed twice counts as two pairs, as in conceptGroups). */
  groups(slots: ArrayLike<number>): number {
    const n = slots.length;
    if (this.parent.length < n) this.parent = new Int32Array(Math.max(n, 2 * this.parent.length));
    const parent = this.parent;
    for (let k = 0; k < n; k++) parent[k] = k;
    const find = (k: number): number => {
      while (parent[k] !== k) {
        parent[k] = parent[parent[k]!]!;
        k = parent[k]!;
      }
      return k;
    };
    const stamp = ++this.stamp;
    for (let k = 0; k < n; k++) {
      const members = this.membersOfSlot(slots[k]!);
      for (let m = 0; m < members.length; m++) {
        const ids = this.idsOf(members[m]!);
        for (let j = 0; j < ids.length; j++) {
          const w = ids[j]!;
          if (this.stampOfWord[w] !== stamp) {
            this.stampOfWord[w] = stamp;
            this.firstPairOfWord[w] = k;
          } else parent[find(k)] = find(this.firstPairOfWord[w]!);
        }
      }
    }
    let groups = 0;
    for (let k = 0; k < n; k++) if (find(k) === k) groups += 1;
    return groups;
  }

  private idsOf(member: number): Int32Array {
    const known = this.idsOfMember[member];
    if (known) return known;
    const list: number[] = [];
    for (const w of this.wordsOfMember(member)) {
      let id = this.idOfWord.get(w);
      if (id === undefined) {
        id = this.idOfWord.size;
        this.idOfWord.set(w, id);
        if (id >= this.stampOfWord.length) this.growWords();
      }
      list.push(id);
    }
    return (this.idsOfMember[member] = Int32Array.from(list));
  }

  private growWords(): void {
    const grown = (a: Int32Array) => {
      const b = new Int32Array(2 * a.length);
      b.set(a);
      return b;
    };
    this.stampOfWord = grown(this.stampOfWord);
    this.firstPairOfWord = grown(this.firstPairOfWord);
  }
}
