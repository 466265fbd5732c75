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
// edge batch by edge batch with running sums, never materialised. In induced mode, a node with more
// than INDUCED_NEIGHBOUR_CAP distinct neighbours takes its incident edges only (issue 38): its induced
// neighbourhood needs a look-up per neighbour and up to one pair probe per pair of neighbours, which at
// ASER's hubs (hundreds of thousands of neighbours, themselves hubs) does not finish; the rule is
// deterministic (it depends on the degree only), counted in `cappedHubs` and part of the node cache's
// key. The nodes are cut into units (a
// group of regular nodes, or one hub) that are computed whole, here or on a queue worker
// (`runner`), with the same bytes either way; the cache records each unit as it finishes.
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
  /** Distinct sentences per chunk of work (within a unit), i.e. per dedup scope and encode() call (default 8,192). */
  workSentences?: number;
  /** Nodes per unit of work: one neighbourhoods() call, one cache commit, one queue job (default 256). */
  nodesPerQuery?: number;
  /** Nodes with more distinct neighbours than this are streamed (default 1,000). */
  hubNeighbours?: number;
  /** Edges per streamed batch for hub nodes (default 5,000). */
  streamEdges?: number;
  /**
   * Induced mode: nodes with more distinct neighbours than this take their incident edges only
   * (default INDUCED_NEIGHBOUR_CAP; Infinity: never).
   */
  inducedNeighbourCap?: number;
  cache?: NodeEmbeddingCache;
  onProgress?: (progress: ContextProgress) => void;
  /** Computes the units elsewhere (queue workers); default: here, one after the other. */
  runner?: ContextUnitRunner;
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
  /** Of those, the ones past the induced-neighbourhood cap: embedded from their incident edges only. */
  cappedHubs: number;
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
    for (let d = 0; d < dim; d++) this.sum[d]! += encoded.vectors[base + d]!;
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
  /** Per node (its index in the unit), the indices of its sentences. */
  readonly nodes: Array<{ index: number; refs: number[] }> = [];

  add(index: number, sentences: readonly string[]): void {
    const refs = sentences.map((s) => {
      let i = this.distinct.get(s);
      if (i === undefined) {
        i = this.sentences.length;
        this.distinct.set(s, i);
        this.sentences.push(s);
      }
      return i;
    });
    this.nodes.push({ index, refs });
  }
}

/**
 * A unit of context work: a group of regular nodes (at most `nodesPerQuery`, read with one
 * neighbourhoods() call) or one hub node (streamed). A unit is always computed whole, by this process
 * or by a queue worker, and a work chunk never spans two units: so a node's vector is the same bytes
 * wherever its unit ran. (With q8 it would not be otherwise: dynamic quantization scales by the
 * whole batch, so a sentence's vector depends on the sentences encoded with it. fp32 on CPU does not.)
 */
export type ContextUnit =
  | { kind: 'group'; nodes: ContextNode[] }
  /** `incidentOnly`: past the induced-neighbourhood cap (the planner's decision, so that a queue worker makes the same). */
  | { kind: 'hub'; node: ContextNode; incidentOnly?: boolean };

/** Default of ContextEmbedderOptions.inducedNeighbourCap. */
export const INDUCED_NEIGHBOUR_CAP = 10_000;

/**
 * The neighbourhood mode as the node cache keys it: induced mode records its cap, since a capped
 * hub's embedding differs from the induced one.
 */
export function cachedModeName(mode: NeighbourhoodMode, inducedNeighbourCap = INDUCED_NEIGHBOUR_CAP): string {
  return mode === 'induced' && Number.isFinite(inducedNeighbourCap)
    ? `induced;incident-above-${inducedNeighbourCap}`
    : mode;
}

/** What computing a unit counted: the per-unit part of ContextStats. */
export type ContextUnitCounts = Pick<
  ContextStats,
  | 'missingFromGraph'
  | 'streamedHubs'
  | 'cappedHubs'
  | 'edges'
  | 'sentenceOccurrences'
  | 'sentencesEncoded'
  | 'sentencesWithoutVector'
  | 'workChunks'
  | 'encodeMs'
>;

/** A unit's embeddings, one per node in unit order, and what computing it counted. */
export interface ContextUnitResult {
  embeddings: NodeEmbedding[];
  counts: ContextUnitCounts;
}

/** What a unit's result depends on besides the graph and the model: a worker computes with the caller's values. */
export interface ContextUnitSettings {
  mode: NeighbourhoodMode;
  batchSize: number;
  workSentences: number;
  streamEdges: number;
}

