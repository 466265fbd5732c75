// The validity filters (engine/items/intentionqa/validity-filters.ts) on inputs small enough to check
// by hand: the intention key, the concept groups, the index, the drop reason of an emptied window, and
// items built from a hand-made world where every cosine between two products is 0.8 (inside both
// paper windows), so that which distractors remain is decided by the filters alone.
import { describe, expect, it } from 'vitest';
import type { Assertion } from '../engine/items/intentionqa/assertions.js';
import { IntentionQaRun } from '../engine/items/intentionqa/build-items.js';
import { emptiedBy } from '../engine/items/intentionqa/draft.js';
import type { IntentionQaSettings } from '../engine/items/intentionqa/intentionqa-options.js';
import { resolveOptions } from '../engine/items/intentionqa/intentionqa-options.js';
import type { Task1Item, Task2Item } from '../engine/items/intentionqa/item-types.js';
import { ValidityIndex, conceptGroups, intentionKey } from '../engine/items/intentionqa/validity-filters.js';
import { ConceptGroupCounter } from '../engine/items/intentionqa/concept-groups.js';
import { vacuousIntentions } from '../engine/items/intentionqa/vacuous-intentions.js';
import { Rng } from '../core/rng.js';
import { wordsOf } from '../engine/items/intentionqa/concept-overlap.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { collectRecords } from './support/intentionqa-records.js';
import { draftInParallel } from '../engine/items/intentionqa/draft-pool.js';
import { ConfigError } from '../core/errors.js';

/** Concept groups by an all-pairs search: the slow obvious count of linked word sets. */
function slowGroups(sets: Array<Set<string>>): number {
  const seen = new Set<number>();
  let groups = 0;
  for (let s = 0; s < sets.length; s++) {
    if (seen.has(s)) continue;
    groups += 1;
    const stack = [s];
    seen.add(s);
    while (stack.length > 0) {
      const k = stack.pop()!;
      for (let j = 0; j < sets.length; j++)
        if (!seen.has(j) && [...sets[k]!].some((x) => sets[j]!.has(x))) {
          seen.add(j);
          stack.push(j);
        }
    }
  }
  return groups;
}

/** Random products with up to `perProduct - 1` concept words each, and random pairs of them (the slots). */
function randomPairs(rng: Rng, size: { products: number; words: number; perProduct: number; pairs: number }) {
  const productWords = Array.from(
    { length: size.products },
    () => new Set(Array.from({ length: rng.int(size.perProduct) }, () => `c${rng.int(size.words)}`)),
  );
  const pairs = Array.from({ length: size.pairs }, () => [rng.int(size.products), rng.int(size.products)] as const);
  const wordsOfSlot = (s: number) => [productWords[pairs[s]![0]]!, productWords[pairs[s]![1]]!];
  const counter = new ConceptGroupCounter(
    (p: number) => productWords[p]!,
    (s) => pairs[s]!,
  );
  return { wordsOfSlot, counter };
}

describe('intention key (the released normalize_name)', () => {
  it('ignores case, punctuation, articles and spacing, and nothing else', () => {
    expect(intentionKey('Because they are both used for THE same purpose.')).toBe(
      'because they are both used for same purpose',
    );
    expect(intentionKey('because  they both are a type of jewelry')).toBe(
      intentionKey('Because they both are type of Jewelry!'),
    );
    expect(intentionKey('because they both are cables')).not.toBe(intentionKey('because they both are cable'));
  });
});

