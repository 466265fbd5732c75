// `intentsim graph import` as a library call: an ASER SQLite dump and/or JSONL edge lists into one
// graph store (a SQLite file or a Neo4j URL), through one writer, with one rejects file for every
// input under onError 'skip'. Each input is resumable on its own (import-checkpoint.ts).
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { ConfigError, type OnError } from '../../core/errors.js';
import type { InputLimits } from '../../core/jsonl.js';
import { RejectsSink } from '../../core/rejects.js';
import { isNeo4jUri } from '../neo4j/neo4j-config.js';
import { graphStoreFile, openGraphWriter } from '../open-store.js';
import { DEFAULT_IMPORT_BATCH, type ImportSummary } from './import-checkpoint.js';
import { importAserSqlite } from './import-aser-sqlite.js';
import { importJsonlEdges } from './import-jsonl.js';

export interface ImportGraphOptions {
  /** The store to write: a SQLite file (created if missing) or a bolt:// / neo4j:// URL. */
  to: string;
  /** An ASER SQLite dump (tables Eventualities, Relations), imported first. */
  aserSqlite?: string;
  /** JSONL edge lists, imported in order after the dump. */
  jsonl?: readonly string[];
  onError?: OnError;
  /** Where skipped records go (default: `<to>.rejects.jsonl`, or `import.rejects.jsonl` for a server). */
  rejects?: string;
  /** Records per write transaction (default DEFAULT_IMPORT_BATCH). */
  batchSize?: number;
  /** Ignore the checkpoints of an earlier run and write everything again. */
  restart?: boolean;
  /** Limits on the inputs' lines and node texts (core/jsonl-batches.ts). */
  limits?: InputLimits;
}

export interface ImportGraphResult {
  imports: ImportSummary[];
  /** Null unless onError is 'skip'; `path` is null when nothing was rejected (no file is written). */
  rejects: { count: number; path: string | null; summary: string } | null;
}

export function defaultRejectsPath(to: string): string {
  return isNeo4jUri(to) ? 'import.rejects.jsonl' : `${to}.rejects.jsonl`;
}

/** What importGraph reads and writes, checked before any work. */
export function importPaths(options: ImportGraphOptions): PathChecks {
  const jsonl = options.jsonl ?? [];
  const skip = (options.onError ?? 'fail') === 'skip';
  return {
    inputFiles: {
      aserSqlite: options.aserSqlite,
      ...Object.fromEntries(jsonl.map((file, i) => [`jsonl[${i}]`, file])),
    },
    outputFiles: {
      to: graphStoreFile(options.to),
      rejects: skip ? (options.rejects ?? defaultRejectsPath(options.to)) : undefined,
    },
  };
}

export async function importGraph(options: ImportGraphOptions): Promise<ImportGraphResult> {
  const jsonl = options.jsonl ?? [];
  if (!options.aserSqlite && jsonl.length === 0) throw new ConfigError('aserSqlite or jsonl', 'must name an input');
  checkPaths(importPaths(options));
  const onError = options.onError ?? 'fail';
  const rejects = onError === 'skip' ? new RejectsSink(options.rejects ?? defaultRejectsPath(options.to)) : undefined;
  const writer = await openGraphWriter(options.to);
  const imports: ImportSummary[] = [];
  try {
    const common = {
      onError,
      rejects,
      batchSize: options.batchSize ?? DEFAULT_IMPORT_BATCH,
      restart: options.restart ?? false,
      limits: options.limits,
    };
    if (options.aserSqlite) imports.push(await importAserSqlite(writer, options.aserSqlite, common));
    for (const file of jsonl) imports.push(await importJsonlEdges(writer, file, common));
  } finally {
    await writer.close();
    await rejects?.close();
  }
  return {
    imports,
    rejects: rejects
      ? { count: rejects.count, path: rejects.count > 0 ? rejects.path : null, summary: rejects.summary() }
      : null,
  };
}
