// Product kinds (engine/items/intentionqa/product-kinds.ts) and the validity rules that use them
// (validity-filters.ts: kind-asserted, group-generic, substitute): exact answers on a hand-made phone
// world, the same answers as a slow implementation written from the definitions on random inputs, and
// items built on a world where every product cosine is 0.8, so that the rules alone decide.
import { describe, expect, it } from 'vitest';
import type { Assertion } from '../engine/items/intentionqa/assertions.js';
import { IntentionQaRun } from '../engine/items/intentionqa/build-items.js';
import type { Task1Item, Task2Item } from '../engine/items/intentionqa/item-types.js';
import { kindOf, productKinds } from '../engine/items/intentionqa/product-kinds.js';
import { KIND_LIST_SCAN, ValidityIndex, intentionKey } from '../engine/items/intentionqa/validity-filters.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { collectRecords } from './support/intentionqa-records.js';

const assertion = (id: string, itemA: string, itemB: string, intention: string, typicality = 1): Assertion => ({
  id,
  itemA,
  itemB,
  relation: 'usedFor',
  assertion: `PersonX bought a product of Item A and a product of Item B ${intention}`,
  intention,
  typicality,
});

// The demo's mobile cluster in small: "phone accessory" is held by four kinds (and by `lonely`, which
// holds nothing else), so it is a shared phrase; the others name one kind each.
const PHONE_PHRASES = new Map<string, string[]>([
  ['case1', ['phone case', 'phone accessory']],
  ['case2', ['phone accessory', 'phone case']],
  ['scr1', ['screen protector', 'phone accessory']],
  ['scr2', ['screen protector', 'phone accessory']],
  ['chg1', ['phone charger', 'phone accessory']],
  ['pb1', ['power bank', 'phone accessory']],
  ['phone1', ['smart phone']],
  ['lonely', ['phone accessory']],
]);
const PHONE_ASSERTIONS = [
  assertion('1', 'case1', 'scr1', 'because protecting a phone.'),
  assertion('2', 'chg1', 'pb1', 'because charging.', 0.2),
  assertion('3', 'case1', 'chg1', 'because accessory.'),
  assertion('4', 'scr1', 'pb1', 'because accessory.'),
  assertion('5', 'pb1', 'case2', 'because accessory.'),
  assertion('6', 'phone1', 'chg1', 'because charging.'),
];

describe('product kinds, by hand', () => {
  const ids = [...PHONE_PHRASES.keys(), 'nophrases'];
  const k = productKinds(ids.length, (p) => PHONE_PHRASES.get(ids[p]!));
  const phrase = (x: number) => k.phraseOfId[x]!;
  it('a phrase held by products that share nothing else is shared; the rest name kinds', () => {
    expect(k.phraseOfId.filter((_, x) => k.sharedPhrase[x] === 1)).toEqual(['phone accessory']);
    const kind = (id: string) => Array.from(kindOf(k, ids.indexOf(id)), phrase);
    expect(kind('case1')).toEqual(['phone case']);
    expect(kind('case2')).toEqual(['phone case']);
    expect(kind('pb1')).toEqual(['power bank']);
    expect(kind('phone1')).toEqual(['smart phone']);
    expect(kind('lonely')).toEqual([]); // only a shared phrase: no kind
    expect(kind('nophrases')).toEqual([]);
    expect(Array.from(kindOf(k, -1))).toEqual([]);
  });
  it('two kinds that share two phrases are one kind (the definition, stated: the data cannot tell)', () => {
    // "hair care" is held by both, which also share "bath product": one component, so a kind phrase.
    const both = [
      ['shampoo', 'hair care', 'bath product'],
      ['conditioner', 'hair care', 'bath product'],
    ];
    const k2 = productKinds(2, (p) => both[p]);
    expect(Array.from(k2.sharedPhrase)).toEqual([0, 0, 0, 0]);
    expect(Array.from(kindOf(k2, 1), (x) => k2.phraseOfId[x])).toEqual(['hair care', 'bath product', 'conditioner']);
  });
});

