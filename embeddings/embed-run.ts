// `intentsim embed`: products → category phrases → matched nodes (graph/match.ts) → deduplicated,
// cached node context embeddings → product context embeddings CE(p), written as
//   OUT/embeddings.npy   float32 [products embedded × dim], row i belongs to line i of ids.txt
//   OUT/ids.txt          product ids, one a line, in input order
//   OUT/unembedded.jsonl products with nothing to embed: {"id", "reason", "phrases"}
//   OUT/phrases.jsonl    every accepted product's normalised category phrases: {"id", "phrases"}
//                        (input order; later stages compute concept overlap from them)
//   OUT/rejects.jsonl    bad input lines (only with --on-error skip, only when there are any)
//   OUT/manifest.json    model, dtype, provider and fallback reasons, counts, timings (written last)
// Every file is written atomically.
import { join } from 'node:path';
import { writeFileAtomic } from '../engine/io/atomic.js';
import { InputError, type OnError } from '../engine/io/errors.js';
import { RejectsSink } from '../engine/io/rejects.js';
import { createProgress } from '../engine/io/progress.js';
import { openGraphStore } from '../graph/open-store.js';
import { readProducts } from '../graph/products.js';
import { matchProducts } from '../graph/match.js';
import { UserConcepts, type Conceptualizer } from '../graph/concepts.js';
import { OfflineConceptualizer } from '../graph/concepts-offline.js';
import type { GraphStore, NeighbourhoodMode, NodeId } from '../graph/types.js';
import { ContextEmbedder, TEMPLATES_FINGERPRINT, type ContextNode, type ContextStats } from './context.js';
import { NodeEmbeddingCache } from './node-cache.js';
import { defaultCacheRoot } from './model-resolution.js';
import { describeEncoder, encoderDtype, openEncoder, type AnyEncoder, type OpenEncoderOptions } from './open-encoder.js';
import { productContextEmbedding, releasedPipelineSentenceCount, type ProductPhraseNodes, type UnembeddedReason } from './product-embedding.js';
import { writeNpyMatrix } from './npy.js';

export const NODE_CACHE_FILE = 'node-embeddings.sqlite';

export interface EmbedRunOptions {
  /** Graph store: a SQLite file or a bolt:// / neo4j:// URL. */
  graph: string;
  products: string;
  /** User concepts JSONL; without it the offline conceptualizer is used. */
  concepts?: string;
  out: string;
  mode: NeighbourhoodMode;
  encoder: OpenEncoderOptions;
  /** Worker threads for sentence encoding (each with encoder.intraOpThreads threads); 0 = this thread. */
  workers?: number;
  /** Where node-embeddings.sqlite lives (default defaultCacheRoot()); the model cache is encoder.cacheDir. */
  cacheDir?: string;
  /** Keep and reuse node embeddings (default true). */
  nodeCache?: boolean;
  onError?: OnError;
  workSentences?: number;
  hubNeighbours?: number;
  /** Show a progress bar (default: on a terminal, off in tests). */
  progress?: boolean;
}

export interface EmbedManifest {
  format: 'intentsim-embeddings/1';
  outputs: { embeddings: string; ids: string; unembedded: string; phrases: string; rejects: string | null; shape: [number, number] };
  encoder: Record<string, unknown>;
  mode: NeighbourhoodMode;
  graph: { spec: string; kind: string; nodes: number; edges: number };
  inputs: { products: string; concepts: string | null; conceptualizer: string };
  counts: {
    products: number;
    rejected: number;
    embedded: number;
    unembedded: Record<UnembeddedReason, number>;
    phrases: number;
    matchedNodeReferences: number;
    distinctMatchedNodes: number;
    context: ContextStats;
    /** Sentences the released pipeline would have embedded for the same products. */
    releasedPipelineSentences: number;
  };
  nodeCache: { path: string; entriesForThisContext: number } | null;
  timings: { totalMs: number; openEncoderMs: number; matchMs: number; nodesMs: number; writeMs: number };
}