/**
 * Runs units somewhere other than this process (a job queue: workers/queue/queued-context.ts), each
 * as `new ContextEmbedder(store, encoder, settings).computeUnit(unit)` would. `done` is called once
 * per unit, in any order, as each finishes.
 */
export interface ContextUnitRunner {
  run(
    units: readonly ContextUnit[],
    settings: ContextUnitSettings,
    done: (index: number, result: ContextUnitResult) => void,
  ): Promise<void>;
}

/** The nodes of a unit, in order. */
export function unitNodes(unit: ContextUnit): ContextNode[] {
  return unit.kind === 'hub' ? [unit.node] : unit.nodes;
}

function zeroCounts(): ContextUnitCounts {
  return {
    missingFromGraph: 0,
    streamedHubs: 0,
    cappedHubs: 0,
    edges: 0,
    sentenceOccurrences: 0,
    sentencesEncoded: 0,
    sentencesWithoutVector: 0,
    workChunks: 0,
    encodeMs: 0,
  };
}

export class ContextEmbedder {
  readonly stats: ContextStats = {
    nodes: 0,
    fromCache: 0,
    computed: 0,
    withoutSentences: 0,
    ...zeroCounts(),
  };
  private readonly batchSize: number;
  private readonly workSentences: number;
  private readonly nodesPerQuery: number;
  private readonly hubNeighbours: number;
  private readonly streamEdges: number;
  private readonly inducedNeighbourCap: number;

  constructor(
    private readonly store: Pick<GraphStore, 'neighbourhoods' | 'streamNeighbourhood' | 'degrees'>,
    private readonly encoder: SentenceEncoder,
    private readonly options: ContextEmbedderOptions,
  ) {
    this.batchSize = options.batchSize ?? encoder.defaultBatchSize ?? 64;
    this.workSentences = positive(options.workSentences ?? 8192, 'workSentences');
    this.nodesPerQuery = positive(options.nodesPerQuery ?? 256, 'nodesPerQuery');
    this.hubNeighbours = options.hubNeighbours ?? 1000;
    this.streamEdges = positive(options.streamEdges ?? 5000, 'streamEdges');
    this.inducedNeighbourCap = options.inducedNeighbourCap ?? INDUCED_NEIGHBOUR_CAP;
  }

