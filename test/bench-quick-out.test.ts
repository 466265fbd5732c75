// A --quick benchmark run writes its report under bench/results/quick/ (ignored by git), so that the
// committed bench/report.md, report.json and charts keep the full-size figures; --out still wins.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultReportDir, leftOutOfQuick, main, NOT_IN_QUICK, SECTIONS } from '../bench/run.js';
import { projectRoot } from '../core/shared-files.js';

const root = projectRoot();

describe('where the benchmark report goes', () => {
  it('a full run: bench/ (the committed report); --quick: bench/results/quick/, which git ignores', () => {
    expect(defaultReportDir({ quick: false })).toBe(join(root, 'bench'));
    expect(defaultReportDir({ quick: true })).toBe(join(root, 'bench', 'results', 'quick'));
    // `git check-ignore` exits 0 for an ignored path (and 1 for one that is not).
    expect(execFileSync('git', ['check-ignore', 'bench/results/quick/report.md'], { cwd: root }).toString()).toBe(
      'bench/results/quick/report.md\n',
    );
  });

  it('--quick without --out leaves the committed report alone and writes under bench/results/quick/', async () => {
    const committed = ['report.md', 'report.json'].map((f) => join(root, 'bench', f));
    const before = committed.map((f) => (existsSync(f) ? [readFileSync(f, 'utf8'), statSync(f).mtimeMs] : null));
    const quickDir = defaultReportDir({ quick: true });
    rmSync(quickDir, { recursive: true, force: true });
    const stderr = process.stderr.write;
    process.stderr.write = () => true;
    try {
      // Section 6 alone with --device cpu: nothing is measured, the report is still written.
      await main(['node', 'run.js', '--quick', '--only', 'gpu', '--device', 'cpu']);
    } finally {
      process.stderr.write = stderr;
    }
    expect(readFileSync(join(quickDir, 'report.md'), 'utf8')).toContain(
      'Produced by `npm run bench -- --quick --only gpu --seed 1 --device cpu`',
    );
    expect(committed.map((f) => (existsSync(f) ? [readFileSync(f, 'utf8'), statSync(f).mtimeMs] : null))).toEqual(
      before,
    );
    rmSync(quickDir, { recursive: true, force: true });
  });

  it('--out wins over the default, for a quick run too', async () => {
    const out = mkdtempSync(join(tmpdir(), 'intentsim-bench-out-'));
    const stderr = process.stderr.write;
    process.stderr.write = () => true;
    try {
      await main(['node', 'run.js', '--quick', '--only', 'gpu', '--device', 'cpu', '--out', out]);
    } finally {
      process.stderr.write = stderr;
    }
    expect(existsSync(join(out, 'report.md'))).toBe(true);
    expect(existsSync(join(out, 'report.json'))).toBe(true);
    rmSync(out, { recursive: true, force: true });
  });

  it('--quick leaves out the modules that start processes or servers, unless --only names them', () => {
    expect([...NOT_IN_QUICK].sort()).toEqual(['import-kill-resume', 'provider-tolerance', 'queue', 'scale', 'startup']);
    const modules = SECTIONS.flatMap((s) => s.modules);
    for (const name of NOT_IN_QUICK) expect(modules).toContain(name);
    const quickRuns = modules.filter((m) => leftOutOfQuick(m, { quick: true }) === undefined);
    expect(quickRuns).toEqual(modules.filter((m) => !NOT_IN_QUICK.has(m)));
    expect(leftOutOfQuick('queue', { quick: true })).toBe(
      'left out of --quick (`npm run bench -- --quick --only queue` runs it)',
    );
    expect(leftOutOfQuick('queue', { quick: true, only: new Set(['queue']) })).toBeUndefined();
    expect(leftOutOfQuick('queue', { quick: false })).toBeUndefined();
  });
});
