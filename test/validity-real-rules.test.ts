// The validity rules of issue 44 (items from real data): vacuous (vacuous-intentions.ts), the fit
// rules unexplained and fits-as-well (intention-fit.ts), kind-words (kind-words.ts), and the kinds
// from title clusters (engine/search/kmeans.ts, title-kinds.ts). Small hand-checkable inputs with
// exact expected values; the predicates through ValidityIndex as the draws call them.
import { describe, expect, it } from 'vitest';
import { sphericalKMeans } from '../engine/search/kmeans.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { vacuousIntentions } from '../engine/items/intentionqa/vacuous-intentions.js';
import { IntentionFit } from '../engine/items/intentionqa/intention-fit.js';
import { kindUsesWordsOf, kindWordsData } from '../engine/items/intentionqa/kind-words.js';
import { productKinds } from '../engine/items/intentionqa/product-kinds.js';
import { titleKindCount } from '../engine/items/intentionqa/title-kinds.js';
import { ValidityIndex, intentionKey, type ValidityRules } from '../engine/items/intentionqa/validity-filters.js';
import type { Assertion } from '../engine/items/intentionqa/assertions.js';

const unit = (ids: string[], rows: number[][]) =>
  UnitVectors.fromVectorSet({ ids, dim: rows[0]!.length, data: Float32Array.from(rows.flat()) });

describe('vacuous intentions', () => {
  // Four pairs in four unrelated concept groups (g1 … g4); "good quality" is asserted for all four.
  const words = [['g1'], ['g2'], ['g3'], ['g4']];
  const keys = ['good quality', 'watch time', 'good watch'];
  const slotsOfId = [[0, 1, 2, 3], [0], [1]];
  const run = (minGroups: number) => vacuousIntentions(keys, slotsOfId, (s) => [words[s]!], minGroups);

  it('a key is vacuous when every word is used for pairs across the cut-off of groups', () => {
    // good: 4 groups, quality: 4, watch: 2 (pairs 0 and 1), time: 1.
    expect([...run(3).vacuousId]).toEqual([1, 0, 0]);
    expect(run(3).genericWords).toEqual([
      { word: 'good', groups: 4 },
      { word: 'quality', groups: 4 },
    ]);
    // At 2 groups "watch" is generic too, and "good watch" has no particular word left.
    expect([...run(2).vacuousId]).toEqual([1, 0, 1]);
    // Above the number of groups nothing is generic.
    expect([...run(5).vacuousId]).toEqual([0, 0, 0]);
  });

  it('pairs linked by a shared concept word are one group', () => {
    const linked = [['watch'], ['watch', 'band'], ['band'], ['g4']];
    const r = vacuousIntentions(keys, slotsOfId, (s) => [linked[s]!], 3);
    // good/quality: pairs 0–2 are one group, pair 3 another: 2 groups < 3.
    expect([...r.vacuousId]).toEqual([0, 0, 0]);
  });
});

describe('intention fit', () => {
  const intentions = unit(
    ['tell time', 'keep warm'],
    [
      [1, 0],
      [0, 1],
    ],
  );
  const titles = unit(
    ['watch', 'scarf', 'clock'],
    [
      [1, 0],
      [0, 1],
      [0.6, 0.8],
    ],
  );
  const fit = new IntentionFit(
    { intentions, titles },
    ['tell time', 'keep warm', 'no vector'],
    ['watch', 'scarf', 'clock', 'gone'],
  );

  it('is the cosine of the intention and the title, and a pair fit their mean', () => {
    expect(fit.fit(0, 0)).toBeCloseTo(1, 6);
    expect(fit.fit(0, 1)).toBeCloseTo(0, 6);
    expect(fit.fit(0, 2)).toBeCloseTo(0.6, 6);
    expect(fit.pairFit(1, 1, 2)).toBeCloseTo((1 + 0.8) / 2, 6);
  });

  it('is NaN where either side has no vector, so that no rule reads it', () => {
    expect(fit.fit(2, 0)).toBeNaN();
    expect(fit.fit(0, 3)).toBeNaN();
    expect(fit.fit(-1, 0)).toBeNaN();
    expect(fit.pairFit(0, 0, 3)).toBeNaN();
  });
});

describe('kind words', () => {
  // Products 0, 1: kind "earring"; 2: kind "necklace"; 3: kind "cable".
  const kinds = productKinds(4, (p) => [['earring'], ['earring'], ['necklace'], ['cable']][p], {
    everyPhraseAKind: true,
  });
  const keys = ['manner of jewelry', 'used for charging', 'manner of jewelry making', 'type of cable'];
  // Earring pair asserted with key 0; cable+necklace with key 1 (a made-up pair); necklace+earring with 2.
  const slots = { lo: [0, 2, 2], hi: [1, 3, 0], firstId: [0, 1, 2, 3], ids: [0, 1, 2] };
  const d = kindWordsData(keys, new Set(['manner', 'of', 'type', 'for', 'used']), kinds, slots);

  it('a kind uses the particular words of the keys asserted for its products', () => {
    // "jewelry" is used for earrings (slots 0, 2) and necklaces (slot 2).
    expect(kindUsesWordsOf(d, kinds, 0, 0)).toBe(true);
    expect(kindUsesWordsOf(d, kinds, 0, 2)).toBe(true);
    // Cables: only "charging" (slot 1): "a manner of jewelry" says nothing of a cable.
    expect(kindUsesWordsOf(d, kinds, 0, 3)).toBe(false);
    expect(kindUsesWordsOf(d, kinds, 1, 3)).toBe(true);
    // "type of cable": "cable" is asserted for no pair, so no kind uses it.
    expect(kindUsesWordsOf(d, kinds, 3, 3)).toBe(false);
  });

  it('generic words never link a key to a kind', () => {
    const none = kindWordsData(['manner of'], new Set(['manner', 'of']), kinds, {
      lo: [0],
      hi: [1],
      firstId: [0, 1],
      ids: [0],
    });
    expect(kindUsesWordsOf(none, kinds, 0, 0)).toBe(false);
  });
});

