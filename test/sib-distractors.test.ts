import { describe, expect, it } from 'vitest';
import type { VectorSet } from '../embeddings/sentence-encoder.js';
import { Rng } from '../core/rng.js';
import { BalancedPositions } from '../engine/items/balanced-positions.js';
import {
  DEFAULT_WINDOWS,
  SessionExclusions,
  buildDistractorItems,
  distractorQueryTexts,
  type ComparisonEntry,
  type DistractorSources,
  type DistractorWindows,
  type NextProductItem,
  type ReplacementItem,
} from '../engine/items/sib/distractors.js';
import { SessionProductTexts } from '../engine/items/sib/task-prompts.js';
import { listTrajectories } from '../engine/items/sib/tree.js';
import type { SibProduct } from '../engine/items/sib/sib-types.js';
import { EngineWindowSampler, engineCosine } from '../engine/items/sib/window-sampler.js';
import { session } from './support/sib.js';

// Two-dimensional vectors with rational cosines (Pythagorean triples), so window membership and the
// serve rules can be checked by hand. P_t (Socks) is (1, 0): a catalogue product's cosine with it is
// its first coordinate. I1 and A1 (the query of T1 and T2) and P_{t-1} (Shoes) are (0, 1): their
// cosine with a product is its second coordinate. I2 (asked by the next-product item) is (1, 0).
// With margin 0.2 a candidate serves I1 or A1 when its second coordinate is ≥ 1 − 0.2, and I2 when
// its first is ≥ cos(Socks, I2) − 0.2 = 0.8.
const SHOES = 'Shoes. grip: rubber';
const V: Record<string, [number, number]> = {
  I1: [0, 1],
  'rubber grip': [0, 1],
  I2: [1, 0],
  [SHOES]: [0, 1],
  Socks: [1, 0],
  C2: [1, 0],
};
const RUN = ['Sport', 'Run'];
const cat = (...leaf: string[]) => [...RUN, ...leaf];
//                                                                                     cos Socks   cos I1/A1
const CATALOG: Array<SibProduct & { v: [number, number] }> = [
  { id: 'c1', title: 'Gloves', attributes: [], category: cat('Gloves'), v: [0.6, 0.8] }, // .600 .800 serves I1, A1
  { id: 'c2', title: 'Cap', attributes: [], category: cat('Caps'), v: [0.8, 0.6] }, //       .800 .600 serves I2
  { id: 'c3', title: 'Scarf', attributes: [], category: cat('Scarves'), v: [12 / 13, 5 / 13] }, // .923: a substitute
  { id: 'c4', title: 'Beanie', attributes: [], category: cat('Hats'), v: [5 / 13, 12 / 13] }, //   .385: out of windows
  { id: 'c5', title: 'Mittens', attributes: [], category: cat('Gloves'), v: [8 / 17, 15 / 17] }, // .471: out of windows
  { id: 'c6', title: 'shoes', attributes: [], v: [0.6, 0.8] }, //                             a session title: never drawn
  { id: 'c7', title: 'Headband', attributes: [['color', 'blue']], category: cat('Headbands'), v: [20 / 29, 21 / 29] }, // .690 .724
  {
    id: 'c8',
    title: ' gloves',
    attributes: [],
    category: ['Home', 'Kitchen', 'Gloves'],
    v: [Math.SQRT1_2, Math.SQRT1_2],
  }, // .707, other category, c1's title
  { id: 'c9', title: 'Grip Liners', attributes: [], category: cat('Socks'), v: [0.8, 0.6] }, // .800: Socks' kind; "grip"
  { id: 'c10', title: 'Wristband', attributes: [], category: cat('Wristbands'), v: [0.6, 0.8] }, // .600 .800 serves I1, A1
  { id: 'p2', title: 'Socks pack', attributes: [], v: [1, 0] }, //                            a session product id: never drawn
];
const POOL: Array<ComparisonEntry & { v: [number, number] }> = [
  { id: 's/x', sessionId: 's', nodeId: 'x', text: 'C-same', v: [0.8, 0.6] }, // same session: never drawn
  { id: 'o/1', sessionId: 'o', nodeId: '1', text: 'C2', v: [1, 0] }, //         same text as C_t: never drawn
  { id: 'o/2', sessionId: 'o', nodeId: '2', text: 'C-other', v: [0.6, 0.8] }, // .6
  { id: 'o/3', sessionId: 'o', nodeId: '3', text: 'C-far', v: [0, 1] }, //       0
];

