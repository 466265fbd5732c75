// What a command does before it writes an output (a folder, a file or a SQLite graph store):
//   1. takes the output's lock (core/output-lock.ts): one writer at a time, a stale lock taken over;
//   2. removes the temporary files that killed runs left there (core/temporary-files.ts);
//   3. removes the output's completion file (its manifest, written last), so that a manifest that
//      is present always means "complete and consistent": a rerun killed half-way leaves no old
//      manifest next to new partial files.
// `release` removes the lock; the command writes the completion file last, before releasing.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { notice } from './notice.js';
import { lockOutput } from './output-lock.js';
import { removeStaleTemporaryFiles } from './temporary-files.js';
import { makeDirsSync } from './make-dirs.js';

export interface OutputClaim {
  release(): void;
}

export interface ClaimOptions {
  /** Files (paths) that a finished run writes last: removed before anything else is written. */
  completionFiles?: readonly string[];
}

export function claimOutput(target: string, kind: 'folder' | 'file', options: ClaimOptions = {}): OutputClaim {
  makeDirsSync(kind === 'folder' ? target : dirname(target));
  const lock = lockOutput(target, kind, (holder, path) =>
    notice(
      `took over the lock ${path}: intentsim pid ${holder.pid} (${holder.command}), which took it at ${holder.since}, no longer runs`,
    ),
  );
  try {
    const removed = removeStaleTemporaryFiles(target, kind);
    if (removed.length > 0)
      notice(`removed ${removed.length} temporary file(s) that an interrupted run left in ${target}`);
    for (const file of options.completionFiles ?? []) rmSync(file, { force: true });
  } catch (err) {
    lock.release();
    throw err;
  }
  return { release: () => lock.release() };
}

/** Runs `write` holding the claim of `target`, released however `write` ends. */
export async function withClaimedOutput<T>(
  target: string,
  kind: 'folder' | 'file',
  options: ClaimOptions,
  write: () => Promise<T>,
): Promise<T> {
  const claim = claimOutput(target, kind, options);
  try {
    return await write();
  } finally {
    claim.release();
  }
}