export async function runEmbed(options: EmbedRunOptions): Promise<EmbedManifest> {
  const started = performance.now();
  const onError = options.onError ?? 'fail';
  const rejects = new RejectsSink(join(options.out, 'rejects.jsonl'));
  let encoder: AnyEncoder | undefined;
  let store: GraphStore | undefined;
  let conceptualizer: Conceptualizer | undefined;
  let cache: NodeEmbeddingCache | undefined;
  try {
    // The model first: a missing model should fail in a second, not after matching a catalogue.
    let t = performance.now();
    // The model cache is the encoder's (--cache-dir, else the default), not necessarily the node cache's.
    encoder = await openEncoder({ ...options.encoder, workers: options.workers ?? options.encoder.workers });
    const openEncoderMs = performance.now() - t;

    store = await openGraphStore(options.graph);
    const graphCounts = await store.counts();
    conceptualizer = options.concepts ? await UserConcepts.load(options.concepts) : new OfflineConceptualizer(store);

    t = performance.now();
    const products: ProductPhraseNodes[] = [];
    const nodes = new Map<NodeId, ContextNode>();
    let phrases = 0;
    let matchedNodeReferences = 0;
    const productRecords = readProducts(options.products, { onError, rejects });
    for await (const outcome of matchProducts(store, productRecords, conceptualizer)) {
      let error = outcome.ok ? undefined : outcome.error;
      if (outcome.ok && /[\r\n]/.test(outcome.product.id)) {
        error = new InputError({ file: outcome.product.file, line: outcome.product.line, field: 'id' }, 'a product id cannot contain a line break (ids.txt has one id a line)');
      }
      if (error) {
        if (onError === 'fail') throw error;
        await rejects.reject(error, JSON.stringify({ id: outcome.product.id, title: outcome.product.title }));
        continue;
      }
      if (!outcome.ok) continue;
      const entry: ProductPhraseNodes = {
        id: outcome.match.id,
        phrases: outcome.match.phrases.map((p) => ({ phrase: p.phrase, nodes: p.nodes.map((n) => n.id) })),
      };
      for (const p of outcome.match.phrases) {
        phrases += 1;
        for (const n of p.nodes) {
          matchedNodeReferences += 1;
          if (!nodes.has(n.id)) nodes.set(n.id, { id: n.id, text: n.text });
        }
      }
      products.push(entry);
    }
    const matchMs = performance.now() - t;

    t = performance.now();
    const cacheRoot = options.cacheDir ?? defaultCacheRoot();
    const cachePath = join(cacheRoot, NODE_CACHE_FILE);
    if (options.nodeCache ?? true) {
      cache = NodeEmbeddingCache.open(cachePath, {
        encoder: encoder.fingerprint,
        model: encoder.name,
        dtype: encoderDtype(encoder),
        mode: options.mode,
        graph: `${store.kind}:${graphCounts.nodes}n:${graphCounts.edges}e`,
        templates: TEMPLATES_FINGERPRINT,
        dim: encoder.dim,
      });
    }
    const progress = createProgress({ label: 'embed', total: nodes.size, unit: 'nodes', enabled: options.progress, detail: true });
    let sentencesSoFar = 0;
    const embedder = new ContextEmbedder(store, encoder, {
      mode: options.mode,
      batchSize: options.encoder.batchSize,
      workSentences: options.workSentences,
      hubNeighbours: options.hubNeighbours,
      cache,
      onProgress: ({ nodes: n, sentences }) => {
        sentencesSoFar += sentences;
        const secs = (performance.now() - t) / 1000;
        progress.increment(n, { detail: `${Math.round(secs > 0 ? sentencesSoFar / secs : 0)} sentences/s` });
      },
    });
    let nodeEmbeddings: Awaited<ReturnType<ContextEmbedder['embedNodes']>>;
    try {
      nodeEmbeddings = await embedder.embedNodes([...nodes.values()]);
    } finally {
      progress.stop();
    }
    const nodesMs = performance.now() - t;

    t = performance.now();
    const dim = encoder.dim;
    const ids: string[] = [];
    const unembeddedLines: string[] = [];
    const phraseLines: string[] = [];
    const unembedded: Record<UnembeddedReason, number> = { 'no-phrases': 0, 'no-matched-nodes': 0, 'no-context-sentences': 0 };
    const rows: Float32Array[] = [];
    for (const p of products) {
      phraseLines.push(JSON.stringify({ id: p.id, phrases: p.phrases.map((x) => x.phrase) }) + '\n');
      const outcome = productContextEmbedding(p, nodeEmbeddings, dim);
      if (outcome.ok) {
        ids.push(p.id);
        rows.push(outcome.vector);
      } else {
        unembedded[outcome.reason] += 1;
        unembeddedLines.push(JSON.stringify({ id: p.id, reason: outcome.reason, phrases: p.phrases.map((x) => x.phrase) }) + '\n');
      }
    }
    const matrix = new Float32Array(rows.length * dim);
    rows.forEach((r, i) => matrix.set(r, i * dim));
    await writeNpyMatrix(join(options.out, 'embeddings.npy'), matrix, rows.length, dim);
    await writeFileAtomic(join(options.out, 'ids.txt'), ids.map((id) => id + '\n').join(''));
    await writeFileAtomic(join(options.out, 'unembedded.jsonl'), unembeddedLines.join(''));
    await writeFileAtomic(join(options.out, 'phrases.jsonl'), phraseLines.join(''));
    await rejects.close();
    const writeMs = performance.now() - t;

    const manifest: EmbedManifest = {
      format: 'intentsim-embeddings/1',
      outputs: {
        embeddings: 'embeddings.npy',
        ids: 'ids.txt',
        unembedded: 'unembedded.jsonl',
        phrases: 'phrases.jsonl',
        rejects: rejects.count > 0 ? 'rejects.jsonl' : null,
        shape: [rows.length, dim],
      },
      encoder: describeEncoder(encoder),
      mode: options.mode,
      graph: { spec: options.graph, kind: store.kind, nodes: graphCounts.nodes, edges: graphCounts.edges },
      inputs: { products: options.products, concepts: options.concepts ?? null, conceptualizer: conceptualizer.name },
      counts: {
        products: products.length + rejects.count,
        rejected: rejects.count,
        embedded: rows.length,
        unembedded,
        phrases,
        matchedNodeReferences,
        distinctMatchedNodes: nodes.size,
        context: { ...embedder.stats, encodeMs: Math.round(embedder.stats.encodeMs) },
        releasedPipelineSentences: releasedPipelineSentenceCount(products, nodeEmbeddings),
      },
      nodeCache: cache ? { path: cachePath, entriesForThisContext: cache.count() } : null,
      timings: {
        totalMs: Math.round(performance.now() - started),
        openEncoderMs: Math.round(openEncoderMs),
        matchMs: Math.round(matchMs),
        nodesMs: Math.round(nodesMs),
        writeMs: Math.round(writeMs),
      },
    };
    await writeFileAtomic(join(options.out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    return manifest;
  } finally {
    cache?.close();
    await conceptualizer?.close();
    await store?.close();
    await encoder?.close();
  }
}
