// The concept-overlap flag (docs/intentionqa.md) and the released getDistractors.py `hasOverlapConcept`:
// true when the WORD sets of the two sides' category phrases intersect (Task 1: phrases of A and B
// against those of C and D; Task 2: phrases of the given product A against the candidate's).
// Phrases are already normalised by conceptualisation; words are split on whitespace as released.

export type WordSet = ReadonlySet<string>;

export function wordsOf(phrases: Iterable<readonly string[] | undefined>): Set<string> {
  const out = new Set<string>();
  for (const list of phrases) {
    if (!list) continue;
    for (const phrase of list) for (const w of phrase.split(/\s+/)) if (w !== '') out.add(w);
  }
  return out;
}

export function overlaps(a: WordSet, b: WordSet): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const w of small) if (large.has(w)) return true;
  return false;
}

/**
 * The words of every product row as small integers, for the overlap test run on every member of a
 * window (thousands per item at scale): mark one side's words, then test each candidate row against
 * the marks, with no string sets. Each task keeps its own marker (`marker()`), so a draw's marks are
 * never overwritten by another's.
 */
export class RowWordIds {
  private readonly offsets: Int32Array;
  private readonly ids: Int32Array;
  readonly vocabulary: number;

  constructor(wordsOfRow: readonly WordSet[]) {
    const idOf = new Map<string, number>();
    this.offsets = new Int32Array(wordsOfRow.length + 1);
    const ids: number[] = [];
    wordsOfRow.forEach((words, row) => {
      for (const w of words) {
        let id = idOf.get(w);
        if (id === undefined) idOf.set(w, (id = idOf.size));
        ids.push(id);
      }
      this.offsets[row + 1] = ids.length;
    });
    this.ids = Int32Array.from(ids);
    this.vocabulary = idOf.size;
  }

  marker(): WordMarker {
    return new WordMarker(this.offsets, this.ids, this.vocabulary);
  }
}

/** The words of some rows, marked; `overlaps(row)`: whether a row shares one of them (as `overlaps`). */
export class WordMarker {
  private readonly marks: Uint32Array;
  private stamp = 0;

  constructor(
    private readonly offsets: Int32Array,
    private readonly ids: Int32Array,
    vocabulary: number,
  ) {
    this.marks = new Uint32Array(vocabulary);
  }

  /** Marks the words of these rows (forgetting the previous marks). */
  mark(rows: readonly number[]): void {
    this.stamp += 1;
    if (this.stamp === 0xffffffff) {
      this.marks.fill(0);
      this.stamp = 1;
    }
    for (const row of rows)
      for (let k = this.offsets[row]!; k < this.offsets[row + 1]!; k++) this.marks[this.ids[k]!] = this.stamp;
  }

  overlaps(row: number): boolean {
    for (let k = this.offsets[row]!; k < this.offsets[row + 1]!; k++)
      if (this.marks[this.ids[k]!] === this.stamp) return true;
    return false;
  }
}
