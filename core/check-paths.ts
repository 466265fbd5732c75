// Every path a command reads or writes is checked before any work starts: a missing assertions
// file should stop `pipeline` in a millisecond, not after an hour of embedding. Each library entry
// point lists its paths (a small `…Paths` function beside it, which the CLI also calls before it
// opens a model) and hands them to `checkPaths`; the errors are core/file-errors.ts's, so a path
// checked here fails with the same words as one that fails later.
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FileError, fileError } from './file-errors.js';

/** Paths by the option field that names them (`undefined`: the option was not given). */
export type NamedPaths = Record<string, string | undefined>;

export interface PathChecks {
  /** Files that must exist and be readable. */
  inputFiles?: NamedPaths;
  /** Folders that must exist and be readable. */
  inputDirs?: NamedPaths;
  /** Folders written into: each exists as a folder, or can be created, and is writable. */
  outputDirs?: NamedPaths;
  /** Files written: each is not a folder, and its folder exists or can be created, and is writable. */
  outputFiles?: NamedPaths;
}

function stat(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    // ENOTDIR: a part of the path is a file; the walk up to it says so.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** A path that fails its check; `field` is the option field that named it (the CLI names its flag instead). */
export class PathCheckError extends FileError {
  constructor(
    path: string,
    code: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(path, code, `${path} (${field}): ${problem}`);
    this.name = 'PathCheckError';
  }
}

function fail(path: string, field: string, code: string, problem: string, action: string): FileError {
  return new PathCheckError(path, code, field, `${problem}; ${action}`);
}

function checkInputFile(path: string, field: string): void {
  const s = stat(path);
  if (s === undefined) throw fail(path, field, 'ENOENT', 'no such file', 'check the path');
  if (s.isDirectory()) throw fail(path, field, 'EISDIR', 'is a folder, not a file', 'give the path of a file');
  accessSync(path, constants.R_OK);
}

function checkInputDir(path: string, field: string): void {
  const s = stat(path);
  if (s === undefined) throw fail(path, field, 'ENOENT', 'no such folder', 'check the path');
  if (!s.isDirectory()) throw fail(path, field, 'ENOTDIR', 'is a file, not a folder', 'give the path of a folder');
  accessSync(path, constants.R_OK);
}

/** A folder that exists, or the nearest folder above it that does, must be a writable folder. */
function checkWritableDir(path: string, field: string): void {
  let dir = resolve(path);
  for (;;) {
    const s = stat(dir);
    if (s !== undefined) {
      if (!s.isDirectory())
        throw fail(dir, field, 'ENOTDIR', `is a file, so ${path} cannot be created`, 'check the path');
      accessSync(dir, constants.W_OK);
      return;
    }
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

function checkOutputDir(path: string, field: string): void {
  const s = stat(path);
  if (s !== undefined && !s.isDirectory())
    throw fail(
      path,
      field,
      'ENOTDIR',
      'is a file, not a folder',
      'give the path of a folder (it is created if missing)',
    );
  checkWritableDir(path, field);
}

function checkOutputFile(path: string, field: string): void {
  const s = stat(path);
  if (s?.isDirectory()) throw fail(path, field, 'EISDIR', 'is a folder, not a file', 'give the path of a file');
  checkWritableDir(dirname(path), field);
}

/** Checks every path; the first problem is a FileError naming the path, its field and what to do. */
export function checkPaths(checks: PathChecks): void {
  const groups: Array<[NamedPaths | undefined, (path: string, field: string) => void]> = [
    [checks.inputFiles, checkInputFile],
    [checks.inputDirs, checkInputDir],
    [checks.outputDirs, checkOutputDir],
    [checks.outputFiles, checkOutputFile],
  ];
  for (const [paths, check] of groups) {
    for (const [field, path] of Object.entries(paths ?? {})) {
      if (path === undefined) continue;
      try {
        check(path, field);
      } catch (err) {
        throw fileError(err, path, { what: field });
      }
    }
  }
}
