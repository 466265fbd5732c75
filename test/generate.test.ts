import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_WORLD_DATA, buildDemoWorld, writeDemo } from '../engine/demo/demo-world.js';
import { PRODUCT_PHRASE_COUNT, ScaleGraph, productPhrase, writeScaleGraph } from '../graph/generate/generate-scale.js';
import {
  EVENT_ADJUNCTS,
  EVENT_NOUNS,
  EVENT_SUBJECTS,
  EVENT_VERBS,
  PRODUCT_MODIFIERS,
  PRODUCT_NOUNS,
} from '../graph/generate/scale-vocab.js';
import { PURCHASE_VERBS, parsePurchaseEvent } from '../graph/purchase-events.js';
import { normalizePhrase } from '../engine/products/normalize.js';
import { openGraphStore } from '../graph/open-store.js';
import { OfflineConceptualizer } from '../engine/products/concepts-offline.js';
import { UserConcepts } from '../engine/products/concepts.js';
import { MatchStats, matchProducts } from '../engine/products/match.js';
import { edgeSentences } from '../graph/relation-sentences.js';
import type { EdgeInput, GraphStore } from '../graph/graph-store.js';
import { cli } from './support/cli.js';

const {
  clusters: DEMO_CLUSTERS,
  hubs: DEMO_HUBS,
  isolated: DEMO_ISOLATED,
  nearNeighbours: DEMO_NEAR_NEIGHBOURS,
  assertionPrefix: ASSERTION_PREFIX,
} = DEMO_WORLD_DATA;

const dir = mkdtempSync(join(tmpdir(), 'intentsim-generate-'));

async function neighbourTexts(store: GraphStore, text: string): Promise<Set<string>> {
  const id = (await store.lookupIds([text])).get(text)!;
  const n = (await store.neighbourhoods([id], 'incident')).get(id)!;
  return new Set(n.edges.map((e) => (e.head === id ? e.tailText : e.headText)));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  const inter = [...a].filter((x) => b.has(x)).length;
  return inter / (a.size + b.size - inter);
}

