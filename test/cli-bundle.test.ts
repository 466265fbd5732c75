// The bundled command line (issue 50, scripts/bundle-cli.mjs): bin/intentsim.js runs
// dist/cli-bundle/ when it was built after dist/cli/ (and dist/cli/ otherwise); the bundle declares
// the same commands, options and help text as the sources, names worker files that exist, and a run
// of bin reads no module of dist/ outside it. (What it loads lazily: test/cli-lazy-loading.test.ts.)
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { buildProgram } from '../cli/main.js';
import { cliSurface } from './support/cli-surface.js';
import { loadedFiles, modulesLoadedBy } from './support/loaded-modules.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const BUNDLE = join(ROOT, 'dist', 'cli-bundle');
const BIN = join(ROOT, 'bin', 'intentsim.js');

/** Every command's help text, by path. */
function helpTexts(c: Command, path = 'intentsim'): Array<[string, string]> {
  return [[path, c.helpInformation()], ...c.commands.flatMap((s) => helpTexts(s, `${path} ${s.name()}`))];
}

describe('bin/intentsim.js', () => {
  // A copy of bin beside two stand-ins for the CLI modules, each printing which one ran.
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bin-'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'intentsim.js'), readFileSync(BIN));
  const standIn = (folder: string) => {
    const file = join(dir, 'dist', folder, 'main.js');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      `export const formatFailure = String;\nexport async function main() { console.log('${folder}'); }\n`,
    );
    return file;
  };
  const modules = standIn('cli');
  const bundle = standIn('cli-bundle');
  const ran = async () => (await run(process.execPath, [join(dir, 'bin', 'intentsim.js')])).stdout.trim();
  const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);

  it('runs the bundle when it was built after dist/cli/ or at the same time (npm pack sets one time)', async () => {
    at(modules, 1_000_000);
    at(bundle, 1_000_001);
    expect(await ran()).toBe('cli-bundle');
    at(bundle, 1_000_000);
    expect(await ran()).toBe('cli-bundle');
  });

  it('runs dist/cli/ when the bundle is older (a build by tsc alone since) or absent', async () => {
    at(modules, 1_000_000);
    at(bundle, 999_999);
    expect(await ran()).toBe('cli');
    const absent = mkdtempSync(join(tmpdir(), 'intentsim-bin-'));
    mkdirSync(join(absent, 'bin'));
    mkdirSync(join(absent, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(absent, 'bin', 'intentsim.js'), readFileSync(BIN));
    writeFileSync(join(absent, 'dist', 'cli', 'main.js'), readFileSync(modules));
    expect((await run(process.execPath, [join(absent, 'bin', 'intentsim.js')])).stdout.trim()).toBe('cli');
  });
});

describe('the bundle', () => {
  it('is built after dist/cli/ (else bin runs dist/cli/: run "npm run build", not tsc alone)', () => {
    const builtAt = (file: string) => statSync(file).mtimeMs;
    expect(builtAt(join(BUNDLE, 'main.js'))).toBeGreaterThanOrEqual(builtAt(join(ROOT, 'dist', 'cli', 'main.js')));
  });

  it('declares the same commands, options and help text as the sources', async () => {
    const bundled = (await import(pathToFileURL(join(BUNDLE, 'main.js')).href)) as typeof import('../cli/main.js');
    const [ours, theirs] = [await buildProgram(), await bundled.buildProgram()] as unknown as Command[];
    expect(cliSurface(theirs!)).toEqual(cliSurface(ours!));
    const texts = helpTexts(theirs!);
    expect(texts.length).toBeGreaterThan(40);
    expect(texts).toEqual(helpTexts(ours!));
  });

  it('names worker files of dist/ that exist', () => {
    const named = readdirSync(BUNDLE).flatMap((f) =>
      [...readFileSync(join(BUNDLE, f), 'utf8').matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) =>
        resolve(BUNDLE, m[1]!),
      ),
    );
    const relative = named.map((f) => f.slice(ROOT.length + 1)).sort();
    expect(relative).toEqual([
      'dist/engine/items/intentionqa/draft-worker.js',
      'dist/engine/search/threshold-products-worker.js',
      'dist/workers/encode-worker.js',
      'dist/workers/tokenize-worker.js',
    ]);
    for (const file of named) expect(statSync(file).isFile(), file).toBe(true);
  });

  it('is what bin runs: a command reads no module of dist/ outside it', async () => {
    const modules = await modulesLoadedBy(BIN, [
      'graph',
      'generate',
      '--nodes',
      '9',
      '--edges',
      '9',
      '--out',
      'g.sqlite',
    ]);
    const ours = loadedFiles(modules).filter((f) => f.startsWith(join(ROOT, 'dist') + '/'));
    expect(ours.filter((m) => !m.startsWith(BUNDLE + '/'))).toEqual([]);
    expect(ours).toContain(join(BUNDLE, 'main.js'));
  }, 60_000);
});
