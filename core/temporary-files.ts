// The temporary files that outputs are written to before they are renamed into place: their names,
// their removal when the process is interrupted, and the removal of those a killed run left behind.
import { existsSync, readdirSync, rmSync } from 'node:fs';
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
