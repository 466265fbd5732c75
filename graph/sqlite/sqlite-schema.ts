// The SQLite graph store's file (sqlite-store.ts): its schema, opening a file (creating the schema,
// or checking that it is an intentsim store this code reads), the connection's pragmas, and closing.
//
// File format (schema version 2):
//   meta(key, value)                 format marker, schema version, counters, revision, content id
//                                    (a random id redrawn by every write: sqlite-meta.ts), import checkpoints
//   nodes(id, text, purchase_objects JSON|NULL), unique index nodes_by_text(text)
//   edges(head, tail, <one REAL column per sense, NULL when absent>) PRIMARY KEY(head, tail),
//         WITHOUT ROWID so that a node's out-edges are stored together; edges_by_tail for in-edges
//   purchase_objects(object, node_id)  the purchase-event index, filled at write time
//   triggers intentsim_changed_<table>_<op>: a row written to nodes, edges or purchase_objects by
//                                    any other client (the sqlite3 shell, a script) redraws the
//                                    content id, so that data derived from the store goes stale
// Version 1 differs only in declaring the text index as the inline constraint `text UNIQUE`; this
// code reads and writes both (a version 1 store just cannot defer that index during a bulk load).
import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { parsePurchaseEvent } from '../purchase-events.js';
import { hashString } from '../../core/rng.js';
import { RELATION_SENSES, type SenseWeights } from '../graph-store.js';
import { fileError } from '../../core/file-errors.js';
import { UserError } from '../../core/errors.js';
import { makeDirsSync } from '../../core/make-dirs.js';

export type Db = Database.Database;
export type Stmt = Database.Statement;

// In read-only mode the write statements cannot be prepared: this stands in for each of them. Every
// write path checks `assertWritable()` first, so it is never reached.
export const READ_ONLY_STATEMENT: Stmt = new Proxy({} as Stmt, {
  get() {
    throw new Error('the graph store is open read-only');
  },
});

export const STORE_FORMAT = 'intentsim-graph';
export const SCHEMA_VERSION = 2;
/** Schema versions this code opens: see the file format above. */
const OPENABLE_SCHEMA_VERSIONS: ReadonlySet<number> = new Set([1, SCHEMA_VERSION]);

/** The fifteen sense columns of `edges`, quoted, in RELATION_SENSES order. */
export const SENSE_COLUMNS = RELATION_SENSES.map((s) => `"${s}"`).join(', ');

/** The senses of a raw edge row whose sense columns start at `offset` (a NULL column is an absent sense). */
export function sensesFromRow(row: readonly (number | string | null)[], offset: number): SenseWeights {
  const senses: SenseWeights = {};
  for (let i = 0; i < RELATION_SENSES.length; i++) {
    const w = row[offset + i];
    if (typeof w === 'number') senses[RELATION_SENSES[i]!] = w;
  }
  return senses;
}

export const EDGES_BY_TAIL = 'CREATE INDEX IF NOT EXISTS edges_by_tail ON edges(tail, head);';
// A named index rather than an inline UNIQUE constraint (schema version 1) so that a bulk load into
// an empty store can drop it and build it once, sorted, at the end (sqlite-bulk-load.ts).
export const NODES_BY_TEXT = 'CREATE UNIQUE INDEX IF NOT EXISTS nodes_by_text ON nodes(text);';
// Edges written during a bulk load: per write batch (`run`, in write order), one packed run of
// edges per bucket of head ids (sqlite-staged-edges.ts).
export const STAGED_EDGE_RUNS = `CREATE TABLE IF NOT EXISTS staged_edge_runs (
  bucket INTEGER NOT NULL,
  run INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (bucket, run)
);`;
// Staged edges as written by intentsim before staged_edge_runs (one row per edge, rowid = write
// order): a load interrupted under that version still merges.
export const LEGACY_EDGES_STAGED = 'edges_staged';

/** Meta key present while a bulk load defers the node-text index (so that a crash is recovered from). */
export const DEFERRED_NODE_INDEX_KEY = 'bulk_load.node_text_index';

