// What a start-up of the command line loads (issue 50): `--help`, `--version` and every command's
// `--help` load no native add-on and no model, store, queue or worker-pool code; each command imports
// its heavy dependencies when its action runs. Every module the process resolves is recorded: the
// ES modules by a resolve hook (module.register), the CommonJS ones (native add-ons and what they
// require) from require.cache when the process exits.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../cli/main.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');
const work = mkdtempSync(join(tmpdir(), 'intentsim-lazy-'));

/** The packages no start-up may load: native add-ons, the model runtime, stores, queue, worker pools. */
const HEAVY =
  /\/node_modules\/(onnxruntime-node|onnxruntime-common|better-sqlite3|hnswlib-node|bullmq|ioredis|@huggingface\/[^/]+|neo4j-driver|wink-[^/]+|piscina|protobufjs|cli-progress|csv-parse|csv-stringify)\//;

const resolveHook = join(work, 'resolve-hook.mjs');
writeFileSync(
  resolveHook,
  `let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  port.postMessage(result.url);
  return result;
}
`,
);
const recorder = join(work, 'record-modules.mjs');
writeFileSync(
  recorder,
  `import { createRequire, register } from 'node:module';
import { writeFileSync } from 'node:fs';
const urls = [];
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => urls.push(url));
port1.unref();
register(${JSON.stringify(pathToFileURL(resolveHook).href)}, { data: { port: port2 }, transferList: [port2] });
process.on('exit', () => {
  const cjs = Object.keys(createRequire(import.meta.url).cache);
  writeFileSync(process.env.INTENTSIM_MODULES_OUT, JSON.stringify([...urls, ...cjs]));
});
`,
);

/** Every module (URL or path) that `intentsim ...args` resolved or required. */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const out = join(work, `modules-${args.join('-').replace(/[^a-z0-9-]/gi, '')}.json`);
  await run(process.execPath, ['--import', pathToFileURL(recorder).href, CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, INTENTSIM_MODULES_OUT: out },
  });
  return JSON.parse(readFileSync(out, 'utf8')) as string[];
}

const heavyIn = (modules: string[]) => [...new Set(modules.filter((m) => HEAVY.test(m)))];

describe('a start-up of intentsim', () => {
  it('records what a command loads (the recorder is not blind)', async () => {
    // A command that opens a SQLite store loads better-sqlite3, a CommonJS add-on imported from ESM.
    const modules = await modulesLoadedBy([
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
    expect(modules.some((m) => m.endsWith('/dist/cli/commands/graph.js'))).toBe(true);
  }, 60_000);

  it('loads no heavy dependency for --help, and no command at all for --version', async () => {
    const help = await modulesLoadedBy(['--help']);
    // Help lists every command: every command module was loaded, and none of their heavy code.
    expect(help.some((m) => m.endsWith('/dist/cli/commands/pipeline.js'))).toBe(true);
    expect(heavyIn(help)).toEqual([]);
    for (const flag of ['--version', '-V']) {
      const modules = await modulesLoadedBy([flag]);
      expect(
        modules.some((m) => m.endsWith('/dist/cli/main.js')),
        flag,
      ).toBe(true);
      expect(
        modules.filter((m) => m.includes('/dist/cli/commands/')),
        flag,
      ).toEqual([]);
    }
  }, 60_000);

  it('prints the same version with no command declared', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V'])
      expect((await run(process.execPath, [CLI, flag], { cwd: ROOT })).stdout).toBe(`${version}\n`);
  }, 60_000);

  it("loads no heavy dependency for any command's --help", async () => {
    const names = (await buildProgram()).commands.map((c) => c.name());
    expect(names).toEqual(expect.arrayContaining(['encode', 'pipeline', 'graph', 'review', 'queue']));
    const loaded: Record<string, string[]> = {};
    for (const name of names) loaded[name] = heavyIn(await modulesLoadedBy([name, '--help']));
    expect(loaded).toEqual(Object.fromEntries(names.map((n) => [n, []])));
  }, 180_000);
});
