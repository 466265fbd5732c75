// `intentsim embed`: products → category phrases → matched nodes (engine/products/match.ts) → deduplicated,
// cached node context embeddings → product context embeddings CE(p), written as
//   OUT/embeddings.npy   float32 [products embedded × dim], row i belongs to line i of ids.txt
//   OUT/ids.txt          product ids, one a line, in input order
//   OUT/unembedded.jsonl products with nothing to embed: {"id", "reason", "phrases"}
//   OUT/phrases.jsonl    every accepted product's normalised category phrases: {"id", "phrases"}
//                        (input order; later stages compute concept overlap from them)
//   OUT/rejects.jsonl    bad input lines (only with --on-error skip, only when there are any)
//   OUT/manifest.json    model, dtype, provider and fallback reasons, counts, timings (written last)
// Every file is written atomically. OUT is claimed first (core/output-claim.ts): locked, temporary
// files of killed runs removed, and manifest.json removed until this run has finished. Products
// stream through in chunks (--chunk-products), so the memory of this stage is bounded by the chunk
// and the graph, not by the catalogue.
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { temporaryPathFor } from '../../core/temporary-files.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { InputError, type OnError } from '../../core/errors.js';
import { notice } from '../../core/notice.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { NODE_CACHE_FILE_CONTEXT, fileError, isSqliteFailure } from '../../core/file-errors.js';
import type { InputLimits } from '../../core/jsonl.js';
import { RejectsSink } from '../../core/rejects.js';
import { redact } from '../../core/redact.js';
import { createProgress, type Progress } from '../../core/progress.js';
import type { NeighbourhoodMode, NodeId } from '../../graph/graph-store.js';
import { graphStoreFile } from '../../graph/open-store.js';
import { readProducts, rejectedProductInput } from '../products/products.js';
import { matchProducts } from '../products/match.js';
import { ContextEmbedder } from '../../embeddings/context-embedder.js';
import type { NodeEmbedding } from '../../embeddings/node-cache.js';
import { defaultCacheRoot } from '../../embeddings/model-resolution.js';
import type { Encoder } from '../../workers/encoder.js';
import { openEmbedResources, type EmbedResources } from './embed-resources.js';
import { PendingChunk, chunkOutputs } from './embed-chunk.js';
import { EmbedSummary, type EmbedManifest } from './embed-summary.js';

export type { EmbedManifest };

export const NODE_CACHE_FILE = 'node-embeddings.sqlite';
/** Products matched and embedded together (memory holds one chunk; see runEmbed). */
export const DEFAULT_CHUNK_PRODUCTS = 20_000;

export interface EmbedRunOptions {
  /** Graph store: a SQLite file or a bolt:// / neo4j:// URL. */
  graph: string;
  products: string;
  /** User concepts JSONL; without it the offline conceptualizer is used. */
  concepts?: string;
  out: string;
  mode: NeighbourhoodMode;
  /**
   * The opened encoder (openEncoder(spec, execution)): its execution says where sentences are encoded,
   * and a queue's runs the node-context units too. The caller closes it.
   */
  encoder: Encoder;
  /** Where node-embeddings.sqlite lives (default defaultCacheRoot()); the model cache is the spec's cacheDir. */
  nodeCacheDir?: string;
  /** Keep and reuse node embeddings (default true). */
  nodeCache?: boolean;
  onError?: OnError;
  /** Limits on the input files' lines and texts (core/jsonl-batches.ts). */
  limits?: InputLimits;
  workSentences?: number;
  /** Nodes per unit of context work (ContextEmbedderOptions.nodesPerQuery): one node-context job with a queue. */
  unitNodes?: number;
  hubNeighbours?: number;
  /** Products per chunk (default DEFAULT_CHUNK_PRODUCTS): the memory bound of this stage. */
  chunkProducts?: number;
  /** Show a progress bar (default: on a terminal, off in tests). */
  progress?: boolean;
  /**
   * Filled with id → title of every accepted product, for a caller that needs the titles next (the
   * pipeline's items stage), so that it does not read the products file a second time.
   */
  titles?: Map<string, string>;
}

