// What an `intentsim embed` run holds open besides the encoder (which its caller opened, and closes):
// the graph store, the conceptualizer, the node cache (and, with a queue execution, the node-context
// job runner, which the encoder owns) and the output writers. Opened in that order and closed in the
// reverse order, whether the run finished or failed; outputs not committed are removed, and so is a
// temporary node cache.
import { basename, join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { notice } from '../../core/notice.js';
import { temporaryPathFor } from '../../core/temporary-files.js';
import { rm } from 'node:fs/promises';
import { openAtomicWriter, type AtomicWriter } from '../../core/atomic.js';
import type { InputLimits } from '../../core/jsonl.js';
import { removeOnInterrupt } from '../../core/temporary-files.js';
import { NpyRowWriter } from '../../core/npy.js';
import { openGraphStore } from '../../graph/open-store.js';
import type { GraphStore, NeighbourhoodMode } from '../../graph/graph-store.js';
import { graphIdentity } from '../../graph/graph-identity.js';
import { TEMPLATES_FINGERPRINT, cachedModeName } from '../../embeddings/context-embedder.js';
import { NodeEmbeddingCache } from '../../embeddings/node-cache.js';
import type { Encoder } from '../../workers/encoder.js';
import type { QueuedContextRunner } from '../../workers/queue/queued-context.js';
import { UserConcepts, type Conceptualizer } from '../products/concepts.js';
import { OfflineConceptualizer } from '../products/concepts-offline.js';

export interface EmbedResourceOptions {
  /** The opened encoder (not closed here). */
  encoder: Encoder;
  /** Graph store: a SQLite file or a bolt:// / neo4j:// URL. */
  graph: string;
  /** User concepts JSONL; without it the offline conceptualizer (over the graph) is used. */
  concepts?: string;
  mode: NeighbourhoodMode;
  /** The node cache file; a temporary one is removed on close. */
  nodeCache: { path: string; temporary: boolean };
  /** Output folder (embeddings.npy, ids.txt, unembedded.jsonl, phrases.jsonl). */
  out: string;
  /** Limits on the concepts file's lines and texts. */
  limits?: InputLimits;
}

export interface EmbedOutputs {
  npy: NpyRowWriter;
  ids: AtomicWriter;
  unembedded: AtomicWriter;
  phrases: AtomicWriter;
}

export interface EmbedResources {
  encoder: Encoder;
  store: GraphStore;
  graphCounts: { nodes: number; edges: number };
  conceptualizer: Conceptualizer;
  cache: NodeEmbeddingCache;
  /** With a queue execution: node-context jobs for the workers that have the graph; otherwise undefined (units run here). */
  contextRunner?: QueuedContextRunner;
  outputs: EmbedOutputs;
  /** Renames every output into place; after this, close() leaves them. */
  commitOutputs(): Promise<void>;
  /** Closes everything in reverse order of opening. */
  close(): Promise<void>;
}

export async function openEmbedResources(options: EmbedResourceOptions): Promise<EmbedResources> {
  const closers: Array<() => unknown> = [];
  const close = async () => {
    while (closers.length > 0) await closers.pop()!();
  };
  try {
    const encoder = options.encoder;
    const store = await openGraphStore(options.graph);
    closers.push(() => store.close());
    const graphCounts = await store.counts();
    const graph = await graphIdentity(store);
    const conceptualizer = options.concepts
      ? await UserConcepts.load(options.concepts, options.limits)
      : new OfflineConceptualizer(store);
    closers.push(() => conceptualizer.close());

    // A graph that cannot tell its content from another's (a Neo4j database no intentsim writer has
    // marked) must not share cached embeddings: its nodes are cached for this run only.
    const shareable = graph !== undefined;
    if (!shareable && !options.nodeCache.temporary)
      notice(
        `the graph ${options.graph} has no content id (no intentsim import has written to it), so its node embeddings are not taken from or kept in the node cache; an \`intentsim graph import --to\` into it gives it one`,
      );
    const temporary = options.nodeCache.temporary || !shareable;
    const cachePath = shareable
      ? options.nodeCache.path
      : temporaryPathFor(join(options.out, basename(options.nodeCache.path)));
    if (temporary) {
      const forget = removeOnInterrupt(cachePath);
      closers.push(async () => {
        for (const suffix of ['', '-wal', '-shm']) await rm(cachePath + suffix, { force: true });
        forget();
      });
    }
    const cache = NodeEmbeddingCache.open(cachePath, {
      encoder: encoder.fingerprint,
      model: encoder.name,
      dtype: encoder.dtype,
      mode: cachedModeName(options.mode),
      graph: graph ?? 'unidentified',
      templates: TEMPLATES_FINGERPRINT,
      dim: encoder.dim,
    });
    closers.push(() => cache.close());

    // Through a queue, the context units go to the workers that have this graph (closed with the encoder).
    let contextRunner: QueuedContextRunner | undefined;
    if (encoder.contextRunners !== undefined) {
      if (graph === undefined)
        throw new UserError(
          `the graph ${options.graph} has no content id (no intentsim import has written to it): queue workers could not check that they hold the same graph; an \`intentsim graph import --to\` into it gives it one`,
        );
      contextRunner = await encoder.contextRunners.open(graph);
    }

    let committed = false;
    const npy = await NpyRowWriter.open(join(options.out, 'embeddings.npy'), encoder.dim);
    closers.push(() => (committed ? undefined : npy.abort()));
    const text: AtomicWriter[] = [];
    for (const name of ['ids.txt', 'unembedded.jsonl', 'phrases.jsonl']) {
      const writer = await openAtomicWriter(join(options.out, name));
      closers.push(() => (committed ? undefined : writer.abort()));
      text.push(writer);
    }
    const [ids, unembedded, phrases] = text as [AtomicWriter, AtomicWriter, AtomicWriter];
    return {
      encoder,
      store,
      graphCounts,
      conceptualizer,
      cache,
      contextRunner,
      outputs: { npy, ids, unembedded, phrases },
      async commitOutputs() {
        await npy.commit();
        for (const w of [ids, phrases, unembedded]) await w.commit();
        committed = true;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
