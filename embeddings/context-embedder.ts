// Node context embeddings. For a node v, S(v) is the list of sentences of its
// neighbourhood's edges — one per (edge, sense present), in edge order (head, tail) then sense order
// — and its embedding is the mean of the L2-normalised sentence embeddings of S(v), counted with
// multiplicity (two edges that give the same text count twice, as in the released code's list). The
// mean is not re-normalised. A node whose S(v) is empty has no embedding (the released code made NaN).
// A sentence the encoder gives no vector (an all-zero row: glove-100d with no known word) counts in
// |S(v)| but not in the mean; a node none of whose sentences has a vector has no embedding either.
//
// The work is deduplicated: each distinct node is embedded once per run (and never again when the
// node cache has it); within a chunk of work, each distinct sentence is encoded once however many
// nodes' neighbourhoods contain it. Hub nodes (more neighbours than `hubNeighbours`) are streamed
// edge batch by edge batch with running sums, never materialised.
import { edgeSentences, SENSE_TEMPLATES } from '../graph/relation-sentences.js';
import { hashString } from '../core/rng.js';
import type { GraphEdge, GraphStore, NeighbourhoodMode, NodeId } from '../graph/graph-store.js';
import { isZeroRow, type SentenceEncoder } from './sentence-encoder.js';
import type { NodeEmbedding, NodeEmbeddingCache } from './node-cache.js';
import { ConfigError } from '../core/errors.js';

export interface ContextNode {
  id: NodeId;
  text: string;
}

export interface ContextProgress {
  /** Nodes finished since the last report (computed or from the cache). */
  nodes: number;
  /** Sentences encoded since the last report. */
  sentences: number;
}

export interface ContextEmbedderOptions {
  mode: NeighbourhoodMode;
  /** Sentences per model call (default 64). */
  batchSize?: number;
  /** Distinct sentences per chunk of work, i.e. per dedup scope and per cache commit (default 8,192). */
  workSentences?: number;
  /** Nodes per neighbourhoods() call (default 256). */
  nodesPerQuery?: number;
  /** Nodes with more distinct neighbours than this are streamed (default 1,000). */
  hubNeighbours?: number;
  /** Edges per streamed batch for hub nodes (default 5,000). */
  streamEdges?: number;
  cache?: NodeEmbeddingCache;
  onProgress?: (progress: ContextProgress) => void;
}

export interface ContextStats {
  /** Distinct nodes asked for. */
  nodes: number;
  fromCache: number;
  computed: number;
  /**
   * Nodes whose neighbourhood gives no sentence with a vector (no edges, edges without senses, or
   * only sentences the encoder gives no vector), cached ones included.
   */
  withoutSentences: number;
  /** Nodes the store does not know (counted, embedded as nothing). */
  missingFromGraph: number;
  /** Hub nodes embedded by streaming. */
  streamedHubs: number;
  /** Edges read for computed nodes. */
  edges: number;
  /** Σ |S(v)| over computed nodes: the sentences a per-node encoder without dedup would embed. */
  sentenceOccurrences: number;
  /** Sentences actually encoded (distinct within each chunk of work). */
  sentencesEncoded: number;
  /** Of those, the ones the encoder gave no vector (e.g. no word glove-100d knows): left out of every mean. */
  sentencesWithoutVector: number;
  workChunks: number;
  encodeMs: number;
}

/** Identifies the sentence templates in cache keys: editing a template invalidates cached nodes. */
export const TEMPLATES_FINGERPRINT = `templates-${hashString(JSON.stringify(SENSE_TEMPLATES)).toString(16)}`;

/** The sentences S(v) of a list of edges, in order, with multiplicity. */
export function neighbourhoodSentences(edges: readonly GraphEdge[]): string[] {
  const out: string[] = [];
  for (const e of edges) for (const s of edgeSentences(e)) out.push(s);
  return out;
}

/** Encoded sentences: their rows, and which rows are all zeros (no vector). */
interface EncodedSentences {
  vectors: Float32Array;
  empty: Uint8Array;
}

