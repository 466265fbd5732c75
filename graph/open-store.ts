// One entry point from a store spec to a GraphStore: a file path opens the embedded SQLite store,
// a bolt:// or neo4j:// URL opens the Neo4j store (graph/neo4j/neo4j-store.ts, loaded only when
// asked for so that SQLite users never load the driver).
import { isNeo4jUri } from './neo4j/neo4j-config.js';
import { SqliteGraphStore } from './sqlite/sqlite-store.js';
import type { GraphStore, GraphWriter } from './graph-store.js';
import { UserError } from '../core/errors.js';
import { redact } from '../core/redact.js';

export interface OpenStoreOptions {
  /** Neo4j only: user and password (default: NEO4J_USER / NEO4J_PASSWORD from the environment). */
  user?: string;
  password?: string;
  /** Neo4j only: the database name (default: the server's default database). */
  database?: string;
}

/** Opens a graph for reading: a SQLite file (read-only) or a Neo4j URL. */
export async function openGraphStore(spec: string, opts: OpenStoreOptions = {}): Promise<GraphStore> {
  if (isNeo4jUri(spec)) return (await loadNeo4j()).openNeo4jGraphStore(spec, opts);
  rejectOtherUrls(spec);
  return SqliteGraphStore.open(spec, { mode: 'read' });
}

/** Opens a graph for writing (importers, generators): a SQLite file (created if missing) or a Neo4j URL. */
export async function openGraphWriter(spec: string, opts: OpenStoreOptions = {}): Promise<GraphWriter> {
  if (isNeo4jUri(spec)) return (await loadNeo4j()).openNeo4jGraphWriter(spec, opts);
  rejectOtherUrls(spec);
  return SqliteGraphStore.open(spec, { mode: 'write' });
}

/**
 * The file of a SQLite store spec, to check before any work (core/check-paths.ts); undefined for a
 * Neo4j URL, which only a connection can check. Any other URL is an error.
 */
export function graphStoreFile(spec: string): string | undefined {
  if (isNeo4jUri(spec)) return undefined;
  rejectOtherUrls(spec);
  return spec;
}

function rejectOtherUrls(spec: string): void {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(spec);
  if (scheme) {
    throw new UserError(
      `${redact(spec)}: unsupported graph store URL scheme "${scheme[1]}:" (use a SQLite file path, or bolt://, neo4j://, bolt+s://, neo4j+s://)`,
    );
  }
}

/** The Neo4j store module, loaded on first use so that SQLite users never load neo4j-driver. */
async function loadNeo4j(): Promise<typeof import('./neo4j/neo4j-store.js')> {
  return import('./neo4j/neo4j-store.js');
}
