// Creating a folder and the folders above it that are missing, one level at a time.
//
// Node's own `mkdir(path, { recursive: true })` never returns on some file systems: under /proc
// (issue 45, fault 14: `items check … --out /proc/x`) mkdir answers ENOENT although the parent
// exists, and Node's recursive walk retries the parent and the child for ever, at 100% CPU, in one
// synchronous call that no signal handler can interrupt. Here the walk goes up once, to the nearest
// folder that exists, and down once, creating each level with a plain mkdir: a level that cannot
// be created fails with the system's error for that level.
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { FileError } from './file-errors.js';

/** The folder's or file's stat; undefined when nothing is there (or a level above is a file: ENOTDIR). */
function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/**
 * The levels of `path` to create, outermost first: none when it is a folder; itself when it is a
 * file, so that its mkdir fails with EEXIST as `mkdir -p` does.
 */
function missingLevels(path: string): string[] {
  const levels: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    const s = statOrUndefined(dir);
    if (s !== undefined) return s.isDirectory() || levels.length > 0 ? levels : [dir];
    levels.unshift(dir);
    if (dirname(dir) === dir) return levels;
  }
}

/** mkdir of one level, where a folder made there in the meantime (by another run) is no error. */
function isRaceLost(err: unknown, level: string): boolean {
  return (err as NodeJS.ErrnoException).code === 'EEXIST' && statSync(level).isDirectory();
}

/** The failure of one level's mkdir, naming that level (not the folder asked for, which may be deeper). */
function cannotCreate(err: unknown, level: string, path: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === undefined) return err;
  const deeper = level === resolve(path) ? '' : ` (to create ${path})`;
  return new FileError(
    level,
    code,
    `${level}: cannot create this folder${deeper}: mkdir failed with ${code}; give a path where folders can be made`,
    { cause: err },
  );
}

/** Creates `path` and the missing folders above it (`mkdir -p`); a folder already there is fine. */
export function makeDirsSync(path: string): void {
  for (const level of missingLevels(path)) {
    try {
      mkdirSync(level);
    } catch (err) {
      if (!isRaceLost(err, level)) throw cannotCreate(err, level, path);
    }
  }
}

/** makeDirsSync, for async code (the walk up is the same synchronous stat: a few calls). */
export async function makeDirs(path: string): Promise<void> {
  for (const level of missingLevels(path)) {
    try {
      await mkdir(level);
    } catch (err) {
      if (!isRaceLost(err, level)) throw cannotCreate(err, level, path);
    }
  }
}