describe('the rules by kind, by hand', () => {
  const v = new ValidityIndex(PHONE_ASSERTIONS, PHONE_PHRASES, 3, undefined, 0.8);
  const p = (id: string) => v.productIndex(id);
  const keys = (ids: number[]) => [...new Set(ids.map((id) => v.data.keyOfId[id]!))].sort();
  it('kind-asserted: the intentions of every pair of the same two kinds, at any typicality', () => {
    expect(keys(v.kindAssertedIds(p('case2'), p('scr1')))).toEqual(['because protecting phone']);
    expect(keys(v.kindAssertedIds(p('scr1'), p('case1')))).toEqual(['because protecting phone']);
    expect(keys(v.kindAssertedIds(p('case2'), p('chg1')))).toEqual(['because accessory']);
    expect(keys(v.kindAssertedIds(p('pb1'), p('chg1')))).toEqual(['because charging']); // typicality 0.2 too
    expect(keys(v.kindAssertedIds(p('phone1'), p('case1')))).toEqual([]);
    expect(keys(v.kindAssertedIds(p('lonely'), p('scr1')))).toEqual([]); // no kind: matches nothing
    expect(keys(v.kindAssertedIds(-1, p('scr1')))).toEqual([]);
  });
  it('group-generic: asserted for at least half of the kind pairs of a shared phrase', () => {
    // Pairs inside "phone accessory": case–scr, chg–pb, case–chg, scr–pb, pb–case: 5 kind pairs;
    // "accessory" holds 3 of them, "protecting a phone" and "charging" one each.
    expect(v.data.groupGeneric).toEqual([
      { text: 'because accessory.', group: 'phone accessory', kindPairs: 3, of: 5 },
    ]);
    const id = (text: string) => v.data.keyOfId.indexOf(intentionKey(text));
    expect(v.groupGenericFor(id('because accessory.'), p('case2'), p('scr1'))).toBe(true);
    expect(v.groupGenericFor(id('because accessory.'), p('case1'), p('phone1'))).toBe(false); // phone1 is not
    expect(v.groupGenericFor(id('because protecting a phone.'), p('case2'), p('scr1'))).toBe(false);
    // Without product rows only the products the assertions name have an index: the others none.
    expect([p('scr2'), p('lonely')]).toEqual([-1, -1]);
    expect(v.groupGenericFor(id('because accessory.'), p('case2'), p('scr2'))).toBe(false);
    const stricter = new ValidityIndex(PHONE_ASSERTIONS, PHONE_PHRASES, 3, undefined, 0.8, undefined, undefined, 0.7);
    expect(stricter.data.groupGeneric).toEqual([]); // 3 of 5 < 0.7
  });
  it('same kind: the kinds share a phrase', () => {
    expect(v.sameKind(p('case1'), p('case2'))).toBe(true);
    expect(v.sameKind(p('case1'), p('scr1'))).toBe(false);
    expect(v.sameKind(p('lonely'), p('lonely'))).toBe(false);
    expect(v.sharedPhrases()).toEqual(['phone accessory']);
  });
});

