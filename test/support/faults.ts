// Fault injection for test/faults: the CLI run in a child process (so that a crash of a native
// add-on, or a kill, ends the child and not the test), file damage, output-folder comparison and
// the search for leftovers (temporary files and locks of this tool).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { parseTemporaryName } from '../../core/temporary-files.js';
import { makeTestModel } from '../../embeddings/model-generator.js';
import { writeDemo } from '../../engine/demo/demo-world.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');

/**
 * A scratch folder for one test file: the demo world (seed 1) in `world` and the tiny generated
 * model in `model`, written before the file's tests and removed after them.
 */
export function faultsWorkspace(prefix: string): { dir: string; world: string; model: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const workspace = { dir, world: join(dir, 'world'), model: join(dir, 'model') };
  beforeAll(async () => {
    await writeDemo(workspace.world, { seed: 1 });
    await makeTestModel(workspace.model);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return workspace;
}

export interface CliRun {
  /** Exit code (null when a signal ended the process). */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `intentsim ARGS` to the end in a child process. */
export function runCli(args: readonly string[], cwd = ROOT): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, INTENTSIM_QUIET: '1' },
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** A run that must succeed: its stdout and stderr, or a failure showing both. */
export function runCliOk(args: readonly string[]): CliRun {
  const r = runCli(args);
  if (r.status !== 0)
    throw new Error(`intentsim ${args.join(' ')} → ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Starts `intentsim ARGS` in a child process (environment `env`); `ended` resolves with how it ended. */
export function startCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = { ...process.env, INTENTSIM_QUIET: '1' },
): { child: ChildProcess; ended: Promise<CliRun> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const ended = new Promise<CliRun>((resolve) =>
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr })),
  );
  return { child, ended };
}

/**
 * Starts `intentsim ARGS`, sends `signal` as soon as `ready()` holds (polled every few ms) and
 * resolves with how it ended and whether the signal was sent before it finished on its own.
 */
export async function interruptWhen(
  args: readonly string[],
  ready: () => boolean,
  signal: NodeJS.Signals,
): Promise<CliRun & { interrupted: boolean }> {
  const { child, ended } = startCli(args);
  let finished = false;
  void ended.then(() => (finished = true));
  while (!finished && !ready()) await new Promise((r) => setTimeout(r, 3));
  const interrupted = !finished;
  if (interrupted) child.kill(signal);
  return { ...(await ended), interrupted };
}

/** The four ways a derived file is damaged in the tests. */
export const DAMAGE_KINDS = ['garble-middle', 'zero-first-4k', 'truncate', 'same-size-random'] as const;
export type DamageKind = (typeof DAMAGE_KINDS)[number];

/** Damages `bytes` (a copy is returned): garble 64 bytes in the middle, zero the first 4 KB, cut to half, or overwrite all at random. */
export function damageBytes(bytes: Uint8Array, kind: DamageKind): Uint8Array {
  const out = Uint8Array.from(bytes);
  switch (kind) {
    case 'garble-middle': {
      const at = Math.max(0, Math.floor(out.length / 2) - 32);
      for (let i = at; i < Math.min(out.length, at + 64); i++) out[i] = out[i]! ^ 0xa5;
      return out;
    }
    case 'zero-first-4k':
      out.fill(0, 0, Math.min(out.length, 4096));
      return out;
    case 'truncate':
      return out.subarray(0, Math.floor(out.length / 2));
    case 'same-size-random':
      return new Uint8Array(randomBytes(out.length));
  }
}

/** Damages a file in place. */
export function damageFile(path: string, kind: DamageKind): void {
  if (kind === 'truncate') truncateSync(path, Math.floor(statSync(path).size / 2));
  else writeFileSync(path, damageBytes(readFileSync(path), kind));
}

/** Every file under `dir` (relative path → SHA-256), except the names `skip` accepts. */
export function fileHashes(dir: string, skip: (name: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (!skip(e.name)) out.set(relative(dir, p), createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  if (existsSync(dir)) visit(dir);
  return out;
}

/** Outputs compared between runs: everything but manifests (timings) and SQLite files (caches, stores). */
export function isRunRecord(name: string): boolean {
  return name === 'manifest.json' || name.endsWith('.manifest.json') || /\.sqlite(-wal|-shm)?$/.test(name);
}

/** `dir` holds byte-for-byte the files of `reference` (manifests and SQLite files aside). */
export function expectSameOutputs(dir: string, reference: string): void {
  const sorted = (m: Map<string, string>) => [...m].sort((a, b) => a[0].localeCompare(b[0]));
  expect(sorted(fileHashes(dir, isRunRecord))).toEqual(sorted(fileHashes(reference, isRunRecord)));
}

/** Temporary files and locks of this tool anywhere under `dir`. */
export function leftovers(dir: string): string[] {
  const found: string[] = [];
  const visit = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (parseTemporaryName(e.name) || e.name.endsWith('.intentsim.lock')) found.push(relative(dir, p));
    }
  };
  if (existsSync(dir)) visit(dir);
  return found;
}

/** The process id of a process that has exited (for stale locks and temporary files). */
export function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}
