// `intentsim tune` on the command line: the table on stdout, the settings file written, the same
// file for the same seed; a folder that is no review is one clear line on stderr and exit code 1.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { labelledReview } from './support/tune-fixtures.js';

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