/** The slow answers, from the definitions in product-kinds.ts and validity-filters.ts. */
function slow(phrases: Map<string, string[]>, assertions: Assertion[], share: number, rows: string[]) {
  // The run's products: those with a row, and those the assertions name.
  const products = [...new Set([...rows, ...assertions.flatMap((a) => [a.itemA, a.itemB])])];
  const has = (p: string, x: string) => (phrases.get(p) ?? []).includes(x);
  const allPhrases = [...new Set([...phrases.values()].flat())];
  const shared = new Set(
    allPhrases.filter((x) => {
      const holders = products.filter((p) => has(p, x));
      // components of the holders, linked when they share a phrase other than x (depth-first)
      const seen = new Set<string>();
      let components = 0;
      for (const start of holders) {
        if (seen.has(start)) continue;
        components += 1;
        const stack = [start];
        seen.add(start);
        while (stack.length > 0) {
          const q = stack.pop()!;
          for (const r of holders)
            if (!seen.has(r) && (phrases.get(q) ?? []).some((y) => y !== x && has(r, y))) {
              seen.add(r);
              stack.push(r);
            }
        }
      }
      return components >= 2;
    }),
  );
  const kind = (p: string) => new Set((phrases.get(p) ?? []).filter((x) => !shared.has(x)));
  const meet = (a: Set<string>, b: Set<string>) => [...a].some((x) => b.has(x));
  const sameKinds = (a: string, b: string, c: string, d: string) =>
    (meet(kind(a), kind(c)) && meet(kind(b), kind(d))) || (meet(kind(a), kind(d)) && meet(kind(b), kind(c)));
  const kindAsserted = (a: string, b: string) =>
    [
      ...new Set(assertions.filter((x) => sameKinds(a, b, x.itemA, x.itemB)).map((x) => intentionKey(x.intention))),
    ].sort();
  const signature = (p: string) => [...kind(p)].sort().join('|');
  const kindPair = (a: string, b: string) => [signature(a), signature(b)].sort().join(' & ');
  const groupGeneric = (key: string, a: string, b: string) =>
    [...shared].some((x) => {
      if (!has(a, x) || !has(b, x)) return false;
      const inGroup = assertions.filter((y) => has(y.itemA, x) && has(y.itemB, x));
      const all = new Set(inGroup.map((y) => kindPair(y.itemA, y.itemB)));
      const mine = new Set(
        inGroup.filter((y) => intentionKey(y.intention) === key).map((y) => kindPair(y.itemA, y.itemB)),
      );
      return all.size >= 3 && mine.size >= share * all.size;
    });
  return { shared, kindAsserted, groupGeneric, sameKind: (a: string, b: string) => meet(kind(a), kind(b)) };
}

describe('the rules by kind equal a slow implementation on random inputs', () => {
  let seed = 5;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const texts = ['because a', 'because b', 'Because the B!', 'because c', 'because d'];
  it('kinds, kind-asserted keys, group-generic and same kind, with and without product rows', () => {
    const seen = { shared: 0, asserted: 0, generic: 0, same: 0, close: 0 };
    for (let trial = 0; trial < 60; trial++) {
      const productIds = Array.from({ length: 3 + rand(10) }, (_, k) => `P${k}`);
      const phrases = new Map<string, string[]>();
      for (const id of productIds)
        if (rand(6) > 0) phrases.set(id, [...new Set(Array.from({ length: 1 + rand(3) }, () => `x${rand(7)}`))]);
      const assertions = Array.from({ length: rand(30) }, (_, k) => {
        const a = productIds[rand(productIds.length)]!;
        let b = productIds[rand(productIds.length)]!;
        if (b === a) b = `${a}x`; // a product named only here: no phrases, no row
        return assertion(String(k), a, b, texts[rand(texts.length)]!, rand(10) / 10);
      });
      const share = [0.3, 0.5, 1][rand(3)]!;
      const rowIds = productIds.filter(() => rand(3) > 0);
      for (const withRows of [false, true]) {
        const want = slow(phrases, assertions, share, withRows ? rowIds : []);
        seen.shared += want.shared.size;
        const products = withRows
          ? {
              vectors: UnitVectors.fromVectorSet({
                ids: rowIds,
                dim: 1,
                data: new Float32Array(rowIds.length).fill(1),
              }),
              wordsOfRow: rowIds.map(() => new Set<string>()),
            }
          : undefined;
        const keys = [...new Set(texts.map(intentionKey))];
        const intentionVectors = UnitVectors.fromVectorSet({
          ids: keys,
          dim: 2,
          data: Float32Array.from({ length: keys.length * 2 }, (_, j) => (j < 2 ? 0 : rand(5) - 2)), // first row zero: no vector
        });
        const cosine = rand(5) / 4 - 0.5;
        const built = new ValidityIndex(assertions, phrases, 3, intentionVectors, cosine, products, undefined, share);
        // A worker's index: the same data, structured-cloned, not rebuilt.
        const v = new ValidityIndex(
          [],
          new Map(),
          3,
          intentionVectors,
          cosine,
          products,
          structuredClone(built.data),
          share,
        );
        const k = v.data.kinds;
        expect(new Set(k.phraseOfId.filter((_, x) => k.sharedPhrase[x] === 1))).toEqual(want.shared);
        const named = [...productIds, ...productIds.map((id) => `${id}x`)];
        for (const a of named)
          for (const b of named) {
            const pa = v.productIndex(a);
            const pb = v.productIndex(b);
            const fast = [...new Set(v.kindAssertedIds(pa, pb).map((id) => v.data.keyOfId[id]!))].sort();
            const asserted = pa < 0 || pb < 0 ? [] : want.kindAsserted(a, b);
            expect(fast, `${a} ${b}`).toEqual(asserted);
            seen.asserted += asserted.length;
            if (pa >= 0 && pb >= 0) {
              expect(v.sameKind(pa, pb), `${a} ${b}`).toBe(want.sameKind(a, b));
              seen.same += want.sameKind(a, b) ? 1 : 0;
              v.data.keyOfId.forEach((key, id) => {
                // the draws' check: a key close to one asserted for the same kinds (the list, by bisection)
                const close = v.closeToAnyId(id, v.kindAssertedIds(pa, pb));
                expect(v.kindAssertedCloseTo(id, pa, pb), `${key} ${a} ${b}`).toBe(close);
                seen.close += close && !asserted.includes(key) ? 1 : 0;
                const generic = want.groupGeneric(key, a, b);
                expect(v.groupGenericFor(id, pa, pb), `${key} ${a} ${b}`).toBe(generic);
                seen.generic += generic ? 1 : 0;
              });
            }
          }
      }
    }
    // the random inputs reach every case
    expect(Math.min(seen.shared, seen.asserted, seen.generic, seen.same, seen.close)).toBeGreaterThan(10);
  });
});