describe('concept groups', () => {
  const w = (...words: string[]) => new Set(words);
  it('counts the connected components of pairs linked by a shared word', () => {
    // {0, 1} share "b"; {3, 4} share "f"; 2 alone; 5 has no words: a group of its own.
    expect(conceptGroups([w('a', 'b'), w('b', 'c'), w('d'), w('e', 'f'), w('f'), w()])).toBe(4);
    expect(conceptGroups([])).toBe(0);
    // a chain links through an intermediate pair: 0–1 by "b", 1–2 by "c"
    expect(conceptGroups([w('a', 'b'), w('b', 'c'), w('c', 'd')])).toBe(1);
  });
  it('equals a slow all-pairs search on random inputs', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let trial = 0; trial < 50; trial++) {
      const sets = Array.from({ length: 1 + rand(12) }, () =>
        w(...Array.from({ length: rand(3) }, () => `w${rand(15)}`)),
      );
      expect(conceptGroups(sets)).toBe(slowGroups(sets));
    }
  });

  it('one ConceptGroupCounter serves many overlapping sets of pairs: each count equals the slow search', () => {
    const rng = new Rng(5);
    const { wordsOfSlot, counter } = randomPairs(rng, { products: 60, words: 40, perProduct: 4, pairs: 200 });
    for (let trial = 0; trial < 300; trial++) {
      const slots = Array.from({ length: rng.int(40) }, () => rng.int(200)); // repeats included
      const sets = slots.map((s) => new Set(wordsOfSlot(s).flatMap((words) => [...words])));
      expect(counter.groups(slots)).toBe(slowGroups(sets));
    }
  });

  it('vacuousIntentions: a word is generic when its pairs span minGroups groups (the slow search on random keys)', () => {
    const rng = new Rng(9);
    const { wordsOfSlot, counter } = randomPairs(rng, { products: 40, words: 25, perProduct: 3, pairs: 150 });
    const keys = Array.from({ length: 60 }, () =>
      Array.from({ length: rng.int(4) }, () => `i${rng.int(12)}`).join(' '),
    );
    const slotsOfId = keys.map(() => Array.from({ length: rng.int(12) }, () => rng.int(150)));
    let decisive = 0;
    for (const minGroups of [2, 4, 6]) {
      const got = vacuousIntentions(keys, slotsOfId, counter, minGroups);
      const groupsOf = new Map<string, number>();
      for (const word of new Set(keys.flatMap((k) => k.split(' ')).filter((x) => x !== ''))) {
        const slots = new Set(keys.flatMap((k, id) => (k.split(' ').includes(word) ? slotsOfId[id]! : [])));
        if (slots.size < minGroups) continue;
        groupsOf.set(word, slowGroups([...slots].map((s) => new Set(wordsOfSlot(s).flatMap((x) => [...x])))));
      }
      const generic = [...groupsOf].filter(([, g]) => g >= minGroups);
      expect(got.genericWords).toEqual(
        generic
          .map(([word, groups]) => ({ word, groups }))
          .sort((x, y) => y.groups - x.groups || (x.word < y.word ? -1 : 1)),
      );
      const genericSet = new Set(generic.map(([word]) => word));
      expect([...got.vacuousId]).toEqual(
        keys.map((k) => {
          const words = k.split(' ').filter((x) => x !== '');
          return words.length > 0 && words.every((x) => genericSet.has(x)) ? 1 : 0;
        }),
      );
      // the data must decide both ways somewhere: some words generic and some not, some keys vacuous and some not
      if (generic.length > 0 && generic.length < groupsOf.size && new Set(got.vacuousId).size === 2) decisive += 1;
    }
    expect(decisive).toBeGreaterThan(0);
  });
});

const assertion = (id: string, itemA: string, itemB: string, intention: string, typicality = 1): Assertion => ({
  id,
  itemA,
  itemB,
  relation: 'usedFor',
  assertion: `PersonX bought a product of Item A and a product of Item B ${intention}`,
  intention,
  typicality,
});

