// The counts and timings of an `intentsim embed` run, accumulated product by product and chunk by
// chunk, and the manifest.json they end in.
import type { NeighbourhoodMode } from '../../graph/graph-store.js';
import { INDUCED_NEIGHBOUR_CAP, type ContextStats } from '../../embeddings/context-embedder.js';
import type { RefusedRowReason } from '../../embeddings/node-cache.js';
import type { UnembeddedReason } from '../../embeddings/product-embedding.js';
import type { ProductMatch } from '../products/match.js';
import type { EncoderDescription } from '../../embeddings/encoder-description.js';
import { noUnembedded, type ChunkOutputs } from './embed-chunk.js';

export interface EmbedManifest {
  format: 'intentsim-embeddings/1';
  outputs: {
    embeddings: string;
    ids: string;
    unembedded: string;
    phrases: string;
    rejects: string | null;
    shape: [number, number];
  };
  encoder: EncoderDescription;
  mode: NeighbourhoodMode;
  /**
   * Induced mode: nodes with more distinct neighbours than this were embedded from their incident
   * edges only (counts.context.cappedHubs of them); null in incident mode.
   */
  inducedNeighbourCap: number | null;
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
  /** The persistent node cache, and its rows refused as damaged (recomputed) by reason; null without one. */
  nodeCache: { path: string; entriesForThisContext: number; refusedRows: Record<RefusedRowReason, number> } | null;
  timings: { totalMs: number; openEncoderMs: number; matchMs: number; nodesMs: number; writeMs: number };
}

/** What the manifest records beyond the accumulated counts: set once the run is over. */
export interface EmbedRunFacts {
  rejected: number;
  rows: number;
  dim: number;
  encoder: EncoderDescription;
  mode: NeighbourhoodMode;
  graph: EmbedManifest['graph'];
  inputs: EmbedManifest['inputs'];
  distinctMatchedNodes: number;
  context: ContextStats;
  nodeCache: EmbedManifest['nodeCache'];
  totalMs: number;
  openEncoderMs: number;
}

export class EmbedSummary {
  /** Accepted products (rejected ones are counted by the rejects sink). */
  private products = 0;
  private embedded = 0;
  private phrases = 0;
  private matchedNodeReferences = 0;
  private releasedPipelineSentences = 0;
  private readonly unembedded = noUnembedded();
  /** Milliseconds spent matching, embedding nodes and writing; the caller adds to them. */
  readonly timings = { matchMs: 0, nodesMs: 0, writeMs: 0 };

  addProduct(match: ProductMatch): void {
    this.products += 1;
    for (const p of match.phrases) {
      this.phrases += 1;
      this.matchedNodeReferences += p.nodes.length;
    }
  }

  addChunk(chunk: ChunkOutputs): void {
    this.embedded += chunk.embedded;
    for (const [reason, n] of Object.entries(chunk.unembedded) as Array<[UnembeddedReason, number]>)
      this.unembedded[reason] += n;
    this.releasedPipelineSentences += chunk.releasedPipelineSentences;
  }

  manifest(facts: EmbedRunFacts): EmbedManifest {
    return {
      format: 'intentsim-embeddings/1',
      outputs: {
        embeddings: 'embeddings.npy',
        ids: 'ids.txt',
        unembedded: 'unembedded.jsonl',
        phrases: 'phrases.jsonl',
        rejects: facts.rejected > 0 ? 'rejects.jsonl' : null,
        shape: [facts.rows, facts.dim],
      },
      encoder: facts.encoder,
      mode: facts.mode,
      inducedNeighbourCap: facts.mode === 'induced' ? INDUCED_NEIGHBOUR_CAP : null,
      graph: facts.graph,
      inputs: facts.inputs,
      counts: {
        products: this.products + facts.rejected,
        rejected: facts.rejected,
        embedded: this.embedded,
        unembedded: { ...this.unembedded },
        phrases: this.phrases,
        matchedNodeReferences: this.matchedNodeReferences,
        distinctMatchedNodes: facts.distinctMatchedNodes,
        context: { ...facts.context, encodeMs: Math.round(facts.context.encodeMs) },
        releasedPipelineSentences: this.releasedPipelineSentences,
      },
      nodeCache: facts.nodeCache,
      timings: {
        totalMs: Math.round(facts.totalMs),
        openEncoderMs: Math.round(facts.openEncoderMs),
        matchMs: Math.round(this.timings.matchMs),
        nodesMs: Math.round(this.timings.nodesMs),
        writeMs: Math.round(this.timings.writeMs),
      },
    };
  }
}
