// What identifies a graph's content for data derived from it (node embeddings): its kind, its node
// and edge counts, and, where the store can tell, its write revision. A copy of a SQLite store has
// the identity of the original; a store that has been written to since has another.
import type { GraphStore } from './graph-store.js';

/** e.g. "sqlite:120n:340e:r3" (Neo4j, written by other clients too, has no revision). */
export async function graphIdentity(store: Pick<GraphStore, 'kind' | 'counts' | 'revision'>): Promise<string> {
  const counts = await store.counts();
  const revision = await store.revision?.();
  return `${store.kind}:${counts.nodes}n:${counts.edges}e${revision === undefined ? '' : `:r${revision}`}`;
}
