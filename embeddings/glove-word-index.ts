// Word → vocabulary row for glove-100d, as a hash table that is built once, when the word vectors
// are converted, and stored in the cache (word-index.bin) beside them. Building a Map of the 341,479
// words on every load took 300–380 ms, the largest part of a warm load after reading the vectors
// (measured on the loaded 2-core development VM); reading the stored table takes a few milliseconds.
//
// The table: open addressing with linear probing over 2^k Int32 slots (at most half full), each slot
// a row or -1; a word's first slot is its FNV-1a hash over UTF-16 code units. The hash must never
// change without changing the cache format (glove-cache.ts), since the tables on disk depend on it.

/** FNV-1a, 32 bits, over the string's UTF-16 code units. */
function fnv1a(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The slot count for `words` entries: the smallest power of two at least twice as large (at least 2). */
function slotCount(words: number): number {
  let slots = 2;
  while (slots < 2 * words) slots *= 2;
  return slots;
}

/** The table for `words` in rank order (row i = words[i]); a repeated word keeps its first row. */
export function buildWordTable(words: readonly string[]): Int32Array {
  const table = new Int32Array(slotCount(words.length)).fill(-1);
  const mask = table.length - 1;
  for (let row = 0; row < words.length; row++) {
    const word = words[row]!;
    let slot = fnv1a(word) & mask;
    while (table[slot] !== -1 && words[table[slot]!] !== word) slot = (slot + 1) & mask;
    if (table[slot] === -1) table[slot] = row;
  }
  return table;
}

/** Looks words up in a table built by buildWordTable over the same words. */
export class WordIndex {
  private readonly mask: number;

  constructor(
    private readonly words: readonly string[],
    private readonly table: Int32Array,
  ) {
    if (table.length !== slotCount(words.length))
      throw new Error(`a word table of ${table.length} slots does not fit ${words.length} words`);
    this.mask = table.length - 1;
  }

  /** The word's row, or undefined when the vocabulary does not have it. */
  get(word: string): number | undefined {
    for (let slot = fnv1a(word) & this.mask; ; slot = (slot + 1) & this.mask) {
      const row = this.table[slot]!;
      if (row === -1) return undefined;
      if (this.words[row] === word) return row;
    }
  }
}
