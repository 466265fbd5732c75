// The temporary files that outputs are written to before they are renamed into place, and the scratch
// data a run keeps in the system's temporary folder: their names, their removal when the process is
// interrupted, and the removal of those a killed run left behind.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { undoOnInterrupt } from './interrupt.js';
import { isProcessAlive } from './process-alive.js';

/**
 * The name an output is written under before it is renamed into place: beside it (the same file
 * system, so the rename is atomic), hidden, and unique to this process and moment, so that two
 * writers of the same output never share a temporary file. The process id in the name is how a
 * later run tells a file left by a killed process from one still being written.
 */
export function temporaryPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
}

/** What SQLite keeps beside a database file while it is open (WAL mode, or a rollback journal). */
const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

const TEMPORARY_NAME = /^\.(.+)\.(\d+)\.(\d+)\.tmp(?:-wal|-shm|-journal)?$/;

/** The output a temporary file of this tool stands for and the process writing it; undefined for any other name. */
export function parseTemporaryName(name: string): { target: string; pid: number } | undefined {
  const m = TEMPORARY_NAME.exec(name);
  return m ? { target: m[1]!, pid: Number(m[2]) } : undefined;
}

/** Removes `tmp` (a file or a folder, and SQLite's side files of it) if the process is interrupted; the returned function cancels that. */
export function removeOnInterrupt(tmp: string): () => void {
  return undoOnInterrupt(() => {
    for (const suffix of ['', ...SQLITE_SIDE_FILES]) rmSync(tmp + suffix, { recursive: true, force: true });
  });
}

/** How deep into an output folder temporary files are looked for: the deepest output is 3 levels down
 * (`demo/intentionqa/embeddings/…`), and an output pointed at a large folder must not cost a full walk. */
const MAX_DEPTH = 3;

/**
 * Removes the temporary files of this tool whose process is gone (a run killed by `kill -9`, a power
 * cut): for a folder output, in the folder and its subfolders (MAX_DEPTH levels); for a file output,
 * beside it, those of the file and of the files named after it (`graph.sqlite.rejects.jsonl` for
 * `graph.sqlite`). Other files, and temporary files of processes that still run, are left alone.
 * Returns the paths removed.
 */
export function removeStaleTemporaryFiles(target: string, kind: 'folder' | 'file'): string[] {
  const removed: string[] = [];
  const visit = (dir: string, depth: number, owns: (output: string) => boolean) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) visit(path, depth + 1, owns);
        continue;
      }
      if (!entry.isFile()) continue;
      const tmp = parseTemporaryName(entry.name);
      if (!tmp || !owns(tmp.target) || isProcessAlive(tmp.pid)) continue;
      rmSync(path, { force: true });
      removed.push(path);
    }
  };
  if (kind === 'folder') visit(target, 0, () => true);
  else visit(dirname(target), MAX_DEPTH, (output) => output.startsWith(basename(target)));
  return removed;
}

/**
 * The name of a scratch entry in the system's temporary folder: `PREFIX-PID-…`, the process id telling
 * a later run which entries a killed process left.
 */
export function scratchPathFor(prefix: string, unique: string): string {
  return join(tmpdir(), `${prefix}-${process.pid}-${unique}`);
}

/**
 * Removes the entries (files or folders) `PREFIX-PID-…` of the system's temporary folder whose process
 * is gone: scratch data of a run killed by `kill -9` or a power cut, which no interrupt handler could
 * remove (a spill at 1M assertions passes a gigabyte). Entries of running processes, this one's
 * included, and every other name are left alone. Returns the paths removed.
 */
export function removeStaleScratch(prefix: string): string[] {
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)-`);
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return removed; // no temporary folder to tidy: nothing to do
  }
  for (const name of names) {
    const m = pattern.exec(name);
    if (!m || isProcessAlive(Number(m[1]))) continue;
    const path = join(tmpdir(), name);
    try {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // another user's, or already gone: not ours to insist on
    }
  }
  return removed;
}

/**
 * A new folder in the system's temporary folder for this process's scratch data (`PREFIX-PID-…`),
 * removed if the process is interrupted until `forget` is called (after the caller removed it).
 * The folders and files that killed processes left under the same prefix are removed first.
 */
export function makeScratchFolder(prefix: string): { dir: string; forget: () => void } {
  removeStaleScratch(prefix);
  const dir = mkdtempSync(scratchPathFor(prefix, ''));
  return { dir, forget: removeOnInterrupt(dir) };
}
