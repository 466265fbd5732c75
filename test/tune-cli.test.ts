// `intentsim tune` on the command line: the table on stdout, the settings file written, the same
// file for the same seed; a folder that is no review is one clear line on stderr and exit code 1.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openReview } from '../engine/review/open-review.js';
import { writeItemsDir } from './support/review-fixtures.js';
import { labelledReview, tuneItemLine } from './support/tune-fixtures.js';

const run = promisify(execFile);

describe('intentsim tune', () => {
  it('prints the table and writes the settings file; a bad review folder is one clear error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-tune-cli-'));
    await labelledReview(dir, 40);
    const out = join(dir, 'tuned.json');
    const args = ['bin/intentsim.js', 'tune', '--review', join(dir, 'review'), '--settings-out', out];
    const { stdout } = await run(process.execPath, [...args, '--bootstrap', '50']);
    expect(stdout).toMatch(
      /^Target: estimated F-Neg of an item ≤ 5\.0%; intervals: 95%, bootstrap over items \(50 replicates, seed 1\)\./,
    );
    expect(stdout).toMatch(/\n\| Task 1 \(Sim_i\) \| 40 \| \d+\/120 \| /);
    const settings = JSON.parse(readFileSync(out, 'utf8')) as { format: string; items: { task1Window: unknown } };
    expect(settings.format).toBe('intentsim-item-settings/1');
    expect(stdout).toContain(`wrote ${out}: ${JSON.stringify(settings.items)}`);
    const first = readFileSync(out);
    await run(process.execPath, [...args, '--bootstrap', '50']);
    expect(readFileSync(out).equals(first)).toBe(true);

    const failed = await run(process.execPath, [
      'bin/intentsim.js',
      'tune',
      '--review',
      dir,
      '--settings-out',
      out,
    ]).catch((err: { code: number; stderr: string }) => err);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toBe(
      `intentsim: ${dir}: not a review folder (no review.sqlite; start one with \`intentsim review start\`)\n`,
    );
  });
});

describe('intentsim tune with no window to propose (issue 45, fault 7)', () => {
  it('writes nothing, says why on stderr and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-tune-cli-'));
    const lines = Array.from({ length: 10 }, (_, i) => tuneItemLine(i, [0.4 + i / 100, 0.5, 0.6], 'A'));
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': lines });
    const { store } = await openReview({ itemsDir: items, reviewDir: join(dir, 'review'), blind: true });
    for (const item of store.items()) {
      const label = { correct: ['A', 'B', 'C', 'D'], validity: 'valid' as const, reasons: [], otherText: '', ms: 1 };
      store.save('annotator', store.positionOf(item.key)!, label, new Date(0), 'browser');
    }
    store.close();
    const out = join(dir, 'tuned.json');
    const args = ['bin/intentsim.js', 'tune', '--review', join(dir, 'review'), '--settings-out', out];
    const failed = await run(process.execPath, [...args, '--bootstrap', '0']).catch(
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failed).toMatchObject({ code: 1 });
    const { stdout, stderr } = failed as { stdout: string; stderr: string };
    expect(stdout).toContain('none meets the target');
    expect(stdout).not.toContain('wrote');
    expect(stderr).toContain('warning: --task1-window: no window meets the target');
    expect(stderr).toContain('intentsim: no settings file written: no window or cut-off meets the target');
    expect(existsSync(out)).toBe(false);
  });
});
