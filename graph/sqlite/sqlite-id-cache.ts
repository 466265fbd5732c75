// The SQLite writer's text → node id cache (sqlite-writer.ts), bounded. (While a bulk load defers
// the node-text index, every node's id is in that load's NodeTextTable instead: node-text-table.ts.)
import type { NodeId } from '../graph-store.js';

/** A text → id cache for the writer, bounded so that a 53M-node import keeps a flat memory profile. */
export const WRITER_CACHE_LIMIT = 2_000_000;

export class NodeIdCache extends Map<string, NodeId> {
  /** Empties the cache once it holds WRITER_CACHE_LIMIT texts. */
  trim(): void {
    if (this.size >= WRITER_CACHE_LIMIT) this.clear();
  }
}
