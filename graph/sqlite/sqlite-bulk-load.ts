// Bulk loading into an empty SQLite graph store (the importers' fast path; sqlite-store.ts). Edges
// are appended to a staging table, and the by-tail index is dropped; `end` (called by the store's
// endBulkLoad or close) merges the staged edges into `edges` sorted by (head, tail) and builds the
// index once, sorted. Both are far cheaper than updating two B-trees edge by edge in random order
// (each commit rewrote most of their pages). Meanwhile the store's meta says so, read-only opens
// refuse it, and the writer's edge reads and edge count first merge what is staged. A crash leaves
// the staged edges committed: the next writer (the resumed import) goes on staging, and merges when
// it finishes.
//
// Into a store without nodes either (and of schema version 2), the node-text index is deferred as
// well: the writer numbers new nodes itself from a text → id table that holds every node
// (node-text-table.ts), and appends them in id order; the unique index is built once at the end (or
// when the load passes `deferredNodeLimit` nodes, or when a writer finds it missing after a crash).
import { notice } from '../../core/notice.js';
import { parsePurchaseEvent } from '../purchase-events.js';
import { RELATION_SENSES, type GraphCounts, type NodeId } from '../graph-store.js';
import { BatchedInsert, EdgeUpsert } from './sqlite-bulk-insert.js';
import { mergeRuns, packRuns, type EdgeRows } from './sqlite-staged-edges.js';
import { NodeTextTable } from './node-text-table.js';
import type { MetaTable } from './sqlite-meta.js';
import {
  CHANGE_TRIGGERS,
  DEFERRED_NODE_INDEX_KEY,
  DROP_CHANGE_TRIGGERS,
  EDGES_BY_TAIL,
  LEGACY_EDGES_STAGED,
  NODES_BY_TEXT,
  SENSE_COLUMNS,
  STAGED_EDGE_RUNS,
  withSortOnDisk,
  type Db,
  type Stmt,
} from './sqlite-schema.js';

/**
 * How many nodes a bulk load may create with the node-text index deferred: its text → id table must
 * hold every node meanwhile (node-text-table.ts, off the V8 heap: 8 to 16 bytes of slots a node and a
 * record of ~48 bytes for a 36-character text: ~3.5 GB at ASER's core of 53M nodes). Past this the
 * index is built and the load goes on the general way, every further node a random insert into the
 * index: at 4M that made a 20M-edge import grow 7.3× from 6M edges (issue 38). 64M covers ASER's core
 * (53M) and keeps the table's slots at 2^27 (1 GiB: they double past 2^26 nodes).
 */
export const DEFERRED_NODE_LIMIT = 64_000_000;

/**
 * A bulk load's nodes while the node-text index is deferred: `ids` then holds every node of the
 * store, so a text it lacks is a new node, numbered here and appended (no index descent at all).
 * `added` lists the texts given ids by the running transaction, so that a rollback can take exactly
 * those out of `ids` again. A load resumed after a crash fills `ids` from the committed nodes when a
 * text is first resolved or looked up (see `resumed`).
 */
export class DeferredNodes {
  nextId = 1;
  /** Every committed node's text → id, and those of the running transaction (see `ids`). */
  private readonly table = new NodeTextTable();
  /** Set while a resumed load's table has not been filled from its committed nodes yet. */
  private unfilled: { committedNodes: number } | undefined;
  private readonly added: string[] = [];
  private readonly nodes: BatchedInsert;
  private readonly purchaseObjects: BatchedInsert;

  constructor(
    private readonly db: Db,
    private readonly limit: number,
  ) {
    this.nodes = new BatchedInsert(db, 'INSERT INTO nodes (id, text, purchase_objects)', 3);
    this.purchaseObjects = new BatchedInsert(db, 'INSERT OR IGNORE INTO purchase_objects (object, node_id)', 2);
  }

  /**
   * The deferral of a load that died: new nodes are numbered after the largest committed id, as the
   * dead writer would have. The text table is filled only when first needed: a rerun whose lines were
   * all committed (killed in the merge or an index build) ends the load without it, which saves
   * reading every node back (about 6.6 s per million nodes on a 2-core machine: minutes at ASER's core).
   */
  static resumed(db: Db, limit: number, committedNodes: number): DeferredNodes {
    const deferred = new DeferredNodes(db, limit);
    deferred.nextId = ((db.prepare('SELECT max(id) FROM nodes').pluck().get() as number | null) ?? 0) + 1;
    deferred.unfilled = { committedNodes };
    return deferred;
  }

  /** The text table, filled from the committed nodes first if this load was resumed. */
  private get ids(): NodeTextTable {
    if (this.unfilled !== undefined) {
      notice(
        `resuming an interrupted import: reading its ${this.unfilled.committedNodes.toLocaleString('en-US')} committed nodes back into its text table`,
      );
      // Every committed text is unique (the dead writer's table made sure of it).
      for (const [id, text] of this.db.prepare('SELECT id, text FROM nodes ORDER BY id').raw().iterate() as Iterable<
        [number, string]
      >)
        this.table.add(text, id);
      this.unfilled = undefined;
    }
    return this.table;
  }

