// Every path a command reads or writes is checked before any work starts: a missing assertions
// file should stop `pipeline` in a millisecond, not after an hour of embedding. Each library entry
// point lists its paths (a small `…Paths` function beside it, which the CLI also calls before it
// opens a model) and hands them to `checkPaths`; the errors are core/file-errors.ts's, so a path
// checked here fails with the same words as one that fails later.
//
// The same check refuses an output that is, holds or lies inside one of the command's inputs
// (issue 35: `audit --items run/items --out run` removed the items before reading them). The paths
// are compared as the file system resolves them (links followed), before anything is written. A
// command's own resume state (an `ask` responses file, a pipeline's node cache in OUT/cache) is an
// output, never an input, so reading it back is no overlap.
import { accessSync, constants, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UserError } from './errors.js';
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
  /**
   * A model's folder and cache: read through the model's resolution, which says where it looked and
   * how to supply a model when nothing is there, and a cache is filled only with what is missing; so
   * they need not exist nor be writable. Each must not be a file. No overlap is checked: a model
   * folder inside the cache is the cache's own content, and no command writes over a model's files.
   */
  modelDirs?: NamedPaths;
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

function checkModelDir(path: string, field: string): void {
  if (stat(path)?.isDirectory() === false)
    throw fail(
      path,
      field,
      'ENOTDIR',
      'is a file, not a folder',
      'give the path of a folder (it is created if missing)',
    );
}

function checkOutputFile(path: string, field: string): void {
  const s = stat(path);
  if (s?.isDirectory()) throw fail(path, field, 'EISDIR', 'is a folder, not a file', 'give the path of a file');
  // `--mturk-csv new/`: a folder's name, whose write fails with EISDIR after the other outputs (issue 45).
  if (path.endsWith('/') || path.endsWith(sep))
    throw fail(path, field, 'EISDIR', 'names a folder (it ends with a slash), not a file', 'give the path of a file');
  checkWritableDir(dirname(path), field);
}

/**
 * An output that is, holds or lies inside an input: writing it could replace or remove the input;
 * or an output that is another output of the command (`also`): one would be written over the other.
 * `field` and `inputField` are option fields (the CLI names its flags instead); for `also`, the
 * "input" is the other output.
 */
export type OverlapRelation = 'is' | 'holds' | 'inside' | 'also';

export class PathOverlapError extends UserError {
  constructor(
    readonly path: string,
    readonly field: string,
    readonly inputPath: string,
    readonly inputField: string,
    readonly relation: OverlapRelation,
  ) {
    super(PathOverlapError.describe(path, field, inputPath, inputField, relation));
    this.name = 'PathOverlapError';
  }

  /** The message, with each path followed by the name of what gave it (a field, or the CLI's flag). */
  static describe(
    path: string,
    field: string,
    inputPath: string,
    inputField: string,
    relation: OverlapRelation,
  ): string {
    const input = `${inputPath} (${inputField})`;
    if (relation === 'also')
      return (
        `${path} (${field}): the output is also the output ${input}: one would be written over the other; ` +
        'give each output a path of its own (nothing was written)'
      );
    const what =
      relation === 'is'
        ? `is the input ${input}: writing it would destroy the input`
        : relation === 'holds'
          ? `holds the input ${input}: writing into it could replace or remove the input`
          : `lies inside the input ${input}: writing it would change the input`;
    return `${path} (${field}): the output ${what}; give an output outside every input (nothing was written)`;
  }
}

/**
 * The path as the file system resolves it: the real path of its nearest existing ancestor (links
 * followed) joined with the part that does not exist yet.
 */
export function resolvedPath(path: string): string {
  let head = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(head), ...rest.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
    }
    const parent = dirname(head);
    if (parent === head) return resolve(path);
    rest.push(basename(head));
    head = parent;
  }
}

/** How `output` stands to `input` (both resolved): the same path, above it, below it, or apart. */
function overlap(output: string, input: string): 'is' | 'holds' | 'inside' | undefined {
  if (output === input) return 'is';
  const below = (a: string, b: string) => {
    const r = relative(a, b);
    return r !== '' && r !== '..' && !r.startsWith('..' + sep) && !isAbsolute(r);
  };
  if (below(output, input)) return 'holds';
  if (below(input, output)) return 'inside';
  return undefined;
}

/**
 * Refuses the first output that is, holds or lies inside an input (see the file comment), then the
 * first output that is another output: `review export --out O --mturk-csv O/labels.jsonl` would
 * write the CSV over its own labels. (One output inside another is how commands nest their files:
 * OUT/cache, OUT/items; only the same path twice is refused.)
 */
export function checkNoOverlap(checks: PathChecks): void {
  const named = (groups: Array<NamedPaths | undefined>) =>
    groups.flatMap((g) =>
      Object.entries(g ?? {}).flatMap(([field, path]) =>
        path === undefined ? [] : [{ field, path, real: resolvedPath(path) }],
      ),
    );
  const inputs = named([checks.inputFiles, checks.inputDirs]);
  const outputs = named([checks.outputDirs, checks.outputFiles]);
  for (const o of outputs) {
    for (const i of inputs) {
      const relation = overlap(o.real, i.real);
      if (relation !== undefined) throw new PathOverlapError(o.path, o.field, i.path, i.field, relation);
    }
  }
  outputs.forEach((o, k) => {
    const earlier = outputs.slice(0, k).find((e) => e.real === o.real);
    if (earlier !== undefined) throw new PathOverlapError(o.path, o.field, earlier.path, earlier.field, 'also');
  });
}

/**
 * Checks every path; the first problem is a FileError naming the path, its field and what to do,
 * or a PathOverlapError naming an output and the input it would overwrite.
 */
export function checkPaths(checks: PathChecks): void {
  const groups: Array<[NamedPaths | undefined, (path: string, field: string) => void]> = [
    [checks.inputFiles, checkInputFile],
    [checks.inputDirs, checkInputDir],
    [checks.outputDirs, checkOutputDir],
    [checks.outputFiles, checkOutputFile],
    [checks.modelDirs, checkModelDir],
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
  checkNoOverlap(checks);
}