describe('demo world', () => {
  const world = buildDemoWorld();

  it('is a pure function of the seed', () => {
    expect(buildDemoWorld()).toEqual(world);
    const other = buildDemoWorld({ seed: 2 });
    expect(other.products).not.toEqual(world.products);
    // The structure is the same, only weights, titles and picks change.
    expect(other.edges.map((e) => [e.head, e.tail])).toEqual(world.edges.map((e) => [e.head, e.tail]));
  });

  it('demo-world.json has the shapes DemoWorldData declares (tuples included: JSON cannot type them)', () => {
    const isString = (x: unknown) => typeof x === 'string';
    const triples = [...DEMO_WORLD_DATA.nearNeighbours, ...DEMO_CLUSTERS.flatMap((c) => c.chains)];
    for (const t of triples) expect(t.length === 3 && t.every(isString)).toBe(true);
    for (const [event, clusters] of DEMO_WORLD_DATA.bridges) {
      expect(isString(event) && clusters.length > 0 && clusters.every(isString)).toBe(true);
    }
    const isPair = (p: unknown) => Array.isArray(p) && p.length === 2 && p.every(isString);
    for (const { clusters, intention, pairs } of DEMO_WORLD_DATA.crossIntentions) {
      expect(clusters.length === 2 && clusters.every(isString)).toBe(true);
      expect(isString(intention.relation) && isString(intention.clause)).toBe(true);
      expect(pairs.length > 0 && pairs.every(isPair)).toBe(true);
    }
    for (const intention of DEMO_CLUSTERS.flatMap((c) => c.intentions))
      expect(intention.pairs === undefined || (intention.pairs.length > 0 && intention.pairs.every(isPair))).toBe(true);
    const keys = ['noun', 'concepts', 'titleNouns', 'modifiers', 'extras', 'attributes', 'reasons', 'results'];
    for (const cat of [...DEMO_WORLD_DATA.isolatedCategories, ...DEMO_CLUSTERS.flatMap((c) => c.categories)]) {
      expect(Object.keys(cat).filter((k) => k !== 'mass')).toEqual(keys);
      expect(cat.mass === undefined || typeof cat.mass === 'boolean').toBe(true);
    }
  });

  it('has 20+ categories, a few hundred products, assertions over existing products', () => {
    const categories = DEMO_CLUSTERS.flatMap((c) => c.categories);
    expect(categories.length).toBeGreaterThanOrEqual(20);
    expect(world.products.length).toBeGreaterThanOrEqual(300);
    expect(world.products.length).toBeLessThanOrEqual(600);
    const ids = new Set(world.products.map((p) => p.id));
    expect(ids.size).toBe(world.products.length);
    expect(new Set(world.products.map((p) => p.title)).size).toBe(world.products.length);
    expect(world.assertions.length).toBeGreaterThanOrEqual(400);
    for (const a of world.assertions) {
      expect(ids.has(a.item_a_id) && ids.has(a.item_b_id)).toBe(true);
      expect(a.item_a_id).not.toBe(a.item_b_id);
      expect(a.assertion.startsWith(ASSERTION_PREFIX)).toBe(true);
      expect(a.assertion.endsWith('.')).toBe(true);
      expect(a.typicality).toBeGreaterThanOrEqual(0.3);
      expect(a.typicality).toBeLessThanOrEqual(1);
    }
    // Some assertions fall below the 0.5 typicality filter, most do not.
    const low = world.assertions.filter((a) => a.typicality < 0.5).length;
    expect(low).toBeGreaterThan(0);
    expect(low).toBeLessThan(world.assertions.length / 4);
    expect(new Set(world.assertions.map((a) => a.id)).size).toBe(world.assertions.length);
  });

  it('titles never say a word twice in a row ("Wireless Wireless Controller"), whatever the seed', () => {
    for (const seed of [1, 2, 3]) {
      for (const { title } of buildDemoWorld({ seed }).products) {
        const words = title.toLowerCase().split(/[\s,]+/);
        expect(
          words.some((w, i) => w === words[i - 1]),
          title,
        ).toBe(false);
      }
    }
    // The check has cases to catch: the head noun "Wireless Controller" meets the modifier list that
    // holds "Wireless" (four such titles in the demo world of seed 1).
    expect(world.products.filter((p) => / Wireless Controller/.test(p.title)).length).toBeGreaterThan(2);
  });

  it('pairs every co-buy intention only with the categories it names (no headphones "for protecting a phone")', () => {
    const nouns = (cluster: string) => DEMO_CLUSTERS.find((c) => c.name === cluster)!.categories.map((c) => c.noun);
    // Which category pairs each clause may join, from the data: named pairs, or any two of its cluster.
    const allowed = new Map<string, Set<string>>();
    const allow = (clause: string, a: string, b: string) => {
      const set = allowed.get(clause) ?? new Set<string>();
      set.add(`${a}|${b}`).add(`${b}|${a}`);
      allowed.set(clause, set);
    };
    for (const cluster of DEMO_CLUSTERS) {
      const inCluster = nouns(cluster.name);
      for (const { clause, pairs } of cluster.intentions) {
        for (const [a, b] of pairs ?? inCluster.flatMap((x) => inCluster.filter((y) => y !== x).map((y) => [x, y]))) {
          expect(inCluster, `${clause}: ${a}`).toContain(a);
          expect(inCluster, `${clause}: ${b}`).toContain(b);
          allow(clause, a!, b!);
        }
      }
    }
    for (const { clusters, intention, pairs } of DEMO_WORLD_DATA.crossIntentions) {
      for (const [a, b] of pairs) {
        expect(nouns(clusters[0]), intention.clause).toContain(a);
        expect(nouns(clusters[1]), intention.clause).toContain(b);
        allow(intention.clause, a, b);
      }
    }
    const gifts = DEMO_WORLD_DATA.isolatedCoBuys;
    for (const partner of gifts.partners)
      for (const cat of DEMO_WORLD_DATA.isolatedCategories) allow(gifts.intention.clause, cat.noun, partner);
    const vague = 'they are both used for the same purpose';
    let checked = 0;
    for (const a of world.assertions) {
      const clause = a.assertion.slice(ASSERTION_PREFIX.length, -1);
      const pair = `${world.categoryOf.get(a.item_a_id)}|${world.categoryOf.get(a.item_b_id)}`;
      if (clause === vague) {
        // Two products of one category, "for the same purpose".
        expect(world.categoryOf.get(a.item_a_id)).toBe(world.categoryOf.get(a.item_b_id));
        continue;
      }
      expect(allowed.get(clause), clause).toBeDefined();
      expect([...allowed.get(clause)!], `${clause}: ${pair}`).toContain(pair);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(world.assertions.length * 0.9);
    // The example, by construction: no screen protector + headphones "for protecting a phone".
    const protecting = world.assertions.filter((a) => a.assertion.includes('protecting a phone'));
    expect(protecting.length).toBeGreaterThan(0);
    for (const a of protecting)
      for (const id of [a.item_a_id, a.item_b_id]) expect(world.categoryOf.get(id)).not.toBe('headphone');
  });

  it("every category has purchase nodes in ASER's normalised style whose object is its noun", () => {
    const texts = new Set(world.nodes);
    for (const cat of DEMO_CLUSTERS.flatMap((c) => c.categories)) {
      const primary = [...texts].find((t) => t.startsWith('PersonX buy ') && parsePurchaseEvent(t).includes(cat.noun));
      expect(primary, cat.noun).toBeDefined();
    }
    expect(new Set(world.nodes).size).toBe(world.nodes.length);
  });

  it('has hubs and isolated nodes', () => {
    const degree = new Map<string, number>();
    for (const e of world.edges) for (const t of [e.head, e.tail]) degree.set(t, (degree.get(t) ?? 0) + 1);
    const categories = DEMO_CLUSTERS.flatMap((c) => c.categories).length;
    expect(degree.get(DEMO_HUBS.before)).toBeGreaterThanOrEqual(categories);
    expect(degree.get(DEMO_HUBS.after)).toBeGreaterThanOrEqual(categories);
    for (const t of DEMO_ISOLATED) {
      expect(world.nodes).toContain(t);
      expect(degree.has(t)).toBe(false);
    }
  });

  it('writes byte-identical files on a re-run, and a graph whose contexts are coherent', async () => {
    const a = join(dir, 'demo-a');
    const b = join(dir, 'demo-b');
    const ra = await writeDemo(a);
    await writeDemo(b);
    await writeDemo(b); // a re-run replaces the outputs whole
    for (const f of ['edges.jsonl', 'products.jsonl', 'assertions.jsonl', 'concepts.jsonl']) {
      expect(readFileSync(join(a, f), 'utf8'), f).toBe(readFileSync(join(b, f), 'utf8'));
    }
    expect(existsSync(join(a, 'graph.sqlite'))).toBe(true);
    const store = await openGraphStore(join(b, 'graph.sqlite'));
    try {
      expect(await store.counts()).toMatchObject({ nodes: ra.nodes, edges: ra.edges });
      const hubs = new Set<string>(Object.values(DEMO_HUBS));
      const context = async (noun: string) => {
        const cat = DEMO_CLUSTERS.flatMap((c) => c.categories).find((c) => c.noun === noun)!;
        const text = `PersonX buy ${cat.mass ? '' : /^[aeiou]/.test(noun) ? 'an ' : 'a '}${noun}`;
        const n = await neighbourTexts(store, text);
        return new Set([...n].filter((t) => !hubs.has(t)));
      };
      // Related categories share context; near neighbours (similar words) share much less.
      const phone = await context('phone');
      const charger = await context('charger');
      const phoneCase = await context('phone case');
      const pencilCase = await context('pencil case');
      const earring = await context('earring');
      const necklace = await context('necklace');
      expect(jaccard(phoneCase, charger)).toBeGreaterThan(jaccard(phoneCase, pencilCase));
      expect(jaccard(phone, charger)).toBeGreaterThan(0.2);
      expect(jaccard(earring, necklace)).toBeGreaterThan(0.2);
      expect(jaccard(earring, charger)).toBe(0);
      expect(DEMO_NEAR_NEIGHBOURS.length).toBeGreaterThanOrEqual(4);

      // Concepts: the user phrases match every product; the offline conceptualizer most of them.
      const products = world.products.map((p, i) => ({ ...p, file: 'products.jsonl', line: i + 1 }));
      for (const [conceptualizer, minRate] of [
        [await UserConcepts.load(join(b, 'concepts.jsonl')), 1],
        [new OfflineConceptualizer(store), 0.85],
      ] as const) {
        const stats = new MatchStats();
        for await (const o of matchProducts(store, products, conceptualizer)) {
          expect(o.ok).toBe(true);
          if (o.ok) stats.add(o.match);
        }
        expect(stats.matchRate, conceptualizer.name).toBeGreaterThanOrEqual(minRate);
      }
    } finally {
      await store.close();
    }
  });
});

function collect(g: ScaleGraph, batch = 97): EdgeInput[] {
  const out: EdgeInput[] = [];
  for (const b of g.edgeBatches(batch)) out.push(...b);
  return out;
}

describe('scale generator', () => {
  it('keeps its vocabulary invariants', () => {
    const purchaseWords = new Set(PURCHASE_VERBS.flatMap((v) => v.split(' ')));
    for (const v of EVENT_VERBS) expect(purchaseWords.has(v), v).toBe(false);
    for (const list of [EVENT_VERBS, EVENT_NOUNS, EVENT_SUBJECTS, EVENT_ADJUNCTS, PRODUCT_NOUNS, PRODUCT_MODIFIERS]) {
      expect(new Set(list).size).toBe(list.length);
    }
    expect(EVENT_ADJUNCTS[0]).toBe('');
    expect(EVENT_ADJUNCTS.some((a) => a.split(' ').includes('again'))).toBe(false);
    // Product phrases are already normalised, so user concepts made of them match exactly.
    for (const w of [...PRODUCT_NOUNS, ...PRODUCT_MODIFIERS]) expect(normalizePhrase(w), w).toBe(w);
    expect(productPhrase(0).phrase).toBe(PRODUCT_NOUNS[0]);
    expect(productPhrase(PRODUCT_NOUNS.length).phrase).toBe(`${PRODUCT_MODIFIERS[0]} ${PRODUCT_NOUNS[0]}`);
    expect(productPhrase(PRODUCT_PHRASE_COUNT - 1).phrase).toBe(
      `${PRODUCT_MODIFIERS.at(-1)} ${PRODUCT_MODIFIERS.at(-1)} ${PRODUCT_NOUNS.at(-1)}`,
    );
  });

  it('gives exactly N unique node texts and M distinct edges without self-loops', () => {
    for (const [n, m, seed] of [
      [300, 900, 1],
      [1000, 1500, 2],
      [5, 20, 3], // complete directed graph
      [2, 0, 4],
    ] as const) {
      const g = new ScaleGraph({ nodes: n, edges: m, seed });
      const texts = Array.from({ length: n }, (_, i) => g.nodeText(i));
      expect(new Set(texts).size).toBe(n);
      const plan = g.degreePlan();
      expect(plan.reduce((s, d) => s + d, 0)).toBe(m);
      expect(Math.max(...plan)).toBeLessThanOrEqual(n - 1);
      const edges = collect(g);
      expect(edges).toHaveLength(m);
      const keys = new Set(edges.map((e) => `${e.head}\u0000${e.tail}`));
      expect(keys.size).toBe(m);
      const textSet = new Set(texts);
      for (const e of edges) {
        expect(e.head).not.toBe(e.tail);
        expect(textSet.has(e.head) && textSet.has(e.tail)).toBe(true);
        const senses = Object.values(e.senses);
        expect(senses.length).toBeGreaterThanOrEqual(1);
        expect(senses.length).toBeLessThanOrEqual(3);
        for (const w of senses) expect(w).toBeGreaterThan(0);
      }
    }
  });

  it('marks exactly the generated purchase nodes as purchase events (no text source)', () => {
    const g = new ScaleGraph({ nodes: 2000, edges: 100, seed: 5, purchaseFraction: 0.1 });
    let purchase = 0;
    for (let i = 0; i < 2000; i++) {
      const parsed = parsePurchaseEvent(g.nodeText(i)).length > 0;
      expect(parsed, g.nodeText(i)).toBe(g.isGeneratedPurchaseNode(i));
      if (parsed) purchase += 1;
    }
    expect(purchase).toBe(200);
    expect(g.purchaseNodes).toBe(200);
    // Synthetic events are distinct and never purchase events.
    const synth = Array.from({ length: 5000 }, (_, j) => g.syntheticText(j * 977));
    expect(new Set(synth).size).toBe(synth.length);
    for (const t of synth) expect(parsePurchaseEvent(t)).toEqual([]);
  });

  it('is deterministic per seed and has power-law degrees (hubs)', () => {
    const a = collect(new ScaleGraph({ nodes: 3000, edges: 9000, seed: 9 }));
    const b = collect(new ScaleGraph({ nodes: 3000, edges: 9000, seed: 9 }), 1000);
    const c = collect(new ScaleGraph({ nodes: 3000, edges: 9000, seed: 10 }));
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    const degree = new Map<string, number>();
    for (const e of a) for (const t of [e.head, e.tail]) degree.set(t, (degree.get(t) ?? 0) + 1);
    const degrees = [...degree.values()].sort((x, y) => y - x);
    const mean = (2 * 9000) / 3000;
    expect(degrees[0]!).toBeGreaterThan(20 * mean);
    expect(degrees[Math.floor(degrees.length / 2)]!).toBeLessThanOrEqual(mean);
  });

  it('uses the text source first and steps around collisions with it', () => {
    const g0 = new ScaleGraph({ nodes: 50, edges: 10, seed: 3 });
    const generated = Array.from({ length: 50 }, (_, i) => g0.nodeText(i));
    // A source that contains generated texts (a purchase text and a synthetic one), duplicates and blanks.
    const source = ['PersonX go home', '', 'PersonX go home', ...generated.slice(0, 2), 'it rain'];
    const g = new ScaleGraph({ nodes: 50, edges: 10, seed: 3 }, source);
    const texts = Array.from({ length: 50 }, (_, i) => g.nodeText(i));
    expect(new Set(texts).size).toBe(50);
    for (const s of ['PersonX go home', 'it rain', ...generated.slice(0, 2)]) expect(texts).toContain(s);
    expect(texts.some((t) => t.endsWith(' again'))).toBe(true);
    expect(g.sourceLinesUsed).toBe(4);
  });

  it('writes a SQLite store and a matching catalogue; JSONL output is byte-identical across runs', async () => {
    const out = join(dir, 'scale.sqlite');
    const r = await writeScaleGraph(out, { nodes: 4000, edges: 8000, seed: 7, products: 300, progress: false });
    expect(r).toMatchObject({ kind: 'sqlite', nodes: 4000, edges: 8000, purchaseNodes: 200, products: 300 });
    const store = await openGraphStore(out);
    try {
      expect(await store.counts()).toEqual({ nodes: 4000, edges: 8000, purchaseNodes: 200 });
      const products = readFileSync(r.productsOut!, 'utf8')
        .trim()
        .split('\n')
        .map((l, i) => ({ ...(JSON.parse(l) as { id: string; title: string }), file: 'p', line: i + 1 }));
      expect(products).toHaveLength(300);
      const stats = new MatchStats();
      for await (const o of matchProducts(store, products, await UserConcepts.load(r.conceptsOut!)))
        if (o.ok) stats.add(o.match);
      expect(stats.matchRate).toBe(1);
    } finally {
      await store.close();
    }
    const j1 = join(dir, 'scale-1.jsonl');
    const j2 = join(dir, 'scale-2.jsonl');
    await writeScaleGraph(j1, { nodes: 4000, edges: 8000, seed: 7, progress: false });
    await writeScaleGraph(j2, { nodes: 4000, edges: 8000, seed: 7, progress: false });
    const text = readFileSync(j1, 'utf8');
    expect(text).toBe(readFileSync(j2, 'utf8'));
    expect(text.trim().split('\n')).toHaveLength(8000);
  });

  it('rejects impossible sizes', () => {
    expect(() => new ScaleGraph({ nodes: 3, edges: 7 })).toThrow(/more than the 6 distinct directed edges/);
    expect(() => new ScaleGraph({ nodes: 0, edges: 0 })).toThrow(/nodes must be a positive integer/);
  });
});

describe('intentsim graph generate / neighbours (CLI)', () => {
  it('generates the demo and prints a node context with senses, weights and sentences', async () => {
    const demo = join(dir, 'cli-demo');
    await cli(['graph', 'generate', '--demo', '--out', demo]);
    const graph = join(demo, 'graph.sqlite');
    for (const mode of ['incident', 'induced'] as const) {
      const json = JSON.parse(
        await cli([
          'graph',
          'neighbours',
          '--graph',
          graph,
          '--text',
          'PersonX buy a phone case',
          '--mode',
          mode,
          '--json',
        ]),
      ) as {
        node: { id: number; text: string };
        edgeCount: number;
        sentenceCount: number;
        edges: Array<{
          head: { id: number; text: string };
          tail: { id: number; text: string };
          senses: Record<string, number>;
          sentences: string[];
        }>;
      };
      expect(json.node.text).toBe('PersonX buy a phone case');
      expect(json.edgeCount).toBe(json.edges.length);
      const store = await openGraphStore(graph);
      const n = (await store.neighbourhoods([json.node.id], mode)).get(json.node.id)!;
      await store.close();
      expect(json.edges.map((e) => [e.head.id, e.tail.id])).toEqual(n.edges.map((e) => [e.head, e.tail]));
      for (const e of json.edges) {
        expect(e.sentences).toEqual(edgeSentences({ headText: e.head.text, tailText: e.tail.text, senses: e.senses }));
        if (mode === 'incident') expect(e.head.id === json.node.id || e.tail.id === json.node.id).toBe(true);
      }
      expect(json.sentenceCount).toBe(json.edges.reduce((s, e) => s + e.sentences.length, 0));
      expect(
        json.edges.some((e) => e.sentences.includes('PersonX buy a phone case because PersonX drop PersonX phone.')),
      ).toBe(true);
    }
    const text = await cli([
      'graph',
      'neighbours',
      '--graph',
      graph,
      '--text',
      'PersonX buy a phone case',
      '--mode',
      'incident',
      '--limit',
      '2',
    ]);
    expect(text).toMatch(/^node \d+: PersonX buy a phone case\nmode incident: \d+ edges, \d+ sentences\n/);
    expect(text).toMatch(/… \d+ more edges \(raise --limit\)/);
    await expect(cli(['graph', 'neighbours', '--graph', graph, '--text', 'PersonX buy a unicorn'])).rejects.toThrow(
      /no node with the exact text "PersonX buy a unicorn"/,
    );
  });

  it('generates a scale graph from the command line', async () => {
    const out = join(dir, 'cli-scale.sqlite');
    const json = JSON.parse(
      await cli([
        'graph',
        'generate',
        '--nodes',
        '500',
        '--edges',
        '1000',
        '--out',
        out,
        '--products',
        '20',
        '--seed',
        '3',
        '--json',
      ]),
    ) as {
      nodes: number;
      edges: number;
      productsOut: string;
    };
    expect(json).toMatchObject({ nodes: 500, edges: 1000, kind: 'sqlite' });
    expect(readFileSync(json.productsOut, 'utf8').trim().split('\n')).toHaveLength(20);
    await expect(cli(['graph', 'generate', '--out', out])).rejects.toThrow(/give --demo, or --nodes N and --edges M/);
  });
});