  /** The id of a committed (or this transaction's) node's text, without adding it. */
  get(text: string): NodeId | undefined {
    return this.ids.get(text);
  }

  /** The id of a text's node: the one it has, or a new one. */
  resolve(text: string, counters: GraphCounts): NodeId {
    return this.ids.getOrAdd(text, () => this.append(text, counters));
  }

  /** A new node: numbered here, appended at commit (`flush`); `resolve` adds it to `ids`. */
  private append(text: string, counters: GraphCounts): NodeId {
    const id = this.nextId++;
    const objects = [...new Set(parsePurchaseEvent(text))];
    this.nodes.add([id, text, objects.length > 0 ? JSON.stringify(objects) : null]);
    this.added.push(text);
    counters.nodes += 1;
    if (objects.length > 0) {
      counters.purchaseNodes += 1;
      for (const object of objects) this.purchaseObjects.add([object, id]);
    }
    return id;
  }

  /** Writes the appended rows: inside the transaction, before it commits. */
  flush(): void {
    this.nodes.flush();
    this.purchaseObjects.flush();
  }

  /** After a commit. */
  committed(): void {
    this.added.length = 0;
  }

  /** After a rollback: `ids` must hold exactly the committed nodes, so forget the texts of the rolled-back transaction. */
  rolledBack(firstNewId: number): void {
    for (const text of this.added) this.ids.delete(text);
    this.added.length = 0;
    this.nextId = firstNewId;
    this.nodes.discard();
    this.purchaseObjects.discard();
  }

  /** Whether the load has created as many nodes as it may with the index deferred. */
  full(): boolean {
    return (this.unfilled?.committedNodes ?? this.table.size) >= this.limit;
  }
}

export class SqliteBulkLoad {
  /** Set while a bulk load defers the node-text index (see begin). */
  deferredNodes: DeferredNodes | undefined;
  private staging: { nextRun: number; insert: Stmt } | undefined;
  private edgeUpsert: EdgeUpsert | undefined;

  constructor(
    private readonly db: Db,
    private readonly meta: MetaTable,
    private readonly readonly: boolean,
    private readonly deferredNodeLimit: number,
  ) {
    if (!readonly && this.meta.get(DEFERRED_NODE_INDEX_KEY) !== undefined) this.resumeDeferral();
  }

  /**
   * A writer died while its bulk load deferred the node-text index (its key is still in the meta
   * table), so only its text table could resolve texts, and that died with it. This writer takes the
   * deferral over (`DeferredNodes.resumed`: a table filled again from the nodes when first needed),
   * or, when the nodes have reached the limit, builds the index and goes on the general way.
   */
  private resumeDeferral(): void {
    const nodes = this.db.prepare('SELECT count(*) FROM nodes').pluck().get() as number;
    if (nodes >= this.deferredNodeLimit) {
      this.buildNodeTextIndex();
      return;
    }
    this.deferredNodes = DeferredNodes.resumed(this.db, this.deferredNodeLimit, nodes);
  }

  /** Whether a bulk load is under way: its marker is in the meta table (so it survives a crash). */
  active(): boolean {
    return this.meta.get('bulk_load') !== undefined;
  }

  /** Begins a bulk load into a store without edges (a no-op otherwise); see the top of this file. */
  begin(): void {
    if (this.active()) {
      this.journal('DELETE'); // a load resumed after a crash
      return;
    }
    if (Number(this.meta.get('count.edges') ?? 0) > 0) return;
    const noNodes = this.db.prepare('SELECT 1 FROM nodes LIMIT 1').get() === undefined;
    const deferNodes = noNodes && this.hasIndex('nodes_by_text');
    this.db.transaction(() => {
      this.db.exec('DROP INDEX IF EXISTS edges_by_tail');
      // Every row of the load is the writer's own: no trigger is checked per row (end creates them).
      this.db.exec(DROP_CHANGE_TRIGGERS);
      this.db.exec(STAGED_EDGE_RUNS);
      this.meta.set('bulk_load', new Date().toISOString());
      if (deferNodes) {
        this.db.exec('DROP INDEX nodes_by_text');
        this.meta.set(DEFERRED_NODE_INDEX_KEY, 'deferred');
      }
    })();
    if (deferNodes) this.deferredNodes = new DeferredNodes(this.db, this.deferredNodeLimit);
    this.journal('DELETE');
  }

  /**
   * A bulk load writes through a rollback journal rather than the write-ahead log: nearly every page
   * it writes is new (appended rows, whole indexes built at the end), which a rollback journal does
   * not copy at all, while the WAL writes each page twice (to the log, then to the file at each
   * checkpoint). At 20M edges that was 13 of 175 s, and growing faster than the load (issue 38).
   * Read-only opens are refused during a load anyway; `end` goes back to WAL. The switch needs the
   * file to itself: when another connection has it open, the load stays in WAL mode, just slower.
   */
  private journal(mode: 'DELETE' | 'WAL'): void {
    try {
      this.db.pragma(`journal_mode = ${mode}`);
    } catch {
      // Another connection holds the file: keep the current mode.
    }
  }