/** Σ of rows and their count, in float64: a node's mean built up chunk by chunk. */
class RunningSum {
  readonly sum: Float64Array;
  /** Rows in the sum. */
  count = 0;
  /** Sentences seen, with or without a vector: |S(v)|. */
  sentences = 0;
  constructor(dim: number) {
    this.sum = new Float64Array(dim);
  }
  add(encoded: EncodedSentences, row: number): void {
    this.sentences += 1;
    if (encoded.empty[row]) return;
    const dim = this.sum.length;
    const base = row * dim;
    for (let d = 0; d < dim; d++) this.sum[d] += encoded.vectors[base + d]!;
    this.count += 1;
  }
  mean(): NodeEmbedding {
    if (this.count === 0) return { sentences: this.sentences, vector: null };
    const v = new Float32Array(this.sum.length);
    for (let d = 0; d < v.length; d++) v[d] = this.sum[d]! / this.count;
    return { sentences: this.sentences, vector: v };
  }
}

/** A chunk of work: distinct sentences, and for each node the indices of its sentences (with repeats). */
class WorkChunk {
  readonly distinct = new Map<string, number>();
  readonly sentences: string[] = [];
  readonly nodes: Array<{ node: ContextNode; refs: number[] }> = [];
  occurrences = 0;

  add(node: ContextNode, sentences: readonly string[]): void {
    const refs = sentences.map((s) => {
      let i = this.distinct.get(s);
      if (i === undefined) {
        i = this.sentences.length;
        this.distinct.set(s, i);
        this.sentences.push(s);
      }
      return i;
    });
    this.nodes.push({ node, refs });
    this.occurrences += sentences.length;
  }
}

export class ContextEmbedder {
  readonly stats: ContextStats = {
    nodes: 0,
    fromCache: 0,
    computed: 0,
    withoutSentences: 0,
    missingFromGraph: 0,
    streamedHubs: 0,
    edges: 0,
    sentenceOccurrences: 0,
    sentencesEncoded: 0,
    sentencesWithoutVector: 0,
    workChunks: 0,
    encodeMs: 0,
  };
  private readonly batchSize: number;
  private readonly workSentences: number;
  private readonly nodesPerQuery: number;
  private readonly hubNeighbours: number;
  private readonly streamEdges: number;

  constructor(
    private readonly store: Pick<GraphStore, 'neighbourhoods' | 'streamNeighbourhood' | 'degrees'>,
    private readonly encoder: SentenceEncoder,
    private readonly options: ContextEmbedderOptions,
  ) {
    this.batchSize = options.batchSize ?? 64;
    this.workSentences = positive(options.workSentences ?? 8192, 'workSentences');
    this.nodesPerQuery = positive(options.nodesPerQuery ?? 256, 'nodesPerQuery');
    this.hubNeighbours = options.hubNeighbours ?? 1000;
    this.streamEdges = positive(options.streamEdges ?? 5000, 'streamEdges');
  }

