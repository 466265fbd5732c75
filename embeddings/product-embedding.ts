// Product context embeddings (docs/embeddings.md): a phrase's embedding is the mean of the embeddings of
// its matched nodes, and CE(p) the mean of its phrases' embeddings. Nodes without an embedding (no
// context sentence) and phrases without one (no embeddable node) contribute nothing — they are not
// zeros in the mean — and a product left with nothing gets no row, with the reason recorded, instead
// of the released code's NaN. Means accumulate in float64; CE(p) is returned as float32.
import type { NodeId } from '../graph/graph-store.js';
import type { NodeEmbedding } from './node-cache.js';

/** A product's category phrases and each phrase's matched nodes. */
export interface ProductPhraseNodes {
  id: string;
  phrases: ReadonlyArray<{ phrase: string; nodes: readonly NodeId[] }>;
}

export type UnembeddedReason =
  /** The conceptualizer gave no phrase. */
  | 'no-phrases'
  /** No phrase matched a purchase-event node. */
  | 'no-matched-nodes'
  /**
   * Nodes matched, but none has a context sentence with a vector (no edges with senses, or only
   * sentences the encoder gives no vector, e.g. without a word glove-100d knows).
   */
  | 'no-context-sentences';

export type ProductEmbeddingOutcome =
  { ok: true; vector: Float32Array; phrasesUsed: number; nodesUsed: number } | { ok: false; reason: UnembeddedReason };

/** Mean of float64 rows (the caller guarantees at least one). */
function meanRows(rows: readonly Float64Array[] | readonly Float32Array[], dim: number): Float64Array {
  const out = new Float64Array(dim);
  for (const row of rows) for (let d = 0; d < dim; d++) out[d]! += row[d]!;
  for (let d = 0; d < dim; d++) out[d]! /= rows.length;
  return out;
}

/** A phrase's embedding: mean over its nodes that have one; null when none has. */
export function phraseEmbedding(
  nodes: readonly NodeId[],
  nodeEmbeddings: ReadonlyMap<NodeId, NodeEmbedding>,
  dim: number,
): { vector: Float64Array; nodesUsed: number } | null {
  const vectors: Float32Array[] = [];
  for (const id of nodes) {
    const v = nodeEmbeddings.get(id)?.vector;
    if (v) vectors.push(v);
  }
  return vectors.length === 0 ? null : { vector: meanRows(vectors, dim), nodesUsed: vectors.length };
}

export function productContextEmbedding(
  product: ProductPhraseNodes,
  nodeEmbeddings: ReadonlyMap<NodeId, NodeEmbedding>,
  dim: number,
): ProductEmbeddingOutcome {
  if (product.phrases.length === 0) return { ok: false, reason: 'no-phrases' };
  const phraseVectors: Float64Array[] = [];
  let anyNode = false;
  let nodesUsed = 0;
  for (const p of product.phrases) {
    if (p.nodes.length > 0) anyNode = true;
    const e = phraseEmbedding(p.nodes, nodeEmbeddings, dim);
    if (e) {
      phraseVectors.push(e.vector);
      nodesUsed += e.nodesUsed;
    }
  }
  if (!anyNode) return { ok: false, reason: 'no-matched-nodes' };
  if (phraseVectors.length === 0) return { ok: false, reason: 'no-context-sentences' };
  return {
    ok: true,
    vector: Float32Array.from(meanRows(phraseVectors, dim)),
    phrasesUsed: phraseVectors.length,
    nodesUsed,
  };
}

/**
 * Sentences the released pipeline embeds for these products: it rebuilt and re-embedded a node's
 * neighbourhood for every (product, phrase) that matched the node, so each match costs |S(v)|.
 */
export function releasedPipelineSentenceCount(
  products: Iterable<ProductPhraseNodes>,
  nodeEmbeddings: ReadonlyMap<NodeId, NodeEmbedding>,
): number {
  let total = 0;
  for (const p of products)
    for (const phrase of p.phrases) for (const id of phrase.nodes) total += nodeEmbeddings.get(id)?.sentences ?? 0;
  return total;
}
