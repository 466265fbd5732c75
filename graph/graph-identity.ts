// What identifies a graph's content for data derived from it (node embeddings, queue jobs): its
// kind, its node and edge counts, its write revision where the store keeps one (for people), and
// its content id (graph-store.ts: a random id redrawn by every write, or a hash of the content),
// which is what tells two graphs apart. Counts and revision alone do not: two imports of different
// edge files with the same numbers of nodes and edges both gave `sqlite:337n:1073e:r1` (issue 29).
// A copy of a SQLite store has the identity of the original; a store written to since has another.
import type { GraphStore } from './graph-store.js';

/**
 * e.g. "sqlite:120n:340e:r3:id:5c0f…"; undefined when the store cannot tell its content from
 * another's (a Neo4j database no intentsim writer has marked): nothing derived from it may be
 * cached or taken from a queue then.
 */
export async function graphIdentity(
  store: Pick<GraphStore, 'kind' | 'counts' | 'revision' | 'contentId'>,
): Promise<string | undefined> {
  const content = await store.contentId?.();
  if (content === undefined) return undefined;
  const counts = await store.counts();
  const revision = await store.revision?.();
  return `${store.kind}:${counts.nodes}n:${counts.edges}e${revision === undefined ? '' : `:r${revision}`}:${content}`;
}