  /** Context embeddings of distinct nodes (duplicates in `nodes` are embedded once). */
  async embedNodes(nodes: readonly ContextNode[]): Promise<Map<NodeId, NodeEmbedding>> {
    const distinct = new Map<NodeId, ContextNode>();
    for (const n of nodes) if (!distinct.has(n.id)) distinct.set(n.id, n);
    this.stats.nodes += distinct.size;
    const result = new Map<NodeId, NodeEmbedding>();

    if (this.options.cache) {
      const hits = this.options.cache.getMany([...distinct.values()].map((n) => n.text));
      for (const n of distinct.values()) {
        const hit = hits.get(n.text);
        if (!hit) continue;
        result.set(n.id, hit);
        this.stats.fromCache += 1;
        if (!hit.vector) this.stats.withoutSentences += 1;
      }
      if (this.stats.fromCache > 0) this.options.onProgress?.({ nodes: this.stats.fromCache, sentences: 0 });
    }

    const pending = [...distinct.values()].filter((n) => !result.has(n.id)).sort((a, b) => a.id - b.id);
    const degrees = await this.store.degrees(pending.map((n) => n.id));
    const hubs = pending.filter((n) => (degrees.get(n.id)?.neighbours ?? 0) > this.hubNeighbours);
    const regular = pending.filter((n) => (degrees.get(n.id)?.neighbours ?? 0) <= this.hubNeighbours);

    let finished: Array<[ContextNode, NodeEmbedding]> = [];
    let encodedSinceReport = 0;
    const finish = (node: ContextNode, embedding: NodeEmbedding) => {
      result.set(node.id, embedding);
      finished.push([node, embedding]);
      this.stats.computed += 1;
      if (!embedding.vector) this.stats.withoutSentences += 1;
    };
    const commit = () => {
      this.options.cache?.putMany(finished.map(([n, e]) => [n.text, e] as const));
      this.options.onProgress?.({ nodes: finished.length, sentences: encodedSinceReport });
      finished = [];
      encodedSinceReport = 0;
    };
    const encode = async (sentences: readonly string[]): Promise<EncodedSentences> => {
      const started = performance.now();
      const vectors = await this.encoder.encode(sentences, { batchSize: this.batchSize, normalize: true });
      this.stats.encodeMs += performance.now() - started;
      this.stats.sentencesEncoded += sentences.length;
      encodedSinceReport += sentences.length;
      const empty = new Uint8Array(sentences.length);
      for (let r = 0; r < sentences.length; r++) empty[r] = isZeroRow(vectors, r, this.encoder.dim) ? 1 : 0;
      this.stats.sentencesWithoutVector += empty.reduce((a, b) => a + b, 0);
      return { vectors, empty };
    };

    let chunk = new WorkChunk();
    const flush = async () => {
      if (chunk.nodes.length > 0) {
        const encoded =
          chunk.sentences.length > 0
            ? await encode(chunk.sentences)
            : { vectors: new Float32Array(0), empty: new Uint8Array(0) };
        for (const { node, refs } of chunk.nodes) {
          const sum = new RunningSum(this.encoder.dim);
          for (const r of refs) sum.add(encoded, r);
          finish(node, sum.mean());
        }
        this.stats.workChunks += 1;
        chunk = new WorkChunk();
      }
      // Nodes finished outside a chunk (unknown to the store) are committed with it, or on their own.
      if (finished.length > 0) commit();
    };

    for (let start = 0; start < regular.length; start += this.nodesPerQuery) {
      const group = regular.slice(start, start + this.nodesPerQuery);
      const neighbourhoods = await this.store.neighbourhoods(
        group.map((n) => n.id),
        this.options.mode,
      );
      for (const node of group) {
        const hood = neighbourhoods.get(node.id);
        if (!hood) {
          this.stats.missingFromGraph += 1;
          finish(node, { sentences: 0, vector: null });
          continue;
        }
        this.stats.edges += hood.edges.length;
        const sentences = neighbourhoodSentences(hood.edges);
        this.stats.sentenceOccurrences += sentences.length;
        if (sentences.length > this.workSentences) {
          // Bigger than a chunk on its own: embed it in slices with a running sum, like a hub.
          await flush();
          const sum = new RunningSum(this.encoder.dim);
          for (let i = 0; i < sentences.length; i += this.workSentences)
            await this.addDistinct(sum, sentences.slice(i, i + this.workSentences), encode);
          finish(node, sum.mean());
          this.stats.workChunks += 1;
          commit();
          continue;
        }
        if (chunk.sentences.length + sentences.length > this.workSentences) await flush();
        chunk.add(node, sentences);
      }
    }
    await flush();

    for (const hub of hubs) {
      const sum = new RunningSum(this.encoder.dim);
      for await (const edges of this.store.streamNeighbourhood(hub.id, this.options.mode, this.streamEdges)) {
        this.stats.edges += edges.length;
        const sentences = neighbourhoodSentences(edges);
        this.stats.sentenceOccurrences += sentences.length;
        await this.addDistinct(sum, sentences, encode);
        this.stats.workChunks += 1;
      }
      this.stats.streamedHubs += 1;
      finish(hub, sum.mean());
      commit();
    }
    return result;
  }

  /** Encodes the distinct sentences of `sentences` once and adds every occurrence to `sum`. */
  private async addDistinct(
    sum: RunningSum,
    sentences: readonly string[],
    encode: (s: readonly string[]) => Promise<EncodedSentences>,
  ): Promise<void> {
    if (sentences.length === 0) return;
    const piece = new WorkChunk();
    piece.add({ id: -1, text: '' }, sentences);
    const encoded = await encode(piece.sentences);
    for (const r of piece.nodes[0]!.refs) sum.add(encoded, r);
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(name, `must be a positive integer, got ${value}`);
  return value;
}
