// One entry point from a store spec to a GraphStore: a file path opens the embedded SQLite store,
// a bolt:// or neo4j:// URL opens the Neo4j store (graph/neo4j-store.ts, loaded only when asked for
// so that SQLite users never load the driver).
import { SqliteGraphStore } from './sqlite-store.js';
import type { GraphStore, GraphWriter } from './types.js';

export interface OpenStoreOptions {
  /** Neo4j only: user and password (default: NEO4J_USER / NEO4J_PASSWORD from the environment). */
  user?: string;
  password?: string;
  /** Neo4j only: the database name (default: the server's default database). */
  database?: string;
}

/** What graph/neo4j-store.ts must export for openGraphStore / openGraphWriter to use it. */
export interface Neo4jStoreModule {
  openNeo4jGraphStore(url: string, opts: OpenStoreOptions): Promise<GraphStore>;
  openNeo4jGraphWriter(url: string, opts: OpenStoreOptions): Promise<GraphWriter>;
}

const NEO4J_SCHEMES = /^(bolt|neo4j)(\+s|\+ssc)?:\/\//i;

export function isNeo4jSpec(spec: string): boolean {
  return NEO4J_SCHEMES.test(spec);
}

/** Opens a graph for reading: a SQLite file (read-only) or a Neo4j URL. */
export async function openGraphStore(spec: string, opts: OpenStoreOptions = {}): Promise<GraphStore> {
  if (isNeo4jSpec(spec)) return (await loadNeo4j(spec)).openNeo4jGraphStore(spec, opts);
  rejectOtherUrls(spec);
  return SqliteGraphStore.open(spec, { mode: 'read' });
}

/** Opens a graph for writing (importers, generators): a SQLite file (created if missing) or a Neo4j URL. */
export async function openGraphWriter(spec: string, opts: OpenStoreOptions = {}): Promise<GraphWriter> {
  if (isNeo4jSpec(spec)) return (await loadNeo4j(spec)).openNeo4jGraphWriter(spec, opts);
  rejectOtherUrls(spec);
  return SqliteGraphStore.open(spec, { mode: 'write' });
}

function rejectOtherUrls(spec: string): void {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(spec);
  if (scheme) {
    throw new Error(`${spec}: unsupported graph store URL scheme "${scheme[1]}:" (use a SQLite file path, or bolt://, neo4j://, bolt+s://, neo4j+s://)`);
  }
}

async function loadNeo4j(spec: string): Promise<Neo4jStoreModule> {
  // A computed specifier: the Neo4j store is optional at build time, and TypeScript must not
  // require the file to exist.
  const specifier = './neo4j-store.js';
  let mod: Partial<Neo4jStoreModule>;
  try {
    mod = (await import(specifier)) as Partial<Neo4jStoreModule>;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const missing = (e.code === 'ERR_MODULE_NOT_FOUND' || /Cannot find module|Failed to load url|Does the file exist/i.test(e.message)) && /neo4j-store/.test(e.message);
    if (missing) throw new Error(`${spec}: the Neo4j graph store is not available yet in this build (graph/neo4j-store.ts is missing); use a SQLite file path`);
    throw err;
  }
  if (typeof mod.openNeo4jGraphStore !== 'function' || typeof mod.openNeo4jGraphWriter !== 'function') {
    throw new Error(`${spec}: graph/neo4j-store.ts does not export openNeo4jGraphStore and openNeo4jGraphWriter`);
  }
  return mod as Neo4jStoreModule;
}
