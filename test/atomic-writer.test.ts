// Atomic outputs: a temporary file beside the target, renamed on commit, removed on abort, on a
// failed commit and on an interrupt; and the clean-up of those (and of scratch data in the temporary
// folder) a killed run left.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { openAtomicWriter, openTemporaryOutput, writeAtomically, writeFileAtomic } from '../core/atomic.js';
import { undoAllForInterrupt } from '../core/interrupt.js';
import { NpyRowWriter } from '../core/npy.js';
import {
  makeScratchFolder,
  parseTemporaryName,
  removeStaleScratch,
  removeStaleTemporaryFiles,
  temporaryPathFor,
} from '../core/temporary-files.js';
import { deadPid } from './support/faults.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hidden = (d: string) => readdirSync(d).filter((n) => n.startsWith('.'));

describe('AtomicWriter', () => {
  it('abort with writes still buffered: no stream error escapes, the temporary file is gone', async () => {
    const sub = join(dir, 'abort');
    const w = await openAtomicWriter(join(sub, 'out.jsonl'));
    // Awaited writes return before the stream has flushed them (as graph match wrote its lines).
    for (let i = 0; i < 200; i++) await w.write(`{"line":${i},"pad":"${'x'.repeat(200)}"}\n`);
    const errors: unknown[] = [];
    const onError = (err: unknown) => errors.push(err);
    process.on('uncaughtException', onError);
    try {
      await w.abort();
      await new Promise((r) => setTimeout(r, 50)); // where the old abort's ERR_STREAM_DESTROYED surfaced
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(errors).toEqual([]);
    expect(readdirSync(sub)).toEqual([]);
  });

  it('abort while a write waits for the buffer to drain: both settle', async () => {
    const w = await openAtomicWriter(join(dir, 'drain', 'out.bin'));
    const big = new Uint8Array(1 << 22);
    const pending = w.write(big); // more than the stream's buffer: waits for 'drain'
    await w.abort();
    await pending;
    expect(readdirSync(join(dir, 'drain'))).toEqual([]);
  });

  it('commit renames into place; a failed commit removes the temporary file and throws', async () => {
    const w = await openAtomicWriter(join(dir, 'ok', 'a.txt'));
    await w.write('hello\n');
    await w.commit();
    expect(readFileSync(join(dir, 'ok', 'a.txt'), 'utf8')).toBe('hello\n');
    expect(hidden(join(dir, 'ok'))).toEqual([]);
    // The target is a non-empty folder: rename fails.
    mkdirSync(join(dir, 'bad', 'b.txt', 'inside'), { recursive: true });
    const b = await openAtomicWriter(join(dir, 'bad', 'b.txt'));
    await b.write('x');
    await expect(b.commit()).rejects.toThrow();
    expect(hidden(join(dir, 'bad'))).toEqual([]);
  });

  it('an interrupt removes the temporary files of open writers (atomic, .npy) and nothing else', async () => {
    const sub = join(dir, 'interrupt');
    const text = await openAtomicWriter(join(sub, 'ids.txt'));
    await text.write('a\n');
    const npy = await NpyRowWriter.open(join(sub, 'v.npy'), 4);
    await npy.append(new Float32Array(8));
    await writeFileAtomic(join(sub, 'done.json'), '{}\n');
    expect(hidden(sub)).toHaveLength(2);
    expect(undoAllForInterrupt()).toBe(2);
    expect(readdirSync(sub)).toEqual(['done.json']);
    await text.abort();
    await npy.abort();
    expect(undoAllForInterrupt()).toBe(0); // settled writers unregistered themselves
  });
});

describe('temporary files', () => {
  it('names say which output and which process', () => {
    const tmp = temporaryPathFor(join(dir, 'x', 'graph.sqlite'));
    const name = tmp.slice(tmp.lastIndexOf('/') + 1);
    expect(parseTemporaryName(name)).toEqual({ target: 'graph.sqlite', pid: process.pid });
    expect(parseTemporaryName(name + '-wal')).toEqual({ target: 'graph.sqlite', pid: process.pid });
    for (const other of ['graph.sqlite', '.graph.sqlite.tmp', '.a.1.tmp', '.a.x.1.tmp', 'a.1.2.tmp'])
      expect(parseTemporaryName(other)).toBeUndefined();
  });

  it('removes those of dead processes only: anywhere in a folder, or beside a file for it and its namesakes', () => {
    const out = join(dir, 'stale');
    mkdirSync(join(out, 'chunks'), { recursive: true });
    const dead = deadPid();
    const files = {
      deadTop: join(out, `.manifest.json.${dead}.1.tmp`),
      deadNested: join(out, 'chunks', `.chunk-000001.npy.${dead}.2.tmp`),
      deadWal: join(out, `.node-embeddings.sqlite.${dead}.3.tmp-wal`),
      alive: join(out, `.ids.txt.${process.pid}.4.tmp`),
      user: join(out, 'notes.tmp'),
      userHidden: join(out, '.ids.txt.tmp'),
    };
    for (const f of Object.values(files)) writeFileSync(f, 'x');
    const removed = removeStaleTemporaryFiles(out, 'folder').sort();
    expect(removed).toEqual([files.deadNested, files.deadTop, files.deadWal].sort());
    for (const f of [files.alive, files.user, files.userHidden]) expect(existsSync(f)).toBe(true);

    const beside = join(dir, 'beside');
    mkdirSync(beside);
    const mine = join(beside, `.g.sqlite.${dead}.5.tmp`);
    const namesake = join(beside, `.g.sqlite.rejects.jsonl.${dead}.6.tmp`);
    const otherOutput = join(beside, `.h.sqlite.${dead}.7.tmp`);
    for (const f of [mine, namesake, otherOutput]) writeFileSync(f, 'x');
    expect(removeStaleTemporaryFiles(join(beside, 'g.sqlite'), 'file').sort()).toEqual([mine, namesake].sort());
    expect(existsSync(otherOutput)).toBe(true);
  });

  it('scratch in the temporary folder: a new folder names its process; those of dead processes go, under its prefix only', () => {
    const dead = deadPid();
    const entries = {
      deadFolder: join(tmpdir(), `intentsim-t.x-${dead}-abc123`),
      deadFile: join(tmpdir(), `intentsim-t.x-${dead}-17.hnsw`),
      alive: join(tmpdir(), `intentsim-t.x-${process.pid}-def456`),
      otherPrefix: join(tmpdir(), `intentsim-tax-${dead}-1`), // '.' is not a wildcard
      notAPid: join(tmpdir(), 'intentsim-t.x-notes'),
    };
    mkdirSync(entries.deadFolder);
    writeFileSync(join(entries.deadFolder, 'drafts.jsonl'), 'x');
    for (const f of [entries.deadFile, entries.alive, entries.otherPrefix, entries.notAPid]) writeFileSync(f, 'x');
    const scratch = makeScratchFolder('intentsim-t.x');
    try {
      expect(basename(scratch.dir)).toMatch(new RegExp(`^intentsim-t\\.x-${process.pid}-\\w{6}$`));
      for (const gone of [entries.deadFolder, entries.deadFile]) expect(existsSync(gone)).toBe(false);
      for (const kept of [entries.alive, entries.otherPrefix, entries.notAPid]) expect(existsSync(kept)).toBe(true);
      expect(removeStaleScratch('intentsim-t.x')).toEqual([]); // its own folder and the live one stay
      expect(existsSync(scratch.dir)).toBe(true);
      expect(undoAllForInterrupt()).toBe(1); // registered for an interrupt until forgotten
      expect(existsSync(scratch.dir)).toBe(false);
    } finally {
      scratch.forget();
      for (const f of Object.values(entries)) rmSync(f, { recursive: true, force: true });
    }
  });
});

describe('writeAtomically and openTemporaryOutput (the one home of write-then-rename)', () => {
  it('a folder output: built under a hidden name, renamed whole; the callback’s result is returned', async () => {
    const target = join(dir, 'folder-out', 'cache');
    const result = await writeAtomically(target, async (tmp) => {
      expect(tmp).not.toBe(target);
      expect(parseTemporaryName(basename(tmp))?.target).toBe('cache');
      mkdirSync(tmp);
      writeFileSync(join(tmp, 'a.txt'), 'A');
      expect(existsSync(target)).toBe(false);
      return 42;
    });
    expect(result).toBe(42);
    expect(readFileSync(join(target, 'a.txt'), 'utf8')).toBe('A');
    expect(readdirSync(join(dir, 'folder-out'))).toEqual(['cache']);
  });

  it('a failing write leaves neither the target nor the temporary folder', async () => {
    const parent = join(dir, 'folder-fail');
    await expect(
      writeAtomically(join(parent, 'cache'), async (tmp) => {
        mkdirSync(tmp);
        writeFileSync(join(tmp, 'half.txt'), 'x');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(readdirSync(parent)).toEqual([]);
  });

  it('an interrupt before commit removes a temporary folder (with its files)', async () => {
    const parent = join(dir, 'folder-interrupt');
    const output = await openTemporaryOutput(join(parent, 'cache'));
    mkdirSync(output.tmp);
    writeFileSync(join(output.tmp, 'part.npy'), 'x');
    expect(undoAllForInterrupt()).toBe(1);
    expect(readdirSync(parent)).toEqual([]);
    await output.abort(); // harmless afterwards
  });

  it('commit then abort: the output stays, and the interrupt handler no longer holds it', async () => {
    const target = join(dir, 'commit-abort', 'out.txt');
    const output = await openTemporaryOutput(target);
    writeFileSync(output.tmp, 'done');
    await output.commit();
    await output.abort();
    expect(readFileSync(target, 'utf8')).toBe('done');
    expect(undoAllForInterrupt()).toBe(0);
  });
});
