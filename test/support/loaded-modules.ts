// Every module a run of the command line resolves (issue 50): the ES modules by a resolve hook
// (module.register), the CommonJS ones (native add-ons and what they require) from require.cache
// when the process exits.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'intentsim-modules-'));

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

let runs = 0;

/** Every module (file URL or path) that `node entry ...args` resolved or required, run in a folder of its own. */
export async function modulesLoadedBy(entry: string, args: string[]): Promise<string[]> {
  const out = join(work, `modules-${++runs}.json`);
  await run(process.execPath, ['--import', pathToFileURL(recorder).href, entry, ...args], {
    cwd: mkdtempSync(join(work, 'cwd-')),
    env: { ...process.env, INTENTSIM_MODULES_OUT: out },
  });
  return JSON.parse(readFileSync(out, 'utf8')) as string[];
}

/** The files among `modules` (file URLs and paths; `node:` built-ins left out), each once. */
export function loadedFiles(modules: string[]): string[] {
  const files = modules.flatMap((m) => (m.startsWith('file:') ? [fileURLToPath(m)] : m.startsWith('/') ? [m] : []));
  return [...new Set(files)];
}
