// The validity rules of issue 44 (items from real data): vacuous (vacuous-intentions.ts), the fit
// rules unexplained and fits-as-well (intention-fit.ts), kind-words (kind-words.ts), and the kinds
// from title clusters (engine/search/kmeans.ts, title-kinds.ts). Small hand-checkable inputs with
// exact expected values; the predicates through ValidityIndex as the draws call them.
import { describe, expect, it } from 'vitest';
import { sphericalKMeans } from '../engine/search/kmeans.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { vacuousIntentions } from '../engine/items/intentionqa/vacuous-intentions.js';
import { ConceptGroupCounter } from '../engine/items/intentionqa/concept-groups.js';
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
  const slotCounter = (wordsOfSlot: string[][]) =>
    new ConceptGroupCounter(
      (s: number) => wordsOfSlot[s]!,
      (s) => [s],
    );
  const run = (minGroups: number) => vacuousIntentions(keys, slotsOfId, slotCounter(words), minGroups);

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
    const r = vacuousIntentions(keys, slotsOfId, slotCounter(linked), 3);
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
    excludeUnanchored: false,
    excludeTitleWords: false,
    explainedMinFit: 0.5,
    fitMargin: 0.05,
    anchorMargin: 0.2,
    ...over,
  });
  const row = (id: string) => titles.row(id)!;

  it('fits-as-well refuses a Task-2 distractor the gold intention fits within the margin, and not one it does not', () => {
    const on = rules({ excludeFitsAsWell: true });
    // "tell time" fits c1 (a clock-like title) as well as the gold w2; s1 not.
    expect(index.task2Refusal(index.task2Pair(0, row('w1'), row('w2')), row('c1'), on)).toBe('fits-as-well');
    expect(index.task2Refusal(index.task2Pair(0, row('w1'), row('w2')), row('s1'), on)).toBeUndefined();
    expect(index.task2Refusal(index.task2Pair(0, row('w1'), row('w2')), row('c1'), rules({}))).toBeUndefined();
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

  it("fits-as-well compares a Task-2 candidate with the gold intention's fit to the pair, given product and gold", () => {
    const on = rules({ excludeFitsAsWell: true, fitMargin: 0 });
    const f = (p: string) => index.fit!.fit(0, row(p));
    // The pair fit of "tell time" to (w1, w2) is the mean of its fits to the two titles.
    const pairFit = (f('w1') + f('w2')) / 2;
    expect(index.fit!.pairFit(0, row('w1'), row('w2'))).toBeCloseTo(pairFit, 12);
    // c1 fits "tell time" better than the pair's mean: refused at margin 0; s1 fits it less: kept.
    expect(f('c1')).toBeGreaterThan(pairFit);
    expect(index.task2Refusal(index.task2Pair(0, row('w1'), row('w2')), row('c1'), on)).toBe('fits-as-well');
    expect(index.task2Refusal(index.task2Pair(0, row('w1'), row('w2')), row('s1'), on)).toBeUndefined();
  });

  it("unanchored refuses a Task-1 distractor that fits the item's pair within the margin of its own pair", () => {
    const pair = index.task1Pair(row('w1'), row('w2'), 0);
    const own = { a: row('s1'), b: row('s2') };
    // "keep warm": own pair (the scarves) against the watches' pair.
    const ownFit = index.fit!.pairFit(1, own.a, own.b);
    const here = index.fit!.pairFit(1, pair.a, pair.b);
    expect(ownFit - here).toBeGreaterThan(0.5);
    expect(index.task1Refusal(1, pair, rules({ excludeUnanchored: true, anchorMargin: 0.2 }), own)).toBeUndefined();
    const past = Math.ceil((ownFit - here) * 100) / 100 + 0.01;
    expect(index.task1Refusal(1, pair, rules({ excludeUnanchored: true, anchorMargin: past }), own)).toBe('unanchored');
    // Its own pair as the item's pair: fits both alike, so refused at any positive margin.
    const same = index.task1Pair(own.a, own.b, 1);
    expect(index.task1Refusal(1, same, rules({ excludeUnanchored: true, anchorMargin: 0.01 }), own)).toBe('unanchored');
    // No own pair known (a text no assertion has): not refused.
    expect(index.task1Refusal(1, pair, rules({ excludeUnanchored: true, anchorMargin: 2 }))).toBeUndefined();
  });

  describe('title-words', () => {
    const titleOf = new Map([
      ['w1', 'Casio Sport Watch'],
      ['w2', 'Timex Analog Watches'],
      ['s1', 'Wool Scarf'],
      ['s2', 'Knit Scarves'],
      ['c1', 'Wall Clock'],
    ]);
    const build = (kinds: boolean) =>
      new ValidityIndex(assertions, new Map(), 3, undefined, 1, products, undefined, undefined, {
        titleOf: (id) => titleOf.get(id),
        ...(kinds ? { kindLabels: new Map([...titleOf.keys()].map((id) => [id, [id.slice(0, 1)]])) } : {}),
      });
    const on = rules({ excludeTitleWords: true });

    it('Task 2: refuses a candidate sharing a word with the gold or the given product, by lemma', () => {
      const index = build(false);
      // Given s1, gold s2 ("scarves" = "scarf"): w1 shares nothing, c1 nothing.
      expect(index.task2Refusal(index.task2Pair(1, row('s1'), row('w1')), row('w2'), on)).toBe('title-words'); // watch / watches
      expect(index.task2Refusal(index.task2Pair(1, row('s1'), row('w1')), row('c1'), on)).toBeUndefined();
      expect(index.task2Refusal(index.task2Pair(1, row('w1'), row('c1')), row('s2'), on)).toBeUndefined();
      expect(index.task2Refusal(index.task2Pair(1, row('w1'), row('c1')), row('w2'), on)).toBe('title-words'); // shares with the given w1
      expect(index.task2Refusal(index.task2Pair(1, row('s1'), row('w1')), row('w2'), rules({}))).toBeUndefined();
    });

    it("Task 1: refuses a distractor asserted for a pair sharing a title word with the item's pair, only with title-cluster kinds", () => {
      const pair = (i: ValidityIndex) => i.task1Pair(row('w1'), row('c1'), 0);
      // "keep warm" asserted for the scarves: no word in common with a watch and a clock.
      expect(build(true).task1Refusal(1, pair(build(true)), on, { a: row('s1'), b: row('s2') })).toBeUndefined();
      // "tell time" asserted for the two watches, beside a watch and a clock: "watch" in common.
      const withKinds = build(true);
      expect(withKinds.task1Refusal(0, pair(withKinds), on, { a: row('w1'), b: row('w2') })).toBe('title-words');
      // Kinds from category phrases: Task 1 does not read titles.
      const phrases = build(false);
      expect(phrases.task1Refusal(0, pair(phrases), on, { a: row('w1'), b: row('w2') })).toBeUndefined();
    });
  });
});