/**
 * Meta key present only inside intentsim's own write transactions (set first, deleted before the
 * commit, so never committed): the change triggers skip those rows, whose transaction redraws the
 * content id once itself (sqlite-meta.ts), and the bulk load does not pay a meta write per row.
 */
export const OWN_WRITE_KEY = 'own_write';

/** The tables whose rows are what the graph says. */
const WATCHED_TABLES = ['nodes', 'edges', 'purchase_objects'] as const;

/**
 * Triggers that redraw the content id when another client writes a row (issue 35: an edit with
 * the sqlite3 shell that kept the counts kept the identity too, and `embed` served the old nodes
 * from its cache). Any client fires them; `randomblob` is SQLite's own, so every client has it.
 */
export const CHANGE_TRIGGERS = WATCHED_TABLES.flatMap((table) =>
  (['INSERT', 'UPDATE', 'DELETE'] as const).map(
    (op) =>
      `CREATE TRIGGER IF NOT EXISTS intentsim_changed_${table}_${op.toLowerCase()} AFTER ${op} ON ${table}
       WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = '${OWN_WRITE_KEY}')
       BEGIN INSERT OR REPLACE INTO meta (key, value) VALUES ('content_id', lower(hex(randomblob(16)))); END;`,
  ),
).join('\n');

/** Drops the change triggers: a bulk load does (its rows are all its own), and its end creates them again. */
export const DROP_CHANGE_TRIGGERS = WATCHED_TABLES.flatMap((table) =>
  ['insert', 'update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS intentsim_changed_${table}_${op};`),
).join('\n');

/**
 * Whether the store's change triggers see every other client's write: all of them are there and no
 * committed `own_write` row turns them off (intentsim never commits that row, so one that is there
 * was written by another client, issue 45: it made every later outside edit go unnoticed).
 */
export function changesWatched(db: Db): boolean {
  return hasChangeTriggers(db) && !hasCommittedOwnWrite(db);
}

/** Whether the meta table holds an `own_write` row outside intentsim's own write transactions. */
export function hasCommittedOwnWrite(db: Db): boolean {
  return db.prepare('SELECT 1 FROM meta WHERE key = ?').pluck().get(OWN_WRITE_KEY) !== undefined;
}

/** Whether every change trigger is in the store (a store made before them has none). */
export function hasChangeTriggers(db: Db): boolean {
  const n = db
    .prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'intentsim\\_changed\\_%' ESCAPE '\\'",
    )
    .pluck()
    .get() as number;
  return n === WATCHED_TABLES.length * 3;
}

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE nodes (
  id INTEGER PRIMARY KEY,
  text TEXT NOT NULL,
  purchase_objects TEXT
);
${NODES_BY_TEXT}
CREATE INDEX nodes_purchase ON nodes(id) WHERE purchase_objects IS NOT NULL;
CREATE TABLE edges (
  head INTEGER NOT NULL,
  tail INTEGER NOT NULL,
  ${RELATION_SENSES.map((s) => `"${s}" REAL`).join(',\n  ')},
  PRIMARY KEY (head, tail)
) WITHOUT ROWID;
${EDGES_BY_TAIL}
CREATE TABLE purchase_objects (
  object TEXT NOT NULL,
  node_id INTEGER NOT NULL,
  PRIMARY KEY (object, node_id)
) WITHOUT ROWID;
`;

// Texts on which the purchase-event parser's answers are fingerprinted. The purchase index is
// computed at write time, so a store built with another parser (e.g. before a fix) would silently
// match differently; the fingerprint turns that into a clear error with a remedy.
const PARSER_PROBES = [
  'PersonX buy a phone',
  'PersonX buys the phone case',
  'PeopleY have bought an earring',
  'buy 2 phones',
  'get 1 apple',
  'PersonY had had a dog',
  'PersonX purchase wireless earbuds',
  'purchased the new laptop',
  'PersonX shop a dress',
  'PeopleX obtain an iphone charger',
  'PersonX buy',
  'i buy a phone',
  'PersonX go to the store',
  'it rain',
  'PersonX buy a phone case and a charger',
  'has got a car',
];

export function purchaseParserFingerprint(): string {
  return hashString(JSON.stringify(PARSER_PROBES.map((t) => parsePurchaseEvent(t)))).toString(16);
}

/** How messages about a store file describe it, and what to do when it is damaged. */
export const STORE_FILE_CONTEXT = {
  what: 'graph store',
  ifDamaged: 'build it again (intentsim graph import, or graph generate)',
};

/**
 * What to do with a file that is not a graph store: ASER's own dump (its Eventualities and Relations
 * tables, the commonest mistake) is imported into one; anything else, a store is what import writes.
 */
function storeWayOn(path: string, tables: readonly string[]): string {
  if (tables.includes('Eventualities') || tables.includes('Relations'))
    return `it looks like an ASER SQLite dump: import it into a store with \`intentsim graph import --to aser.sqlite --aser-sqlite ${path}\``;
  return 'a graph store is the file `intentsim graph import --to FILE` writes';
}

