// A SHA-256 of everything a SQLite graph store says: every node (id, text) in id order and every
// edge (head, tail, sense weights) in key order. It stands in for the content id (sqlite-meta.ts)
// of a store created before intentsim drew one and not written to since: such a store cannot be
// told apart from another with the same counts otherwise, and a read-only open cannot give it an
// id. One pass over both tables (about a minute per 50M rows); any write gives the store an id.
import { createHash } from 'node:crypto';
import { SENSE_COLUMNS, type Db } from './sqlite-schema.js';

/** Hex SHA-256 of the store's nodes and edges (see the file comment). */
export function sqliteContentHash(db: Db): string {
  const hash = createHash('sha256');
  for (const [id, text] of db.prepare('SELECT id, text FROM nodes ORDER BY id').raw().iterate() as Iterable<
    [number, string]
  >) {
    hash.update(`n${id}\t${JSON.stringify(text)}\n`);
  }
  for (const row of db
    .prepare(`SELECT head, tail, ${SENSE_COLUMNS} FROM edges ORDER BY head, tail`)
    .raw()
    .iterate() as Iterable<(number | null)[]>) {
    hash.update(`e${row.map((v) => (v === null ? '' : String(v))).join('\t')}\n`);
  }
  return hash.digest('hex');
}
