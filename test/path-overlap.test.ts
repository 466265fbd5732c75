// An output that is, holds or lies inside one of its command's inputs is refused before anything is
// touched (issue 35, faults 1–5): one check in core/check-paths.ts, run by every command's path
// check. Each fault below was reproduced on main@803aab8 (the input was deleted or overwritten);
// here every input is byte-identical afterwards and the error names both paths and their fields.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { checkPaths, PathOverlapError, resolvedPath } from '../core/check-paths.js';
import { messageInFlags } from '../cli/option-flags.js';
import { buildProgram } from '../cli/main.js';
import { ask } from '../engine/evaluation/ask.js';
import { runAudit } from '../engine/evaluation/audit.js';
import { exportReview } from '../engine/review/export-review.js';
import { importMturkResults } from '../engine/review/mturk.js';
import { openReview } from '../engine/review/open-review.js';
import { scoreIntentionQa } from '../engine/scoring/intentionqa/score-intentionqa.js';
import { writeScaleGraph } from '../graph/generate/generate-scale.js';
import { askItems } from './support/ask-items.js';
import { writeHandItems } from './support/audit-items.js';
import { manyIntentionQaItems, writeItemsDir } from './support/review-fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'intentsim-overlap-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => {
  const d = join(root, `${++n}-${name}`);
  mkdirSync(d, { recursive: true });
  return d;
};

