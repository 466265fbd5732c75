// The title-words rule's words (title-words.ts): content words as WordNet noun lemmas, HTML entities
// out, the catalogue's common words out; hand-checked titles, and the sorted merge against a plain
// set intersection on random titles.
import { describe, expect, it } from 'vitest';
import { TITLE_WORD_MAX_SHARE, shareTitleWord, titleWordsData } from '../engine/items/intentionqa/title-words.js';
import { contentWords } from '../engine/items/content-words.js';
import { lemmatizeNoun } from '../engine/products/wordnet-morphy.js';
import { Rng } from '../core/rng.js';

const data = (titles: Array<string | undefined>, task1 = false) =>
  titleWordsData(titles.length, (p) => titles[p], task1);

describe('title words', () => {
  // Fifteen titles, fourteen with a title: no word is in more than half of them.
  const titles = [
    'Drop Earrings &quot;Gold&quot; Heart', // 0
    'Stud Earring, Silver', // 1
    'Wool Scarf', // 2
    'Knit Scarves for Women', // 3
    'Wall Clock', // 4
    undefined, // 5: no title
    'Kitchen Knife &amp; Board', // 6
    'Cutting Board', // 7
    'Heart Locket', // 8
    'Heart Pillow', // 9
    'Desk Lamp',
    'Garden Hose',
    'Dog Leash',
    'Tent Stake',
    'Yoga Mat',
  ];
  const d = data(titles);

  it("matches plural and singular nouns (WordNet lemmas), not a stemmer's halves", () => {
    expect(shareTitleWord(d, 0, 1)).toBe(true); // earrings / earring
    expect(shareTitleWord(d, 2, 3)).toBe(true); // scarf / scarves
    expect(shareTitleWord(d, 6, 7)).toBe(true); // board
    expect(shareTitleWord(d, 1, 0)).toBe(true); // symmetric
  });

  it('shares nothing through stopwords, entities, a missing title or an index out of range', () => {
    expect(shareTitleWord(d, 2, 4)).toBe(false); // "wool scarf" / "wall clock"
    expect(shareTitleWord(d, 3, 0)).toBe(false); // "for" is a stopword
    expect(shareTitleWord(d, 0, 6)).toBe(false); // "&quot;" and "&amp;" are not words
    expect(shareTitleWord(d, 0, 5)).toBe(false);
    expect(shareTitleWord(d, 0, 15)).toBe(false);
    expect(shareTitleWord(d, -1, 0)).toBe(false);
  });

  it("leaves out a word in more than half of the titles (the catalogue's, not a kind's)", () => {
    expect(TITLE_WORD_MAX_SHARE).toBe(0.5);
    expect(shareTitleWord(d, 0, 8)).toBe(true); // "heart": 3 of 14
    // 3 of 5 (60%): left out; 2 of 4 (50%, not more): it counts.
    const template = data(['Heart Locket', 'Heart Pillow', 'Heart Mug', 'Wall Clock', 'Wool Scarf']);
    expect(shareTitleWord(template, 0, 1)).toBe(false);
    const half = data(['Heart Locket', 'Heart Pillow', 'Wall Clock', 'Wool Scarf']);
    expect(shareTitleWord(half, 0, 1)).toBe(true);
  });

  it('records whether Task 1 reads them', () => {
    expect(data(['a'], true).task1).toBe(true);
    expect(data(['a'], false).task1).toBe(false);
  });

  it('agrees with a plain set intersection on random titles', () => {
    const vocabulary = [
      'cable',
      'cables',
      'radio',
      'radios',
      'watch',
      'watches',
      'ring',
      'rings',
      'the',
      'for',
      'gold',
      'bag',
    ];
    const rng = new Rng(7);
    for (let round = 0; round < 20; round++) {
      const n = 5 + rng.int(20);
      const titles = Array.from({ length: n }, () =>
        rng.next() < 0.1
          ? undefined
          : Array.from({ length: 1 + rng.int(4) }, () => vocabulary[rng.int(vocabulary.length)]!).join(' '),
      );
      const lemmas = titles.map((t) => new Set(t === undefined ? [] : contentWords(t).map((w) => lemmatizeNoun(w))));
      const titled = titles.filter((t) => t !== undefined).length;
      const holders = (w: string) => lemmas.filter((set) => set.has(w)).length;
      const d = data(titles);
      for (let p = 0; p < n; p++)
        for (let q = 0; q < n; q++) {
          const slow = [...lemmas[p]!].some((w) => lemmas[q]!.has(w) && holders(w) <= TITLE_WORD_MAX_SHARE * titled);
          expect(shareTitleWord(d, p, q), `${titles[p]} / ${titles[q]}`).toBe(slow);
        }
    }
  });
});
