// Validity rule `title-words`. Task 2: a distractor product whose title shares a content word with
// the gold product's title or the given product's is refused. Task 1 (kinds from title clusters): a
// distractor intention asserted for a pair whose titles share a word with the item's pair's titles is
// refused: it was said of the same kind of products ("could both be found in the Jewelry category",
// from two necklaces, beside two earrings). Such a product is the same kind of thing
// (an anklet against an anklet, a second Baofeng two-way radio, a 3-pack of USB extension cables), or
// close enough that a reader cannot rule it out: whatever made the customer buy the gold serves it
// too. Product kinds from title clusters and vectors miss many of these; the titles' own words do not.
//
// Content words are content-words.ts's (letters and digits, stopwords and 1–2 letter words out),
// compared as WordNet noun lemmas, as kind-words compares them ("earrings" = "earring", "scarves" =
// "scarf"; a suffix stemmer makes "earr" of one and "earring" of the other), after HTML entities
// (&quot;) are removed. A word in more than half of the titles (TITLE_WORD_MAX_SHARE) is the
// catalogue's, not a kind's: a template word ("title" in "title p12"). On the released titles the most
// common content word, "silver", is in 14.6%.
//
// On the blind labels of the earlier real-data reads (docs/real-data.md, section 6), 83 of 621 Task-2
// distractors were second right answers; the 262 that share no word with the gold's or the given
// product's title hold 9 of them (3.4%, against 13.4%).
import { contentWords } from '../content-words.js';
import { lemmatizeNoun } from '../../products/wordnet-morphy.js';
import { intersects, intersectsRange } from './product-kinds.js';

/** The content words (lemmas) of each product index, as sorted word ids (compressed rows; plain data for the workers). */
export interface TitleWordsData {
  /** Word ids of product p: words[first[p] ..< first[p + 1]], ascending. */
  first: Int32Array;
  words: Int32Array;
  /**
   * Whether Task 1 reads them too: only when kinds come from title clusters. With category phrases (a
   * graph, a concepts file) kind-asserted and group-generic refuse a distractor from a pair of the
   * item's kinds, and the demo world's neighbouring categories share title words ("camping").
   */
  task1: boolean;
}

/** A word in more than this share of the titles is left out: it is the catalogue's (a template word), not a kind's. */
export const TITLE_WORD_MAX_SHARE = 0.5;

/** The title words of products 0 ..< count; `titleOf(p)` undefined: no title, so no words (shares nothing). */
export function titleWordsData(
  count: number,
  titleOf: (p: number) => string | undefined,
  task1: boolean,
): TitleWordsData {
  const idOfWord = new Map<string, number>();
  const lemmaOf = new Map<string, string>();
  const wordsOf: number[][] = [];
  let titled = 0;
  const holders: number[] = [];
  for (let p = 0; p < count; p++) {
    const title = titleOf(p);
    const ids = new Set<number>();
    if (title !== undefined) {
      titled++;
      for (const w of contentWords(title.replace(/&#?[a-z0-9]+;/gi, ' '))) {
        let lemma = lemmaOf.get(w);
        if (lemma === undefined) lemmaOf.set(w, (lemma = lemmatizeNoun(w)));
        let id = idOfWord.get(lemma);
        if (id === undefined) {
          idOfWord.set(lemma, (id = idOfWord.size));
          holders.push(0);
        }
        if (!ids.has(id)) holders[id]! += 1;
        ids.add(id);
      }
    }
    wordsOf.push([...ids].sort((a, b) => a - b));
  }
  const common = (id: number) => holders[id]! > TITLE_WORD_MAX_SHARE * titled;
  const first = new Int32Array(count + 1);
  const words: number[] = [];
  wordsOf.forEach((ids, p) => {
    first[p] = words.length;
    for (const id of ids) if (!common(id)) words.push(id);
  });
  first[count] = words.length;
  return { first, words: Int32Array.from(words), task1 };
}

/** The word ids of product index p's title, ascending; empty for an index out of range. */
export function titleWordsOf(d: TitleWordsData, p: number): Int32Array {
  return p >= 0 && p < d.first.length - 1 ? d.words.subarray(d.first[p]!, d.first[p + 1]!) : NO_WORDS;
}

/** intersects(titleWordsOf(d, p), ids) without the view: the Task-2 rules ask it of every window member. */
export function titleWordsMeet(d: TitleWordsData, p: number, ids: ArrayLike<number>): boolean {
  return p >= 0 && p < d.first.length - 1 && intersectsRange(d.words, d.first[p]!, d.first[p + 1]!, ids);
}

/** Whether the titles of product indices p and q share a word; false for an index out of range. */
export function shareTitleWord(d: TitleWordsData, p: number, q: number): boolean {
  return intersects(titleWordsOf(d, p), titleWordsOf(d, q));
}

const NO_WORDS = new Int32Array(0);
