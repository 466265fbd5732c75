// The write path of the SQLite graph store (sqlite-store.ts): node and edge upserts, each batch in
// one transaction that also keeps the counters and the revision, and the purchase-index rebuild.
// During a bulk load (sqlite-bulk-load.ts) edges are staged instead of written, and new nodes may be
// numbered and appended without the node-text index.
import { parsePurchaseEvent } from '../purchase-events.js';
import { RELATION_SENSES, type EdgeInput, type GraphCounts, type NodeId } from '../graph-store.js';
import { validateNodeTexts, validatedSenseMask } from '../writer-input.js';
import type { SqliteBulkLoad } from './sqlite-bulk-load.js';
import type { NodeIdCache } from './sqlite-id-cache.js';
import type { MetaTable } from './sqlite-meta.js';
import { READ_ONLY_STATEMENT, SENSE_COLUMNS, purchaseParserFingerprint, type Db, type Stmt } from './sqlite-schema.js';
import type { EdgeRows } from './sqlite-staged-edges.js';

function toNumber(v: number | bigint): number {
  return typeof v === 'bigint' ? Number(v) : v;
}

/** The index of the lowest set bit of a non-zero mask (sense masks: bit c = sense column c). */
function lowestBit(mask: number): number {
  return 31 - Math.clz32(mask & -mask);
}

export class SqliteWriter {
  private insertFirst = true;
  private misses = 0;
  private missesNew = 0;
  private readonly s: ReturnType<typeof prepareWrites>;

  constructor(
    private readonly db: Db,
    private readonly meta: MetaTable,
    private readonly ids: NodeIdCache,
    private readonly bulkLoad: SqliteBulkLoad,
    readonly: boolean,
  ) {
    this.s = prepareWrites(db, readonly);
  }

  upsertNodes(texts: readonly string[]): Map<string, NodeId> {
    validateNodeTexts(texts);
    return this.writeTransaction((counters) => {
      const ids = new Map<string, NodeId>();
      for (const text of texts) ids.set(text, this.resolveId(text, counters));
      return ids;
    });
  }

  upsertEdges(edges: readonly EdgeInput[]): void {
    // Validate the whole batch before writing anything: a bad edge leaves the store untouched.
    const rows: EdgeRows = { heads: [], tails: [], masks: [], weights: [] };
    const scratch: number[] = new Array<number>(RELATION_SENSES.length).fill(0);
    for (const e of edges) {
      const mask = validatedSenseMask(e, scratch);
      rows.masks.push(mask);
      for (let m = mask; m !== 0; m &= m - 1) rows.weights.push(scratch[lowestBit(m)]!);
    }
    this.writeTransaction((counters) => {
      for (const e of edges) {
        rows.heads.push(this.resolveId(e.head, counters));
        rows.tails.push(this.resolveId(e.tail, counters));
      }
      if (this.bulkLoad.active()) {
        // Bulk load: stage the batch as packed runs; endBulkLoad merges them into `edges` in key
        // order, so the edge B-tree is never updated in random order.
        this.bulkLoad.stage(rows);
        return;
      }
      // Keys in ascending order touch the B-tree's pages in order. The sort is stable, so the last of
      // several writes of one edge in the batch still wins.
      const weightsAt: number[] = [];
      for (let i = 0, w = 0; i < rows.masks.length; i++) {
        weightsAt.push(w);
        for (let m = rows.masks[i]!; m !== 0; m &= m - 1) w++;
      }
      const order = rows.heads
        .map((_, i) => i)
        .sort((a, b) => rows.heads[a]! - rows.heads[b]! || rows.tails[a]! - rows.tails[b]!);
      const row: (number | null)[] = new Array<number | null>(2 + RELATION_SENSES.length);
      for (const i of order) {
        row.fill(null);
        row[0] = rows.heads[i]!;
        row[1] = rows.tails[i]!;
        let w = weightsAt[i]!;
        for (let m = rows.masks[i]!; m !== 0; m &= m - 1) row[2 + lowestBit(m)] = rows.weights[w++]!;
        if (this.s.insertEdge.run(row).changes === 0) this.s.updateEdge.run(...row.slice(2), row[0], row[1]);
        else counters.edges += 1;
      }
    });
  }

  /** Runs `write` in one transaction with the store's counters; a failed transaction forgets cached ids. */
  private writeTransaction<T>(write: (counters: GraphCounts) => T): T {
    const deferred = this.bulkLoad.deferredNodes;
    const firstNewId = deferred?.nextId ?? 0;
    let result: T;
    try {
      result = this.db.transaction(() =>
        this.meta.ownWrite(() => {
          const counters = this.meta.counts();
          const value = write(counters);
          deferred?.flush();
          this.meta.setCounts(counters);
          // Any committed write changes what the graph says: caches keyed by the revision go stale.
          this.meta.set('revision', String(this.meta.revision() + 1));
          this.meta.renewContentId();
          return value;
        }),
      )();
    } catch (err) {
      if (deferred !== undefined) {
        deferred.rolledBack(firstNewId);
      } else {
        // Ids of nodes inserted by the rolled-back transaction may be in the cache: they are void now.
        this.ids.clear();
      }
      throw err;
    }
    if (deferred !== undefined) {
      deferred.committed();
      if (deferred.full()) this.bulkLoad.buildNodeTextIndex();
    }
    return result;
  }

