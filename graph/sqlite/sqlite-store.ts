// The embedded graph store: one SQLite file (better-sqlite3), built to hold the ASER core graph
// (53M nodes, 52M edges) on one machine. This class is the table of contents; the work is done in
//   sqlite-schema.ts     the file format: schema, opening (create or check), pragmas, closing
//   sqlite-meta.ts       the meta table: counters, revision, import checkpoints, metadata
//   sqlite-reads.ts      look-ups, neighbourhoods, degrees, purchase-event reads (every read batched)
//   sqlite-writer.ts     upserts (one transaction a batch), purchase-index rebuild
//   sqlite-bulk-load.ts  the importers' fast path into an empty store: staged edges, deferred indexes
//   sqlite-id-cache.ts   the writer's text → id cache
// Every call turns a SQLite failure (a locked, damaged or read-only file) into an error that names
// the store's path and what to do (core/file-errors.ts).
import { fileError, withFileErrors } from '../../core/file-errors.js';
// A store opened for writing is claimed (core/output-claim.ts) until it is closed: one writer at a
// time (import, generate, reindex-purchases), with a message naming the other one. (A generator
// writes a temporary file and renames it: graph/generate/graph-output.ts claims the target.)
import { basename } from 'node:path';
import { claimOutput, type OutputClaim } from '../../core/output-claim.js';
import { parseTemporaryName } from '../../core/temporary-files.js';
import { sqliteContentHash } from './sqlite-content-hash.js';
import { SqliteBulkLoad, DEFERRED_NODE_LIMIT } from './sqlite-bulk-load.js';
import { NodeIdCache } from './sqlite-id-cache.js';
import { MetaTable, type StoreMetadata } from './sqlite-meta.js';
import { SqliteReads } from './sqlite-reads.js';
import { STORE_FILE_CONTEXT, changesWatched, closeStoreDatabase, openStoreDatabase, type Db } from './sqlite-schema.js';
import { SqliteWriter } from './sqlite-writer.js';
import type {
  EdgeInput,
  GraphCounts,
  GraphEdge,
  GraphStore,
  GraphWriter,
  Neighbourhood,
  NeighbourhoodMode,
  NodeId,
  PurchaseEventNode,
} from '../graph-store.js';

export interface OpenSqliteOptions {
  /** 'read' (default) opens the file read-only; 'write' creates it when missing. */
  mode?: 'read' | 'write';
  /** Open even when the purchase index was built by another parser (only to call reindexPurchases). */
  allowStalePurchaseIndex?: boolean;
  /** How many nodes a bulk load may create before it builds the node-text index (default DEFERRED_NODE_LIMIT; tests lower it). */
  deferredNodeLimit?: number;
}

export class SqliteGraphStore implements GraphStore, GraphWriter {
  readonly kind = 'sqlite' as const;
  readonly path: string;
  readonly readonly: boolean;
  private readonly db: Db;
  private closed = false;
  /** The content hash of a store without a content id, once computed (see `contentId`). */
  private contentHash: string | undefined;
  /**
   * Whether the store's change triggers see other clients' writes (sqlite-schema.ts: all there, not
   * turned off by a committed own_write row); a writer restores both on open.
   */
  private readonly watched: boolean;
  private readonly meta: MetaTable;
  private readonly bulkLoad: SqliteBulkLoad;
  private readonly reads: SqliteReads;
  private readonly writer: SqliteWriter;

  private constructor(
    path: string,
    db: Db,
    readonly: boolean,
    deferredNodeLimit: number,
    private readonly claim: OutputClaim | undefined,
  ) {
    this.path = path;
    this.db = db;
    this.readonly = readonly;
    this.meta = new MetaTable(db, readonly);
    this.watched = changesWatched(db);
    this.bulkLoad = new SqliteBulkLoad(db, this.meta, readonly, deferredNodeLimit);
    this.reads = new SqliteReads(db, this.meta, this.bulkLoad);
    this.writer = new SqliteWriter(db, this.meta, new NodeIdCache(), this.bulkLoad, readonly);
  }

  /** Opens (or, in write mode, creates) a store file; throws a clear error for anything else. */
  static open(
    path: string,
    { mode = 'read', allowStalePurchaseIndex = false, deferredNodeLimit = DEFERRED_NODE_LIMIT }: OpenSqliteOptions = {},
  ): SqliteGraphStore {
    const readonly = mode === 'read';
    // A temporary file (a generator's store before its rename) is private to its writer: no lock.
    const claim = readonly || parseTemporaryName(basename(path)) ? undefined : claimOutput(path, 'file');
    try {
      return new SqliteGraphStore(
        path,
        openStoreDatabase(path, readonly, allowStalePurchaseIndex),
        readonly,
        deferredNodeLimit,
        claim,
      );
    } catch (err) {
      claim?.release();
      throw err;
    }
  }

  // ---------------------------------------------------------------- reads (sqlite-reads.ts)

  /** `work()`, with a SQLite failure turned into an error naming this store. */
  private guard<T>(work: () => T): T {
    return withFileErrors(this.path, STORE_FILE_CONTEXT, work);
  }

