// Failures of the file system and of SQLite, as errors a user can act on. Node and SQLite say what
// went wrong ("EISDIR: illegal operation on a directory, read", "database is locked") but often not
// on which file, and never what to do; `fileError` adds both. It is called wherever a file is opened
// or read (JSONL readers, the SQLite stores, the node cache, manifests), with the path in hand.
import { readFile } from 'node:fs/promises';
import { UserError } from './errors.js';

/** A file-system or SQLite failure on a known path: the message names the path and what to do. */
export class FileError extends UserError {
  constructor(
    readonly path: string,
    /** The code of the underlying failure: `ENOENT`, `EISDIR`, `SQLITE_BUSY`, `invalid-json`, … */
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'FileError';
  }
}

export interface FileErrorContext {
  /** What the file is to the caller, e.g. "products file", "graph store", "node embedding cache". */
  what?: string;
  /** What to do when the file is damaged (a SQLite file that is corrupt, JSON that does not parse). */
  ifDamaged?: string;
}

/** The node embedding cache (embeddings/node-cache.ts): a damaged one is deleted and rebuilt. */
export const NODE_CACHE_FILE_CONTEXT: FileErrorContext = {
  what: 'node embedding cache',
  ifDamaged: 'delete it (and its -wal and -shm files): the cache is filled again as nodes are embedded',
};

/** Node's system errors (ENOENT, EACCES, …) carry a `code` and a `syscall`. */
function systemCode(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException | undefined;
  return e instanceof Error && typeof e.code === 'string' && typeof e.syscall === 'string' ? e.code : undefined;
}

/** True for a failure of SQLite (better-sqlite3's SqliteError), which never names its file. */
export function isSqliteFailure(err: unknown): boolean {
  return sqliteCode(err) !== undefined;
}

/** better-sqlite3's SqliteError carries a `SQLITE_…` code (an extended code starts with the primary one). */
function sqliteCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

const SYSTEM_PROBLEMS: Record<string, [problem: string, action: string]> = {
  ENOENT: ['no such file or folder', 'check the path'],
  EISDIR: ['is a folder, not a file', 'give the path of a file'],
  ENOTDIR: ['a part of the path is a file, not a folder', 'check the path'],
  EACCES: ['permission denied', "check the file's and its folder's permissions"],
  EPERM: ['operation not permitted', "check the file's and its folder's permissions"],
  EROFS: ['the file system is read-only', 'write somewhere else'],
  ENOSPC: ['no space left on the device', 'free some space, or write somewhere else'],
  EDQUOT: ['disk quota exceeded', 'free some space, or write somewhere else'],
  EMFILE: ['too many open files', 'raise the limit (ulimit -n) or run fewer jobs at once'],
  ENAMETOOLONG: ['the file name is too long', 'use a shorter path'],
  EEXIST: ['already exists', 'remove it or choose another path'],
  ENOTEMPTY: ['is a folder that is not empty', 'remove it or choose another path'],
};

/** Primary SQLite result codes (an extended code such as SQLITE_BUSY_SNAPSHOT maps to its primary one). */
const SQLITE_PROBLEMS: Record<string, [problem: string, action: string]> = {
  SQLITE_BUSY: [
    'the database is locked by another process',
    'wait for the other process (another run on the same file) to finish, or stop it, then run again',
  ],
  SQLITE_LOCKED: [
    'the database is locked by another process',
    'wait for the other process (another run on the same file) to finish, or stop it, then run again',
  ],
  SQLITE_READONLY: [
    'cannot write: the database is read-only',
    'make the file and its folder writable (or choose another path)',
  ],
  SQLITE_CANTOPEN: ['cannot open the database file', 'check that its folder exists and is writable'],
  SQLITE_FULL: ['the disk is full', 'free some space, or write somewhere else'],
  SQLITE_IOERR: ['a disk I/O error', 'check the disk and the file system'],
  SQLITE_PERM: ['permission denied', "check the file's and its folder's permissions"],
  SQLITE_CORRUPT: ['the database is damaged (database disk image is malformed)', 'delete it and build it again'],
  SQLITE_NOTADB: ['not a SQLite database (or a damaged one)', 'check the path, or delete the file and build it again'],
};

function primary(code: string): string {
  const second = code.indexOf('_', 'SQLITE_'.length);
  return second === -1 ? code : code.slice(0, second);
}

/**
 * `err` as a FileError naming `path` and what to do, when it is a file-system or SQLite failure (or
 * a FileError already, returned as it is); any other error is returned unchanged.
 */
export function fileError(err: unknown, path: string, context: FileErrorContext = {}): unknown {
  if (err instanceof FileError) return err;
  const what = context.what ? ` (${context.what})` : '';
  const sys = systemCode(err);
  if (sys !== undefined) {
    const [problem, action] = SYSTEM_PROBLEMS[sys] ?? [(err as Error).message, 'check the path'];
    return new FileError(path, sys, `${path}${what}: ${problem}; ${action}`, { cause: err });
  }
  const sqlite = sqliteCode(err);
  if (sqlite !== undefined) {
    const known = SQLITE_PROBLEMS[primary(sqlite)];
    const damaged = primary(sqlite) === 'SQLITE_CORRUPT' || primary(sqlite) === 'SQLITE_NOTADB';
    const problem = known?.[0] ?? `SQLite failed: ${(err as Error).message}`;
    const action = damaged && context.ifDamaged ? context.ifDamaged : (known?.[1] ?? 'check the file');
    return new FileError(path, sqlite, `${path}${what}: ${problem}; ${action}`, { cause: err });
  }
  // better-sqlite3 checks a folder's existence itself, with a message of its own.
  if (err instanceof TypeError && /directory does not exist/.test(err.message)) {
    return new FileError(path, 'ENOENT', `${path}${what}: its folder does not exist; check the path`, { cause: err });
  }
  return err;
}

/** Runs `work`, turning a file-system or SQLite failure into a FileError about `path`. */
export function withFileErrors<T>(path: string, context: FileErrorContext, work: () => T): T {
  try {
    return work();
  } catch (err) {
    throw fileError(err, path, context);
  }
}

/** The async form of withFileErrors. */
export async function withFileErrorsAsync<T>(
  path: string,
  context: FileErrorContext,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw fileError(err, path, context);
  }
}

/**
 * A JSON file (a manifest, a marker) parsed: a file that cannot be read or does not parse (empty,
 * truncated by a crash, overwritten) is a FileError naming it and what to do.
 */
export async function readJsonFile(path: string, context: FileErrorContext = {}): Promise<unknown> {
  const text = await withFileErrorsAsync(path, context, () => readFile(path, 'utf8'));
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const what = context.what ? ` (${context.what})` : '';
    const action = context.ifDamaged ?? 'it is damaged or truncated: delete it and run again';
    throw new FileError(path, 'invalid-json', `${path}${what}: not valid JSON (${(err as Error).message}); ${action}`, {
      cause: err,
    });
  }
}