/**
 * Opens (or, unless `readonly`, creates) a store file, with the connection configured and the
 * schema created or checked; throws a clear error for anything else.
 */
export function openStoreDatabase(path: string, readonly: boolean, allowStalePurchaseIndex: boolean): Db {
  if (readonly && !existsSync(path))
    throw new UserError(`${path}: no such graph store (create one with \`intentsim graph import --to ${path} …\`)`);
  if (existsSync(path) && !statSync(path).isFile()) throw new UserError(`${path}: not a file`);
  if (!readonly) makeDirsSync(dirname(path));
  let db: Db;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly });
  } catch (err) {
    const named = fileError(err, path, STORE_FILE_CONTEXT);
    if (named !== err) throw named;
    throw new UserError(
      `${path}: cannot open as a SQLite graph store: ${(err as Error).message}; ${storeWayOn(path, [])}`,
      { cause: err },
    );
  }
  try {
    configure(db, readonly);
    initialiseOrCheck(db, path, readonly, allowStalePurchaseIndex);
  } catch (err) {
    db.close();
    if (err instanceof Database.SqliteError && (err.code === 'SQLITE_NOTADB' || err.code === 'SQLITE_CORRUPT')) {
      throw new UserError(
        `${path}: not an intentsim graph store (not a SQLite database: ${err.message}); ${storeWayOn(path, [])}`,
        {
          cause: err,
        },
      );
    }
    throw fileError(err, path, STORE_FILE_CONTEXT);
  }
  return db;
}

/**
 * Runs `build` (whole-index builds: CREATE INDEX over a full table) with the sort spilling to
 * temporary files. With temp_store = MEMORY, SQLite's sorter never writes a sorted run out: it holds
 * every key of the index in memory at once, ~3 GB for the node-text index of ASER's core (53M texts),
 * on top of the bulk load's text table. With temporary files it keeps runs of cache_size (256 MiB)
 * in memory and merges them from disk (a few GB of temporary files, removed as it ends), at the same
 * speed at 4M nodes (issue 48). The sorter also gets helper threads (SORT_HELPER_THREADS): each sorts
 * and writes out a run while the main thread reads on, and the final merge reads runs in parallel.
 * Both settings go back for every other query.
 */
export function withSortOnDisk<T>(db: Db, build: () => T): T {
  db.pragma('temp_store = FILE');
  db.pragma(`threads = ${SORT_HELPER_THREADS}`);
  try {
    return build();
  } finally {
    db.pragma('threads = 0');
    db.pragma('temp_store = MEMORY');
  }
}

/**
 * Helper threads of SQLite's sorter for whole-index builds: one per core beyond the first, at most 4
 * (each holds its own run of cache_size, 256 MiB, in memory). On 2 cores (AMD EPYC) one helper built
 * a unique index of 52M 45-byte texts in 46 s instead of 58–83 s; two helpers were no faster (49–52 s).
 */
const SORT_HELPER_THREADS = Math.min(4, Math.max(0, availableParallelism() - 1));

function configure(db: Db, readonly: boolean): void {
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  db.pragma(`cache_size = ${readonly ? -65536 : -262144}`); // KiB: 64 MiB for readers, 256 MiB for writers
  db.pragma('mmap_size = 1073741824');
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
}

