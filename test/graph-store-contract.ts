// The GraphStore contract: one suite that every store implementation runs (SQLite here, Neo4j in
// its own test file). Expected values are hand-checked on small graphs and, on seeded random
// graphs, compared with an obvious in-memory reference implementation written below.
import { afterEach, describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import { parsePurchaseEvent } from '../graph/purchase-events.js';
import {
  RELATION_SENSES,
  type EdgeInput,
  type GraphEdge,
  type GraphStore,
  type GraphWriter,
  type NeighbourhoodMode,
  type NodeId,
  type SenseWeights,
} from '../graph/graph-store.js';

/** A graph to build a store from: its edges, plus nodes that have no edge. */
export interface GraphFixture {
  edges: EdgeInput[];
  isolated?: string[];
}

export type StoreFactory = (fixture: GraphFixture) => Promise<GraphStore & Partial<GraphWriter>>;

// ---------------------------------------------------------------- the reference implementation

/** The obvious implementation: texts as node identities, everything recomputed by brute force. */
export class ReferenceGraph {
  readonly nodes = new Set<string>();
  /** `${head}\u0000${tail}` → edge; re-writing an edge replaces its senses (last one wins). */
  readonly edges = new Map<string, EdgeInput>();

  constructor({ edges, isolated = [] }: GraphFixture) {
    for (const t of isolated) this.nodes.add(t);
    for (const e of edges) {
      this.nodes.add(e.head);
      this.nodes.add(e.tail);
      this.edges.set(`${e.head}\u0000${e.tail}`, e);
    }
  }

  /** N(v) = predecessors ∪ successors ∪ {v}. */
  closedNeighbourhood(v: string): Set<string> {
    const n = new Set([v]);
    for (const e of this.edges.values()) {
      if (e.head === v) n.add(e.tail);
      if (e.tail === v) n.add(e.head);
    }
    return n;
  }

  neighbourhood(v: string, mode: NeighbourhoodMode): EdgeInput[] {
    const n = this.closedNeighbourhood(v);
    return [...this.edges.values()].filter((e) =>
      mode === 'incident' ? e.head === v || e.tail === v : n.has(e.head) && n.has(e.tail),
    );
  }

  degrees(v: string): { neighbours: number; incidentEdges: number } {
    return {
      neighbours: this.closedNeighbourhood(v).size - 1,
      incidentEdges: this.neighbourhood(v, 'incident').length,
    };
  }
}

// ---------------------------------------------------------------- helpers

/** An edge as text, for comparing stores whose ids differ: "head → tail {senses}". */
function edgeKey(head: string, tail: string, senses: SenseWeights): string {
  const s = RELATION_SENSES.filter((k) => senses[k] !== undefined).map((k) => `${k}=${senses[k]}`);
  return `${head} → ${tail} {${s.join(',')}}`;
}

function storeEdgeKeys(edges: readonly GraphEdge[]): string[] {
  return edges.map((e) => edgeKey(e.headText, e.tailText, e.senses)).sort();
}

function refEdgeKeys(edges: readonly EdgeInput[]): string[] {
  return edges.map((e) => edgeKey(e.head, e.tail, e.senses)).sort();
}

function expectSortedByIds(edges: readonly GraphEdge[]): void {
  for (let i = 1; i < edges.length; i++) {
    const a = edges[i - 1]!;
    const b = edges[i]!;
    expect(
      a.head < b.head || (a.head === b.head && a.tail < b.tail),
      `edges ordered by (head, tail): ${a.head},${a.tail} before ${b.head},${b.tail}`,
    ).toBe(true);
  }
}

async function collect(stream: AsyncIterable<GraphEdge[]>, batchSize: number): Promise<GraphEdge[]> {
  const out: GraphEdge[] = [];
  for await (const batch of stream) {
    expect(batch.length).toBeGreaterThan(0);
    expect(batch.length).toBeLessThanOrEqual(batchSize);
    out.push(...batch);
  }
  return out;
}

/** An id that is certainly not a node of the store. */
function unknownId(known: Iterable<NodeId>): NodeId {
  let max = 0;
  for (const id of known) max = Math.max(max, id);
  return max + 1_000_003;
}

// A small, hand-checkable graph. N(a) = {a, b, c}:
//   incident(a) = a→a (self-loop), a→b, b→a (reciprocal), c→a
//   induced(a)  = incident(a) + b→c (an edge between two neighbours of a)
//   d→b, c→e, e→f are outside N(a); iso has no edges.
export const HAND_GRAPH: GraphFixture = {
  edges: [
    { head: 'a', tail: 'b', senses: { Result: 1 } },
    { head: 'b', tail: 'a', senses: { Reason: 2 } },
    { head: 'c', tail: 'a', senses: { Precedence: 0.5 } },
    { head: 'b', tail: 'c', senses: { Conjunction: 1, Co_Occurrence: 3 } },
    { head: 'a', tail: 'a', senses: { Synchronous: 1.25 } },
    { head: 'd', tail: 'b', senses: { Contrast: 1 } },
    { head: 'c', tail: 'e', senses: { Condition: 4 } },
    { head: 'e', tail: 'f', senses: { Restatement: 1 } },
  ],
  isolated: ['iso'],
};

/** A random graph with power-law-ish degrees, self-loops, reciprocal edges, re-written edges and a hub. */
export function randomFixture(seed: number, nodeCount: number, edgeCount: number): GraphFixture {
  const rng = new Rng(seed);
  const texts = Array.from(
    { length: nodeCount },
    (_, i) => `node ${i} ${i % 7 === 0 ? 'PersonX buy a thing' + i : 'happens'}`,
  );
  // Squaring a uniform draw favours low indices: a few nodes get many edges.
  const pick = () => texts[Math.floor(rng.next() ** 2 * nodeCount)]!;
  const randomSenses = (): SenseWeights => {
    const senses: SenseWeights = {};
    const k = 1 + rng.int(3);
    for (let i = 0; i < k; i++) senses[RELATION_SENSES[rng.int(RELATION_SENSES.length)]!] = 1 + rng.int(20) / 4;
    return senses;
  };
  const edges: EdgeInput[] = [];
  for (let i = 0; i < edgeCount; i++) {
    const r = rng.next();
    const head = pick();
    if (r < 0.05) edges.push({ head, tail: head, senses: randomSenses() });
    else if (r < 0.15 && edges.length > 0) {
      const e = edges[rng.int(edges.length)]!;
      edges.push({ head: e.tail, tail: e.head, senses: randomSenses() }); // reciprocal
    } else if (r < 0.2 && edges.length > 0) {
      const e = edges[rng.int(edges.length)]!;
      edges.push({ head: e.head, tail: e.tail, senses: randomSenses() }); // re-written: last wins
    } else edges.push({ head, tail: pick(), senses: randomSenses() });
  }
  // A hub with out-edges to a quarter of the nodes: its neighbours' neighbourhoods contain a node
  // whose out-degree exceeds their size (stores may take a different path for such nodes).
  for (let i = 0; i < nodeCount; i += 4) edges.push({ head: 'the hub', tail: texts[i]!, senses: { Co_Occurrence: 1 } });
  const isolated = Array.from({ length: 3 }, (_, i) => `isolated ${seed} ${i}`);
  return { edges, isolated };
}

// ---------------------------------------------------------------- the suite

export function runGraphStoreContract(name: string, makeStore: StoreFactory): void {
  describe(`GraphStore contract: ${name}`, () => {
    const open: Array<GraphStore & Partial<GraphWriter>> = [];
    const build = async (fixture: GraphFixture) => {
      const store = await makeStore(fixture);
      open.push(store);
      return store;
    };
    afterEach(async () => {
      while (open.length > 0) await open.pop()!.close();
    });

    describe('on a hand-checkable graph', () => {
      it('looks up exact texts only, many in one call', async () => {
        const store = await build(HAND_GRAPH);
        const ids = await store.lookupIds(['a', 'b', 'iso', 'A', ' a', 'a ', 'zzz', 'a', '']);
        expect([...ids.keys()].sort()).toEqual(['a', 'b', 'iso']);
        expect(new Set(ids.values()).size).toBe(3);
        expect((await store.lookupIds([])).size).toBe(0);
        const texts = await store.nodeTexts([...ids.values(), unknownId(ids.values())]);
        expect([...texts.entries()].sort()).toEqual([...ids.entries()].map(([t, id]) => [id, t]).sort());
      });

      it('returns the exact incident and induced neighbourhoods of a (self-loop, reciprocal edges, an edge between neighbours)', async () => {
        const store = await build(HAND_GRAPH);
        const ids = await store.lookupIds(['a', 'b', 'c', 'd', 'e', 'f', 'iso']);
        const a = ids.get('a')!;
        const incident = (await store.neighbourhoods([a], 'incident')).get(a)!;
        expect(incident.node).toBe(a);
        expect(incident.text).toBe('a');
        expect(storeEdgeKeys(incident.edges)).toEqual(
          ['a → a {Synchronous=1.25}', 'a → b {Result=1}', 'b → a {Reason=2}', 'c → a {Precedence=0.5}'].sort(),
        );
        expectSortedByIds(incident.edges);
        const induced = (await store.neighbourhoods([a], 'induced')).get(a)!;
        expect(storeEdgeKeys(induced.edges)).toEqual(
          [
            'a → a {Synchronous=1.25}',
            'a → b {Result=1}',
            'b → a {Reason=2}',
            'b → c {Conjunction=1,Co_Occurrence=3}',
            'c → a {Precedence=0.5}',
          ].sort(),
        );
        expectSortedByIds(induced.edges);
        for (const e of induced.edges) {
          expect(e.head).toBe(ids.get(e.headText));
          expect(e.tail).toBe(ids.get(e.tailText));
        }
      });

      it('answers many nodes in one call, leaves unknown ids out and gives isolated nodes no edges', async () => {
        const store = await build(HAND_GRAPH);
        const ids = await store.lookupIds(['a', 'b', 'c', 'd', 'e', 'f', 'iso']);
        const missing = unknownId(ids.values());
        for (const mode of ['incident', 'induced'] as const) {
          const all = await store.neighbourhoods([...ids.values(), missing, ids.get('a')!], mode);
          expect([...all.keys()].sort((x, y) => x - y)).toEqual([...ids.values()].sort((x, y) => x - y));
          expect(all.get(ids.get('iso')!)).toEqual({ node: ids.get('iso'), text: 'iso', edges: [] });
          const single = (await store.neighbourhoods([ids.get('a')!], mode)).get(ids.get('a')!);
          expect(all.get(ids.get('a')!)).toEqual(single);
        }
        // f: only e→f touches it; N(f) = {e, f}, so induced = incident.
        const f = ids.get('f')!;
        expect(storeEdgeKeys((await store.neighbourhoods([f], 'induced')).get(f)!.edges)).toEqual([
          'e → f {Restatement=1}',
        ]);
        // b: N(b) = {a, b, c, d}; induced adds c→a and the self-loop a→a, incident does not.
        const b = ids.get('b')!;
        expect(storeEdgeKeys((await store.neighbourhoods([b], 'incident')).get(b)!.edges)).toEqual(
          [
            'a → b {Result=1}',
            'b → a {Reason=2}',
            'b → c {Conjunction=1,Co_Occurrence=3}',
            'd → b {Contrast=1}',
          ].sort(),
        );
        expect(storeEdgeKeys((await store.neighbourhoods([b], 'induced')).get(b)!.edges)).toEqual(
          [
            'a → a {Synchronous=1.25}',
            'a → b {Result=1}',
            'b → a {Reason=2}',
            'b → c {Conjunction=1,Co_Occurrence=3}',
            'c → a {Precedence=0.5}',
            'd → b {Contrast=1}',
          ].sort(),
        );
        expect((await store.neighbourhoods([], 'induced')).size).toBe(0);
        expect((await store.neighbourhoods([missing], 'incident')).size).toBe(0);
      });

      it('streams the same edges in bounded batches', async () => {
        const store = await build(HAND_GRAPH);
        const ids = await store.lookupIds(['a', 'b', 'c', 'd', 'e', 'f', 'iso']);
        for (const mode of ['incident', 'induced'] as const) {
          const all = await store.neighbourhoods([...ids.values()], mode);
          for (const id of ids.values()) {
            for (const batchSize of [1, 2, 100]) {
              expect(await collect(store.streamNeighbourhood(id, mode, batchSize), batchSize)).toEqual(
                all.get(id)!.edges,
              );
            }
          }
          expect(await collect(store.streamNeighbourhood(unknownId(ids.values()), mode, 10), 10)).toEqual([]);
        }
      });

      it('counts distinct neighbours and incident edges (a self-loop is one edge and no neighbour)', async () => {
        const store = await build(HAND_GRAPH);
        const ids = await store.lookupIds(['a', 'b', 'iso', 'f']);
        const degrees = await store.degrees([...ids.values(), unknownId(ids.values())]);
        expect(degrees.size).toBe(4);
        expect(degrees.get(ids.get('a')!)).toEqual({ neighbours: 2, incidentEdges: 4 });
        expect(degrees.get(ids.get('b')!)).toEqual({ neighbours: 3, incidentEdges: 4 });
        expect(degrees.get(ids.get('f')!)).toEqual({ neighbours: 1, incidentEdges: 1 });
        expect(degrees.get(ids.get('iso')!)).toEqual({ neighbours: 0, incidentEdges: 0 });
      });

      it('counts nodes (isolated ones too) and edges', async () => {
        const store = await build(HAND_GRAPH);
        const counts = await store.counts();
        expect({ nodes: counts.nodes, edges: counts.edges }).toEqual({ nodes: 7, edges: 8 });
        if (store.nodeCount) expect(await store.nodeCount()).toBe(7);
      });

      it('keeps texts byte-exact: quotes, unicode, JSON-looking and number-looking texts', async () => {
        const odd = ['say "hi"', 'café ☕', '["x"]', '123', 'back\\slash', "it's", 'tab\there'];
        const store = await build({
          edges: odd.map((t, i) => ({ head: t, tail: odd[(i + 1) % odd.length]!, senses: { Result: i + 1 } })),
        });
        const ids = await store.lookupIds(odd);
        expect([...ids.keys()].sort()).toEqual([...odd].sort());
        const n = (await store.neighbourhoods([ids.get('123')!], 'incident')).get(ids.get('123')!)!;
        expect(storeEdgeKeys(n.edges)).toEqual(['123 → back\\slash {Result=4}', '["x"] → 123 {Result=3}']);
      });

      it('an empty graph has no nodes, edges or purchase events', async () => {
        const store = await build({ edges: [] });
        expect(await store.counts()).toEqual({ nodes: 0, edges: 0, purchaseNodes: 0 });
        expect((await store.lookupIds(['a'])).size).toBe(0);
        const batches: unknown[] = [];
        for await (const b of store.purchaseEvents(10)) batches.push(b);
        expect(batches).toEqual([]);
      });
    });

    describe('purchase events', () => {
      // Parser-independent: whatever parsePurchaseEvent says about each node text, the store's index
      // must say the same.
      const texts = [
        'PersonX buy a phone',
        'PersonX buys the phone',
        'buy phone',
        'PeopleY have bought an earring',
        'PersonX get 2 apples',
        'PersonX go home',
        'PersonX buy',
        'it rain',
      ];
      const fixture: GraphFixture = {
        edges: texts.slice(1).map((t, i) => ({ head: texts[i]!, tail: t, senses: { Precedence: 1 } })),
        isolated: ['PersonY purchase a dress'],
      };

      it('indexes exactly the nodes the parser recognises, by each of their objects', async () => {
        const store = await build(fixture);
        const all = [...texts, 'PersonY purchase a dress'];
        const ids = await store.lookupIds(all);
        const expected = new Map<string, NodeId[]>();
        for (const t of all) {
          for (const object of new Set(parsePurchaseEvent(t)))
            expected.set(object, [...(expected.get(object) ?? []), ids.get(t)!]);
        }
        for (const list of expected.values()) list.sort((x, y) => x - y);
        const got = await store.purchaseNodesByObject([...expected.keys(), 'no such object', 'phone', 'dress']);
        expect([...got.entries()].sort()).toEqual([...expected.entries()].sort());

        const events: Array<{ id: NodeId; text: string; objects: string[] }> = [];
        for await (const batch of store.purchaseEvents(2)) {
          expect(batch.length).toBeLessThanOrEqual(2);
          events.push(...batch);
        }
        const purchaseTexts = all.filter((t) => parsePurchaseEvent(t).length > 0);
        expect(events.map((e) => e.text).sort()).toEqual(purchaseTexts.sort());
        expect(events.map((e) => e.id)).toEqual(events.map((e) => e.id).sort((x, y) => x - y));
        for (const e of events) {
          expect(e.id).toBe(ids.get(e.text));
          expect([...e.objects].sort()).toEqual([...new Set(parsePurchaseEvent(e.text))].sort());
        }
        expect((await store.counts()).purchaseNodes).toBe(purchaseTexts.length);
      });
    });

    describe('on seeded random graphs, equal to the reference implementation', () => {
      for (const [seed, nodes, edges] of [
        [1, 40, 120],
        [2, 60, 200],
        [3, 25, 150],
      ] as const) {
        it(`seed ${seed}: ${nodes} nodes, ${edges} edges`, async () => {
          const fixture = randomFixture(seed, nodes, edges);
          const ref = new ReferenceGraph(fixture);
          const store = await build(fixture);
          const texts = [...ref.nodes];
          const ids = await store.lookupIds(texts);
          expect(ids.size).toBe(ref.nodes.size);
          expect(await store.counts()).toMatchObject({ nodes: ref.nodes.size, edges: ref.edges.size });
          if (store.nodeCount) expect(await store.nodeCount()).toBe(ref.nodes.size);
          const allIds = [...ids.values()];
          for (const mode of ['incident', 'induced'] as const) {
            const got = await store.neighbourhoods(allIds, mode);
            expect(got.size).toBe(texts.length);
            for (const t of texts) {
              const n = got.get(ids.get(t)!)!;
              expect(n.text).toBe(t);
              expect(storeEdgeKeys(n.edges), `${mode} neighbourhood of ${t}`).toEqual(
                refEdgeKeys(ref.neighbourhood(t, mode)),
              );
              expectSortedByIds(n.edges);
            }
            for (const t of [texts[0]!, 'the hub', texts[texts.length - 1]!]) {
              expect(await collect(store.streamNeighbourhood(ids.get(t)!, mode, 3), 3)).toEqual(
                got.get(ids.get(t)!)!.edges,
              );
            }
          }
          const degrees = await store.degrees(allIds);
          for (const t of texts) expect(degrees.get(ids.get(t)!), `degrees of ${t}`).toEqual(ref.degrees(t));
        });
      }
    });

    describe('writing (stores that are also GraphWriters)', () => {
      it('re-writing an edge replaces its senses; the same batch twice leaves one copy', async () => {
        const store = await build(HAND_GRAPH);
        if (!store.upsertEdges) return;
        const batch: EdgeInput[] = [
          { head: 'a', tail: 'b', senses: { Contrast: 7 } },
          { head: 'x', tail: 'y', senses: { Result: 1 } },
        ];
        await store.upsertEdges(batch);
        await store.upsertEdges(batch);
        expect(await store.counts()).toMatchObject({ nodes: 9, edges: 9 });
        const a = (await store.lookupIds(['a'])).get('a')!;
        const edges = (await store.neighbourhoods([a], 'incident')).get(a)!.edges;
        expect(storeEdgeKeys(edges)).toContain('a → b {Contrast=7}');
        expect(storeEdgeKeys(edges)).not.toContain('a → b {Result=1}');
      });

      it('upsertNodes returns the existing id of a known text and a new id for a new one', async () => {
        const store = await build(HAND_GRAPH);
        if (!store.upsertNodes) return;
        const before = await store.lookupIds(['a']);
        const ids = await store.upsertNodes(['a', 'brand new', 'brand new']);
        expect(ids.get('a')).toBe(before.get('a'));
        expect(ids.size).toBe(2);
        expect((await store.lookupIds(['brand new'])).get('brand new')).toBe(ids.get('brand new'));
        expect((await store.counts()).nodes).toBe(8);
      });
    });
  });
}

/** Only the GraphStore side, so that the contract's writer tests do not apply to a store opened for reading. */
export function readView(s: GraphStore): GraphStore {
  return {
    kind: s.kind,
    lookupIds: (t) => s.lookupIds(t),
    nodeTexts: (i) => s.nodeTexts(i),
    neighbourhoods: (i, m) => s.neighbourhoods(i, m),
    streamNeighbourhood: (i, m, b) => s.streamNeighbourhood(i, m, b),
    degrees: (i) => s.degrees(i),
    purchaseNodesByObject: (o) => s.purchaseNodesByObject(o),
    purchaseEvents: (b) => s.purchaseEvents(b),
    counts: () => s.counts(),
    close: () => s.close(),
  };
}