/** Every file under `dir` with its bytes, to show that nothing was touched. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out[path] = readFileSync(path, 'base64');
    }
  }
  return out;
}

const chat = { endpoint: 'http://127.0.0.1:9/v1', model: 'm', cacheFile: null };

describe('checkPaths: outputs against inputs', () => {
  const message = (checks: Parameters<typeof checkPaths>[0]): string => {
    try {
      checkPaths(checks);
    } catch (err) {
      expect(err).toBeInstanceOf(PathOverlapError);
      return (err as Error).message;
    }
    return 'no error';
  };

  it('refuses the same path, an output folder holding an input, an output inside an input folder', () => {
    const d = fresh('rel');
    const items = join(d, 'items');
    mkdirSync(items);
    const file = join(items, 'a.jsonl');
    writeFileSync(file, '{}\n');
    expect(message({ inputFiles: { items: file }, outputFiles: { out: file } })).toBe(
      `${file} (out): the output is the input ${file} (items): writing it would destroy the input; ` +
        'give an output outside every input (nothing was written)',
    );
    expect(message({ inputDirs: { items }, outputDirs: { out: d } })).toBe(
      `${d} (out): the output holds the input ${items} (items): writing into it could replace or remove ` +
        'the input; give an output outside every input (nothing was written)',
    );
    expect(message({ inputDirs: { items }, outputFiles: { mturkCsv: join(items, 'new', 'b.csv') } })).toBe(
      `${join(items, 'new', 'b.csv')} (mturkCsv): the output lies inside the input ${items} (items): writing ` +
        'it would change the input; give an output outside every input (nothing was written)',
    );
  });

  it('follows links, also for an output that does not exist yet, and compares path components, not prefixes', () => {
    const d = fresh('links');
    const run = join(d, 'run');
    mkdirSync(join(run, 'items'), { recursive: true });
    symlinkSync(run, join(d, 'alias'));
    // The output through a link to the folder that holds the items.
    expect(message({ inputDirs: { items: join(run, 'items') }, outputDirs: { out: join(d, 'alias') } })).toContain(
      '(out): the output holds the input',
    );
    // A folder that does not exist yet, under the link: resolved through its nearest existing ancestor.
    expect(resolvedPath(join(d, 'alias', 'items', 'new', 'x'))).toBe(join(run, 'items', 'new', 'x'));
    expect(
      message({ inputDirs: { items: join(d, 'alias', 'items') }, outputDirs: { out: join(run, 'items', 'new') } }),
    ).toContain('(out): the output lies inside the input');
    // run2 is not inside run; outputs are not compared with each other (a node cache in OUT/cache).
    expect(message({ inputDirs: { items: join(run, 'items') }, outputDirs: { out: `${run}2` } })).toBe('no error');
    expect(message({ inputFiles: {}, outputDirs: { out: run, nodeCacheDir: join(run, 'cache') } })).toBe('no error');
  });
});

describe('the commands of issue 35 refuse before touching anything', () => {
  it('1. audit --items run/items --out run: the items are not deleted', async () => {
    const run = fresh('audit1');
    const items = writeHandItems(join(run, 'items'));
    writeFileSync(join(items, 'intentionqa_dropped.jsonl'), '{"why":"kept"}\n');
    const before = snapshot(run);
    for (const dropFlagged of [false, true]) {
      await expect(runAudit({ ...chat, items, out: run, dropFlagged })).rejects.toThrow(
        `${run} (out): the output holds the input ${items} (items)`,
      );
    }
    expect(snapshot(run)).toEqual(before);
  });

  it('2. audit --items X --out X: the report is not deleted', async () => {
    const x = writeHandItems(join(fresh('audit2'), 'items'));
    writeFileSync(join(x, 'intentionqa_report.md'), '# report\n');
    writeFileSync(join(x, 'intentionqa_report.svg'), '<svg/>\n');
    const before = snapshot(x);
    await expect(runAudit({ ...chat, items: x, out: x })).rejects.toThrow(
      `${x} (out): the output is the input ${x} (items)`,
    );
    expect(snapshot(x)).toEqual(before);
  });

  it('3. review export --review run/review --out run --keep valid: the review items are not overwritten', async () => {
    const run = fresh('export3');
    const items = writeItemsDir(join(run, 'items'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(20) });
    (await openReview({ itemsDir: items, reviewDir: join(run, 'review'), annotators: ['a'] })).store.close();
    const before = snapshot(run);
    await expect(exportReview({ reviewDir: join(run, 'review'), out: run, keep: 'valid' })).rejects.toThrow(
      `${run} (out): the output holds the input ${join(run, 'review', 'review.sqlite')} (reviewDir)`,
    );
    // The review kept elsewhere: the items folder it was drawn from is an input all the same.
    const elsewhere = join(fresh('export3-review'), 'review');
    (await openReview({ itemsDir: items, reviewDir: elsewhere, annotators: ['a'] })).store.close();
    await expect(exportReview({ reviewDir: elsewhere, out: run, keep: 'valid' })).rejects.toThrow(
      `${run} (out): the output holds the input ${items} (the review's items folder)`,
    );
    expect(snapshot(run)).toEqual(before);
  });

  it('4. ask --items F --out F: the items are not replaced', async () => {
    const f = join(fresh('ask4'), 'items.jsonl');
    writeFileSync(
      f,
      askItems(3)
        .map((i) => JSON.stringify(i) + '\n')
        .join(''),
    );
    const before = readFileSync(f, 'utf8');
    await expect(ask({ ...chat, items: f, out: f, style: 'zero_shot' })).rejects.toThrow(
      `${f} (out): the output is the input ${f} (items)`,
    );
    // The response cache is written too: the items file given as the cache is refused as well.
    await expect(
      ask({ ...chat, cacheFile: f, items: f, out: join(root, 'ask4-out.jsonl'), style: 'zero_shot' }),
    ).rejects.toThrow(`${f} (cacheFile): the output is the input ${f} (items)`);
    expect(readFileSync(f, 'utf8')).toBe(before);
  });

  it('5. review export --mturk-csv REVIEW/review.sqlite: the labels are not overwritten', async () => {
    const d = fresh('export5');
    const items = writeItemsDir(join(d, 'items'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(4) });
    const review = join(d, 'review');
    const { store } = await openReview({ itemsDir: items, reviewDir: review, annotators: ['a'] });
    const marks = { correct: ['A'], validity: 'valid' as const, reasons: [], otherText: '', ms: 5 };
    store.save('a', 0, marks, new Date('2026-01-01T00:00:00Z'), 'browser');
    store.close();
    const db = join(review, 'review.sqlite');
    const before = readFileSync(db, 'base64');
    await expect(exportReview({ reviewDir: review, out: join(d, 'out'), mturkCsv: db })).rejects.toThrow(
      `${db} (mturkCsv): the output is the input ${db} (reviewDir)`,
    );
    expect(readFileSync(db, 'base64')).toBe(before);
    // And the other way round: the results given as the review's own database.
    const opened = await openReview({ itemsDir: items, reviewDir: review });
    await expect(importMturkResults(opened.store, db)).rejects.toThrow(
      `${db} (reviewDir): the output is the input ${db}`,
    );
    opened.store.close();
  });

  it('review start, score and graph generate refuse too', async () => {
    const d = fresh('others');
    const items = writeItemsDir(join(d, 'items'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(4) });
    const before = snapshot(d);
    await expect(openReview({ itemsDir: items, reviewDir: items })).rejects.toThrow(
      `${items} (reviewDir): the output is the input ${items} (itemsDir)`,
    );
    const task1 = join(items, 'intentionqa_task1.jsonl');
    await expect(
      scoreIntentionQa({ files: [{ items: task1, responses: task1 }], style: 'zero_shot', out: d }),
    ).rejects.toThrow(`${d} (out): the output holds the input ${task1} (items[0])`);
    await expect(
      writeScaleGraph(task1, { nodes: 5, edges: 4, seed: 1, textSource: task1, progress: false }),
    ).rejects.toThrow(`${task1} (out): the output is the input ${task1} (textSource)`);
    expect(snapshot(d)).toEqual(before);
  });

  it('the command line names the flags of the command that ran', async () => {
    const program = await buildProgram('review');
    const review = program.commands.find((c) => c.name() === 'review')!;
    const start = review.commands.find((c) => c.name() === 'start')!;
    const exportCommand = review.commands.find((c) => c.name() === 'export')!;
    const err = new PathOverlapError('/r', 'reviewDir', '/r', 'itemsDir', 'is');
    expect(messageInFlags(err, start as never)).toBe(
      '/r (--out): the output is the input /r (--items): writing it would destroy the input; ' +
        'give an output outside every input (nothing was written)',
    );
    const csv = new PathOverlapError('/r/review.sqlite', 'mturkCsv', '/r/review.sqlite', 'reviewDir', 'is');
    expect(messageInFlags(csv, exportCommand as never)).toContain(
      '/r/review.sqlite (--mturk-csv): the output is the input /r/review.sqlite (--review)',
    );
  });
});
