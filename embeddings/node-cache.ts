// Persistent node context embeddings, so that a second run, or a run resumed after a crash,
// recomputes nothing. One SQLite file (better-sqlite3, WAL) holds any number of "contexts" — a
// context being everything a node's embedding depends on besides its text: the encoder fingerprint
// (model bytes, tokenizer, dtype, truncation), the neighbourhood mode, the graph (kind and size) and
// the sentence templates. Rows are keyed by (context, node text); a node with nothing to embed is
// stored too (sentences 0, no vector) so that it is not looked at again.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { float32LittleEndian } from '../core/npy.js';
import { UserError } from '../core/errors.js';
import { NODE_CACHE_FILE_CONTEXT, fileError } from '../core/file-errors.js';

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
  PRIMARY KEY (context, node_text)
) WITHOUT ROWID;
`;

export class NodeEmbeddingCache {
  private readonly db: Database.Database;
  private readonly contextId: number;
  readonly dim: number;
  private readonly selectMany: Database.Statement;
  private readonly upsert: Database.Statement;

  private constructor(db: Database.Database, contextId: number, dim: number) {
    this.db = db;
    this.contextId = contextId;
    this.dim = dim;
    this.selectMany = db.prepare(
      'SELECT node_text, sentences, vector FROM node_embeddings WHERE context = ? AND node_text IN (SELECT value FROM json_each(?))',
    );
    this.upsert = db.prepare(
      'INSERT OR REPLACE INTO node_embeddings (context, node_text, sentences, vector) VALUES (?, ?, ?, ?)',
    );
  }

  static open(path: string, key: NodeContextKey): NodeEmbeddingCache {
    mkdirSync(dirname(path), { recursive: true });
    let db: Database.Database;
    try {
      db = new Database(path);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 10000');
      db.exec(SCHEMA);
    } catch (err) {
      throw fileError(err, path, NODE_CACHE_FILE_CONTEXT);
    }
    db.prepare(
      'INSERT OR IGNORE INTO contexts (encoder, model, dtype, mode, graph, templates, dim, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(key.encoder, key.model, key.dtype, key.mode, key.graph, key.templates, key.dim, new Date().toISOString());
    const row = db
      .prepare(
        'SELECT id FROM contexts WHERE encoder = ? AND dtype = ? AND mode = ? AND graph = ? AND templates = ? AND dim = ?',
      )
      .get(key.encoder, key.dtype, key.mode, key.graph, key.templates, key.dim) as { id: number };
    return new NodeEmbeddingCache(db, row.id, key.dim);
  }

  /** Cached embeddings of the given node texts (absent texts are not in the map). */
  getMany(texts: readonly string[]): Map<string, NodeEmbedding> {
    const out = new Map<string, NodeEmbedding>();
    const step = 10_000;
    for (let i = 0; i < texts.length; i += step) {
      const rows = this.selectMany.all(this.contextId, JSON.stringify(texts.slice(i, i + step))) as Array<{
        node_text: string;
        sentences: number;
        vector: Buffer | null;
      }>;
      for (const r of rows)
        out.set(r.node_text, { sentences: r.sentences, vector: r.vector ? this.decode(r.vector, r.node_text) : null });
    }
    return out;
  }

  /** Stores many embeddings in one transaction (a crash keeps all of a batch or none of it). */
  putMany(entries: ReadonlyArray<readonly [string, NodeEmbedding]>): void {
    const tx = this.db.transaction((items: ReadonlyArray<readonly [string, NodeEmbedding]>) => {
      for (const [text, e] of items) {
        if (e.vector && e.vector.length !== this.dim)
          throw new Error(`node embedding of ${this.dim} dims expected, got ${e.vector.length}`);
        this.upsert.run(
          this.contextId,
          text,
          e.sentences,
          e.vector ? Buffer.from(float32LittleEndian(e.vector)) : null,
        );
      }
    });
    tx(entries);
  }

  /** Rows stored for this context. */
  count(): number {
    return (
      this.db.prepare('SELECT count(*) AS n FROM node_embeddings WHERE context = ?').get(this.contextId) as {
        n: number;
      }
    ).n;
  }

  close(): void {
    this.db.close();
  }

  private decode(blob: Buffer, text: string): Float32Array {
    if (blob.length !== this.dim * 4)
      throw new UserError(
        `node embedding cache: entry for ${JSON.stringify(text)} has ${blob.length} bytes, expected ${this.dim * 4}`,
      );
    const out = new Float32Array(this.dim);
    for (let i = 0; i < this.dim; i++) out[i] = blob.readFloatLE(i * 4);
    return out;
  }
}
