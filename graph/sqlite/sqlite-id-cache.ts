// The SQLite writer's text → node id cache (sqlite-writer.ts). While a bulk load defers the
// node-text index (sqlite-bulk-load.ts), the cache holds every node of the store and stands in for
// that index.
//
// Sharded over several Maps because one V8 Map stops at 2^24 (16.7M) entries, and a bulk load of
// ASER's size defers the index past that many nodes (DEFERRED_NODE_LIMIT, issue 38).
import type { NodeId } from '../graph-store.js';

/** A text → id cache for the writer, bounded so that a 53M-node import keeps a flat memory profile. */
export const WRITER_CACHE_LIMIT = 2_000_000;

/** Maps the texts are spread over (a power of two). */
const SHARDS = 16;

export class NodeIdCache {
  private readonly shards: Array<Map<string, NodeId>> = Array.from({ length: SHARDS }, () => new Map());
  private count = 0;

  /** Which map holds a text: a cheap mix of its length and a few of its characters. */
  private shard(text: string): Map<string, NodeId> {
    const n = text.length;
    const h = n === 0 ? 0 : n * 31 + text.charCodeAt(0) * 7 + text.charCodeAt(n >> 1) * 3 + text.charCodeAt(n - 1);
    return this.shards[h & (SHARDS - 1)]!;
  }

  get size(): number {
    return this.count;
  }

  get(text: string): NodeId | undefined {
    return this.shard(text).get(text);
  }

  set(text: string, id: NodeId): this {
    const map = this.shard(text);
    const before = map.size;
    map.set(text, id);
    this.count += map.size - before;
    return this;
  }

  delete(text: string): boolean {
    const deleted = this.shard(text).delete(text);
    if (deleted) this.count -= 1;
    return deleted;
  }

  clear(): void {
    for (const map of this.shards) map.clear();
    this.count = 0;
  }

  /** Empties the cache once it holds WRITER_CACHE_LIMIT texts. */
  trim(): void {
    if (this.count >= WRITER_CACHE_LIMIT) this.clear();
  }
}
