// One writer per output: the lock (pid and host of the holder, stale locks taken over), and the
// claim a command makes before writing (lock, stale temporary files removed, manifest removed).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { checkNotLocked, lockOutput, lockPathFor, OutputLockedError, type LockHolder } from '../core/output-lock.js';
import { claimOutput, withClaimedOutput } from '../core/output-claim.js';
import { undoAllForInterrupt } from '../core/interrupt.js';
import { deadPid } from './support/faults.js';
import { cli } from './support/cli.js';
import { HashingSentenceEncoder } from '../embeddings/hashing-encoder.js';
import { buildCatalogIndex } from '../engine/catalog/build-catalog-index.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-claim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeLock(target: string, kind: 'folder' | 'file', holder: Partial<LockHolder>): string {
  const path = lockPathFor(target, kind);
  writeFileSync(path, JSON.stringify({ command: 'intentsim embed …', since: '2026-01-01T00:00:00.000Z', ...holder }));
  return path;
}

describe('output lock', () => {
  it('records pid, host and command; a second taker is refused with a message naming them; release frees it', () => {
    const out = join(dir, 'a');
    mkdirSync(out);
    const lock = lockOutput(out, 'folder');
    expect(lock.path).toBe(join(out, '.intentsim.lock'));
    const holder = JSON.parse(readFileSync(lock.path, 'utf8')) as LockHolder;
    expect(holder).toMatchObject({ pid: process.pid, host: hostname() });
    let err: unknown;
    try {
      lockOutput(out, 'folder');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OutputLockedError);
    expect((err as Error).message).toContain(`${out} is locked: intentsim pid ${process.pid} on host ${hostname()}`);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    lockOutput(out, 'folder').release();
  });

  it('a live holder keeps it; once its process is gone the lock is stale: reported and taken over', async () => {
    const out = join(dir, 'b');
    mkdirSync(out);
    const holderProcess = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeLock(out, 'folder', { pid: holderProcess.pid!, host: hostname() });
      expect(() => lockOutput(out, 'folder')).toThrow(`intentsim pid ${holderProcess.pid} on host ${hostname()}`);
    } finally {
      holderProcess.kill('SIGKILL');
      await new Promise((r) => holderProcess.once('exit', r));
    }
    const onStale = vi.fn();
    const lock = lockOutput(out, 'folder', onStale);
    expect(onStale).toHaveBeenCalledWith(expect.objectContaining({ pid: holderProcess.pid }), lock.path);
    expect(lock.tookOverFrom?.pid).toBe(holderProcess.pid);
    expect((JSON.parse(readFileSync(lock.path, 'utf8')) as LockHolder).pid).toBe(process.pid);
    lock.release();
  });

  it("never takes over another host's lock, and says how to remove it", () => {
    const out = join(dir, 'c.npy');
    const path = writeLock(out, 'file', { pid: deadPid(), host: 'elsewhere' });
    expect(path).toBe(join(dir, '.c.npy.intentsim.lock'));
    expect(() => lockOutput(out, 'file')).toThrow(
      /on host elsewhere .*cannot be checked from .*: if it no longer runs, delete/,
    );
    rmSync(path);
  });

  it('checkNotLocked throws what lockOutput would, takes nothing, and lets a free or stale output pass', () => {
    const out = join(dir, 'check');
    mkdirSync(out);
    checkNotLocked(out, 'folder'); // no lock
    expect(existsSync(lockPathFor(out, 'folder'))).toBe(false);
    const lock = lockOutput(out, 'folder');
    const taken = readFileSync(lock.path, 'utf8');
    let checked: unknown;
    let locked: unknown;
    try {
      checkNotLocked(out, 'folder');
    } catch (e) {
      checked = e;
    }
    try {
      lockOutput(out, 'folder');
    } catch (e) {
      locked = e;
    }
    expect(checked).toBeInstanceOf(OutputLockedError);
    expect((checked as Error).message).toBe((locked as Error).message);
    expect(readFileSync(lock.path, 'utf8')).toBe(taken); // untouched
    lock.release();
    const stale = writeLock(out, 'folder', { pid: deadPid(), host: hostname() });
    checkNotLocked(out, 'folder'); // a stale lock is the claim's to take over, not an error
    expect(existsSync(stale)).toBe(true);
    rmSync(stale);
    const remote = writeLock(out, 'folder', { pid: deadPid(), host: 'elsewhere' });
    expect(() => checkNotLocked(out, 'folder')).toThrow(/on host elsewhere .*cannot be checked from/);
    rmSync(remote);
  });

  it('an unreadable lock is left alone while it may be being written, and removed once old', () => {
    const out = join(dir, 'd');
    mkdirSync(out);
    const path = lockPathFor(out, 'folder');
    writeFileSync(path, '');
    expect(() => lockOutput(out, 'folder')).toThrow(/is being created by another run/);
    utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    lockOutput(out, 'folder').release();
  });

  it('is released by an interrupt', () => {
    const out = join(dir, 'e');
    mkdirSync(out);
    const lock = lockOutput(out, 'folder');
    expect(undoAllForInterrupt()).toBe(1);
    expect(existsSync(lock.path)).toBe(false);
  });
});

