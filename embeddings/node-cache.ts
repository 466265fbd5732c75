// Persistent node context embeddings, so that a second run, or a run resumed after a crash,
// recomputes nothing. One SQLite file (better-sqlite3, WAL) holds any number of "contexts" — a
// context being everything a node's embedding depends on besides its text: the encoder fingerprint
// (model bytes, tokenizer, dtype, truncation), the neighbourhood mode, the graph (kind and size) and
// the sentence templates. Rows are keyed by (context, node text); a node with nothing to embed is
// stored too (sentences 0, no vector) so that it is not looked at again.
//
// Every row carries a SHA-256 of its text, sentence count and vector bytes. A row whose checksum
// does not match (a damaged page, a vector overwritten inside a valid file), whose vector is not
// finite (NaN or ±Infinity) or the wrong size, or that has no checksum (written before rows had one)
// is refused on read: counted in `refused` and left out, so that the node is computed again and its
// row replaced. A non-finite vector is refused on write as well: it would poison every product mean.
// A file SQLite finds damaged (a malformed page, at open or in any later read or write) is moved
// aside with a note and replaced by an empty cache (issue 29): its nodes are computed again.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { float32LittleEndian } from '../core/npy.js';
import { UserError } from '../core/errors.js';
import { NODE_CACHE_FILE_CONTEXT, fileError } from '../core/file-errors.js';
import { notice } from '../core/notice.js';
import { makeDirsSync } from '../core/make-dirs.js';

