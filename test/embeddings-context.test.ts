// Context embeddings (docs/embeddings.md), every formula checked against a slow obvious implementation:
// neighbourhoods by brute force over the raw edge list, sentences by plain template substitution,
// each sentence encoded alone, means taken naively. Run on a hand-checked graph, on seeded random
// graphs in the real SQLite store (with chunking and hub streaming forced), and on the tiny ONNX model.
import Database from 'better-sqlite3';
import { describe, expect, it, beforeAll } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import {
  RELATION_SENSES,
  type EdgeInput,
  type GraphStore,
  type NeighbourhoodMode,
  type NodeId,
  type SenseWeights,
} from '../graph/graph-store.js';
import { Rng } from '../core/rng.js';
import {
  ContextEmbedder,
  type ContextNode,
  type ContextEmbedderOptions,
  type ContextUnit,
  type ContextUnitResult,
  type ContextUnitRunner,
  type ContextUnitSettings,
} from '../embeddings/context-embedder.js';
import { HashingSentenceEncoder } from '../embeddings/hashing-encoder.js';
import { NodeEmbeddingCache, type NodeContextKey, type NodeEmbedding } from '../embeddings/node-cache.js';
import {
  productContextEmbedding,
  releasedPipelineSentenceCount,
  type ProductPhraseNodes,
} from '../embeddings/product-embedding.js';
import { makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import type { EncodeOptions, SentenceEncoder } from '../embeddings/sentence-encoder.js';

// The 15 templates, restated here (not imported) so that the slow path is independent.
const TEMPLATES: Record<string, string> = {
  Precedence: '{h}. Then, {t}.',
  Succession: '{t}. Then, {h}.',
  Synchronous: '{h} and {t} happen at the same time.',
  Reason: '{h} because {t}.',
  Result: 'If {h}, then {t}.',
  Condition: 'Only when {t}, {h}.',
  Contrast: '{h} and {t} share a predicate or property and have significant difference on that property.',
  Concession: '{h} should result in the happening of one thing, but {t} indicates the opposite of that thing.',
  Conjunction: '{h} and {t} both happen.',
  Instantiation: '{t} is a more detailed description of {h}.',
  Restatement: '{t} restates the semantic meaning of {h}',
  Alternative: '{h} and {t} are alternative situations of each other.',
  ChosenAlternative: '{h} and {t} are alternative situations of each other, but the subject prefers {h}.',
  Exception: '{t} is an exception of {h}.',
  Co_Occurrence: '{h} and {t} appear in the same sentence.',
};

// ---------------------------------------------------------------- the slow, obvious implementation

function slowSentences(edges: readonly EdgeInput[], v: string, mode: NeighbourhoodMode): string[] {
  const members = new Set([v]);
  for (const e of edges) {
    if (e.head === v) members.add(e.tail);
    if (e.tail === v) members.add(e.head);
  }
  const chosen = edges.filter((e) =>
    mode === 'induced' ? members.has(e.head) && members.has(e.tail) : e.head === v || e.tail === v,
  );
  const out: string[] = [];
  for (const e of chosen) {
    for (const [sense, weight] of Object.entries(e.senses)) {
      if (weight !== undefined && weight > 0)
        out.push(TEMPLATES[sense]!.split('{h}').join(e.head).split('{t}').join(e.tail));
    }
  }
  return out;
}

async function slowNodeEmbedding(
  encoder: SentenceEncoder,
  edges: readonly EdgeInput[],
  v: string,
  mode: NeighbourhoodMode,
): Promise<number[] | null> {
  const sentences = slowSentences(edges, v, mode);
  if (sentences.length === 0) return null;
  const sum = new Array<number>(encoder.dim).fill(0);
  for (const s of sentences) {
    const e = await encoder.encode([s], { batchSize: 1 });
    e.forEach((x, d) => (sum[d]! += x));
  }
  return sum.map((x) => x / sentences.length);
}

function slowMean(rows: number[][]): number[] {
  return rows[0]!.map((_, d) => rows.reduce((a, r) => a + r[d]!, 0) / rows.length);
}

// ---------------------------------------------------------------- helpers

/** Wraps an encoder and records what it was asked to encode. */
class RecordingEncoder implements SentenceEncoder {
  readonly calls: string[][] = [];
  failAfterCalls = Infinity;
  constructor(private readonly inner: SentenceEncoder) {}
  get name() {
    return this.inner.name;
  }
  get dim() {
    return this.inner.dim;
  }
  get provider() {
    return this.inner.provider;
  }
  async encode(sentences: readonly string[], options?: EncodeOptions): Promise<Float32Array> {
    if (this.calls.length >= this.failAfterCalls) throw new Error('simulated crash');
    this.calls.push([...sentences]);
    return this.inner.encode(sentences, options);
  }
  async close() {}
}

/**
 * Like the q8 model (dynamic quantization scales by the whole batch): a sentence's vector depends on
 * the call it is encoded in. Here row 0 is shifted by the call's size, so any change in how the
 * sentences are cut into calls changes the bytes.
 */
class BatchDependentEncoder implements SentenceEncoder {
  readonly name = 'batch-dependent';
  readonly provider = 'none';
  private readonly inner = new HashingSentenceEncoder();
  get dim() {
    return this.inner.dim;
  }
  async encode(sentences: readonly string[], options?: EncodeOptions): Promise<Float32Array> {
    const out = await this.inner.encode(sentences, options);
    for (let r = 0; r < sentences.length; r++) out[r * this.dim]! += sentences.length / 1024;
    return out;
  }
  async close() {}
}

/** Runs units on another embedder (as a queue worker would), finishing them in reverse order. */
class ReversedRunner implements ContextUnitRunner {
  readonly units: ContextUnit[][] = [];
  constructor(private readonly worker: ContextEmbedder) {}
  async run(
    units: readonly ContextUnit[],
    settings: ContextUnitSettings,
    done: (i: number, r: ContextUnitResult) => void,
  ): Promise<void> {
    expect(settings).toEqual(this.worker.unitSettings);
    this.units.push([...units]);
    const results = [];
    for (const unit of units) results.push(await this.worker.computeUnit(unit));
    for (let i = units.length - 1; i >= 0; i--) done(i, results[i]!);
  }
}

/** Fixed vectors per sentence, for hand-checked expectations. */
class TableEncoder implements SentenceEncoder {
  readonly name = 'table';
  readonly provider = 'none';
  readonly dim = 3;
  constructor(private readonly table: Record<string, number[]>) {}
  async encode(sentences: readonly string[]): Promise<Float32Array> {
    const out = new Float32Array(sentences.length * 3);
    sentences.forEach((s, i) => {
      const v = this.table[s];
      if (!v) throw new Error(`table encoder: no vector for ${JSON.stringify(s)}`);
      out.set(v, i * 3);
    });
    return out;
  }
  async close() {}
}

async function sqliteStore(edges: readonly EdgeInput[], extraNodes: readonly string[] = []): Promise<SqliteGraphStore> {
  const path = join(mkdtempSync(join(tmpdir(), 'intentsim-ctx-')), 'graph.sqlite');
  const store = SqliteGraphStore.open(path, { mode: 'write' });
  await store.upsertNodes(extraNodes);
  await store.upsertEdges(edges);
  return store;
}

async function nodesOf(store: GraphStore, texts: readonly string[]): Promise<ContextNode[]> {
  const ids = await store.lookupIds(texts);
  return texts.map((text) => ({ id: ids.get(text)!, text }));
}

function randomGraph(seed: number): { edges: EdgeInput[]; texts: string[] } {
  const rng = new Rng(seed);
  const subjects = ['PersonX', 'PersonY', 'PeopleX'];
  const verbs = ['buy', 'sell', 'call', 'eat', 'read', 'want', 'find', 'lose'];
  const objects = ['a phone', 'the book', 'an apple', 'dinner', 'a car', 'it'];
  const texts = [
    ...new Set(Array.from({ length: 24 }, () => `${subjects[rng.int(3)]} ${verbs[rng.int(8)]} ${objects[rng.int(6)]}`)),
  ];
  const edges: EdgeInput[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < 55; i++) {
    const head = texts[rng.int(texts.length)]!;
    // A few self-loops, and some reverse pairs (Precedence/Succession give the same text both ways).
    const tail = rng.int(12) === 0 ? head : texts[rng.int(texts.length)]!;
    if (seen.has(`${head}\u0000${tail}`)) continue;
    seen.add(`${head}\u0000${tail}`);
    const senses: SenseWeights = {};
    const k = rng.int(10) === 0 ? 0 : 1 + rng.int(3);
    for (const s of rng.sample(RELATION_SENSES, k)) senses[s] = 1 + rng.int(5);
    edges.push({ head, tail, senses });
  }
  return { edges, texts };
}

const CONTEXT_KEY: NodeContextKey = {
  encoder: 'offline-hashing-v1',
  model: 'offline-hashing-v1',
  dtype: 'none',
  mode: 'induced',
  graph: 'test',
  templates: 't',
  dim: 384,
};

// ---------------------------------------------------------------- tests

describe('hand-checked example', () => {
  const v = 'PersonX buy a phone';
  const a = 'PersonX call PersonY';
  const b = 'PersonY answer';
  const c = 'PersonZ sleep';
  const edges: EdgeInput[] = [
    { head: v, tail: a, senses: { Precedence: 1, Result: 2 } },
    { head: a, tail: b, senses: { Reason: 1 } },
    { head: b, tail: v, senses: {} },
  ];
  const s1 = 'PersonX buy a phone. Then, PersonX call PersonY.';
  const s2 = 'If PersonX buy a phone, then PersonX call PersonY.';
  const s3 = 'PersonX call PersonY because PersonY answer.';
  const encoder = new TableEncoder({ [s1]: [1, 0, 0], [s2]: [0, 1, 0], [s3]: [0, 0, 1] });

  it('induced: S(v) = {s1, s2, s3}; incident: S(v) = {s1, s2}; an isolated node has no embedding', async () => {
    const store = await sqliteStore(edges, [c]);
    const nodes = await nodesOf(store, [v, a, b, c]);
    const induced = await new ContextEmbedder(store, encoder, { mode: 'induced' }).embedNodes(nodes);
    const third = Math.fround(1 / 3);
    expect(Array.from(induced.get(nodes[0]!.id)!.vector!)).toEqual([third, third, third]);
    expect(induced.get(nodes[0]!.id)!.sentences).toBe(3);
    expect(induced.get(nodes[3]!.id)).toEqual({ sentences: 0, vector: null });

    const embedder = new ContextEmbedder(store, encoder, { mode: 'incident' });
    const incident = await embedder.embedNodes(nodes);
    expect(Array.from(incident.get(nodes[0]!.id)!.vector!)).toEqual([0.5, 0.5, 0]); // v: v→a (2 senses), b→v (none)
    expect(Array.from(incident.get(nodes[1]!.id)!.vector!)).toEqual([third, third, third]); // a: v→a, a→b
    expect(Array.from(incident.get(nodes[2]!.id)!.vector!)).toEqual([0, 0, 1]); // b: a→b, b→v
    expect(embedder.stats).toMatchObject({
      nodes: 4,
      computed: 4,
      withoutSentences: 1,
      sentenceOccurrences: 2 + 3 + 1,
      sentencesEncoded: 3,
    });
  });

  it('phrase = mean of its nodes with an embedding; CE(p) = mean of phrases; unembedded products say why', async () => {
    const store = await sqliteStore(edges, [c]);
    const [nv, na, , nc] = await nodesOf(store, [v, a, b, c]);
    const nodeEmbeddings = await new ContextEmbedder(store, encoder, { mode: 'incident' }).embedNodes([nv!, na!, nc!]);
    const product: ProductPhraseNodes = {
      id: 'p1',
      phrases: [
        { phrase: 'phone', nodes: [nv!.id, nc!.id] }, // c contributes nothing, not a zero
        { phrase: 'call', nodes: [na!.id] },
        { phrase: 'nothing', nodes: [] },
      ],
    };
    const outcome = productContextEmbedding(product, nodeEmbeddings, 3);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const third = Math.fround(1 / 3);
    const expected = [(0.5 + third) / 2, (0.5 + third) / 2, third / 2].map(Math.fround);
    expect(Array.from(outcome.vector)).toEqual(expected);
    expect(outcome).toMatchObject({ phrasesUsed: 2, nodesUsed: 2 });

    expect(productContextEmbedding({ id: 'x', phrases: [] }, nodeEmbeddings, 3)).toEqual({
      ok: false,
      reason: 'no-phrases',
    });
    expect(productContextEmbedding({ id: 'x', phrases: [{ phrase: 'q', nodes: [] }] }, nodeEmbeddings, 3)).toEqual({
      ok: false,
      reason: 'no-matched-nodes',
    });
    expect(
      productContextEmbedding({ id: 'x', phrases: [{ phrase: 'q', nodes: [nc!.id] }] }, nodeEmbeddings, 3),
    ).toEqual({ ok: false, reason: 'no-context-sentences' });
    // The released pipeline re-embeds S(v) per (product, phrase, node): 2 (v) + 0 (c) + 3 (a).
    expect(releasedPipelineSentenceCount([product], nodeEmbeddings)).toBe(5);
  });
});

describe('random graphs against the slow implementation (SQLite store)', () => {
  const variants: Array<[string, Partial<ContextEmbedderOptions>]> = [
    ['defaults', {}],
    ['tiny chunks (many flushes, oversized nodes)', { workSentences: 3, nodesPerQuery: 2 }],
    ['every node streamed as a hub', { hubNeighbours: 0, streamEdges: 2 }],
  ];
  for (const seed of [1, 2, 3]) {
    for (const mode of ['induced', 'incident'] as const) {
      it(`seed ${seed}, ${mode}: node embeddings equal the slow ones in every variant`, async () => {
        const { edges, texts } = randomGraph(seed);
        const store = await sqliteStore(edges, texts);
        const nodes = await nodesOf(store, texts);
        const encoder = new HashingSentenceEncoder();
        const expected = new Map<string, number[] | null>();
        for (const t of texts) expected.set(t, await slowNodeEmbedding(encoder, edges, t, mode));
        for (const [label, options] of variants) {
          const embedder = new ContextEmbedder(store, encoder, { mode, ...options });
          const got = await embedder.embedNodes([...nodes, ...nodes.slice(0, 5)]); // duplicates are embedded once
          expect(embedder.stats.nodes, label).toBe(texts.length);
          for (const n of nodes) {
            const want = expected.get(n.text)!;
            const have = got.get(n.id)!;
            if (want === null) {
              expect(have, `${label}: ${n.text}`).toEqual({ sentences: 0, vector: null });
              continue;
            }
            expect(have.sentences, `${label}: ${n.text}`).toBe(slowSentences(edges, n.text, mode).length);
            const err = Math.max(...want.map((x, d) => Math.abs(x - have.vector![d]!)));
            expect(err, `${label}: ${n.text}`).toBeLessThan(1e-6);
          }
          if (options.hubNeighbours === 0) expect(embedder.stats.streamedHubs).toBeGreaterThan(0);
        }
        await store.close();
      });
    }
  }

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}, induced with a neighbour cap: nodes past the cap get their incident context, the others the induced one (issue 38)`, async () => {
      const { edges, texts } = randomGraph(seed);
      const store = await sqliteStore(edges, texts);
      const nodes = await nodesOf(store, texts);
      const encoder = new HashingSentenceEncoder();
      const cap = 3;
      const neighbours = (v: string) =>
        new Set(
          edges
            .filter((e) => e.head === v || e.tail === v)
            .flatMap((e) => [e.head, e.tail])
            .filter((t) => t !== v),
        ).size;
      const embedder = new ContextEmbedder(store, encoder, { mode: 'induced', inducedNeighbourCap: cap });
      const got = await embedder.embedNodes(nodes);
      let capped = 0;
      for (const n of nodes) {
        const mode = neighbours(n.text) > cap ? 'incident' : 'induced';
        if (mode === 'incident') capped += 1;
        const want = await slowNodeEmbedding(encoder, edges, n.text, mode);
        const have = got.get(n.id)!;
        if (want === null) {
          expect(have.vector, n.text).toBeNull();
          continue;
        }
        expect(have.sentences, n.text).toBe(slowSentences(edges, n.text, mode).length);
        expect(Math.max(...want.map((x, d) => Math.abs(x - have.vector![d]!))), n.text).toBeLessThan(1e-6);
      }
      expect(capped).toBeGreaterThan(0);
      expect(embedder.stats.cappedHubs).toBe(capped);
      await store.close();
    });
  }

  it('products: phrase and CE(p) means equal the slow ones; released-pipeline counts equal the slow count', async () => {
    const { edges, texts } = randomGraph(7);
    const store = await sqliteStore(edges, texts);
    const nodes = await nodesOf(store, texts);
    const encoder = new HashingSentenceEncoder();
    const nodeEmbeddings = await new ContextEmbedder(store, encoder, { mode: 'induced' }).embedNodes(nodes);
    const rng = new Rng(11);
    const products: ProductPhraseNodes[] = Array.from({ length: 40 }, (_, i) => ({
      id: `p${i}`,
      phrases: Array.from({ length: rng.int(4) }, (_, j) => ({
        phrase: `c${j}`,
        nodes: rng.sample(nodes, rng.int(4)).map((n) => n.id),
      })),
    }));
    let slowReleased = 0;
    for (const p of products) {
      const phraseVectors: number[][] = [];
      for (const ph of p.phrases) {
        const nodeVectors: number[][] = [];
        for (const id of ph.nodes) {
          const text = nodes.find((n) => n.id === id)!.text;
          slowReleased += slowSentences(edges, text, 'induced').length;
          const e = await slowNodeEmbedding(encoder, edges, text, 'induced');
          if (e) nodeVectors.push(e);
        }
        if (nodeVectors.length > 0) phraseVectors.push(slowMean(nodeVectors));
      }
      const outcome = productContextEmbedding(p, nodeEmbeddings, encoder.dim);
      if (phraseVectors.length === 0) {
        expect(outcome.ok, p.id).toBe(false);
        continue;
      }
      expect(outcome.ok, p.id).toBe(true);
      if (!outcome.ok) continue;
      const want = slowMean(phraseVectors);
      expect(outcome.vector.every((x) => Number.isFinite(x))).toBe(true);
      expect(Math.max(...want.map((x, d) => Math.abs(x - outcome.vector[d]!))), p.id).toBeLessThan(1e-6);
    }
    expect(releasedPipelineSentenceCount(products, nodeEmbeddings)).toBe(slowReleased);
    await store.close();
  });
});

describe('deduplication', () => {
  it('each distinct sentence is encoded once per chunk of work; with one chunk, once in all', async () => {
    const { edges, texts } = randomGraph(4);
    const store = await sqliteStore(edges, texts);
    const nodes = await nodesOf(store, texts);
    const all = new Set<string>();
    let occurrences = 0;
    for (const t of texts)
      for (const s of slowSentences(edges, t, 'induced')) {
        all.add(s);
        occurrences += 1;
      }

    const one = new RecordingEncoder(new HashingSentenceEncoder());
    const e1 = new ContextEmbedder(store, one, { mode: 'induced', workSentences: 100_000 });
    await e1.embedNodes(nodes);
    const encoded = one.calls.flat();
    expect(encoded.length).toBe(all.size);
    expect(new Set(encoded)).toEqual(all);
    expect(e1.stats.sentenceOccurrences).toBe(occurrences);
    expect(occurrences).toBeGreaterThan(all.size); // the graph really shares sentences between nodes

    const many = new RecordingEncoder(new HashingSentenceEncoder());
    await new ContextEmbedder(store, many, { mode: 'induced', workSentences: 5 }).embedNodes(nodes);
    for (const call of many.calls) expect(new Set(call).size).toBe(call.length);
    await store.close();
  });
});

describe('node embedding cache', () => {
  let edges: EdgeInput[];
  let texts: string[];
  beforeAll(() => ({ edges, texts } = randomGraph(5)));

  it('a second run recomputes nothing and returns the same vectors', async () => {
    const store = await sqliteStore(edges, texts);
    const nodes = await nodesOf(store, texts);
    const cachePath = join(mkdtempSync(join(tmpdir(), 'intentsim-cache-')), 'node-embeddings.sqlite');
    const first = new ContextEmbedder(store, new HashingSentenceEncoder(), {
      mode: 'induced',
      cache: NodeEmbeddingCache.open(cachePath, CONTEXT_KEY),
    });
    const a = await first.embedNodes(nodes);
    expect(first.stats.computed).toBe(texts.length);

    const recorder = new RecordingEncoder(new HashingSentenceEncoder());
    const cache = NodeEmbeddingCache.open(cachePath, CONTEXT_KEY);
    const second = new ContextEmbedder(store, recorder, { mode: 'induced', cache });
    const b = await second.embedNodes(nodes);
    expect(second.stats).toMatchObject({ fromCache: texts.length, computed: 0, sentencesEncoded: 0 });
    expect(recorder.calls).toEqual([]);
    for (const n of nodes) expect(b.get(n.id)).toEqual(a.get(n.id));
    expect(second.stats.withoutSentences).toBe(first.stats.withoutSentences);

    // Another mode is another context: nothing is shared.
    const incident = new ContextEmbedder(store, new HashingSentenceEncoder(), {
      mode: 'incident',
      cache: NodeEmbeddingCache.open(cachePath, { ...CONTEXT_KEY, mode: 'incident' }),
    });
    await incident.embedNodes(nodes);
    expect(incident.stats.fromCache).toBe(0);
    cache.close();
    await store.close();
  });

  it('a run that crashes keeps what it committed; the resumed run computes only the rest and ends the same', async () => {
    const store = await sqliteStore(edges, texts);
    const nodes = await nodesOf(store, texts);
    const cachePath = join(mkdtempSync(join(tmpdir(), 'intentsim-cache-')), 'node-embeddings.sqlite');
    // The cache records whole units (nodesPerQuery nodes): small ones, so that a crash leaves some.
    const options = { mode: 'induced' as const, workSentences: 40, nodesPerQuery: 8 };
    const counting = new RecordingEncoder(new HashingSentenceEncoder());
    await new ContextEmbedder(store, counting, options).embedNodes(nodes);
    expect(counting.calls.length).toBeGreaterThan(3);
    const crashing = new RecordingEncoder(new HashingSentenceEncoder());
    crashing.failAfterCalls = Math.floor(counting.calls.length / 2); // dies half-way through
    await expect(
      new ContextEmbedder(store, crashing, {
        ...options,
        cache: NodeEmbeddingCache.open(cachePath, CONTEXT_KEY),
      }).embedNodes(nodes),
    ).rejects.toThrow('simulated crash');
    const cache = NodeEmbeddingCache.open(cachePath, CONTEXT_KEY);
    const committed = cache.count();
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(texts.length);

    const resumed = new ContextEmbedder(store, new HashingSentenceEncoder(), { ...options, cache });
    const got = await resumed.embedNodes(nodes);
    expect(resumed.stats.fromCache).toBe(committed);
    expect(resumed.stats.computed).toBe(texts.length - committed);
    const clean = await new ContextEmbedder(store, new HashingSentenceEncoder(), options).embedNodes(nodes);
    for (const n of nodes) expect(got.get(n.id)).toEqual(clean.get(n.id));
    cache.close();
    await store.close();
  });

  it('units: a crash and resume cut the unfinished nodes as the first run did, so even batch-dependent vectors are the same bytes', async () => {
    const store = await sqliteStore(edges, texts);
    const nodes = await nodesOf(store, texts);
    const cachePath = join(mkdtempSync(join(tmpdir(), 'intentsim-cache-')), 'node-embeddings.sqlite');
    const options = { mode: 'induced' as const, workSentences: 40, nodesPerQuery: 8 };
    const counting = new RecordingEncoder(new BatchDependentEncoder());
    const clean = await new ContextEmbedder(store, counting, options).embedNodes(nodes);
    const crashing = new RecordingEncoder(new BatchDependentEncoder());
    crashing.failAfterCalls = Math.floor(counting.calls.length / 2); // dies half-way through
    const first = new ContextEmbedder(store, crashing, {
      ...options,
      cache: NodeEmbeddingCache.open(cachePath, CONTEXT_KEY),
    });
    await expect(first.embedNodes(nodes)).rejects.toThrow('simulated crash');
    const cache = NodeEmbeddingCache.open(cachePath, CONTEXT_KEY);
    const resumed = new ContextEmbedder(store, new BatchDependentEncoder(), { ...options, cache });
    const got = await resumed.embedNodes(nodes);
    expect(resumed.stats.fromCache).toBeGreaterThan(0);
    expect(resumed.stats.computed).toBeGreaterThan(0);
    for (const n of nodes) expect(got.get(n.id), n.text).toEqual(clean.get(n.id));
    cache.close();
    await store.close();
  });

  it('units run elsewhere (a runner finishing them in any order) give the same bytes and the same counts', async () => {
    const store = await sqliteStore(edges, texts);
    const nodes = await nodesOf(store, texts);
    const options = { mode: 'induced' as const, workSentences: 40, nodesPerQuery: 8, hubNeighbours: 6 };
    const local = new ContextEmbedder(store, new BatchDependentEncoder(), options);
    const here = await local.embedNodes(nodes);
    const runner = new ReversedRunner(new ContextEmbedder(store, new BatchDependentEncoder(), options));
    const remote = new ContextEmbedder(store, new BatchDependentEncoder(), { ...options, runner });
    const there = await remote.embedNodes(nodes);
    for (const n of nodes) expect(there.get(n.id), n.text).toEqual(here.get(n.id));
    const { encodeMs: _a, ...localCounts } = local.stats;
    const { encodeMs: _b, ...remoteCounts } = remote.stats;
    expect(remoteCounts).toEqual(localCounts);
    // Groups of at most 8 regular nodes in id order, then the hubs one by one.
    const units = runner.units[0]!;
    expect(units.length).toBeGreaterThan(2);
    const groups = units.filter((u) => u.kind === 'group');
    expect(Math.max(...groups.map((u) => u.nodes.length))).toBeLessThanOrEqual(8);
    const ids = groups.flatMap((u) => u.nodes.map((n) => n.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(units.findIndex((u) => u.kind === 'hub')).toBeGreaterThanOrEqual(groups.length);
    expect(remote.stats.streamedHubs).toBe(units.length - groups.length);
    await store.close();
  });

  it('caches and reports every node, nodes with nothing to embed and unknown nodes included, whatever their order', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'intentsim-ctx-')), 'graph.sqlite');
    const store = SqliteGraphStore.open(path, { mode: 'write' });
    await store.upsertEdges([
      { head: 'PersonX buy a phone', tail: 'PersonX call PersonY', senses: { Result: 1, Reason: 1 } },
    ]);
    await store.upsertNodes(['PersonZ sleep', 'PersonZ wake']); // the highest ids: last in the work order
    const nodes = await nodesOf(store, [
      'PersonX buy a phone',
      'PersonX call PersonY',
      'PersonZ sleep',
      'PersonZ wake',
    ]);
    const cache = NodeEmbeddingCache.open(
      join(mkdtempSync(join(tmpdir(), 'intentsim-cache-')), 'c.sqlite'),
      CONTEXT_KEY,
    );
    let reported = 0;
    // workSentences 1: both nodes with sentences take the oversized path, so the run ends on empty nodes.
    const embedder = new ContextEmbedder(store, new HashingSentenceEncoder(), {
      mode: 'induced',
      workSentences: 1,
      cache,
      onProgress: (p) => (reported += p.nodes),
    });
    // A node the store does not know (a stale match), last in the work order.
    await embedder.embedNodes([...nodes, { id: 999_999, text: 'PersonQ vanish' }]);
    expect(cache.count()).toBe(5);
    expect(reported).toBe(5);
    expect(embedder.stats).toMatchObject({ withoutSentences: 3, missingFromGraph: 1, computed: 5 });
    cache.close();
    await store.close();
  });

  it('stores float32 vectors exactly and refuses a wrong dimension', () => {
    const cache = NodeEmbeddingCache.open(join(mkdtempSync(join(tmpdir(), 'intentsim-cache-')), 'c.sqlite'), {
      ...CONTEXT_KEY,
      dim: 3,
    });
    const v = Float32Array.of(0.1, -2.5e-8, 3.4e38);
    cache.putMany([
      ['a', { sentences: 2, vector: v }],
      ['b', { sentences: 0, vector: null }],
    ]);
    expect(cache.getMany(['a', 'b', 'c'])).toEqual(
      new Map<string, NodeEmbedding>([
        ['a', { sentences: 2, vector: v }],
        ['b', { sentences: 0, vector: null }],
      ]),
    );
    expect(() => cache.putMany([['d', { sentences: 1, vector: Float32Array.of(1) }]])).toThrow(/3 dims/);
    cache.close();
  });

  it('refuses NaN and infinite vectors on write, and rows without a valid checksum on read (written by an older cache)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'intentsim-cache-')), 'c.sqlite');
    const key = { ...CONTEXT_KEY, dim: 2 };
    const cache = NodeEmbeddingCache.open(path, key);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(() => cache.putMany([['x', { sentences: 1, vector: Float32Array.of(1, bad) }]])).toThrow(
        /node embedding of "x" has NaN or infinite values/,
      );
    cache.putMany([
      ['a', { sentences: 1, vector: Float32Array.of(0.5, 0.25) }],
      ['b', { sentences: 3, vector: Float32Array.of(1, 0) }],
    ]);
    expect(cache.count()).toBe(2);
    cache.close();
    // A cache from before row checksums: the column is dropped here, as such a file never had it.
    const db = new Database(path);
    db.exec(`CREATE TABLE old AS SELECT context, node_text, sentences, vector FROM node_embeddings;
      DROP TABLE node_embeddings;
      CREATE TABLE node_embeddings (context INTEGER NOT NULL, node_text TEXT NOT NULL, sentences INTEGER NOT NULL,
        vector BLOB, PRIMARY KEY (context, node_text)) WITHOUT ROWID;
      INSERT INTO node_embeddings SELECT * FROM old; DROP TABLE old;`);
    db.close();
    const reopened = NodeEmbeddingCache.open(path, key);
    expect(reopened.getMany(['a', 'b']).size).toBe(0);
    expect(reopened.refused).toEqual({ 'no-checksum': 2, 'checksum-mismatch': 0, 'wrong-size': 0, 'not-finite': 0 });
    reopened.putMany([['a', { sentences: 1, vector: Float32Array.of(0.5, 0.25) }]]);
    expect(reopened.getMany(['a']).get('a')).toEqual({ sentences: 1, vector: Float32Array.of(0.5, 0.25) });
    reopened.close();
  });
});

describe('with the tiny ONNX model', () => {
  it('node embeddings equal the slow implementation (sentences encoded one at a time)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-ctx-model-'));
    await makeTestModel(dir);
    const encoder = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu' });
    const { edges, texts } = randomGraph(9);
    const store = await sqliteStore(edges, texts);
    const nodes = await nodesOf(store, texts);
    const got = await new ContextEmbedder(store, encoder, { mode: 'induced', batchSize: 8 }).embedNodes(nodes);
    let checked = 0;
    for (const n of nodes) {
      const want = await slowNodeEmbedding(encoder, edges, n.text, 'induced');
      const have = got.get(n.id)!;
      if (want === null) {
        expect(have.vector).toBeNull();
        continue;
      }
      expect(Math.max(...want.map((x, d) => Math.abs(x - have.vector![d]!))), n.text).toBeLessThan(1e-5);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(10);
    await encoder.close();
    await store.close();
  });
});

// Keep the NodeId import meaningful for readers: node ids are store ids, not texts.
export type { NodeId };