describe('claimOutput', () => {
  it('locks, removes stale temporary files and the completion files, and leaves everything else', async () => {
    const out = join(dir, 'claim');
    mkdirSync(join(out, 'items'), { recursive: true });
    const dead = deadPid();
    const stale = join(out, 'items', `.task1.jsonl.${dead}.1.tmp`);
    writeFileSync(stale, 'partial');
    writeFileSync(join(out, 'manifest.json'), '{}');
    writeFileSync(join(out, 'embeddings.npy'), 'old output');
    const seen = await withClaimedOutput(out, 'folder', { completionFiles: [join(out, 'manifest.json')] }, async () => {
      expect(() => claimOutput(out, 'folder')).toThrow(OutputLockedError);
      return [existsSync(stale), existsSync(join(out, 'manifest.json')), existsSync(join(out, 'embeddings.npy'))];
    });
    expect(seen).toEqual([false, false, true]);
    expect(existsSync(lockPathFor(out, 'folder'))).toBe(false);
  });

  it('creates the output folder, and releases the lock when the work fails', async () => {
    const out = join(dir, 'new', 'deeper');
    await expect(
      withClaimedOutput(out, 'folder', {}, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(out)).toBe(true);
    expect(existsSync(lockPathFor(out, 'folder'))).toBe(false);
  });
});

describe('every command that writes an output claims it first', () => {
  // Each command runs into an output whose lock a live process (this one) holds: it must stop before
  // writing; then, unlocked, with a bad input (found after the claim; a badJsonl one is found before
  // it, by the path checks): it must have removed its completion file before failing (a folder never
  // keeps an old manifest next to new partial files).
  const root = join(dir, 'commands');
  const badJsonl = join(root, 'bad.jsonl'); // not JSON
  const badText = join(root, 'bad.txt'); // not UTF-8
  const hashing = ['--encoder', 'offline-hashing-v1'];
  const catalogIndex = join(root, 'index');
  const products = join(root, 'products.jsonl');
  const cases: Array<{
    name: string;
    out: string;
    kind: 'folder' | 'file';
    completion: string;
    args: string[];
    /** A finished earlier run (else a completion file is planted). */
    earlier?: string[];
  }> = [
    {
      name: 'encode',
      out: join(root, 'enc', 'v.npy'),
      kind: 'file',
      completion: join(root, 'enc', 'v.npy.manifest.json'),
      args: ['encode', '--in', badText, '--out', join(root, 'enc', 'v.npy'), ...hashing],
    },
    {
      name: 'catalog items',
      out: join(root, 'items'),
      kind: 'folder',
      completion: join(root, 'items', 'report.json'),
      args: ['items', 'catalog', '--index', catalogIndex, '--questions', badJsonl, '--out', join(root, 'items')],
    },
    {
      name: 'assemble sib',
      out: join(root, 'sib'),
      kind: 'folder',
      completion: join(root, 'sib', 'sib-summary.json'),
      args: ['items', 'sib', '--sessions', badJsonl, '--out', join(root, 'sib'), '--no-distractors'],
    },
    {
      name: 'score shoppingbench',
      out: join(root, 'score'),
      kind: 'folder',
      completion: join(root, 'score', 'summary.json'),
      args: [
        'score',
        'shoppingbench',
        '--predictions',
        badJsonl,
        '--targets',
        badJsonl,
        '--out',
        join(root, 'score'),
        ...hashing,
      ],
    },
    {
      name: 'catalog index',
      out: join(root, 'index2'),
      kind: 'folder',
      completion: join(root, 'index2', 'manifest.json'),
      args: ['catalog', 'index', '--products', badJsonl, '--out', join(root, 'index2'), ...hashing],
      earlier: ['catalog', 'index', '--products', products, '--out', join(root, 'index2'), ...hashing],
    },
  ];

  it.each(cases)('$name', async ({ out, kind, completion, args, earlier }) => {
    if (!existsSync(join(catalogIndex, 'manifest.json'))) {
      mkdirSync(root, { recursive: true });
      writeFileSync(products, '{"id":"p1","title":"red shoe"}\n{"id":"p2","title":"blue shoe"}\n');
      writeFileSync(badJsonl, 'not json\n');
      writeFileSync(badText, Buffer.from([0x6f, 0x6b, 0x0a, 0xff, 0xfe, 0x0a]));
      await buildCatalogIndex({
        products,
        out: catalogIndex,
        encoder: new HashingSentenceEncoder(16),
        progress: false,
      });
    }
    mkdirSync(kind === 'folder' ? out : join(out, '..'), { recursive: true });
    if (earlier) await cli(earlier);
    else writeFileSync(completion, '{"from": "an earlier run"}\n');
    expect(existsSync(completion)).toBe(true);
    const lock = lockOutput(out, kind);
    try {
      await expect(cli(args)).rejects.toThrow(`${out} is locked: intentsim pid ${process.pid}`);
      expect(existsSync(completion)).toBe(true); // nothing touched while locked
    } finally {
      lock.release();
    }
    await expect(cli(args)).rejects.toThrow(/bad\.(jsonl|txt):[12]/);
    expect(existsSync(completion)).toBe(false);
    expect(existsSync(lockPathFor(out, kind))).toBe(false);
  });
});
