// Outputs appear whole or not at all: write to a temporary file (or folder) beside the target, then rename.
// Until then the temporary file is removed on every path: commit or write failure, abort, and Ctrl-C
// or SIGTERM (core/interrupt.ts); one left by `kill -9` is removed by the next run that writes there
// (removeStaleTemporaryFiles).
import { close, createWriteStream, openSync, writeFile as writeToFd, type WriteStream } from 'node:fs';
import { promisify } from 'node:util';
import { rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { removeOnInterrupt, temporaryPathFor } from './temporary-files.js';
import { makeDirs } from './make-dirs.js';

/**
 * An output on its way: `tmp` (beside `path`, a file or a folder) is written by the caller, then
 * `commit()` renames it into place or `abort()` removes it. Until either, an interrupt removes it.
 * Every output of this tool that appears whole goes through here (writeAtomically, openAtomicWriter,
 * the .npy row writer, graph outputs, the GloVe cache folder, HNSW index files).
 */
export interface TemporaryOutput {
  readonly path: string;
  readonly tmp: string;
  /** Renames `tmp` to `path`; if that fails, removes `tmp` and throws. */
  commit(): Promise<void>;
  /** Removes `tmp` (a file or a folder); harmless after commit. */
  abort(): Promise<void>;
}

export async function openTemporaryOutput(path: string): Promise<TemporaryOutput> {
  await makeDirs(dirname(path));
  const tmp = temporaryPathFor(path);
  const forget = removeOnInterrupt(tmp);
  return {
    path,
    tmp,
    async commit() {
      try {
        await rename(tmp, path);
      } catch (err) {
        await rm(tmp, { recursive: true, force: true });
        throw err;
      } finally {
        forget();
      }
    },
    async abort() {
      try {
        await rm(tmp, { recursive: true, force: true });
      } finally {
        forget();
      }
    },
  };
}

/** Writes `path` whole: `write(tmp)` fills a temporary path beside it, which is then renamed into place. */
export async function writeAtomically<T>(path: string, write: (tmp: string) => Promise<T>): Promise<T> {
  const output = await openTemporaryOutput(path);
  let result: T;
  try {
    result = await write(output.tmp);
  } catch (err) {
    await output.abort();
    throw err;
  }
  await output.commit();
  return result;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await writeAtomically(path, async (tmp) => {
    // Opened synchronously, as in openAtomicWriter: an interrupt then always finds the file to remove.
    const fd = openSync(tmp, 'w');
    try {
      await promisify(writeToFd)(fd, data);
    } finally {
      await promisify(close)(fd);
    }
  });
}

/** A stream that writes to a temporary file; `commit()` renames it into place, `abort()` deletes it. */
export interface AtomicWriter {
  readonly path: string;
  /** Writes a chunk, waiting for the stream to drain when its buffer is full. */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Flushes, closes and renames into place; on failure the temporary file is removed and the error thrown. */
  commit(): Promise<void>;
  /** Discards the output: stops the stream (writes still pending are dropped) and removes the temporary file. */
  abort(): Promise<void>;
}

/** Resolves when the stream has closed, whether or not it failed (its error is kept by the writer). */
function closed(stream: WriteStream): Promise<void> {
  return stream.closed ? Promise.resolve() : new Promise((resolve) => stream.once('close', () => resolve()));
}

/** Resolves when the stream's buffer has drained, or when it closed instead (an abort, or an error). */
function drainedOrClosed(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

export async function openAtomicWriter(path: string): Promise<AtomicWriter> {
  const output = await openTemporaryOutput(path);
  // Opened synchronously: an open queued on libuv's threads can create the file after an interrupt
  // has removed it, leaving it behind when the process exits (test/faults/interrupts.test.ts).
  let fd: number;
  try {
    fd = openSync(output.tmp, 'w');
  } catch (err) {
    await output.abort();
    throw err;
  }
  const stream: WriteStream = createWriteStream(output.tmp, { fd });
  // The first error of the stream (a full disk, or a write cut short by abort) is kept and thrown
  // by the next write or commit; without a listener it would be an uncaught exception.
  let failure: Error | undefined;
  stream.on('error', (err) => {
    failure ??= err;
  });
  let settled = false;
  let aborted = false;
  return {
    path,
    async write(chunk) {
      if (aborted) return;
      if (failure) throw failure;
      if (!stream.write(chunk)) await drainedOrClosed(stream);
      // A write cut short by abort() is not a failure: the caller discarded the output.
      if (failure && !aborted) throw failure;
    },
    async commit() {
      if (settled) return;
      settled = true;
      try {
        if (!failure) {
          stream.end();
          await closed(stream);
        }
        if (failure) throw failure;
      } catch (err) {
        stream.destroy();
        await closed(stream);
        await output.abort();
        throw err;
      }
      await output.commit();
    },
    async abort() {
      if (settled) return;
      settled = true;
      aborted = true;
      // destroy() drops the buffered writes (each fails with ERR_STREAM_DESTROYED, which the error
      // listener above absorbs) and closes the file once the write in progress, if any, is done.
      stream.destroy();
      await closed(stream);
      await output.abort();
    },
  };
}
