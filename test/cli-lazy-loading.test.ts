// What a start-up of the command line loads (issue 50): `--help`, `--version` and every command's
// `--help` load no native add-on and no model, store, queue or worker-pool code; each command imports
// its heavy dependencies when its action runs. Both ways bin/intentsim.js runs are checked: the
// bundle (dist/cli-bundle/, what a build makes and the package ships), whose start-up reads its
// main.js and one chunk, and dist/cli/ (after a build by tsc alone), which loads only the module of
// the command it runs. Every module the process resolves is recorded (test/support/loaded-modules.ts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../cli/main.js';
import { loadedFiles, modulesLoadedBy } from './support/loaded-modules.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const BUNDLE = join(ROOT, 'dist', 'cli-bundle');
const work = mkdtempSync(join(tmpdir(), 'intentsim-lazy-'));

/** The packages no start-up may load: native add-ons, the model runtime, stores, queue, worker pools. */
const HEAVY =
  /\/node_modules\/(onnxruntime-node|onnxruntime-common|better-sqlite3|hnswlib-node|bullmq|ioredis|@huggingface\/[^/]+|neo4j-driver|wink-[^/]+|piscina|protobufjs|cli-progress|csv-parse|csv-stringify)\//;
const heavyIn = (modules: string[]) => [...new Set(modules.filter((m) => HEAVY.test(m)))];

/** The files of the bundle among `modules`. */
const bundleFiles = (modules: string[]) => loadedFiles(modules).filter((f) => f.startsWith(BUNDLE + '/'));

/** dist/cli/main.js run as bin runs it, without the bundle. */
const distEntry = join(work, 'dist-cli.mjs');
writeFileSync(
  distEntry,
  `import { main } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'cli', 'main.js')).href)};\nawait main(process.argv);\n`,
);

interface Entry {
  name: string;
  file: string;
  /** Whether the code of dist/`module` ran: its file was loaded, or a loaded file of the bundle holds it. */
  ran(modules: string[], module: string): boolean;
}

const ENTRIES: Entry[] = [
  {
    name: 'the bundle (bin/intentsim.js)',
    file: join(ROOT, 'bin', 'intentsim.js'),
    // esbuild marks each module's code in a chunk with a "// dist/…" line.
    ran: (modules, module) =>
      bundleFiles(modules).some((f) => readFileSync(f, 'utf8').includes(`\n// dist/${module}\n`)),
  },
  {
    name: 'dist/cli/',
    file: distEntry,
    ran: (modules, module) => modules.some((m) => m.endsWith(`/dist/${module}`)),
  },
];

describe.each(ENTRIES)('a start-up of intentsim from $name', (entry) => {
  const loaded = (args: string[]) => modulesLoadedBy(entry.file, args);

  it('records what a command loads (the recorder is not blind)', async () => {
    // A command that opens a SQLite store loads better-sqlite3, a CommonJS add-on imported from ESM.
    const modules = await loaded([
      'graph',
      'generate',
      '--nodes',
      '20',
      '--edges',
      '30',
      '--out',
      join(work, 'g.sqlite'),
    ]);
    expect(modules.some((m) => m.includes('/node_modules/better-sqlite3/'))).toBe(true);
    expect(entry.ran(modules, 'cli/commands/graph.js')).toBe(true);
    expect(entry.ran(modules, 'graph/sqlite/sqlite-store.js')).toBe(true);
  }, 60_000);

  it('loads no heavy dependency for --help, and no library code for --version', async () => {
    const help = await loaded(['--help']);
    // Help lists every command: every command module was loaded, and none of their heavy code.
    expect(entry.ran(help, 'cli/commands/pipeline.js')).toBe(true);
    expect(entry.ran(help, 'graph/sqlite/sqlite-store.js')).toBe(false);
    expect(heavyIn(help)).toEqual([]);
    for (const flag of ['--version', '-V']) {
      const modules = await loaded([flag]);
      expect(entry.ran(modules, 'cli/main.js'), flag).toBe(true);
      expect(heavyIn(modules), flag).toEqual([]);
      if (entry.file === distEntry)
        expect(
          modules.filter((m) => m.includes('/dist/cli/commands/')),
          flag,
        ).toEqual([]);
      // The bundle's command definitions are in the one chunk of its start-up, read for --version too.
      else expect(bundleFiles(modules), flag).toEqual(bundleFiles(help));
    }
    if (entry.file !== distEntry) expect(bundleFiles(help).map((f) => f.slice(BUNDLE.length + 1))).toHaveLength(2);
  }, 60_000);

  it('prints the same version with no command declared', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V'])
      expect((await run(process.execPath, [entry.file, flag], { cwd: ROOT })).stdout).toBe(`${version}\n`);
  }, 60_000);

  it("loads no heavy dependency for any command's --help", async () => {
    const names = (await buildProgram()).commands.map((c) => c.name());
    expect(names).toEqual(expect.arrayContaining(['encode', 'pipeline', 'graph', 'review', 'queue']));
    const heavy: Record<string, string[]> = {};
    for (const name of names) heavy[name] = heavyIn(await loaded([name, '--help']));
    expect(heavy).toEqual(Object.fromEntries(names.map((n) => [n, []])));
  }, 180_000);
});