describe('kind-asserted closeness on a kind pair with more keys than are scanned one by one', () => {
  it('answers as closeToAnyId over the list, on both sides of KIND_LIST_SCAN', () => {
    let seed = 3;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (const count of [KIND_LIST_SCAN - 1, KIND_LIST_SCAN + 1, 3 * KIND_LIST_SCAN]) {
      // `count` texts for pairs of kinds (cup, pot), and as many for pairs of kinds (cup, pan).
      const phrases = new Map<string, string[]>();
      const assertions: Assertion[] = [];
      for (let k = 0; k < 2 * count; k++) {
        const [a, b] = [`c${k}`, k < count ? `p${k}` : `n${k}`];
        phrases.set(a, ['cup', 'kitchen']);
        phrases.set(b, [k < count ? 'pot' : 'pan', 'kitchen']);
        assertions.push(assertion(String(k), a, b, `because text ${k}.`));
      }
      const keys = [...new Set(assertions.map((a) => intentionKey(a.intention)))];
      const intentionVectors = UnitVectors.fromVectorSet({
        ids: keys,
        dim: 3,
        data: Float32Array.from({ length: keys.length * 3 }, () => rand(5) - 2),
      });
      for (const cosine of [0.3, 0.7, 0.95]) {
        const v = new ValidityIndex(assertions, phrases, 3, intentionVectors, cosine);
        const [cup, pot, pan] = ['c0', 'p0', `n${count}`].map((id) => v.productIndex(id));
        let close = 0;
        for (const [a, b] of [
          [cup!, pot!],
          [pot!, cup!],
          [cup!, pan!],
          [pot!, pan!],
        ] as const)
          v.data.keyOfId.forEach((_, id) => {
            const want = v.closeToAnyId(id, v.kindAssertedIds(a, b));
            expect(v.kindAssertedCloseTo(id, a, b)).toBe(want);
            close += want ? 1 : 0;
          });
        expect(close).toBeGreaterThan(0);
      }
    }
  });
});