  get unitSettings(): ContextUnitSettings {
    return {
      mode: this.options.mode,
      batchSize: this.batchSize,
      workSentences: this.workSentences,
      streamEdges: this.streamEdges,
    };
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
        if (!hit.vector) this.stats.withoutSentences += 1;
      }
      this.stats.fromCache += result.size;
      if (result.size > 0) this.options.onProgress?.({ nodes: result.size, sentences: 0 });
    }
    if (result.size === distinct.size) return result;

    // Units are cut from all the nodes asked for, cached or not, so that a rerun after a crash (whose
    // finished units are in the cache) cuts the unfinished ones exactly as the first run did; only
    // the nodes not cached are computed. A unit is a job on a queue: the same unit, the same job id.
    const units = await this.planUnits([...distinct.values()].sort((a, b) => a.id - b.id));
    const pending = units
      .map((unit): ContextUnit | undefined => {
        if (unit.kind === 'hub') return result.has(unit.node.id) ? undefined : unit;
        const left = unit.nodes.filter((n) => !result.has(n.id));
        return left.length > 0 ? { kind: 'group', nodes: left } : undefined;
      })
      .filter((unit): unit is ContextUnit => unit !== undefined);

    const done = (index: number, { embeddings, counts }: ContextUnitResult) => {
      const nodesOfUnit = unitNodes(pending[index]!);
      nodesOfUnit.forEach((node, i) => {
        const embedding = embeddings[i]!;
        result.set(node.id, embedding);
        this.stats.computed += 1;
        if (!embedding.vector) this.stats.withoutSentences += 1;
      });
      for (const key of Object.keys(counts) as Array<keyof ContextUnitCounts>) this.stats[key] += counts[key];
      this.options.cache?.putMany(nodesOfUnit.map((n, i) => [n.text, embeddings[i]!] as const));
      this.options.onProgress?.({ nodes: nodesOfUnit.length, sentences: counts.sentencesEncoded });
    };
    if (this.options.runner) await this.options.runner.run(pending, this.unitSettings, done);
    else for (let i = 0; i < pending.length; i++) done(i, await this.computeUnit(pending[i]!));
    return result;
  }

  /** Regular nodes in groups of nodesPerQuery (in id order), then the hubs one by one. */
  private async planUnits(ordered: readonly ContextNode[]): Promise<ContextUnit[]> {
    const degrees = await this.store.degrees(ordered.map((n) => n.id));
    const neighbours = (n: ContextNode) => degrees.get(n.id)?.neighbours ?? 0;
    const capped = (n: ContextNode) => this.options.mode === 'induced' && neighbours(n) > this.inducedNeighbourCap;
    const isHub = (n: ContextNode) => neighbours(n) > this.hubNeighbours || capped(n);
    const regular = ordered.filter((n) => !isHub(n));
    const units: ContextUnit[] = [];
    for (let start = 0; start < regular.length; start += this.nodesPerQuery)
      units.push({ kind: 'group', nodes: regular.slice(start, start + this.nodesPerQuery) });
    for (const node of ordered.filter(isHub))
      units.push(capped(node) ? { kind: 'hub', node, incidentOnly: true } : { kind: 'hub', node });
    return units;
  }

  /**
   * Computes one unit here: what embedNodes does with each unit, and what a queue worker does with a
   * node-context job. No cache, no progress: the caller records the result.
   */
  async computeUnit(unit: ContextUnit): Promise<ContextUnitResult> {
    const counts = zeroCounts();
    const encode = async (sentences: readonly string[]): Promise<EncodedSentences> => {
      const started = performance.now();
      const vectors = await this.encoder.encode(sentences, { batchSize: this.batchSize, normalize: true });
      counts.encodeMs += performance.now() - started;
      counts.sentencesEncoded += sentences.length;
      const empty = new Uint8Array(sentences.length);
      for (let r = 0; r < sentences.length; r++) empty[r] = isZeroRow(vectors, r, this.encoder.dim) ? 1 : 0;
      counts.sentencesWithoutVector += empty.reduce((a, b) => a + b, 0);
      return { vectors, empty };
    };

    if (unit.kind === 'hub') {
      const sum = new RunningSum(this.encoder.dim);
      const mode = unit.incidentOnly ? 'incident' : this.options.mode;
      for await (const edges of this.store.streamNeighbourhood(unit.node.id, mode, this.streamEdges)) {
        counts.edges += edges.length;
        const sentences = neighbourhoodSentences(edges);
        counts.sentenceOccurrences += sentences.length;
        await this.addDistinct(sum, sentences, encode);
        counts.workChunks += 1;
      }
      counts.streamedHubs += 1;
      if (unit.incidentOnly) counts.cappedHubs += 1;
      return { embeddings: [sum.mean()], counts };
    }

    const embeddings: NodeEmbedding[] = new Array<NodeEmbedding>(unit.nodes.length);
    let chunk = new WorkChunk();
    const flush = async () => {
      if (chunk.nodes.length === 0) return;
      const encoded =
        chunk.sentences.length > 0
          ? await encode(chunk.sentences)
          : { vectors: new Float32Array(0), empty: new Uint8Array(0) };
      for (const { index, refs } of chunk.nodes) {
        const sum = new RunningSum(this.encoder.dim);
        for (const r of refs) sum.add(encoded, r);
        embeddings[index] = sum.mean();
      }
      counts.workChunks += 1;
      chunk = new WorkChunk();
    };
    const neighbourhoods = await this.store.neighbourhoods(
      unit.nodes.map((n) => n.id),
      this.options.mode,
    );
    for (const [index, node] of unit.nodes.entries()) {
      const hood = neighbourhoods.get(node.id);
      if (!hood) {
        counts.missingFromGraph += 1;
        embeddings[index] = { sentences: 0, vector: null };
        continue;
      }
      counts.edges += hood.edges.length;
      const sentences = neighbourhoodSentences(hood.edges);
      counts.sentenceOccurrences += sentences.length;
      if (sentences.length > this.workSentences) {
        // Bigger than a chunk on its own: embed it in slices with a running sum, like a hub.
        await flush();
        const sum = new RunningSum(this.encoder.dim);
        for (let i = 0; i < sentences.length; i += this.workSentences)
          await this.addDistinct(sum, sentences.slice(i, i + this.workSentences), encode);
        embeddings[index] = sum.mean();
        counts.workChunks += 1;
        continue;
      }
      if (chunk.sentences.length + sentences.length > this.workSentences) await flush();
      chunk.add(index, sentences);
    }
    await flush();
    return { embeddings, counts };
  }

  /** Encodes the distinct sentences of `sentences` once and adds every occurrence to `sum`. */
  private async addDistinct(
    sum: RunningSum,
    sentences: readonly string[],
    encode: (s: readonly string[]) => Promise<EncodedSentences>,
  ): Promise<void> {
    if (sentences.length === 0) return;
    const piece = new WorkChunk();
    piece.add(0, sentences);
    const encoded = await encode(piece.sentences);
    for (const r of piece.nodes[0]!.refs) sum.add(encoded, r);
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(name, `must be a positive integer, got ${value}`);
  return value;
}