function initialiseOrCheck(db: Db, path: string, readonly: boolean, allowStalePurchaseIndex: boolean): void {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  if (tables.length === 0) {
    if (readonly)
      throw new UserError(`${path}: not an intentsim graph store (the database is empty); ${storeWayOn(path, [])}`);
    db.transaction(() => {
      db.exec(SCHEMA);
      const set = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      set.run('format', STORE_FORMAT);
      set.run('schema_version', String(SCHEMA_VERSION));
      set.run('created_at', new Date().toISOString());
      set.run('purchase_parser', purchaseParserFingerprint());
      set.run('count.nodes', '0');
      set.run('count.edges', '0');
      set.run('count.purchase_nodes', '0');
      set.run('content_id', randomUUID());
      db.exec(CHANGE_TRIGGERS);
    })();
    return;
  }
  if (!tables.includes('meta')) {
    throw new UserError(
      `${path}: not an intentsim graph store (no meta table; tables: ${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', …' : ''}); ${storeWayOn(path, tables)}`,
    );
  }
  const get = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  const format = get.get('format') as string | undefined;
  if (format !== STORE_FORMAT)
    throw new UserError(
      `${path}: not an intentsim graph store (format is ${JSON.stringify(format ?? null)}); ${storeWayOn(path, [])}`,
    );
  const version = Number(get.get('schema_version'));
  if (!OPENABLE_SCHEMA_VERSIONS.has(version)) {
    throw new UserError(
      `${path}: graph store schema version ${version}, but this intentsim reads version ${SCHEMA_VERSION} (and ${[...OPENABLE_SCHEMA_VERSIONS].filter((v) => v !== SCHEMA_VERSION).join(', ')}); re-import the graph`,
    );
  }
  if (readonly && get.get('bulk_load') !== undefined) {
    throw new UserError(
      `${path}: an import into this store has not finished (its indexes are not built yet); re-run the import, which resumes and finishes it`,
    );
  }
  // A writer that died while its bulk load deferred the node-text index left the key
  // DEFERRED_NODE_INDEX_KEY: the next writer's bulk load takes the deferral over (sqlite-bulk-load.ts,
  // resumeDeferral) before anything else reads or writes nodes.
  if (!readonly && !hasChangeTriggers(db) && get.get('bulk_load') === undefined) {
    // A store made before the triggers: an edit by another client since could not be noticed, so
    // the content id is redrawn once (what was derived from the store is computed again, once).
    // (An unfinished bulk load has dropped them: its end creates them.)
    db.transaction(() => {
      db.exec(CHANGE_TRIGGERS);
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('content_id', randomUUID());
    })();
  }
  if (!readonly && hasCommittedOwnWrite(db)) {
    // Another client committed the marker that turns the change triggers off: what it (or anyone)
    // changed since went unnoticed, so the marker goes and the content id is redrawn once.
    db.transaction(() => {
      db.prepare('DELETE FROM meta WHERE key = ?').run(OWN_WRITE_KEY);
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('content_id', randomUUID());
    })();
  }
  const parser = get.get('purchase_parser') as string | undefined;
  if (parser !== purchaseParserFingerprint() && !allowStalePurchaseIndex) {
    throw new StalePurchaseIndexError(path);
  }
}

/** The store's purchase-event index was built by another version of the parser. */
export class StalePurchaseIndexError extends UserError {
  constructor(readonly path: string) {
    super(
      `${path}: the purchase-event index was built by a different purchase-event parser; ` +
        `rebuild it with \`intentsim graph reindex-purchases --graph ${path}\``,
    );
    this.name = 'StalePurchaseIndexError';
  }
}

/** Closes the connection; a writer's leaves a self-contained single file (no -wal/-shm) so that read-only opens work anywhere. */
export function closeStoreDatabase(db: Db, readonly: boolean): void {
  if (!readonly) {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.pragma('journal_mode = DELETE');
    } catch {
      // Another connection still has the file open: it stays in WAL mode, which is fine.
    }
  }
  db.close();
}