const S = session({
  session_id: 's',
  products: [
    { id: 'p1', title: 'Shoes', attributes: { grip: 'rubber' }, category: 'Sport > Run > Shoes' },
    { id: 'p2', title: 'Socks', category: ['Sport', 'Run', 'Socks'] },
  ],
  tree: [
    { id: 'r', parent: null, step: 1, intention: 'I1', attribute: 'rubber grip', comparison: null },
    { id: 'x', parent: 'r', step: 2, intention: 'I2', attribute: 'A2', comparison: 'C2' },
  ],
});
const [TRAJ] = listTrajectories(S);
const TEXTS = new SessionProductTexts(S);

function vectorSet(rows: Array<{ id: string; v: [number, number] }>): VectorSet {
  const data = new Float32Array(rows.length * 2);
  rows.forEach((r, i) => data.set(r.v, i * 2));
  return { ids: rows.map((r) => r.id), dim: 2, data };
}
const cosToQuery = (q: [number, number], v: [number, number]) =>
  engineCosine(Float32Array.from(q), Float32Array.from(v));

function sources(windows: Partial<DistractorWindows> = {}, seed = 5): DistractorSources {
  return {
    catalog: {
      products: new Map(CATALOG.map((p) => [p.id, p])),
      sampler: new EngineWindowSampler(vectorSet(CATALOG)),
      vectors: new Map(CATALOG.map((p) => [p.id, Float32Array.from(p.v)])),
    },
    comparisons: { entries: new Map(POOL.map((e) => [e.id, e])), sampler: new EngineWindowSampler(vectorSet(POOL)) },
    windows: { ...DEFAULT_WINDOWS, comparison: { lo: 0.5, hi: 1.01 }, ...windows },
    rules: { margin: 0.2, substituteCosine: 0.9 },
    seed,
    styles: ['zero-shot', 'cot'],
    positions: BalancedPositions.fromStream(new Rng(seed)),
    vectorOf: (text) => {
      const v = V[text];
      if (!v) throw new Error(`no vector for ${text}`);
      return Float32Array.from(v);
    },
  };
}

const build = (src: DistractorSources) => buildDistractorItems(TRAJ!, TEXTS, new SessionExclusions(S.products), src);
const byKind = <K extends string>(items: Array<{ kind: string }>, kind: K) => items.filter((i) => i.kind === kind);

