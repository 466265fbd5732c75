// `--preset released` stays byte-identical (issue 34): the pipeline on the first demo world (the
// world of `intentsim demo` before its intentions were made specific to pairs of sub-kinds, written
// by main@803aab8 with seed 1 and kept as inputs in test/fixtures/demo-world-v1/) must write the
// items and dropped files whose SHA-256 were taken from that commit's own run. The validity rules
// added since are off in the released preset, so nothing they add may reach these files.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { GLOVE_TEST_CACHE, realGlovePackage } from './support/glove.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const WORLD = join(import.meta.dirname, 'fixtures', 'demo-world-v1');
const pkg = realGlovePackage('test/released-preset-v1.test.ts (the released preset on the first demo world)');

/** sha256 of main@803aab8's output (`intentsim pipeline … --encoder glove-100d --seed 1 --preset released`). */
const EXPECTED: Record<string, string> = {
  'intentionqa_dropped.jsonl': 'f91d7b8affe414b2c73145583488bee594d1c91dfc069956a364f310a41e35b5',
  'intentionqa_task1.jsonl': 'ca1955a4975ca7b9f1e58a458e42a94f16557e0ca7653372f17200fcc06e3512',
  'intentionqa_task2.jsonl': '5398517f594d90a442f81c0cbafde8fae2ca1ff15d9b4bef378a20f8aa070e8e',
};

describe.skipIf(!pkg)('--preset released on the first demo world (glove-100d, seed 1)', () => {
  const out = mkdtempSync(join(tmpdir(), 'intentsim-released-v1-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes the items and the dropped file byte for byte as before the validity rules', async () => {
    await run(
      process.execPath,
      [
        join(ROOT, 'bin', 'intentsim.js'),
        'pipeline',
        ...['--graph', join(WORLD, 'graph.sqlite')],
        ...['--products', join(WORLD, 'products.jsonl')],
        ...['--assertions', join(WORLD, 'assertions.jsonl')],
        ...['--concepts', join(WORLD, 'concepts.jsonl')],
        ...['--encoder', 'glove-100d', '--model-cache', GLOVE_TEST_CACHE],
        ...['--seed', '1', '--preset', 'released', '--out', out],
      ],
      { cwd: ROOT, maxBuffer: 1 << 24 },
    );
    const sha = (name: string) =>
      createHash('sha256')
        .update(readFileSync(join(out, 'items', name)))
        .digest('hex');
    expect(Object.fromEntries(Object.keys(EXPECTED).map((name) => [name, sha(name)]))).toEqual(EXPECTED);
  }, 120_000);
});