describe('ValidityIndex', () => {
  const phrases = new Map<string, string[]>([
    ['A1', ['red apple']],
    ['A2', ['green apple']],
    ['B1', ['blue car']],
    ['B2', ['car seat']],
    ['C1', ['tea cup']],
    ['C2', ['tea pot']],
  ]);
  const assertions = [
    assertion('1', 'A1', 'A2', 'because same purpose.'),
    assertion('2', 'B1', 'B2', 'because the same purpose'),
    assertion('3', 'C1', 'C2', 'because Same Purpose!', 0.1),
    assertion('4', 'A1', 'A2', 'because fruit.'),
    assertion('5', 'A2', 'A1', 'because fruit'),
    assertion('6', 'B1', 'B2', 'because driving.'),
    assertion('7', 'B2', 'A1', 'because driving.'),
  ];
  it('lists the intentions of every unordered pair, at any typicality', () => {
    const v = new ValidityIndex(assertions, phrases, 3, undefined, 0.8);
    expect(v.assertedFor('A2', 'A1')).toEqual(['because same purpose', 'because fruit']);
    expect(v.assertedFor('B1', 'B2')).toEqual(['because same purpose', 'because driving']);
    expect(v.assertedFor('C2', 'C1')).toEqual(['because same purpose']);
    expect(v.assertedFor('A1', 'C1')).toEqual([]);
    expect(v.keys).toBe(3);
  });
  it('calls generic the texts asserted across at least the cut-off of concept groups', () => {
    // "same purpose": apple, car and tea pairs, three groups. "driving": B1–B2 and B2–A1 share "car": one group.
    const three = new ValidityIndex(assertions, phrases, 3, undefined, 0.8);
    expect([...three.generic]).toEqual([
      ['because same purpose', { text: 'because same purpose.', groups: 3, pairs: 3 }],
    ]);
    expect(three.isGeneric('because same purpose')).toBe(true);
    expect(three.isGeneric('because driving')).toBe(false);
    const four = new ValidityIndex(assertions, phrases, 4, undefined, 0.8);
    expect(four.generic.size).toBe(0);
    const two = new ValidityIndex(assertions, phrases, 2, undefined, 0.8);
    expect([...two.generic.keys()]).toEqual(['because same purpose']);
  });
  it('is close at or above the threshold, and always for equal keys', () => {
    const vectors = UnitVectors.fromVectorSet({
      ids: ['because fruit', 'because driving', 'because same purpose'],
      dim: 2,
      data: Float32Array.from([1, 0, 0.8, 0.6, 0, 1]),
    });
    const at = (cosine: number) => new ValidityIndex(assertions, phrases, 3, vectors, cosine);
    expect(at(0.79).close('because fruit', 'because driving')).toBe(true);
    expect(at(0.81).close('because fruit', 'because driving')).toBe(false);
    expect(at(0.81).close('because fruit', 'because fruit')).toBe(true);
    expect(at(0.5).closeToAny('because same purpose', ['because fruit', 'because driving'])).toBe(true); // 0.6
    expect(at(0.7).closeToAny('because same purpose', ['because fruit', 'because driving'])).toBe(false);
    // without vectors only equal keys are close
    expect(new ValidityIndex(assertions, phrases, 3, undefined, -1).close('because fruit', 'because driving')).toBe(
      false,
    );
  });
});