describe('distractor-backed items: window membership and serve rules by hand', () => {
  it('query texts of a trajectory: I_{t-1}, A_{t-1}, I_t, P_{t-1} and P_t as embedded, C_t', () => {
    expect(distractorQueryTexts(TRAJ!, TEXTS)).toEqual(['I1', 'rubber grip', 'I2', SHOES, 'Socks', 'C2']);
  });

  // Window [0.5, 0.97) around Socks: c1, c2, c3, c7, c8, c9, c10 (c6, p2 excluded). Refused: c3 a
  // substitute (.923 ≥ 0.9), c8 of another category, c9 of Socks' kind, c1 and c10 serve I1 (.8 ≥ 0.8).
  it('T1 hard negative: near P_t, same or neighbouring category, not serving I_{t-1} — c2 or c7', () => {
    const seen = new Set<string>();
    const refused = new Set<string>();
    for (let seed = 0; seed < 60; seed++) {
      const out = build(sources({}, seed));
      const [item] = byKind(out.items, 't1-hard-negative') as ReplacementItem[];
      const r = item!.replaced;
      if (r.slot !== 'last product') throw new Error('wrong slot');
      seen.add(r.replacement.id);
      const product = CATALOG.find((p) => p.id === r.replacement.id)!;
      expect(item!.score).toBe(cosToQuery(V.I1!, product.v));
      expect(item!.similarity).toEqual({ to_query: item!.score, to_replaced: cosToQuery([1, 0], product.v) });
      expect(item!.gold_score).toBe(0);
      expect(item!.serve_check).toEqual({
        query: { kind: 'intention', text: 'I1', node_id: 'r' },
        servers: ['p1', 'p2'],
        reference_score: 1,
        margin: 0.2,
        markers: [],
        category: 'neighbour',
      });
      expect(item!.made_by).toMatchObject({
        query: { kind: 'product', text: 'Socks', product_id: 'p2' },
        window: [0.5, 0.97],
      });
      expect(item!.label).toEqual({ binary: 'negative', source: 'constructed' });
      expect(item!.prompts['zero-shot']).toContain(`Product 2: ${product.title.trim()}`);
      expect(item!.prompts['zero-shot']).toContain(`How likely are you to purchase ${product.title.trim()} based on`);
      expect(item!.prompts['zero-shot']).not.toContain('Socks');
      for (const r of out.refusals.filter((x) => x.kind === 't1-hard-negative')) refused.add(r.reason);
    }
    expect([...seen].sort()).toEqual(['c2', 'c7']);
    expect([...refused].sort()).toEqual(['other-category', 'same-kind', 'serves-query', 'substitute']);
  });

  it('T2 hard negative: not holding A_{t-1} (its word "grip" refuses c9) — c2 or c7', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const out = build(sources({}, seed));
      const [item] = byKind(out.items, 't2-hard-negative') as ReplacementItem[];
      if (item!.replaced.slot === 'last product') seen.add(item!.replaced.replacement.id);
      expect(item!.serve_check).toMatchObject({ servers: ['p1'], reference_score: 1, markers: ['rubber', 'grip'] });
    }
    expect([...seen].sort()).toEqual(['c2', 'c7']);
    // Without the word in P_{t-1}, no rule can tell who holds the attribute: no item.
    const bare = session({
      session_id: 's',
      products: [
        { id: 'p1', title: 'Shoes' },
        { id: 'p2', title: 'Socks' },
      ],
      tree: [
        { id: 'r', parent: null, step: 1, intention: 'I1', attribute: 'rubber grip', comparison: null },
        { id: 'x', parent: 'r', step: 2, intention: 'I2', attribute: 'A2', comparison: 'C2' },
      ],
    });
    const src = sources();
    const out = buildDistractorItems(
      listTrajectories(bare)[0]!,
      new SessionProductTexts(bare),
      new SessionExclusions(bare.products),
      {
        ...src,
        vectorOf: (t) => src.vectorOf(t === 'Shoes' ? SHOES : t),
      },
    );
    expect(out.failures).toContainEqual({
      kind: 't2-hard-negative',
      reason: 'the valued attribute is not visible in the product it belongs to',
      refused: {},
    });
  });

  it("T3 negative: another session's comparison, never the same session or the same text", () => {
    const [item] = byKind(build(sources()).items, 't3-negative') as ReplacementItem[];
    expect(item!.replaced).toEqual({
      slot: 'last intention comparison',
      original: { node_id: 'x', text: 'C2' },
      replacement: { session_id: 'o', node_id: '2', text: 'C-other' },
    });
    expect([null, 1]).toContain(item!.made_by.eligible);
    expect(item!.score).toBe(cosToQuery([1, 0], [0.6, 0.8]));
    expect(item!.prompts['zero-shot']).toContain('Does this comparison C-other provide an in-depth justification');
  });

  // Window [0.5, 0.9) around Socks: c1, c2, c7, c8, c9, c10. Refused: c2 serves I2 (.8 ≥ 0.8), c9 of
  // Socks' kind; c1 and c8 share a title. Options: Headband, Wristband and one of the two gloves.
  it('next product: asked with I_t; gold + 3 distinct titles that do not serve it — Headband, Wristband and one glove', () => {
    for (let seed = 0; seed < 40; seed++) {
      const [item] = byKind(build(sources({}, seed)).items, 'next-product-choice') as NextProductItem[];
      const titles = item!.options.map((o) => o.title.trim().toLowerCase());
      expect(new Set(titles).size).toBe(4);
      expect(titles.slice().sort()).toEqual(['gloves', 'headband', 'socks', 'wristband']);
      expect(item!.options.map((o) => o.letter)).toEqual(['A', 'B', 'C', 'D']);
      const gold = item!.options.filter((o) => o.gold);
      expect(gold).toEqual([{ letter: item!.answer, product_id: 'p2', title: 'Socks', gold: true, score: null }]);
      for (const o of item!.options.filter((x) => !x.gold)) {
        const v = CATALOG.find((p) => p.id === o.product_id)!.v;
        expect(o.score).toBe(cosToQuery([1, 0], v));
      }
      expect(item!.intention).toEqual({ node_id: 'x', text: 'I2', gold_score: 1, markers: [] });
      expect(item!.refused['same-kind'] ?? 0).toBeLessThanOrEqual(1);
      expect(item!.prompts['zero-shot']).toContain(
        'given as follows.\nProduct 1: Shoes\nAttributes: grip: rubber\n\nAfter seeing Shoes, and assuming you are a customer who has the intention of I2.',
      );
      expect(item!.prompts['zero-shot']).toContain(`${item!.answer}. Socks\n`);
      expect(Object.keys(item!.prompts)).toEqual(['zero-shot', 'cot']);
    }
  });

  it('next product: no item when P_t does not follow from I_t (I_t nearer P_{t-1})', () => {
    const src = sources();
    const out = build({ ...src, vectorOf: (t) => (t === 'I2' ? Float32Array.from([0, 1]) : src.vectorOf(t)) });
    expect(out.failures).toContainEqual({
      kind: 'next-product-choice',
      reason: 'the next product does not follow from the intention',
      refused: {},
    });
  });

  it('gold positions are balanced: every run of four items uses A, B, C, D once', () => {
    const src = sources();
    const answers: string[] = [];
    for (let i = 0; i < 40; i++)
      answers.push((byKind(build(src).items, 'next-product-choice')[0] as NextProductItem).answer);
    for (let i = 0; i < 40; i += 4) expect(answers.slice(i, i + 4).sort()).toEqual(['A', 'B', 'C', 'D']);
  });

  it('impossible items are reported with their reason, not emitted', () => {
    const out = build(
      sources({ intention: { lo: 0.99, hi: 1 }, nextProduct: { lo: 0.95, hi: 1 }, comparison: { lo: 0.99, hi: 1.01 } }),
    );
    expect(out.items.map((i) => i.kind)).toEqual(['t2-hard-negative']);
    expect(out.failures.map(({ kind, reason }) => ({ kind, reason }))).toEqual([
      { kind: 't1-hard-negative', reason: 'no catalogue product in the window' },
      { kind: 'next-product-choice', reason: 'fewer than 3 catalogue products in the window' },
      { kind: 't3-negative', reason: "no other session's comparison in the window" },
    ]);
    // Window [0.59, 0.71): c1, c7, c8, c10 — but c1 and c8 share a title: two distinct titles + one.
    const dup = build(sources({ nextProduct: { lo: 0.59, hi: 0.61 } }));
    expect(dup.failures.map(({ kind, reason }) => ({ kind, reason }))).toEqual([
      { kind: 'next-product-choice', reason: 'fewer than 3 catalogue products in the window' },
    ]);
    // Every member of [0.75, 0.85) (c2, c9) serves the intention or is of the gold's kind.
    const served = build(sources({ nextProduct: { lo: 0.75, hi: 0.85 } }));
    expect(served.failures.map((f) => f.reason)).toEqual(['fewer than 3 catalogue products in the window']);
  });

  it('no catalogue / no pool: reported for every kind that needs them', () => {
    const out = build({ ...sources(), catalog: null, comparisons: null });
    expect(out.items).toEqual([]);
    expect(out.failures.map((f) => `${f.kind}: ${f.reason}`)).toEqual([
      't1-hard-negative: no catalogue',
      't2-hard-negative: no catalogue',
      'next-product-choice: no catalogue',
      't3-negative: no comparison pool',
    ]);
  });

  it('same seed, same items', () => {
    expect(JSON.stringify(build(sources({}, 9)))).toBe(JSON.stringify(build(sources({}, 9))));
  });
});