describe('spherical k-means and title kinds', () => {
  const rows: number[][] = [];
  const ids: string[] = [];
  for (let k = 0; k < 10; k++) {
    rows.push([1, 0.05 * k, 0]);
    ids.push(`a${k}`);
    rows.push([0, 1, 0.05 * k]);
    ids.push(`b${k}`);
  }
  rows.push([0, 0, 0]); // no vector
  ids.push('none');
  const v = unit(ids, rows);

  it('finds two well-separated groups, the same for a seed, and leaves a row without a vector out', () => {
    const r = sphericalKMeans(v, { k: 2, seed: 's' });
    const a = r.clusterOfRow[0]!;
    const b = r.clusterOfRow[1]!;
    expect(a).not.toBe(b);
    for (let k = 0; k < 10; k++) {
      expect(r.clusterOfRow[2 * k]).toBe(a);
      expect(r.clusterOfRow[2 * k + 1]).toBe(b);
    }
    expect(r.clusterOfRow[20]).toBe(-1);
    expect([...sphericalKMeans(v, { k: 2, seed: 's' }).clusterOfRow]).toEqual([...r.clusterOfRow]);
  });

  it('groups a catalogue into round(√(n / 2)) kinds', () => {
    expect(titleKindCount(3042)).toBe(39);
    expect(titleKindCount(2)).toBe(2);
  });
});

describe('the rules through the validity index', () => {
  const assertion = (id: string, a: string, b: string, intention: string): Assertion => ({
    id,
    itemA: a,
    itemB: b,
    relation: 'usedFor',
    typicality: 0.9,
    assertion: `PersonX bought … ${intention}`,
    intention,
  });
  const assertions = [
    assertion('1', 'w1', 'w2', 'because they tell time'),
    assertion('2', 's1', 's2', 'because they keep warm'),
  ];
  const keys = assertions.map((a) => intentionKey(a.intention));
  const intentions = unit(keys, [
    [1, 0],
    [0, 1],
  ]);
  const titles = unit(
    ['w1', 'w2', 's1', 's2', 'c1'],
    [
      [1, 0.1],
      [0.9, 0.2],
      [0.1, 1],
      [-0.2, 1],
      [0.95, 0.1],
    ],
  );
  const products = { vectors: titles, wordsOfRow: titles.ids.map(() => new Set<string>()) };
  const index = new ValidityIndex(assertions, new Map(), 3, undefined, 1, products, undefined, undefined, {
    fitVectors: { intentions, titles },
  });
  const rules = (over: Partial<ValidityRules>): ValidityRules => ({
    excludePairAsserted: false,
    excludeGeneric: false,
    excludeSecondAnswers: false,
    excludeKindAsserted: false,
    excludeGroupGeneric: false,
    excludeSubstitutes: false,
    excludeVacuous: false,
    excludeUnexplained: false,
    excludeFitsAsWell: false,
    excludeKindWords: false,
    explainedMinFit: 0.5,
    fitMargin: 0.05,
    ...over,
  });
  const row = (id: string) => titles.row(id)!;

  it('fits-as-well refuses a Task-2 distractor the gold intention fits within the margin, and not one it does not', () => {
    const on = rules({ excludeFitsAsWell: true });
    // "tell time" fits c1 (a clock-like title) as well as the gold w2; s1 not.
    expect(index.task2Refusal(0, row('w1'), row('w2'), row('c1'), on)).toBe('fits-as-well');
    expect(index.task2Refusal(0, row('w1'), row('w2'), row('s1'), on)).toBeUndefined();
    expect(index.task2Refusal(0, row('w1'), row('w2'), row('c1'), rules({}))).toBeUndefined();
  });

  it('unexplained drops a gold that fits neither of its products, vacuous refuses a distractor unexplained for its own pair', () => {
    const on = rules({ excludeUnexplained: true });
    expect(index.goldRefusal(0, row('w1'), row('w2'), on)).toBeUndefined();
    // "tell time" asserted for the two scarves: a mean fit below 0.5.
    expect(index.goldRefusal(0, row('s1'), row('s2'), on)).toBe('unexplained');
    const pair = index.task1Pair(row('w1'), row('w2'), 0);
    expect(index.task1Refusal(1, pair, on, { a: row('s1'), b: row('s2') })).toBeUndefined();
    expect(index.task1Refusal(1, pair, on, { a: row('w1'), b: row('w2') })).toBe('vacuous');
  });
});