describe('ValidityIndex equals a slow obvious implementation on random inputs', () => {
  let seed = 11;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const texts = [
    'because fruit',
    'Because the Fruit!',
    'because driving',
    'because (x) driving.',
    'because a tea',
    'because tea',
    'because cups',
  ];
  // The slow answers, straight from the definitions: texts compared by intentionKey, pairs unordered,
  // concept groups by an all-pairs search (slowGroups, above), closeness by the cosine of the keys' vectors.
  it('pairs, generic texts, closeness and key ids, with and without product rows', () => {
    const seen = { pairs: 0, generic: 0, close: 0, far: 0 };
    for (let trial = 0; trial < 40; trial++) {
      const productIds = Array.from({ length: 2 + rand(9) }, (_, k) => `P${k}`);
      const phrases = new Map<string, string[]>();
      for (const id of productIds)
        if (rand(5) > 0)
          phrases.set(
            id,
            Array.from({ length: 1 + rand(2) }, () => `w${rand(6)} w${rand(6)}`),
          );
      const assertions = Array.from({ length: rand(25) }, (_, k) => {
        const a = productIds[rand(productIds.length)]!;
        let b = productIds[rand(productIds.length)]!;
        if (b === a) b = `${a}x`; // a product named only here: no phrases, no row
        return assertion(String(k), a, b, texts[rand(texts.length)]!, rand(10) / 10);
      });
      const keys = [...new Set(texts.map(intentionKey))];
      const intentionVectors = UnitVectors.fromVectorSet({
        ids: keys,
        dim: 3,
        data: Float32Array.from({ length: keys.length * 3 }, (_, j) => (j < 3 ? 0 : rand(5) - 2)), // first row zero: no vector
      });
      const rowIds = productIds.filter(() => rand(3) > 0);
      const rowVectors = UnitVectors.fromVectorSet({
        ids: rowIds,
        dim: 1,
        data: new Float32Array(rowIds.length).fill(1),
      });
      const minGroups = 2 + rand(2);
      const cosine = rand(5) / 4 - 0.5;
      const slowAsserted = (a: string, b: string) => [
        ...new Set(
          assertions
            .filter((x) => (x.itemA === a && x.itemB === b) || (x.itemA === b && x.itemB === a))
            .map((x) => intentionKey(x.intention)),
        ),
      ];
      const pairsOf = (key: string) => [
        ...new Map(
          assertions
            .filter((x) => intentionKey(x.intention) === key)
            .map((x) => [[x.itemA, x.itemB].sort().join(' '), [x.itemA, x.itemB]] as const),
        ).values(),
      ];
      const slowGeneric = keys.flatMap((key) => {
        const pairs = pairsOf(key);
        const groups = slowGroups(pairs.map(([a, b]) => wordsOf([phrases.get(a), phrases.get(b)])));
        const text = assertions.find((x) => intentionKey(x.intention) === key)?.intention;
        return text !== undefined && groups >= minGroups ? [{ key, text, groups, pairs: pairs.length }] : [];
      });
      slowGeneric.sort((x, y) => y.groups - x.groups || (x.text < y.text ? -1 : x.text > y.text ? 1 : 0));
      const slowClose = (k1: string, k2: string) => {
        if (k1 === k2) return true;
        const i = intentionVectors.row(k1)!;
        const j = intentionVectors.row(k2)!;
        return intentionVectors.isValid(i) && intentionVectors.isValid(j) && intentionVectors.cosine(i, j) >= cosine;
      };
      for (const withRows of [false, true]) {
        const products = withRows
          ? { vectors: rowVectors, wordsOfRow: rowIds.map((id) => wordsOf([phrases.get(id)])) }
          : undefined;
        const v = new ValidityIndex(assertions, phrases, minGroups, intentionVectors, cosine, products);
        expect([...v.generic].map(([key, g]) => ({ key, ...g }))).toEqual(slowGeneric);
        expect(v.keys).toBe(new Set(assertions.map((x) => intentionKey(x.intention))).size);
        const keyOfId = new Map<number, string>();
        assertions.forEach((x, k) => {
          const id = v.intentionIds[k]!;
          expect(keyOfId.get(id) ?? intentionKey(x.intention)).toBe(intentionKey(x.intention)); // one key per id
          keyOfId.set(id, intentionKey(x.intention));
          expect(v.isGenericId(id)).toBe(slowGeneric.some((g) => g.key === keyOfId.get(id)));
        });
        expect(new Set(keyOfId.values()).size).toBe(keyOfId.size); // one id per key
        if (withRows) rowIds.forEach((id, row) => expect(v.productIndex(id)).toBe(row));
        const named = [...productIds, ...productIds.map((id) => `${id}x`), 'nobody'];
        // A worker's index: the same data, structured-cloned, not rebuilt.
        const copy = new ValidityIndex(
          [],
          new Map(),
          minGroups,
          intentionVectors,
          cosine,
          products,
          structuredClone(v.data),
        );
        expect([...copy.generic]).toEqual([...v.generic]);
        const fast: unknown[] = [];
        const fastCopy: unknown[] = [];
        const want: unknown[] = [];
        for (const a of named)
          for (const b of named) {
            const slow = slowAsserted(a, b);
            for (const [index, out] of [
              [v, fast],
              [copy, fastCopy],
            ] as const) {
              const asserted = index.assertedIds(index.productIndex(a), index.productIndex(b));
              const close = [...keyOfId].map(([id, key]) => [
                index.closeToAnyId(id, asserted),
                index.closeToAny(key, slow),
              ]);
              out.push([a, b, Array.from(asserted, (id) => keyOfId.get(id)), index.assertedFor(a, b), close]);
            }
            const slowCloses = [...keyOfId.values()].map((key) => slow.some((k) => slowClose(key, k)));
            want.push([a, b, slow, slow, slowCloses.map((c) => [c, c])]);
            seen.pairs += slow.length > 0 ? 1 : 0;
            seen.close += slowCloses.filter((c) => c).length;
            seen.far += slowCloses.filter((c) => !c).length;
          }
        expect(fast).toEqual(want);
        expect(fastCopy).toEqual(want);
        seen.generic += slowGeneric.length;
      }
    }
    // the random inputs reach every case
    expect(Math.min(seen.pairs, seen.generic, seen.close, seen.far)).toBeGreaterThan(10);
  });
});