  /**
   * The id of a node text, inserting the node (and its purchase-event objects) when it is new.
   * Texts missing from the cache are looked up insert-first while most of them turn out new (a
   * fresh import: one index descent each) and select-first while most exist (e.g. ASER's relations
   * after its eventualities: no parse, no failed insert); the order adapts every 1,024 misses.
   */
  private resolveId(text: string, counters: GraphCounts): NodeId {
    if (this.bulkLoad.deferredNodes !== undefined) return this.bulkLoad.deferredNodes.resolve(text, counters);
    let id = this.ids.get(text);
    if (id !== undefined) return id;
    if (!this.insertFirst) id = this.s.idByText.get(text) as number | undefined;
    if (id === undefined) {
      const objects = [...new Set(parsePurchaseEvent(text))];
      // `run` (changes, lastInsertRowid) rather than RETURNING, which costs a temporary result table per row.
      const inserted = this.s.insertNode.run(text, objects.length > 0 ? JSON.stringify(objects) : null);
      if (inserted.changes === 0) {
        id = this.s.idByText.get(text) as number;
      } else {
        id = toNumber(inserted.lastInsertRowid);
        this.missesNew += 1;
        counters.nodes += 1;
        if (objects.length > 0) {
          counters.purchaseNodes += 1;
          for (const object of objects) this.s.insertPurchaseObject.run(object, id);
        }
      }
    }
    if (++this.misses === 1024) {
      this.insertFirst = this.missesNew * 2 > this.misses;
      this.misses = 0;
      this.missesNew = 0;
    }
    this.ids.trim();
    this.ids.set(text, id);
    return id;
  }

  /**
   * Recomputes the purchase-event index of every node with the current parser (needed when the
   * parser changed since the store was built: opening such a store says so).
   */
  reindexPurchases(onProgress?: (nodesDone: number) => void): void {
    // The purchase index is part of what the store says (matching reads it): a new content id
    // first, so that even an interrupted rebuild leaves the store with an identity of its own.
    this.meta.renewContentId();
    this.db.transaction(() => this.meta.ownWrite(() => this.db.exec('DELETE FROM purchase_objects')))();
    let after = -1;
    let purchaseNodes = 0;
    const page = this.db.prepare('SELECT id, text FROM nodes WHERE id > ? ORDER BY id LIMIT ?').raw();
    const setObjects = this.db.prepare('UPDATE nodes SET purchase_objects = ? WHERE id = ?');
    for (;;) {
      const rows = page.all(after, 50_000) as [number, string][];
      if (rows.length === 0) break;
      this.db.transaction(() =>
        this.meta.ownWrite(() => {
          for (const [id, text] of rows) {
            const objects = [...new Set(parsePurchaseEvent(text))];
            setObjects.run(objects.length > 0 ? JSON.stringify(objects) : null, id);
            if (objects.length > 0) purchaseNodes += 1;
            for (const object of objects) this.s.insertPurchaseObject.run(object, id);
          }
        }),
      )();
      after = rows[rows.length - 1]![0];
      onProgress?.(rows.length);
    }
    this.meta.set('count.purchase_nodes', String(purchaseNodes));
    this.meta.set('purchase_parser', purchaseParserFingerprint());
  }

  /** The store's revision (sqlite-meta.ts), read as every read of a writer is: after merging staged edges. */
  revision(): number {
    this.bulkLoad.mergeStagedEdges();
    return this.meta.revision();
  }

  /** The store's content id (sqlite-meta.ts), read after merging staged edges like `revision`. */
  contentId(): string | undefined {
    this.bulkLoad.mergeStagedEdges();
    return this.meta.contentId();
  }
}

function prepareWrites(
  db: Db,
  readonly: boolean,
): Record<'idByText' | 'insertNode' | 'insertPurchaseObject' | 'insertEdge' | 'updateEdge', Stmt> {
  if (readonly) {
    return {
      idByText: READ_ONLY_STATEMENT,
      insertNode: READ_ONLY_STATEMENT,
      insertPurchaseObject: READ_ONLY_STATEMENT,
      insertEdge: READ_ONLY_STATEMENT,
      updateEdge: READ_ONLY_STATEMENT,
    };
  }
  let insertNode: Stmt | undefined;
  return {
    idByText: db.prepare('SELECT id FROM nodes WHERE text = ?').pluck(),
    // Prepared on first use: its ON CONFLICT needs the node-text index, which a bulk load resumed
    // after a crash defers (sqlite-bulk-load.ts) until it has numbered its nodes itself.
    get insertNode(): Stmt {
      return (insertNode ??= db.prepare(
        'INSERT INTO nodes (text, purchase_objects) VALUES (?, ?) ON CONFLICT(text) DO NOTHING',
      ));
    },
    insertPurchaseObject: db.prepare('INSERT OR IGNORE INTO purchase_objects (object, node_id) VALUES (?, ?)'),
    insertEdge: db.prepare(
      `INSERT OR IGNORE INTO edges (head, tail, ${SENSE_COLUMNS}) VALUES (?, ?, ${RELATION_SENSES.map(() => '?').join(', ')})`,
    ),
    updateEdge: db.prepare(
      `UPDATE edges SET ${RELATION_SENSES.map((s) => `"${s}" = ?`).join(', ')} WHERE head = ? AND tail = ?`,
    ),
  };
}