describe('items with the rules by kind, on a world where every product cosine is 0.8', () => {
  // Products of four kinds, two each, all sharing "accessory": case (C), screen protector (S),
  // charger (H), power bank (B); X1 and X2 are the item's pair (a case and a screen protector).
  const ids = ['X1', 'X2', 'C1', 'C2', 'S1', 'S2', 'H1', 'H2', 'B1', 'B2', 'B3', 'H3'];
  const n = ids.length;
  const data = new Float32Array(n * (n + 1));
  ids.forEach((_, k) => {
    data[k * (n + 1)] = Math.sqrt(0.8);
    data[k * (n + 1) + k + 1] = Math.sqrt(0.2);
  });
  const kindOfId = (id: string) =>
    ({ X1: 'case', X2: 'screen', C: 'case', S: 'screen', H: 'charger', B: 'bank' })[
      id.startsWith('X') ? (id as 'X1' | 'X2') : (id[0] as 'C' | 'S' | 'H' | 'B')
    ];
  const phrases = new Map(ids.map((id) => [id, [kindOfId(id), 'accessory']]));
  const products = new Map(ids.map((id) => [id, `Product ${id}`]));
  const assertions = [
    assertion('X', 'X1', 'X2', 'because protecting.'), // the item: case + screen protector
    assertion('K', 'C1', 'S1', 'because scratches.', 0.3), // another case + screen pair: fits X
    assertion('D1', 'H1', 'B1', 'because charging.'),
    assertion('D2', 'H2', 'B2', 'because battery.'),
    assertion('D3', 'H3', 'B3', 'because travel.'),
    assertion('G1', 'C2', 'H1', 'because accessory.'), // "accessory" for 3 of the 4 kind pairs
    assertion('G2', 'S2', 'B2', 'because accessory.'),
    assertion('G3', 'C1', 'B3', 'because accessory.', 0.2),
    assertion('T', 'C2', 'S2', 'because protecting.'), // X's own intention for other case + screen products
  ];
  const world = { products, assertions, phrases, embeddings: { ids, dim: n + 1, data } };
  const items = (settings: Record<string, unknown>) =>
    IntentionQaRun.prepare({
      ...world,
      options: { requireOverlap: false, exactness: 'exact', typicalityThreshold: 0, ...settings },
    }).then((run) => collectRecords(run.records()));
  const task1 = (r: Awaited<ReturnType<typeof items>>) =>
    r.items.find((i): i is Task1Item => i.task === 1 && i.id === 'X');
  const task2 = (r: Awaited<ReturnType<typeof items>>) =>
    r.items.find((i): i is Task2Item => i.task === 2 && i.id === 'X');

  it('Task 1: refuses the intentions of other case + screen pairs and the group-generic one', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const x = task1(await items({ seed }))!;
      expect([...x.distractors_asserstion].sort()).toEqual([
        'because battery.',
        'because charging.',
        'because travel.',
      ]);
      const reasons = new Map(x.selection.refused.map((f) => [f.id, f.reason]));
      for (const [id, reason] of reasons) {
        if (id === 'K') expect(reason).toBe('kind-asserted');
        else if (id.startsWith('G')) expect(reason).toBe('group-generic');
        else if (id !== 'T') expect.fail(`unexpected refusal of ${id} (${reason})`);
      }
    }
  });

  it('Task 2: no case or screen protector (substitutes of p_A or the gold), no kind asserted with p_A', async () => {
    // X: given the case X1 and "protecting", the gold is the screen protector X2. Case and screen
    // products are substitutes; chargers and banks remain.
    for (const seed of [1, 2, 3, 4]) {
      const x = task2(await items({ seed }))!;
      for (const id of x.distractors_id) expect(['H', 'B']).toContain(id[0]);
    }
    // Off, both come in (a screen protector is also refused by kind-asserted: "protecting" is asserted
    // for the case + screen kinds, so both rules must be off to see one).
    const seen = new Set<string>();
    const off = { excludeSubstitutes: false, excludeKindAsserted: false };
    for (const seed of [1, 2, 3, 4, 5, 6])
      for (const id of task2(await items({ seed, ...off }))!.distractors_id) seen.add(id[0]!);
    expect(seen.has('C') && seen.has('S')).toBe(true);
  });

  it('each rule off lets its candidates in', async () => {
    const seenK = new Set<string>();
    const seenG = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      for (const id of task1(await items({ seed, excludeKindAsserted: false }))?.distractors_id ?? []) seenK.add(id);
      for (const id of task1(await items({ seed, excludeGroupGeneric: false }))?.distractors_id ?? []) seenG.add(id);
    }
    expect(seenK.has('K')).toBe(true);
    expect([...seenG].some((id) => id.startsWith('G'))).toBe(true);
  });
});