describe('EngineWindowSampler (engine/search/windows.ts behind the SIB interface)', () => {
  it('draws only eligible window members, with exact scores, and all of them when k is large', () => {
    const rng = new Rng(3);
    const dim = 8;
    const n = 300;
    const data = Float32Array.from({ length: n * dim }, () => rng.next() * 2 - 1);
    const ids = Array.from({ length: n }, (_, i) => `v${i}`);
    const sampler = new EngineWindowSampler({ ids, dim, data });
    for (let trial = 0; trial < 20; trial++) {
      const q = Float32Array.from({ length: dim }, () => rng.next() * 2 - 1);
      const lo = rng.next() * 0.6 - 0.3;
      const hi = lo + 0.05 + rng.next() * 0.5;
      const excludedSet = new Set(ids.filter((_, i) => i % 7 === trial % 7));
      // Brute force with a plain float64 cosine; the engine's differs by float32 normalisation only.
      const brute = new Map<string, number>();
      ids.forEach((id, row) => {
        let dot = 0;
        let na = 0;
        let nb = 0;
        for (let k = 0; k < dim; k++) {
          dot += q[k]! * data[row * dim + k]!;
          na += q[k]! ** 2;
          nb += data[row * dim + k]! ** 2;
        }
        const c = dot / Math.sqrt(na * nb);
        if (c >= lo && c < hi && !excludedSet.has(id)) brute.set(id, c);
      });
      const nearEdge = [...brute.values()].some((c) => Math.abs(c - lo) < 1e-6 || Math.abs(c - hi) < 1e-6);
      if (nearEdge) continue;
      const draw = sampler.draw(q, { lo, hi, k: 10, exclude: (id) => excludedSet.has(id), rng: new Rng(trial) });
      expect(draw.ids).toHaveLength(Math.min(10, brute.size));
      expect(new Set(draw.ids).size).toBe(draw.ids.length);
      draw.ids.forEach((id, i) => {
        expect(brute.has(id)).toBe(true);
        expect(draw.scores[i]).toBeCloseTo(brute.get(id)!, 6);
        expect(draw.scores[i]).toBe(
          engineCosine(q, data.subarray(Number(id.slice(1)) * dim, (Number(id.slice(1)) + 1) * dim)),
        );
      });
      const all = sampler.draw(q, { lo, hi, k: n, exclude: (id) => excludedSet.has(id), rng: new Rng(1) });
      expect(all.ids.slice().sort()).toEqual([...brute.keys()].sort());
      expect(all.eligible).toBe(brute.size);
    }
  });

  it('window bounds: lo inclusive, hi exclusive', () => {
    const sampler = new EngineWindowSampler(
      vectorSet([
        { id: 'same', v: [1, 0] },
        { id: 'orth', v: [0, 1] },
      ]),
    );
    const q = Float32Array.from([1, 0]);
    const ids = (lo: number, hi: number) =>
      sampler.draw(q, { lo, hi, k: 5, exclude: () => false, rng: new Rng(1) }).ids.sort();
    expect(ids(1, 1.5)).toEqual(['same']);
    expect(ids(0, 1)).toEqual(['orth']);
    expect(ids(-0.5, 0)).toEqual([]);
  });

  it('refused members are backfilled and counted', () => {
    const sampler = new EngineWindowSampler(vectorSet(CATALOG));
    const draw = sampler.draw(Float32Array.from([1, 0]), {
      lo: 0,
      hi: 1.5,
      k: 20,
      exclude: () => false,
      accept: (id) => (id === 'c3' ? 'nope' : true),
      rng: new Rng(4),
    });
    expect(draw.ids.slice().sort()).toEqual(
      CATALOG.map((p) => p.id)
        .filter((id) => id !== 'c3')
        .sort(),
    );
    expect(draw.refused).toEqual({ nope: 1 });
  });
});

describe('BalancedPositions', () => {
  it('over n·k draws every position appears exactly k times', () => {
    const p = BalancedPositions.fromStream(new Rng(2));
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 400; i++) counts[p.next()]! += 1;
    expect(counts).toEqual([100, 100, 100, 100]);
  });

  it('block orders: perBlock derives a generator per block, fromStream shuffles block after block', () => {
    const blocks = (p: BalancedPositions, n: number) =>
      Array.from({ length: n }, () => [p.next(), p.next(), p.next(), p.next()]);
    const perBlock = blocks(BalancedPositions.perBlock(5, 'task2'), 6);
    expect(perBlock).toEqual(
      Array.from({ length: 6 }, (_, b) => Rng.derive(5, `gold/task2/${b}`).shuffle([0, 1, 2, 3])),
    );
    const rng = new Rng(9);
    const expected = Array.from({ length: 6 }, () => rng.shuffle([0, 1, 2, 3]));
    expect(blocks(BalancedPositions.fromStream(new Rng(9)), 6)).toEqual(expected);
    const three = BalancedPositions.perBlock(1, 'x', 3);
    expect(new Set([three.next(), three.next(), three.next()])).toEqual(new Set([0, 1, 2]));
    expect(three.count).toBe(3);
  });
});