describe('the filter that emptied a window', () => {
  const drawn = (reasons: string[], chosen: number) => ({
    chosen: Array.from({ length: chosen }, (_, k) => ({ key: k, score: 0.7, via: 'scan' as const })),
    dropped: reasons.map((reason, k) => ({ key: 100 + k, score: 0.7, via: 'scan' as const, reason })),
  });
  it('is the filter that refused most, when the filters made the difference', () => {
    expect(emptiedBy(drawn(['pair-asserted', 'generic', 'generic'], 1))).toBe('generic');
    expect(emptiedBy(drawn(['pair-asserted', 'second-answer'], 1))).toBe('pair-asserted'); // tie: the first
    expect(emptiedBy(drawn(['second-answer'], 2))).toBe('second-answer');
  });
  it('is none when the window was short anyway', () => {
    expect(emptiedBy(drawn(['second-answer'], 1))).toBeUndefined(); // 1 + 1 < 3
    expect(emptiedBy(drawn(['false-negative', 'duplicate-option'], 1))).toBeUndefined();
    expect(emptiedBy(drawn([], 0))).toBeUndefined();
  });
});

const BEYOND_THE_PAIR_OFF = { excludeKindAsserted: false, excludeGroupGeneric: false, excludeSubstitutes: false };

describe('items with the filters, on a world where every product cosine is 0.8', () => {
  // 22 products P0..P21: vector e0·√0.8 + e_(k+1)·√0.2, so every pair has cosine 0.8 (in both windows).
  const n = 22;
  const ids = Array.from({ length: n }, (_, k) => `P${k}`);
  const data = new Float32Array(n * (n + 1));
  ids.forEach((_, k) => {
    data[k * (n + 1)] = Math.sqrt(0.8);
    data[k * (n + 1) + k + 1] = Math.sqrt(0.2);
  });
  const products = new Map(ids.map((id) => [id, `Product ${id}`]));
  const phrase = (id: string): string[] => {
    const k = Number(id.slice(1));
    return k >= 15 && k <= 20 ? [['alpha', 'beta', 'gamma'][Math.floor((k - 15) / 2)]!] : ['thing'];
  };
  const phrases = new Map(ids.map((id) => [id, phrase(id)]));
  const assertions = [
    assertion('X', 'P1', 'P2', 'because it1.'),
    assertion('X2', 'P1', 'P2', 'because it2.'), // asserted for the pair
    assertion('X6', 'P2', 'P1', 'because it6.', 0.2), // asserted for the pair, below the typicality cut
    assertion('C2', 'P3', 'P4', 'because it2.'),
    assertion('C3', 'P5', 'P6', 'because it3.'),
    assertion('C4', 'P7', 'P8', 'because it4.'),
    assertion('C5', 'P9', 'P10', 'because it5.'),
    assertion('C2b', 'P11', 'P12', 'Because the IT2!'), // normalize_name equal to "because it2."
    assertion('C6', 'P13', 'P14', 'because it6.'),
    // "same purpose" across three unrelated groups (alpha, beta, gamma): generic
    assertion('G1', 'P15', 'P16', 'because same purpose.'),
    assertion('G2', 'P17', 'P18', 'because same purpose.'),
    assertion('G3', 'P19', 'P20', 'because same purpose.'),
    // P21 is asserted with P1 for X's own intention: a second right answer to X's Task 2
    assertion('T', 'P1', 'P21', 'because it1.'),
  ];
  const world = { products, assertions, phrases, embeddings: { ids, dim: n + 1, data } };
  const items = async (settings: IntentionQaSettings, intentionVectors?: UnitVectors) =>
    collectRecords(
      (
        await IntentionQaRun.prepare({
          ...world,
          ...(intentionVectors ? { intentionVectors } : {}),
          // The rules beyond the exact pair are tested on a world of their own (below): here every
          // product but P15–P20 is one kind ("thing"), so they would refuse every candidate.
          options: { requireOverlap: false, exactness: 'exact', ...BEYOND_THE_PAIR_OFF, ...settings },
        })
      ).records(),
    );
  const task1 = (r: Awaited<ReturnType<typeof items>>, id: string) =>
    r.items.find((i): i is Task1Item => i.task === 1 && i.id === id);
  const task2 = (r: Awaited<ReturnType<typeof items>>, id: string) =>
    r.items.find((i): i is Task2Item => i.task === 2 && i.id === id);

  it('keeps only the distractors no filter refuses, whatever the seed', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = await items({ seed });
      const x = task1(r, 'X')!;
      // Candidates of X (sharing no product): C2, C2b, C6 (asserted for the pair), G1–G3 (generic),
      // C3, C4, C5: exactly three left.
      expect([...x.distractors_id].sort()).toEqual(['C3', 'C4', 'C5']);
      const refusedIds = new Map(x.selection.refused.map((f) => [f.id, f.reason]));
      for (const [id, reason] of refusedIds) {
        if (['C2', 'C2b', 'C6'].includes(id)) expect(reason).toBe('pair-asserted');
        else if (['G1', 'G2', 'G3'].includes(id)) expect(reason).toBe('generic');
        else expect.fail(`unexpected refusal of ${id} (${reason})`);
      }
      // Task 2 of X: P21 is asserted with P1 for X's intention
      expect(task2(r, 'X')!.distractors_id).not.toContain('P21');
      // The generic assertions are dropped before either task
      for (const id of ['G1', 'G2', 'G3'])
        expect(r.dropped.find((d) => d.id === id)).toMatchObject({ task: null, reason: 'generic-gold' });
    }
  });

  it('the filters off (the released behaviour) let the second answers in', async () => {
    const off = { excludePairAsserted: false, excludeGeneric: false, excludeSecondAnswers: false };
    const seen = new Set<string>();
    const seenTask2 = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const r = await items({ seed, ...off });
      for (const id of task1(r, 'X')!.distractors_id) seen.add(id);
      for (const id of task2(r, 'X')!.distractors_id) seenTask2.add(id);
      expect(r.dropped.filter((d) => d.reason === 'generic-gold')).toEqual([]);
    }
    expect([...seen].some((id) => ['C2', 'C2b', 'C6'].includes(id))).toBe(true);
    expect([...seen].some((id) => ['G1', 'G2', 'G3'].includes(id))).toBe(true);
    expect(seenTask2.has('P21')).toBe(true);
  });

  it('each filter alone refuses only its own candidates', async () => {
    const only = (f: 'excludePairAsserted' | 'excludeGeneric') => ({
      excludePairAsserted: false,
      excludeGeneric: false,
      excludeSecondAnswers: false,
      [f]: true,
    });
    const pair = task1(await items({ seed: 3, ...only('excludePairAsserted') }), 'X')!;
    expect(pair.distractors_id.filter((id) => ['C2', 'C2b', 'C6'].includes(id))).toEqual([]);
    const generic = await items({ seed: 3, ...only('excludeGeneric') });
    expect(task1(generic, 'X')!.distractors_id.filter((id) => id.startsWith('G'))).toEqual([]);
  });

  it('the second-answer filter refuses intentions close to one asserted for the pair; an emptied window is dropped under the filter that refused most', async () => {
    // it3 is close to it2 (asserted for the pair): cosine 0.9; every other text is orthogonal.
    const keys = ['because it1', 'because it2', 'because it3', 'because it4', 'because it5', 'because it6'];
    const dim = keys.length;
    const vec = new Float32Array(keys.length * dim);
    keys.forEach((_, k) => (vec[k * dim + k] = 1));
    vec[2 * dim + 1] = 0.9; // it3 = (0, 0.9, 0.436, …)
    vec[2 * dim + 2] = Math.sqrt(1 - 0.81);
    const intentionVectors = UnitVectors.fromVectorSet({ ids: keys, dim, data: vec });
    const r = await items({ seed: 1, secondAnswerCosine: 0.85 }, intentionVectors);
    // Left: C4, C5 only. Every other member was refused: 3 pair-asserted, 3 generic, 1 second-answer
    // (C3); the first two tie, and the first filter named wins.
    expect(task1(r, 'X')).toBeUndefined();
    const drop = r.dropped.find((d) => d.id === 'X' && d.task === 1)!;
    expect(drop.reason).toBe('pair-asserted');
    expect(drop.refused).toEqual({ 'pair-asserted': 3, generic: 3, 'second-answer': 1 });
    // Just above 0.9 it3 is not close: three distractors again.
    const above = await items({ seed: 1, secondAnswerCosine: 0.91 }, intentionVectors);
    expect([...task1(above, 'X')!.distractors_id].sort()).toEqual(['C3', 'C4', 'C5']);
  });

  it('worker threads get the intention vectors: the same records as the main thread', async () => {
    const keys = ['because it1', 'because it2', 'because it3', 'because it4', 'because it5', 'because it6'];
    const vec = new Float32Array(keys.length * 2);
    keys.forEach((_, k) => ((vec[2 * k] = Math.cos(k / 4)), (vec[2 * k + 1] = Math.sin(k / 4))));
    const intentionVectors = UnitVectors.fromVectorSet({ ids: keys, dim: 2, data: vec });
    const prepare = () =>
      IntentionQaRun.prepare({
        ...world,
        intentionVectors,
        options: { seed: 4, requireOverlap: false, exactness: 'exact' },
      });
    const serialise = async (records: AsyncIterable<unknown>) => {
      const out: string[] = [];
      for await (const r of records) out.push(JSON.stringify(r));
      return out;
    };
    const main = await serialise((await prepare()).records());
    expect(main.join('\n')).toContain('"second-answer"');
    expect(await serialise(draftInParallel(await prepare(), { workers: 1, minAssertions: 0 }))).toEqual(main);
  });

  it('are on in the paper preset and off in the released one; bad values are refused', () => {
    expect(resolveOptions({ preset: 'paper' })).toMatchObject({
      excludePairAsserted: true,
      excludeGeneric: true,
      excludeSecondAnswers: true,
    });
    expect(resolveOptions({ preset: 'released' })).toMatchObject({
      excludePairAsserted: false,
      excludeGeneric: false,
      excludeSecondAnswers: false,
    });
    expect(resolveOptions({ preset: 'released', excludeGeneric: true }).excludeGeneric).toBe(true);
    expect(() => resolveOptions({ genericMinGroups: 1 })).toThrow(ConfigError);
    expect(() => resolveOptions({ secondAnswerCosine: 1.5 })).toThrow(ConfigError);
  });
});