  private async *guardStream<T>(stream: AsyncIterable<T>): AsyncGenerator<T> {
    try {
      yield* stream;
    } catch (err) {
      throw fileError(err, this.path, STORE_FILE_CONTEXT);
    }
  }

  async lookupIds(texts: readonly string[]): Promise<Map<string, NodeId>> {
    return this.guard(() => this.reads.lookupIds(texts));
  }

  async nodeTexts(ids: readonly NodeId[]): Promise<Map<NodeId, string>> {
    return this.guard(() => this.reads.nodeTexts(ids));
  }

  async neighbourhoods(ids: readonly NodeId[], mode: NeighbourhoodMode): Promise<Map<NodeId, Neighbourhood>> {
    return this.guard(() => this.reads.neighbourhoods(ids, mode));
  }

  streamNeighbourhood(id: NodeId, mode: NeighbourhoodMode, batchSize?: number): AsyncIterable<GraphEdge[]> {
    return this.guardStream(this.reads.streamNeighbourhood(id, mode, batchSize));
  }

  async degrees(ids: readonly NodeId[]): Promise<Map<NodeId, { neighbours: number; incidentEdges: number }>> {
    return this.guard(() => this.reads.degrees(ids));
  }

  async purchaseNodesByObject(objects: readonly string[]): Promise<Map<string, NodeId[]>> {
    return this.guard(() => this.reads.purchaseNodesByObject(objects));
  }

  purchaseEvents(batchSize?: number): AsyncIterable<PurchaseEventNode[]> {
    return this.guardStream(this.reads.purchaseEvents(batchSize));
  }

  async counts(): Promise<GraphCounts> {
    return this.guard(() => this.reads.counts());
  }

  /** The committed nodes (and this writer's), from the counters: no merge of staged edges (see GraphStore.nodeCount). */
  async nodeCount(): Promise<number> {
    return this.guard(() => this.meta.counts().nodes);
  }

  /** Committed write transactions so far (0 for a store never written, or written before revisions were kept). */
  async revision(): Promise<number> {
    return this.guard(() => this.writer.revision());
  }

  /**
   * The content id (sqlite-meta.ts), redrawn by every committed write, intentsim's or (through the
   * change triggers) any other client's; for a store that has none (created before intentsim drew
   * one, never written since), or that has no change triggers (made before them, never opened for
   * writing since: another client's edit would have gone unnoticed), a hash of its content,
   * computed once per open (sqlite-content-hash.ts).
   */
  async contentId(): Promise<string> {
    return this.guard(() => {
      const id = this.writer.contentId();
      if (id !== undefined && this.watched) return `id:${id}`;
      this.contentHash ??= `sha256:${sqliteContentHash(this.db)}`;
      return this.contentHash;
    });
  }

  metadata(): StoreMetadata {
    return this.guard(() => this.meta.metadata());
  }

  // ---------------------------------------------------------------- writes (sqlite-writer.ts)

  private assertWritable(): void {
    if (this.readonly) throw new Error(`${this.path}: the store is open read-only`);
    if (this.closed) throw new Error(`${this.path}: the store is closed`);
  }

  async upsertNodes(texts: readonly string[]): Promise<Map<string, NodeId>> {
    this.assertWritable();
    return this.guard(() => this.writer.upsertNodes(texts));
  }

  async upsertEdges(edges: readonly EdgeInput[]): Promise<void> {
    this.assertWritable();
    this.guard(() => this.writer.upsertEdges(edges));
  }

  /** Import checkpoints (graph/import/import-checkpoint.ts): a JSON value per import, written after each batch. */
  async readCheckpoint(key: string): Promise<string | undefined> {
    return this.guard(() => this.meta.checkpoint(key));
  }

  async writeCheckpoint(key: string, value: string): Promise<void> {
    this.assertWritable();
    this.guard(() => this.meta.setCheckpoint(key, value));
  }

  /** Recomputes the purchase-event index with the current parser (after a parser change). */
  async reindexPurchases(onProgress?: (nodesDone: number) => void): Promise<void> {
    this.assertWritable();
    this.guard(() => this.writer.reindexPurchases(onProgress));
  }

  // ---------------------------------------------------------------- bulk load (sqlite-bulk-load.ts)

  /** Begins a bulk load into a store without edges (a no-op otherwise): edges are staged, indexes built at the end. */
  async beginBulkLoad(): Promise<void> {
    this.assertWritable();
    this.guard(() => this.bulkLoad.begin());
  }

  /** Merges the staged edges and builds the indexes after a bulk load (a no-op otherwise); also done by `close`. */
  async endBulkLoad(): Promise<void> {
    this.assertWritable();
    this.guard(() => this.bulkLoad.end());
  }

  /**
   * Ends a bulk load, closes the connection and releases the output lock, however the first two end
   * (issue 45: a "database is locked" from another writer left the lock behind); the first failure
   * is thrown. An unfinished bulk load is finished by the next open in write mode.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    let failure: unknown;
    try {
      if (!this.readonly) this.guard(() => this.bulkLoad.end());
    } catch (err) {
      failure = err;
    }
    try {
      this.guard(() => closeStoreDatabase(this.db, this.readonly));
    } catch (err) {
      failure ??= err;
    }
    this.claim?.release();
    if (failure !== undefined) throw failure;
  }
}