/** What runEmbed reads and writes, checked before any work. */
export function embedPaths(
  options: Pick<EmbedRunOptions, 'graph' | 'products' | 'concepts' | 'out' | 'nodeCacheDir' | 'nodeCache'>,
): PathChecks {
  const persistentCache = options.nodeCache ?? true;
  return {
    inputFiles: { graph: graphStoreFile(options.graph), products: options.products, concepts: options.concepts },
    outputDirs: {
      out: options.out,
      nodeCacheDir: persistentCache ? (options.nodeCacheDir ?? defaultCacheRoot()) : undefined,
    },
  };
}

export async function runEmbed(options: EmbedRunOptions): Promise<EmbedManifest> {
  // Paths first: the claim creates the output folder, and a bad path must fail before that.
  checkPaths(embedPaths(options));
  const completionFiles = [join(options.out, 'manifest.json')];
  return withClaimedOutput(options.out, 'folder', { completionFiles }, () => runClaimed(options));
}

async function runClaimed(options: EmbedRunOptions): Promise<EmbedManifest> {
  const started = performance.now();
  const onError = options.onError ?? 'fail';
  const rejects = new RejectsSink(join(options.out, 'rejects.jsonl'));
  // Products stream through in chunks: match a chunk, embed the nodes it meets for the first
  // time (each node once per run, through the node cache), append its rows to the outputs. Memory
  // holds one chunk, the ids of the nodes met so far and the open output streams, whatever the
  // size of the catalogue. Nodes met in an earlier chunk are read back from the cache; with
  // --no-node-cache a temporary cache inside OUT plays that part and is removed at the end.
  const persistentCache = options.nodeCache ?? true;
  const cachePath = persistentCache
    ? join(options.nodeCacheDir ?? defaultCacheRoot(), NODE_CACHE_FILE)
    : temporaryPathFor(join(options.out, NODE_CACHE_FILE));
  const resources = await openEmbedResources({
    encoder: options.encoder,
    graph: options.graph,
    concepts: options.concepts,
    mode: options.mode,
    nodeCache: { path: cachePath, temporary: !persistentCache },
    out: options.out,
    limits: options.limits,
  });
  try {
    const { encoder, store, conceptualizer, cache, outputs } = resources;
    const dim = encoder.dim;
    const summary = new EmbedSummary();
    const timings = summary.timings;
    const progress = createProgress({
      label: 'embed',
      total: 0,
      unit: 'nodes',
      enabled: options.progress,
      detail: true,
    });
    const nodes = new ChunkNodes(resources, options, progress, cachePath);
    const chunk = new PendingChunk();

    const flush = async () => {
      let t0 = performance.now();
      const nodeEmbeddings = await nodes.embeddingsFor(chunk);
      timings.nodesMs += performance.now() - t0;

      t0 = performance.now();
      const out = chunkOutputs(chunk.products, nodeEmbeddings, dim);
      summary.addChunk(out);
      await outputs.npy.append(out.rows);
      await outputs.ids.write(out.ids);
      await outputs.phrases.write(out.phraseLines);
      await outputs.unembedded.write(out.unembeddedLines);
      timings.writeMs += performance.now() - t0;
      chunk.clear();
    };

    const chunkProducts = options.chunkProducts ?? DEFAULT_CHUNK_PRODUCTS;
    let t = performance.now();
    const productRecords = readProducts(options.products, { ...options.limits, onError, rejects });
    try {
      for await (const outcome of matchProducts(store, productRecords, conceptualizer)) {
        let error = outcome.ok ? undefined : outcome.error;
        if (outcome.ok && /[\r\n]/.test(outcome.product.id)) {
          error = new InputError(
            { file: outcome.product.file, line: outcome.product.line, field: 'id' },
            'a product id cannot contain a line break (ids.txt has one id a line)',
          );
        }
        if (error) {
          if (onError === 'fail') throw error;
          await rejects.reject(error, rejectedProductInput(outcome.product));
          continue;
        }
        if (!outcome.ok) continue;
        summary.addProduct(outcome.match);
        options.titles?.set(outcome.product.id, outcome.product.title);
        chunk.add(outcome.match);
        if (chunk.size >= chunkProducts) {
          timings.matchMs += performance.now() - t;
          await flush();
          t = performance.now();
        }
      }
      timings.matchMs += performance.now() - t;
      if (chunk.size > 0) await flush();
    } finally {
      progress.stop();
    }

    t = performance.now();
    await resources.commitOutputs();
    await rejects.close();
    timings.writeMs += performance.now() - t;

    const manifest = summary.manifest({
      rejected: rejects.count,
      rows: outputs.npy.rows,
      dim,
      encoder: encoder.describe(),
      mode: options.mode,
      graph: {
        spec: redact(options.graph),
        kind: store.kind,
        nodes: resources.graphCounts.nodes,
        edges: resources.graphCounts.edges,
      },
      inputs: { products: options.products, concepts: options.concepts ?? null, conceptualizer: conceptualizer.name },
      distinctMatchedNodes: nodes.met.size,
      context: nodes.embedder.stats,
      nodeCache: persistentCache
        ? { path: cachePath, entriesForThisContext: cache.count(), refusedRows: { ...cache.refused } }
        : null,
      totalMs: performance.now() - started,
      openEncoderMs: options.encoder.openMs,
    });
    if (cache.refusedCount() > 0) {
      const reasons = Object.entries(cache.refused)
        .filter(([, n]) => n > 0)
        .map(([reason, n]) => `${n} ${reason}`);
      notice(
        `${cachePath}: refused ${cache.refusedCount()} damaged cached node embedding(s) (${reasons.join(', ')}); computed them again`,
      );
    }
    await writeFileAtomic(join(options.out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    return manifest;
  } catch (err) {
    // The graph store names itself in its errors; a SQLite failure that does not is the node cache's
    // (locked by another run, damaged, on a full disk).
    throw isSqliteFailure(err) ? fileError(err, cachePath, NODE_CACHE_FILE_CONTEXT) : err;
  } finally {
    await resources.close();
  }
}

/**
 * Node embeddings chunk by chunk: a node met for the first time is embedded (ContextEmbedder, which
 * writes it to the node cache); a node met in an earlier chunk is read back from the cache.
 */
class ChunkNodes {
  /** Every node met so far. */
  readonly met = new Set<NodeId>();
  readonly embedder: ContextEmbedder;
  private total = 0;
  private sentencesSoFar = 0;
  private started = performance.now();

  constructor(
    private readonly resources: EmbedResources,
    options: EmbedRunOptions,
    private readonly progress: Progress,
    private readonly cachePath: string,
  ) {
    this.embedder = new ContextEmbedder(resources.store, resources.encoder, {
      mode: options.mode,
      batchSize: options.encoder.spec.batchSize,
      workSentences: options.workSentences,
      nodesPerQuery: options.unitNodes,
      hubNeighbours: options.hubNeighbours,
      cache: resources.cache,
      runner: resources.contextRunner,
      onProgress: ({ nodes: n, sentences }) => {
        this.sentencesSoFar += sentences;
        const secs = (performance.now() - this.started) / 1000;
        progress.increment(n, { detail: `${Math.round(secs > 0 ? this.sentencesSoFar / secs : 0)} sentences/s` });
      },
    });
  }

  async embeddingsFor(chunk: PendingChunk): Promise<Map<NodeId, NodeEmbedding>> {
    const firstMet = [...chunk.nodes.values()].filter((n) => !this.met.has(n.id));
    const metBefore = [...chunk.nodes.values()].filter((n) => this.met.has(n.id));
    this.total += firstMet.length;
    this.progress.setTotal(this.total);
    this.started = performance.now();
    this.sentencesSoFar = 0;
    const nodeEmbeddings = await this.embedder.embedNodes(firstMet);
    const fromEarlier = this.resources.cache.getMany(metBefore.map((n) => n.text));
    for (const n of metBefore) {
      const e = fromEarlier.get(n.text);
      if (!e)
        throw new Error(
          `internal: node ${n.id} was embedded in an earlier chunk but is not in the node cache ${this.cachePath}`,
        );
      nodeEmbeddings.set(n.id, e);
    }
    for (const n of firstMet) this.met.add(n.id);
    return nodeEmbeddings;
  }
}
