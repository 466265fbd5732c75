// What `npm pack` puts in the package (docs/install.md, "Installing the package"): the compiled
// dist/ with every worker and data file the code opens at run time, no TypeScript sources, tests or
// benchmarks; and a package.json without "prepare", so an install compiles nothing of intentsim's
// and npm lists no install script of intentsim's own for the user's allowScripts.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../core/shared-files.js';

const root = projectRoot();
const run = promisify(execFile);

/** Every file under dir, relative to root. */
function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [relative(root, join(dir, e.name))],
  );
}

describe('the package', () => {
  it('holds dist/ with its workers and data, the files read at run time, and no sources', async () => {
    // --ignore-scripts: list what would be packed from the dist/ that `npm test` built, without prepack's rebuild.
    const { stdout } = await run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: root });
    const files = new Set((JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
    const needed = [
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'bin/intentsim.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      // what bin/intentsim.js runs (scripts/bundle-cli.mjs)
      ...walk(join(root, 'dist', 'cli-bundle')),
      'dist/engine/demo/demo-world.json',
      // read through projectRoot() at run time
      'engine/evaluation/prompts/audit-judge.txt',
      ...walk(join(root, 'engine', 'review', 'assets')),
      ...walk(join(root, 'engine', 'products', 'wordnet-3.0')),
      // worker threads load these by path
      ...walk(join(root, 'dist'))
        .filter((f) => /-worker\.js$/.test(f))
        .filter((f) => !f.startsWith('dist/bench/')),
    ];
    expect(needed.filter((f) => !files.has(f))).toEqual([]);
    expect(needed.some((f) => f.endsWith('-worker.js'))).toBe(true);
    const unwanted = [...files].filter(
      (f) =>
        (f.endsWith('.ts') && !f.endsWith('.d.ts')) ||
        /^(test|bench|docs|scripts|examples|dist\/bench|dist\/api-extractor)\//.test(f),
    );
    expect(unwanted).toEqual([]);
  });

  describe('its package.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-pack-manifest-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const script = join(root, 'scripts', 'pack-manifest.mjs');

    it('loses "prepare" for the pack (prepack) and gets it back after (postpack), byte for byte', async () => {
      copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
      const original = readFileSync(join(dir, 'package.json'), 'utf8');
      const before = JSON.parse(original) as { scripts: Record<string, string> };
      expect(before.scripts.prepare).toBeDefined();

      await run(process.execPath, [script, 'strip', dir]);
      const packed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
      const { prepare: _prepare, ...rest } = before.scripts;
      expect(packed).toEqual({ ...before, scripts: rest });

      await run(process.execPath, [script, 'restore', dir]);
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(original);
      expect(existsSync(join(dir, 'package.json.prepack'))).toBe(false);
    });

    it('a strip after a pack that failed before its restore starts from the original', async () => {
      copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
      const original = readFileSync(join(dir, 'package.json'), 'utf8');
      await run(process.execPath, [script, 'strip', dir]);
      await run(process.execPath, [script, 'strip', dir]); // no restore in between
      expect(readFileSync(join(dir, 'package.json.prepack'), 'utf8')).toBe(original);
      await run(process.execPath, [script, 'restore', dir]);
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(original);
    });
  });
});