/** SQLite's verdict on a damaged file: a malformed image, or not a database at all. */
function isDamaged(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

export interface NodeContextKey {
  /** Encoder fingerprint (OnnxSentenceEncoder.fingerprint or the stand-in's name). */
  encoder: string;
  /** Human-readable model name, recorded for inspection only. */
  model: string;
  dtype: string;
  mode: string;
  /** Identifies the graph: kind, node and edge counts. */
  graph: string;
  /** Identifies the sentence templates. */
  templates: string;
  dim: number;
}

/** A node's context embedding; `vector` is null when its neighbourhood gave no sentence. */
export interface NodeEmbedding {
  sentences: number;
  vector: Float32Array | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS contexts (
  id INTEGER PRIMARY KEY,
  encoder TEXT NOT NULL, model TEXT NOT NULL, dtype TEXT NOT NULL, mode TEXT NOT NULL,
  graph TEXT NOT NULL, templates TEXT NOT NULL, dim INTEGER NOT NULL, created_at TEXT NOT NULL,
  UNIQUE (encoder, dtype, mode, graph, templates, dim)
);
CREATE TABLE IF NOT EXISTS node_embeddings (
  context INTEGER NOT NULL REFERENCES contexts(id),
  node_text TEXT NOT NULL,
  sentences INTEGER NOT NULL,
  vector BLOB,
  checksum BLOB,
  PRIMARY KEY (context, node_text)
) WITHOUT ROWID;
`;

/** Why a cached row was refused (and its node computed again). */
export type RefusedRowReason = 'no-checksum' | 'checksum-mismatch' | 'wrong-size' | 'not-finite';

/** SHA-256 over what a row says: sentence count, node text and vector bytes (null: none). */
export function rowChecksum(text: string, sentences: number, vector: Uint8Array | null): Buffer {
  const h = createHash('sha256');
  h.update(`${sentences}\n${text}\n`);
  h.update(vector === null ? 'null' : 'vector\n');
  if (vector !== null) h.update(vector);
  return h.digest();
}

function allFinite(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return false;
  return true;
}

export class NodeEmbeddingCache {
  private db!: Database.Database;
  private contextId!: number;
  readonly dim: number;
  private selectMany!: Database.Statement;
  private upsert!: Database.Statement;
  /** Rows refused on read since the cache was opened, by reason (their nodes are computed again). */
  readonly refused: Record<RefusedRowReason, number> = {
    'no-checksum': 0,
    'checksum-mismatch': 0,
    'wrong-size': 0,
    'not-finite': 0,
  };

  private constructor(
    readonly path: string,
    private readonly key: NodeContextKey,
  ) {
    this.dim = key.dim;
  }

  static open(path: string, key: NodeContextKey): NodeEmbeddingCache {
    makeDirsSync(dirname(path));
    const cache = new NodeEmbeddingCache(path, key);
    cache.guard(() => cache.connect());
    return cache;
  }

  /** Opens the file, creates or upgrades the schema, and finds or records this context. */
  private connect(): void {
    const db = new Database(this.path);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 10000');
      db.exec(SCHEMA);
      // A cache written before rows had checksums: add the column; its rows (checksum NULL) are refused and recomputed.
      const columns = db.prepare('PRAGMA table_info(node_embeddings)').all() as Array<{ name: string }>;
      if (!columns.some((c) => c.name === 'checksum')) db.exec('ALTER TABLE node_embeddings ADD COLUMN checksum BLOB');
      const k = this.key;
      db.prepare(
        'INSERT OR IGNORE INTO contexts (encoder, model, dtype, mode, graph, templates, dim, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(k.encoder, k.model, k.dtype, k.mode, k.graph, k.templates, k.dim, new Date().toISOString());
      const row = db
        .prepare(
          'SELECT id FROM contexts WHERE encoder = ? AND dtype = ? AND mode = ? AND graph = ? AND templates = ? AND dim = ?',
        )
        .get(k.encoder, k.dtype, k.mode, k.graph, k.templates, k.dim) as { id: number };
      this.selectMany = db.prepare(
        'SELECT node_text, sentences, vector, checksum FROM node_embeddings WHERE context = ? AND node_text IN (SELECT value FROM json_each(?))',
      );
      this.upsert = db.prepare(
        'INSERT OR REPLACE INTO node_embeddings (context, node_text, sentences, vector, checksum) VALUES (?, ?, ?, ?, ?)',
      );
      this.db = db;
      this.contextId = row.id;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /**
   * Runs a cache operation. A damaged file (SQLite says the image is malformed, or not a database)
   * is moved aside, with a note naming both paths, and an empty cache takes its place: the work is
   * run once more on it, so the nodes it held are computed again. Any other failure becomes an
   * error naming the file and what to do (core/file-errors.ts).
   */
  private guard<T>(work: () => T): T {
    try {
      return work();
    } catch (err) {
      if (!isDamaged(err)) throw fileError(err, this.path, NODE_CACHE_FILE_CONTEXT);
      const aside = this.moveAside(err as Error);
      try {
        this.connect();
        return work();
      } catch (again) {
        throw fileError(again, this.path, {
          ...NODE_CACHE_FILE_CONTEXT,
          what: `node embedding cache (the damaged one was moved to ${aside})`,
        });
      }
    }
  }

  /** Closes the damaged file and renames it (and its -wal and -shm files) next to itself. */
  private moveAside(err: Error): string {
    try {
      this.db?.close();
    } catch {
      // A damaged file may fail to close cleanly: it is moved aside all the same.
    }
    const aside = `${this.path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(this.path + suffix)) renameSync(this.path + suffix, aside + suffix);
    }
    notice(
      `${this.path}: the node embedding cache is damaged (${err.message}); moved it to ${aside} (delete it when you like) and started an empty one: the nodes it held are computed again`,
    );
    return aside;
  }

  /**
   * Cached embeddings of the given node texts (absent texts are not in the map, and neither are
   * refused rows: see the file comment).
   */
  getMany(texts: readonly string[]): Map<string, NodeEmbedding> {
    return this.guard(() => this.readMany(texts));
  }

  private readMany(texts: readonly string[]): Map<string, NodeEmbedding> {
    const out = new Map<string, NodeEmbedding>();
    const step = 10_000;
    for (let i = 0; i < texts.length; i += step) {
      const rows = this.selectMany.all(this.contextId, JSON.stringify(texts.slice(i, i + step))) as Array<{
        node_text: string;
        sentences: number;
        vector: Buffer | null;
        checksum: Buffer | null;
      }>;
      for (const r of rows) {
        const verified = this.verify(r.node_text, r.sentences, r.vector, r.checksum);
        if (typeof verified === 'string') this.refused[verified] += 1;
        else out.set(r.node_text, verified);
      }
    }
    return out;
  }

  /** How many rows were refused since the cache was opened (all reasons). */
  refusedCount(): number {
    return Object.values(this.refused).reduce((a, b) => a + b, 0);
  }

  /** Stores many embeddings in one transaction (a crash keeps all of a batch or none of it). */
  putMany(entries: ReadonlyArray<readonly [string, NodeEmbedding]>): void {
    for (const [text, e] of entries) {
      if (e.vector && e.vector.length !== this.dim)
        throw new Error(`node embedding of ${this.dim} dims expected, got ${e.vector.length}`);
      if (e.vector && !allFinite(e.vector))
        throw new UserError(
          `node embedding of ${JSON.stringify(text)} has NaN or infinite values: the model produced them for this node's sentences (check the model files); not cached`,
        );
    }
    this.guard(() => this.writeMany(entries));
  }

  private writeMany(entries: ReadonlyArray<readonly [string, NodeEmbedding]>): void {
    const tx = this.db.transaction((items: ReadonlyArray<readonly [string, NodeEmbedding]>) => {
      for (const [text, e] of items) {
        const blob = e.vector ? Buffer.from(float32LittleEndian(e.vector)) : null;
        this.upsert.run(this.contextId, text, e.sentences, blob, rowChecksum(text, e.sentences, blob));
      }
    });
    tx(entries);
  }

  /** Rows stored for this context. */
  count(): number {
    return this.guard(
      () =>
        (
          this.db.prepare('SELECT count(*) AS n FROM node_embeddings WHERE context = ?').get(this.contextId) as {
            n: number;
          }
        ).n,
    );
  }

  close(): void {
    try {
      this.db.close();
    } catch (err) {
      throw fileError(err, this.path, NODE_CACHE_FILE_CONTEXT);
    }
  }

  /** The row's embedding when it is intact, else why it is refused. */
  private verify(
    text: string,
    sentences: number,
    blob: Buffer | null,
    checksum: Buffer | null,
  ): NodeEmbedding | RefusedRowReason {
    if (checksum === null) return 'no-checksum';
    if (!rowChecksum(text, sentences, blob).equals(checksum)) return 'checksum-mismatch';
    if (blob === null) return { sentences, vector: null };
    if (blob.length !== this.dim * 4) return 'wrong-size';
    const vector = new Float32Array(this.dim);
    for (let i = 0; i < this.dim; i++) vector[i] = blob.readFloatLE(i * 4);
    return allFinite(vector) ? { sentences, vector } : 'not-finite';
  }
}
