// Task 2's refusal reads what depends only on the item (its pair and gold intention) once per item
// (ValidityIndex.task2Pair) and the rest per candidate. Here it must name the same rule as the
// rules' own predicates asked one candidate at a time, in the documented order, on random worlds:
// each rule alone, and all of them together.
import { describe, expect, it } from 'vitest';
import type { Assertion } from '../engine/items/intentionqa/assertions.js';
import {
  intentionKey,
  ValidityIndex,
  type ValidityFilter,
  type ValidityRules,
} from '../engine/items/intentionqa/validity-filters.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { Rng } from '../core/rng.js';
import { wordsOf } from '../engine/items/intentionqa/concept-overlap.js';

const RULES = [
  'excludePairAsserted',
  'excludeSecondAnswers',
  'excludeSubstitutes',
  'excludeKindAsserted',
  'excludeGroupGeneric',
  'excludeFitsAsWell',
  'excludeKindWords',
  'excludeTitleWords',
] as const;

function rules(on: readonly (typeof RULES)[number][]): ValidityRules {
  const all = Object.fromEntries(RULES.map((r) => [r, on.includes(r)])) as Record<(typeof RULES)[number], boolean>;
  return {
    ...all,
    excludeGeneric: false,
    excludeVacuous: false,
    excludeUnexplained: false,
    excludeUnanchored: false,
    explainedMinFit: 0,
    fitMargin: 0.1,
    anchorMargin: 0.2,
  };
}

/** The Task-2 rules asked one candidate at a time through the index's predicates, in order. */
function oneByOne(
  v: ValidityIndex,
  goldKey: number,
  given: number,
  gold: number,
  candidate: number,
  r: ValidityRules,
  nearGold: (c: number) => boolean,
): ValidityFilter | undefined {
  const known = goldKey >= 0;
  const asserted = known ? v.assertedIds(given, candidate) : new Int32Array(0);
  if (r.excludePairAsserted && known && Array.from(asserted).includes(goldKey)) return 'pair-asserted';
  if (r.excludeSecondAnswers && known && v.closeToAnyId(goldKey, asserted)) return 'second-answer';
  if (r.excludeSubstitutes && (v.sameKind(candidate, gold) || v.sameKind(candidate, given) || nearGold(candidate)))
    return 'substitute';
  if (r.excludeKindAsserted && known && v.kindAssertedCloseTo(goldKey, given, candidate)) return 'kind-asserted';
  if (r.excludeGroupGeneric && known && v.groupGenericFor(goldKey, given, candidate)) return 'group-generic';
  const fit = v.fit;
  if (
    r.excludeFitsAsWell &&
    known &&
    fit &&
    fit.fit(goldKey, candidate) >= fit.pairFit(goldKey, given, gold) - r.fitMargin
  )
    return 'fits-as-well';
  if (r.excludeKindWords && known && v.kindUsesWordsOf(goldKey, candidate)) return 'kind-words';
  if (r.excludeTitleWords && (v.shareTitleWord(candidate, gold) || v.shareTitleWord(candidate, given)))
    return 'title-words';
  return undefined;
}

describe('Task 2 refusal with the item read once', () => {
  it('names the rule the predicates name one candidate at a time, on random worlds', () => {
    const rng = new Rng(11);
    const rand = (n: number) => rng.nextUint32() % n;
    const words = ['watch', 'strap', 'phone', 'case', 'cable', 'tent', 'lamp', 'cup'];
    const texts = ['because one', 'because two', 'Because the Two!', 'because three', 'because four'];
    const seen = new Map<string, number>();
    for (let trial = 0; trial < 30; trial++) {
      const ids = Array.from({ length: 4 + rand(8) }, (_, k) => `P${k}`);
      const phrases = new Map<string, string[]>();
      for (const id of ids)
        if (rand(5) > 0) phrases.set(id, [...new Set(Array.from({ length: 1 + rand(3) }, () => `x${rand(6)}`))]);
      const title = new Map(
        ids.map((id) => [id, Array.from({ length: 1 + rand(3) }, () => words[rand(words.length)]).join(' ')]),
      );
      const assertions: Assertion[] = Array.from({ length: 2 + rand(30) }, (_, k) => {
        const intention = texts[rand(texts.length)]!;
        return {
          id: String(k),
          itemA: ids[rand(ids.length)]!,
          itemB: ids[rand(ids.length)]!,
          relation: 'usedFor',
          assertion: `PersonX bought … ${intention}`,
          intention,
          typicality: 1,
        };
      });
      const vec = (n: number, dim: number) => Float32Array.from({ length: n * dim }, () => rand(5) - 2);
      const rowIds = ids.filter(() => rand(4) > 0);
      const titles = UnitVectors.fromVectorSet({ ids: rowIds, dim: 3, data: vec(rowIds.length, 3) });
      const keys = [...new Set(assertions.map((a) => intentionKey(a.intention)))];
      const intentions = UnitVectors.fromVectorSet({ ids: keys, dim: 3, data: vec(keys.length, 3) });
      const products = { vectors: titles, wordsOfRow: rowIds.map((id) => wordsOf([phrases.get(id)])) };
      const share = [0.3, 0.5, 1][rand(3)]!;
      const v = new ValidityIndex(assertions, phrases, 3, intentions, rand(5) / 4 - 0.5, products, undefined, share, {
        fitVectors: { intentions, titles },
        titleOf: (id) => title.get(id),
        vacuousWordGroups: 2,
        kindWords: true,
      });
      const near = new Set(rowIds.filter(() => rand(4) === 0).map((id) => v.productIndex(id)));
      const nearGold = (c: number) => near.has(c);
      const indices = [-1, ...ids.map((id) => v.productIndex(id))];
      const keyIds = [-1, ...v.data.keyOfId.keys()];
      const sets = [...RULES.map((r) => [r]), [...RULES]];
      for (const on of sets) {
        const r = rules(on);
        for (const goldKey of keyIds)
          for (const given of indices)
            for (const gold of indices) {
              const pair = v.task2Pair(goldKey, given, gold, nearGold);
              for (const candidate of indices) {
                const want = oneByOne(v, goldKey, given, gold, candidate, r, nearGold);
                expect(
                  v.task2Refusal(pair, candidate, r),
                  `${on.join(',')} ${goldKey} ${given} ${gold} ${candidate}`,
                ).toBe(want);
                if (want !== undefined) seen.set(want, (seen.get(want) ?? 0) + 1);
              }
            }
      }
    }
    // Every rule refused something somewhere: the comparison reached each of them.
    expect([...seen.keys()].sort()).toEqual(
      [
        'fits-as-well',
        'group-generic',
        'kind-asserted',
        'kind-words',
        'pair-asserted',
        'second-answer',
        'substitute',
        'title-words',
      ].sort(),
    );
  });
});
