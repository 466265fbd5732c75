// Interrupted and concurrent runs (issue 16, items 5 and 6): Ctrl-C (SIGINT) and SIGTERM remove the
// run's temporary files and lock and exit 130 / 143 with one line; a run into an output that another
// live run holds stops with a message naming that run; a rerun into a finished folder removes the
// old manifest before writing anything, so that a killed rerun never leaves the old manifest next
// to new partial files; temporary files of dead runs are removed at start, others left alone.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockOutput } from '../../core/output-lock.js';
import { deadPid, faultsWorkspace, interruptWhen, leftovers, runCli, runCliOk } from '../support/faults.js';

const { dir, world, model } = faultsWorkspace('intentsim-interrupts-');

const embedArgs = (out: string, products = join(world, 'products.jsonl')) => [
  'embed',
  ...['--graph', join(world, 'graph.sqlite'), '--products', products, '--concepts', join(world, 'concepts.jsonl')],
  ...[
    '--out',
    out,
    '--model-cache',
    join(out, 'cache'),
    '--node-cache',
    join(out, 'cache'),
    '--model-dir',
    model,
    '--device',
    'cpu',
  ],
  ...['--chunk-products', '40', '--chunk-sentences', '64'],
];
// The run's partial outputs; not the model cache's ORT-format copy, which a second open of the model
// builds (embeddings/ort-format-model.ts) and which is no output of the run.
const hasTemporaryFiles = (out: string) =>
  leftovers(out).some((f) => f.endsWith('.tmp') && !f.startsWith(join('cache', 'derived-models')));

describe('signals', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: temporary files and the lock removed, one line, exit %i; a rerun then finishes',
    async (signal, code) => {
      const out = join(dir, `signal-${signal}`);
      const r = await interruptWhen(embedArgs(out), () => hasTemporaryFiles(out), signal);
      expect(r.interrupted).toBe(true);
      expect([r.status, r.signal]).toEqual([code, null]);
      expect(r.stderr).toMatch(
        new RegExp(
          `(^|\\n)intentsim: interrupted by ${signal}: removed \\d+ temporary file\\(s\\) and lock\\(s\\) of this run\\n$`,
        ),
      );
      expect(r.stderr.split('\n').filter((l) => l.startsWith('intentsim: '))).toHaveLength(1);
      expect(leftovers(out)).toEqual([]);
      expect(existsSync(join(out, 'manifest.json'))).toBe(false);
      const again = runCliOk(embedArgs(out));
      expect(again.stderr).not.toMatch(/took over the lock/); // released, not stale
      expect(existsSync(join(out, 'manifest.json'))).toBe(true);
    },
  );
});

describe('one writer per output', () => {
  it('a run into an output held by a live process stops, naming its pid and host; once released it runs', () => {
    const out = join(dir, 'held');
    mkdirSync(out, { recursive: true });
    const lock = lockOutput(out, 'folder'); // this test process: alive, on this host
    try {
      const r = runCli(embedArgs(out));
      expect([r.status, r.signal]).toEqual([1, null]);
      expect(r.stderr).toMatch(
        new RegExp(
          `^intentsim: ${out} is locked: intentsim pid ${process.pid} on host ${hostname()} has been writing it since `,
        ),
      );
      expect(readdirSync(out)).toEqual(['.intentsim.lock']);
    } finally {
      lock.release();
    }
    runCliOk(embedArgs(out));
    expect(leftovers(out)).toEqual([]);
  });

  it('a SQLite graph store being written is locked too', () => {
    const store = join(dir, 'store.sqlite');
    runCliOk(['graph', 'import', '--to', store, '--jsonl', join(world, 'edges.jsonl')]);
    const lock = lockOutput(store, 'file');
    try {
      for (const args of [
        ['graph', 'import', '--to', store, '--jsonl', join(world, 'edges.jsonl')],
        ['graph', 'reindex-purchases', '--graph', store],
        ['graph', 'generate', '--nodes', '50', '--edges', '100', '--out', store],
      ]) {
        const r = runCli(args);
        expect([r.status, r.stderr]).toEqual([
          1,
          expect.stringMatching(/^intentsim: .*store\.sqlite is locked: intentsim pid \d+/),
        ]);
      }
    } finally {
      lock.release();
    }
    runCliOk(['graph', 'reindex-purchases', '--graph', store]);
  });
});

describe('what a rerun finds in its output folder', () => {
  it('the old manifest goes first: a rerun killed half-way leaves no manifest next to its partial files', async () => {
    const out = join(dir, 'rerun');
    runCliOk(embedArgs(out));
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
    // Another catalogue this time, killed once its first rows are in the node cache.
    const half = join(dir, 'half.jsonl');
    writeFileSync(half, readFileLines(join(world, 'products.jsonl')).slice(0, 200).join(''));
    const r = await interruptWhen(embedArgs(out, half), () => hasTemporaryFiles(out), 'SIGKILL');
    expect(r.interrupted).toBe(true);
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
  });

  it('temporary files of dead runs are removed at start (saying so); those of live processes and other files stay', () => {
    const out = join(dir, 'stale');
    mkdirSync(join(out, 'cache'), { recursive: true });
    const dead = deadPid();
    const stale = [
      join(out, `.ids.txt.${dead}.1.tmp`),
      join(out, 'cache', `.node-embeddings.sqlite.${dead}.2.tmp-wal`),
    ];
    const live = join(out, `.phrases.jsonl.${process.pid}.3.tmp`);
    const mine = join(out, 'my-notes.txt');
    for (const f of [...stale, live, mine]) writeFileSync(f, 'x');
    const r = runCliOk(embedArgs(out));
    expect(r.stderr).toContain(`note: removed 2 temporary file(s) that an interrupted run left in ${out}\n`);
    for (const f of stale) expect(existsSync(f)).toBe(false);
    for (const f of [live, mine]) expect(existsSync(f)).toBe(true);
  });
});

function readFileLines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l + '\n');
}
