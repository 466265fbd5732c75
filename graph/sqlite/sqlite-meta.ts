// The meta table of a SQLite graph store (sqlite-schema.ts): what the store says about itself, as
// key → value rows: format and schema version, the counters, the write revision and content id,
// import checkpoints (`import:<key>`) and the markers of an unfinished bulk load.
import { randomUUID } from 'node:crypto';
import type { GraphCounts } from '../graph-store.js';
import { OWN_WRITE_KEY, READ_ONLY_STATEMENT, type Db, type Stmt } from './sqlite-schema.js';

/** What a store says about itself (the `graph stats` command prints it). */
export interface StoreMetadata {
  format: string;
  schemaVersion: number;
  createdAt: string;
  purchaseParser: string;
  /** Every import checkpoint recorded in the store (key → JSON value). */
  imports: Record<string, unknown>;
}

/** The meta key of the content id (see MetaTable.contentId). */
export const CONTENT_ID_KEY = 'content_id';

export class MetaTable {
  private readonly getValue: Stmt;
  private readonly setValue: Stmt;
  private readonly deleteValue: Stmt;
  private ownWriteDepth = 0;

  constructor(
    private readonly db: Db,
    readonly: boolean,
  ) {
    this.getValue = db.prepare('SELECT value FROM meta WHERE key = ?');
    this.setValue = readonly
      ? READ_ONLY_STATEMENT
      : db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    this.deleteValue = readonly ? READ_ONLY_STATEMENT : db.prepare('DELETE FROM meta WHERE key = ?');
  }

  /**
   * Runs `write` (inside the caller's transaction) as intentsim's own write: the change triggers
   * (sqlite-schema.ts) skip its rows. The caller redraws the content id where the content changes.
   */
  ownWrite<T>(write: () => T): T {
    // Nested (an edge read inside a write merges staged edges): only the outermost sets and deletes.
    if (this.ownWriteDepth++ === 0) this.set(OWN_WRITE_KEY, '1');
    try {
      return write();
    } finally {
      // On an exception the transaction rolls back, the marker with it.
      if (--this.ownWriteDepth === 0) this.deleteValue.run(OWN_WRITE_KEY);
    }
  }

  get(key: string): string | undefined {
    return this.getValue.pluck().get(key) as string | undefined;
  }

  set(key: string, value: string): void {
    this.setValue.run(key, value);
  }

  /** The counters, as the last committed write transaction left them. */
  counts(): GraphCounts {
    return {
      nodes: Number(this.get('count.nodes') ?? 0),
      edges: Number(this.get('count.edges') ?? 0),
      purchaseNodes: Number(this.get('count.purchase_nodes') ?? 0),
    };
  }

  setCounts(c: GraphCounts): void {
    this.set('count.nodes', String(c.nodes));
    this.set('count.edges', String(c.edges));
    this.set('count.purchase_nodes', String(c.purchaseNodes));
  }

  /** Committed write transactions so far (0 for a store never written, or written before revisions were kept). */
  revision(): number {
    return Number(this.get('revision') ?? 0);
  }

  /**
   * A random id drawn when the store is created and drawn again by every committed write (in the
   * write's own transaction), so that two stores, or one store before and after a write, never
   * share it unless one is a byte copy of the other. Undefined for a store created before
   * intentsim kept it and not written to since (graph/graph-identity.ts hashes such a store's content).
   */
  contentId(): string | undefined {
    return this.get(CONTENT_ID_KEY);
  }

  /** Draws a new content id: called inside every write transaction that changes what the graph says. */
  renewContentId(): void {
    this.set(CONTENT_ID_KEY, randomUUID());
  }

  /** An import checkpoint (graph/import/import-checkpoint.ts): a JSON value per import, written after each batch. */
  checkpoint(key: string): string | undefined {
    return this.get(`import:${key}`);
  }

  setCheckpoint(key: string, value: string): void {
    this.set(`import:${key}`, value);
  }

  metadata(): StoreMetadata {
    const imports: Record<string, unknown> = {};
    for (const [key, value] of this.db
      .prepare("SELECT key, value FROM meta WHERE key LIKE 'import:%' ORDER BY key")
      .raw()
      .all() as [string, string][]) {
      imports[key.slice('import:'.length)] = JSON.parse(value) as unknown;
    }
    return {
      format: this.get('format') ?? '',
      schemaVersion: Number(this.get('schema_version')),
      createdAt: this.get('created_at') ?? '',
      purchaseParser: this.get('purchase_parser') ?? '',
      imports,
    };
  }
}