  private hasIndex(name: string): boolean {
    return this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
  }

  /**
   * Stages a batch of edges as packed runs (inside the writer's transaction); `end` merges them into
   * `edges` in key order, so the edge B-tree is never updated in random order.
   */
  stage(rows: EdgeRows): void {
    const staging = this.stagingRuns();
    const run = staging.nextRun++;
    for (const [bucket, data] of packRuns(rows)) staging.insert.run(bucket, run, data);
  }

  /** The staging table's insert and next run number, on first use (creating the table, e.g. for a load begun by an older writer). */
  private stagingRuns(): { nextRun: number; insert: Stmt } {
    if (this.staging === undefined) {
      this.db.exec(STAGED_EDGE_RUNS);
      const last = this.db.prepare('SELECT max(run) FROM staged_edge_runs').pluck().get() as number | null;
      this.staging = {
        nextRun: (last ?? 0) + 1,
        insert: this.db.prepare('INSERT INTO staged_edge_runs (bucket, run, data) VALUES (?, ?, ?)'),
      };
    }
    return this.staging;
  }

  /**
   * Moves the edges staged by a bulk load into `edges`, in key order (for one key in write order: the
   * last write of an edge wins, as in upsertEdges), and counts them. The load goes on (the by-tail
   * index stays dropped). Every edge read of a writer calls this first, so that it sees every write;
   * for a reader, or once the store is closed (`db.open` is false), it does nothing.
   */
  mergeStagedEdges(): void {
    if (this.readonly || !this.db.open || !this.active()) return;
    // The staged edges were the writer's own writes (their transactions redrew the content id).
    this.db.transaction(() => this.meta.ownWrite(() => this.mergeInTransaction()))();
  }

  private mergeInTransaction(): void {
    const tableExists = (name: string) =>
      this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
    let merged = false;
    if (tableExists(LEGACY_EDGES_STAGED)) {
      this.db.exec(
        `INSERT INTO edges (head, tail, ${SENSE_COLUMNS})
         SELECT head, tail, ${SENSE_COLUMNS} FROM ${LEGACY_EDGES_STAGED} WHERE true ORDER BY head, tail, rowid
         ON CONFLICT (head, tail) DO UPDATE SET ${RELATION_SENSES.map((s) => `"${s}" = excluded."${s}"`).join(', ')}`,
      );
      this.db.exec(`DROP TABLE ${LEGACY_EDGES_STAGED}`);
      merged = true;
    }
    if (tableExists('staged_edge_runs')) {
      const buckets = this.db
        .prepare('SELECT DISTINCT bucket FROM staged_edge_runs ORDER BY bucket')
        .pluck()
        .all() as number[];
      const runsOf = this.db.prepare('SELECT data FROM staged_edge_runs WHERE bucket = ? ORDER BY run').pluck();
      this.edgeUpsert ??= new EdgeUpsert(
        this.db,
        'edges',
        RELATION_SENSES.map((s) => `"${s}"`),
      );
      // A bucket at a time: the merge holds the edges of 2^18 heads in memory, not the whole load.
      for (const bucket of buckets) this.edgeUpsert.write(mergeRuns(runsOf.all(bucket) as Buffer[]));
      if (buckets.length > 0) {
        this.db.exec('DELETE FROM staged_edge_runs');
        merged = true;
      }
    }
    if (merged)
      this.meta.set('count.edges', String(this.db.prepare('SELECT count(*) FROM edges').pluck().get() as number));
  }

  /** Merges the staged edges and builds the indexes after a bulk load (a no-op otherwise). */
  end(): void {
    if (!this.active()) return;
    this.mergeStagedEdges();
    if (this.deferredNodes !== undefined) this.buildNodeTextIndex();
    withSortOnDisk(this.db, () =>
      this.db.transaction(() => {
        this.db.exec('DROP TABLE IF EXISTS staged_edge_runs');
        this.staging = undefined;
        this.db.exec(EDGES_BY_TAIL);
        this.db.exec(CHANGE_TRIGGERS);
        // Without triggers during the load, another client's edit then would have gone unnoticed.
        this.meta.renewContentId();
        this.db.prepare("DELETE FROM meta WHERE key = 'bulk_load'").run();
      })(),
    );
    this.journal('WAL');
  }

  /** Ends the deferral of the node-text index: builds it (one sorted pass) and resolves texts the general way from then on. */
  buildNodeTextIndex(): void {
    withSortOnDisk(this.db, () =>
      this.db.transaction(() => {
        this.db.exec(NODES_BY_TEXT);
        this.db.prepare('DELETE FROM meta WHERE key = ?').run(DEFERRED_NODE_INDEX_KEY);
      })(),
    );
    this.deferredNodes = undefined;
  }

  /** While the node-text index is deferred: every committed node's text → id. */
  deferredNodeIds(): Pick<ReadonlyMap<string, NodeId>, 'get'> | undefined {
    return this.deferredNodes;
  }
}
