// Resumable imports. Every importer writes through idempotent upserts, so re-running an import never
// duplicates anything; on top of that, a store that can keep checkpoints (the SQLite store does)
// records after each committed batch how far an import got, and a re-run after a crash skips the
// writes of the records that were committed (it still reads and validates them, so that counts and
// the rejects file are complete). The checkpoint is written after its batch commits: a crash in
// between makes the re-run write that batch again, which the upserts make harmless. A checkpoint
// names its source by size, modification time and the SHA-256 of its content: a source edited in
// place with the same size and time (issue 45: it resumed with the old weights) starts over.
import { stat } from 'node:fs/promises';
import { checksumOfFile } from '../../core/checksum.js';
import { resolve } from 'node:path';
import type { GraphWriter } from '../graph-store.js';

/** Optional capability of a GraphWriter: a small key → JSON-text store for import progress. */
export interface ImportCheckpoints {
  readCheckpoint(key: string): Promise<string | undefined>;
  writeCheckpoint(key: string, value: string): Promise<void>;
}

export function hasCheckpoints(writer: GraphWriter): writer is GraphWriter & ImportCheckpoints {
  const w = writer as Partial<ImportCheckpoints>;
  return typeof w.readCheckpoint === 'function' && typeof w.writeCheckpoint === 'function';
}

/**
 * Optional capability of a GraphWriter: cheaper bulk loading into an empty store (the SQLite store
 * stages edges as packed runs and, at the end, merges them in key order and builds its by-tail index
 * once; into a store without nodes it also numbers nodes itself and builds the node-text index once,
 * instead of updating each B-tree entry by entry in random order). Importers call `beginBulkLoad`
 * (a no-op for a store that already has edges); the writer's `close` (or `endBulkLoad`) finishes it.
 */
export interface BulkLoad {
  beginBulkLoad(): Promise<void>;
  endBulkLoad(): Promise<void>;
}

export function supportsBulkLoad(writer: GraphWriter): writer is GraphWriter & BulkLoad {
  const w = writer as Partial<BulkLoad>;
  return typeof w.beginBulkLoad === 'function' && typeof w.endBulkLoad === 'function';
}

/** Records per write transaction unless told otherwise: large transactions matter at scale
 * (each commit rewrites every page it touched; 10k-edge commits were 2× slower than 100k at 2M edges). */
export const DEFAULT_IMPORT_BATCH = 100_000;

export type ImportFormat = 'jsonl' | 'aser-sqlite';

/** What a store records about one import of one source file. */
export interface ImportCheckpoint {
  format: ImportFormat;
  source: string;
  /** The source file's size, modification time and content's SHA-256: a changed file starts over. */
  size: number;
  mtimeMs: number;
  sha256: string;
  /** Which part of the source `done` refers to (the ASER importer has two phases). */
  phase: string;
  /** Every record of `phase` up to this line / rowid is committed. */
  done: number;
  complete: boolean;
  updatedAt: string;
}

/** Where an importer starts: `phase` and the last committed position in it (0 = from the start). */
export interface ResumePoint {
  phase: string | undefined;
  done: number;
  complete: boolean;
}

export class CheckpointLog {
  private constructor(
    private readonly writer: GraphWriter,
    readonly key: string,
    private readonly base: Pick<ImportCheckpoint, 'format' | 'source' | 'size' | 'mtimeMs'>,
    /** The source's SHA-256, computed beside the import (awaited before a resume and by each record). */
    private readonly content: Promise<string>,
    readonly resume: ResumePoint,
  ) {}

  /** Reads the checkpoint of `file` (ignored with `restart`, or when the file changed since). */
  static async open(writer: GraphWriter, format: ImportFormat, file: string, restart: boolean): Promise<CheckpointLog> {
    const source = resolve(file);
    const st = await stat(file);
    const base = { format, source, size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
    const key = `${format}:${source}`;
    // Only a store that keeps checkpoints needs the content's checksum. A first run hashes the file
    // while it imports (the promise is awaited by the first record); a resume waits for it first.
    const content = hasCheckpoints(writer) ? checksumOfFile(file).then((c) => c.sha256) : Promise.resolve('');
    content.catch(() => undefined); // an error surfaces where the promise is awaited
    let resume: ResumePoint = { phase: undefined, done: 0, complete: false };
    if (!restart && hasCheckpoints(writer)) {
      const text = await writer.readCheckpoint(key);
      if (text !== undefined) {
        const cp = JSON.parse(text) as Partial<ImportCheckpoint>;
        if (cp.size === base.size && cp.mtimeMs === base.mtimeMs && cp.sha256 === (await content))
          resume = { phase: cp.phase, done: cp.done ?? 0, complete: cp.complete ?? false };
      }
    }
    return new CheckpointLog(writer, key, base, content, resume);
  }

  async record(phase: string, done: number, complete = false): Promise<void> {
    if (!hasCheckpoints(this.writer)) return;
    const cp: ImportCheckpoint = {
      ...this.base,
      sha256: await this.content,
      phase,
      done,
      complete,
      updatedAt: new Date().toISOString(),
    };
    await this.writer.writeCheckpoint(this.key, JSON.stringify(cp));
  }
}

/** The outcome of one import, printed by `graph import`. */
export interface ImportSummary {
  format: ImportFormat;
  source: string;
  /** Records read: JSONL lines (blank ones excluded) or ASER rows (both tables). */
  records: number;
  /** Nodes and edges written by this run. */
  nodesWritten: number;
  edgesWritten: number;
  /** Records an earlier run had already committed: validated again, not written again. */
  alreadyImported: number;
  rejected: number;
  /** ASER rows whose sense columns are all 0: imported as edges without senses (they still connect nodes). */
  edgesWithoutSenses: number;
  /** Relations columns that are neither keys nor senses and not numeric: not imported. */
  ignoredColumns: string[];
  seconds: number;
}

export function emptySummary(format: ImportFormat, source: string): ImportSummary {
  return {
    format,
    source: resolve(source),
    records: 0,
    nodesWritten: 0,
    edgesWritten: 0,
    alreadyImported: 0,
    rejected: 0,
    edgesWithoutSenses: 0,
    ignoredColumns: [],
    seconds: 0,
  };
}
