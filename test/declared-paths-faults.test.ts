// Issue 45, faults 1–3, 11 (items check), 14, 16, 17 and 18 (review export --mturk-csv DIR, a link to
// the items of a review): the commands
// that wrote over their own inputs, run through the command line, now stop before anything is
// read or written, by the check every command's declared paths get (cli/declared-paths.ts). Each
// case was reproduced on main@3d72bd3: the input was replaced (items 1,183 → 639 lines, the review
// database turned into JSON, the labels turned into a CSV), or the command spun for ever.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PathCheckError, PathOverlapError } from '../core/check-paths.js';
import { InputLimitError } from '../core/jsonl-batches.js';
import { makeDirsSync } from '../core/make-dirs.js';
import { buildProgram, formatFailure } from '../cli/main.js';
import { cli } from './support/cli.js';
import { labelledReview } from './support/tune-fixtures.js';
import { openReview } from '../engine/review/open-review.js';

const root = mkdtempSync(join(tmpdir(), 'intentsim-declared-'));
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
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile())
      out[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name), 'base64');
  return out;
}

/** The error a command line run ends with (undefined: it succeeded). */
async function failure(args: string[]): Promise<unknown> {
  try {
    await cli(args);
  } catch (err) {
    return err;
  }
  return undefined;
}

/** What the command line prints for the error, with the flags of the command that ran. */
async function printed(err: unknown, ...path: string[]): Promise<string> {
  let command = await buildProgram(path[0]);
  for (const name of path) command = command.commands.find((c) => c.name() === name)! as typeof command;
  return formatFailure(err, command);
}

const assertion = JSON.stringify({
  id: 'FS_1',
  item_a_id: 'P1',
  item_b_id: 'P2',
  relation: 'other',
  assertion: 'PersonX bought a product of Item A and a product of Item B because they are gifts.',
  typicality: 0.8,
});
const item = (id: string, b: string) =>
  JSON.stringify({
    id,
    item_a_id: 'P1',
    item_b_id: 'P2',
    item_a_name: 'P1',
    item_b_name: 'P2',
    relation: 'all',
    distractors_asserstion: [],
    gold_ind: 'A',
    options: { A: 'because they hold tea.', B: b, C: 'because they sleep.', D: 'because they dance.' },
  });

/** A pipeline-like output: RUN/items/intentionqa_task1.jsonl (one item flagged, one kept); the assertions apart. */
function pipelineRun(name: string): { run: string; items: string; assertions: string } {
  const run = fresh(name);
  const items = join(run, 'items');
  mkdirSync(items);
  writeFileSync(
    join(items, 'intentionqa_task1.jsonl'),
    item('x1', 'because they are gifts.') + '\n' + item('x2', 'because they fly.') + '\n',
  );
  writeFileSync(
    join(items, 'intentionqa_dropped.jsonl'),
    '{"id":"earlier","reason":"pair-asserted","detail":"kept"}\n',
  );
  const assertions = join(fresh(`${name}-assertions`), 'assertions.jsonl');
  writeFileSync(assertions, assertion + '\n');
  return { run, items, assertions };
}

describe('fault 1: items check never writes over its items', () => {
  it('--items pv/items --out pv --drop-flagged: refused, the items untouched', async () => {
    const { run, items, assertions } = pipelineRun('ic-holds');
    const before = snapshot(run);
    const err = await failure([
      'items',
      'check',
      '--items',
      items,
      '--assertions',
      assertions,
      '--out',
      run,
      '--drop-flagged',
    ]);
    expect(err).toBeInstanceOf(PathOverlapError);
    expect(await printed(err, 'items', 'check')).toBe(
      `intentsim: ${run} (--out): the output holds the input ${items} (--items): writing into it could replace ` +
        'or remove the input; give an output outside every input (nothing was written)\n',
    );
    expect(snapshot(run)).toEqual(before);
  });

  it('--items icq/check.json --out icq, and --out equal to the items folder: refused', async () => {
    const icq = fresh('ic-file');
    const file = join(icq, 'check.json');
    writeFileSync(file, item('x1', 'because they fly.') + '\n');
    const { assertions } = pipelineRun('ic-file-assertions');
    const err = await failure(['items', 'check', '--items', file, '--assertions', assertions, '--out', icq]);
    expect(err).toMatchObject({ field: 'out', inputField: 'items', relation: 'holds' });
    expect(readFileSync(file, 'utf8')).toBe(item('x1', 'because they fly.') + '\n');

    const { items } = pipelineRun('ic-same');
    const before = snapshot(items);
    const same = await failure(['items', 'check', '--items', items, '--assertions', assertions, '--out', items]);
    expect(same).toMatchObject({ field: 'out', inputField: 'items', relation: 'is' });
    expect(snapshot(items)).toEqual(before);
  });
});

describe('fault 17: items check speaks in its own flags', () => {
  it('a line over the limit names no --max-line-bytes, which items check does not have; catalog index still does', async () => {
    const err = new InputLimitError(
      { file: 'items.jsonl', line: 3 },
      'a line of 9 bytes, more than the limit of 8',
      'maxLineBytes',
    );
    expect(await printed(err, 'items', 'check')).toBe(`intentsim: ${err.message}\n`);
    expect(await printed(err, 'catalog', 'index')).toBe(
      `intentsim: ${err.message}\n  If such lines are meant to be there, raise the limit with --max-line-bytes N.\n`,
    );
  });

  it('--drop-flagged without --out is refused in flags', async () => {
    const { items, assertions } = pipelineRun('ic-drop');
    const err = await failure(['items', 'check', '--items', items, '--assertions', assertions, '--drop-flagged']);
    expect(await printed(err, 'items', 'check')).toBe(
      'intentsim: --drop-flagged needs --out (the folder the kept items go to)\n',
    );
  });
});

describe('fault 11 (items check): a rerun into the same --out replaces the earlier run', () => {
  it('the kept items of a --drop-flagged run are gone after a run without it, and check.json is the new one', async () => {
    const { items, assertions } = pipelineRun('ic-rerun');
    const out = join(fresh('ic-rerun-out'), 'check');
    await cli(['items', 'check', '--items', items, '--assertions', assertions, '--out', out, '--drop-flagged']);
    expect(readdirSync(join(out, 'items')).sort()).toEqual(['intentionqa_dropped.jsonl', 'intentionqa_task1.jsonl']);
    // The second run checks one file of another name: nothing of the first run's OUT/items stays.
    const single = join(fresh('ic-rerun-single'), 'mine.jsonl');
    writeFileSync(single, item('x3', 'because they fly.') + '\n');
    await cli(['items', 'check', '--items', single, '--assertions', assertions, '--out', out]);
    expect(existsSync(join(out, 'items'))).toBe(false);
    expect(readdirSync(out).sort()).toEqual(['check.json', 'flagged.jsonl']);
    const summary = JSON.parse(readFileSync(join(out, 'check.json'), 'utf8')) as { files: Array<{ file: string }> };
    expect(summary.files.map((f) => f.file)).toEqual([single]);
    // And with --drop-flagged again, only this run's file is kept.
    await cli(['items', 'check', '--items', single, '--assertions', assertions, '--out', out, '--drop-flagged']);
    expect(readdirSync(join(out, 'items')).sort()).toEqual(['intentionqa_dropped.jsonl', 'mine.jsonl']);
  });
});

describe('fault 2: tune never writes over the review or its items', () => {
  it('--settings-out R/review.sqlite: refused, every label kept', async () => {
    const d = fresh('tune-db');
    await labelledReview(d, 8);
    const review = join(d, 'review');
    const db = join(review, 'review.sqlite');
    const before = readFileSync(db, 'base64');
    const err = await failure(['tune', '--review', review, '--settings-out', db, '--bootstrap', '0']);
    expect(err).toBeInstanceOf(PathOverlapError);
    expect(await printed(err, 'tune')).toContain(`${db} (--settings-out): the output is the input ${db} (--review)`);
    expect(readFileSync(db, 'base64')).toBe(before);
  });

  it("--settings-out ITEMS/intentionqa_task1.jsonl, the review's items file: refused", async () => {
    const d = fresh('tune-items');
    await labelledReview(d, 8);
    const file = join(d, 'items', 'intentionqa_task1.jsonl');
    const before = readFileSync(file, 'utf8');
    const err = await failure(['tune', '--review', join(d, 'review'), '--settings-out', file, '--bootstrap', '0']);
    expect(err).toMatchObject({ field: 'settingsOut', inputField: "the review's items folder", relation: 'inside' });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('faults 3 and 18: review export writes no output over another, nor a CSV into a folder', () => {
  it('--out O --mturk-csv O/labels.jsonl: refused, nothing written', async () => {
    const d = fresh('export-also');
    await labelledReview(d, 4);
    const out = join(d, 'out');
    const csv = join(out, 'labels.jsonl');
    const err = await failure(['review', 'export', '--review', join(d, 'review'), '--out', out, '--mturk-csv', csv]);
    expect(err).toBeInstanceOf(PathOverlapError);
    expect(await printed(err, 'review', 'export')).toBe(
      `intentsim: ${csv} (--mturk-csv): the output is also the output ${csv} (out/labels.jsonl): one would be ` +
        'written over the other; give each output a path of its own (nothing was written)\n',
    );
    expect(existsSync(out)).toBe(false);
    // The kept items' folder is an output of --keep valid as well.
    const kept = join(out, 'items');
    const keptErr = await failure([
      'review',
      'export',
      '--review',
      join(d, 'review'),
      '--out',
      out,
      '--keep',
      'valid',
      '--mturk-csv',
      kept,
    ]);
    expect(keptErr).toMatchObject({ field: 'mturkCsv', relation: 'also' });
    expect(existsSync(out)).toBe(false);
  });

  it('--mturk-csv DIR: a clear error before any output is written', async () => {
    const d = fresh('export-dir');
    await labelledReview(d, 4);
    const out = join(d, 'out');
    const folder = fresh('export-dir-csv');
    const err = await failure(['review', 'export', '--review', join(d, 'review'), '--out', out, '--mturk-csv', folder]);
    expect(err).toBeInstanceOf(PathCheckError);
    expect(await printed(err, 'review', 'export')).toBe(
      `intentsim: ${folder} (--mturk-csv): is a folder, not a file; give the path of a file\n`,
    );
    expect(existsSync(out)).toBe(false);
    // A folder not made yet, named with a trailing slash: the CSV's write failed with EISDIR after
    // the other outputs were written.
    const slash = join(d, 'new-folder') + '/';
    const slashErr = await failure([
      'review',
      'export',
      '--review',
      join(d, 'review'),
      '--out',
      out,
      '--mturk-csv',
      slash,
    ]);
    expect(await printed(slashErr, 'review', 'export')).toBe(
      `intentsim: ${slash} (--mturk-csv): names a folder (it ends with a slash), not a file; give the path of a file\n`,
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe('faults 16 and 18: review start', () => {
  it('--port 99999: refused while the options are parsed, before review.sqlite is made', async () => {
    const d = fresh('port');
    await labelledReview(d, 2);
    const out = join(d, 'new-review');
    const program = await buildProgram('review');
    const throwing = (c: typeof program): void => {
      c.exitOverride().configureOutput({ writeErr: () => undefined });
      c.commands.forEach((s) => throwing(s as typeof program));
    };
    throwing(program);
    const args = ['review', 'start', '--items', join(d, 'items'), '--out', out, '--port', '99999'];
    const err = await program.parseAsync(['node', 'intentsim', ...args]).catch((e: unknown) => e);
    expect((err as Error).message).toContain(
      "option '--port <n>' argument '99999' is invalid. Expected a port, 0 to 65535.",
    );
    expect(existsSync(out)).toBe(false);
  });

  it('a link to the same items folder resumes the review; other items are still refused', async () => {
    const d = fresh('link');
    await labelledReview(d, 2);
    const link = join(d, 'items-link');
    symlinkSync(join(d, 'items'), link);
    const again = await openReview({ itemsDir: `${link}/`, reviewDir: join(d, 'review') });
    expect(again.resumed).toBe(true);
    again.store.close();
    const other = fresh('link-other');
    writeFileSync(join(other, 'intentionqa_task1.jsonl'), readFileSync(join(d, 'items', 'intentionqa_task1.jsonl')));
    await expect(openReview({ itemsDir: other, reviewDir: join(d, 'review') })).rejects.toThrow(
      'use another review folder for other items',
    );
  });
});

describe("model download's cache is a declared output", () => {
  it('--model-cache FILE: refused before any download', async () => {
    const file = join(fresh('model-cache'), 'cache');
    writeFileSync(file, 'not a folder\n');
    const err = await failure(['model', 'download', '--model-cache', file, '--model-id', 'x/y', '--dtype', 'q8']);
    expect(err).toBeInstanceOf(PathCheckError);
    expect(await printed(err, 'model', 'download')).toBe(
      `intentsim: ${file} (--model-cache): is a file, not a folder; give the path of a folder (it is created if missing)\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('not a folder\n');
  });
});

describe('fault 14: an output folder that cannot be created fails at once', () => {
  const proc = existsSync('/proc/self') ? '/proc/intentsim-no-such/out' : undefined;

  it('makeDirsSync creates the missing levels, and fails for one that cannot be made (under a file; under /proc)', () => {
    const d = fresh('mkdirs');
    makeDirsSync(join(d, 'a', 'b', 'c'));
    expect(readdirSync(join(d, 'a', 'b'))).toEqual(['c']);
    makeDirsSync(join(d, 'a', 'b', 'c')); // already there: fine
    writeFileSync(join(d, 'file'), '');
    expect(() => makeDirsSync(join(d, 'file', 'x'))).toThrow(/ENOTDIR/);
    expect(() => makeDirsSync(join(d, 'file'))).toThrow(/EEXIST/);
    // Node's own recursive mkdir never returns here (it retries for ever).
    if (proc !== undefined) expect(() => makeDirsSync(proc)).toThrow(/ENOENT/);
  });

  it.skipIf(proc === undefined)('items check --out /proc/…: exit 1 with one line, within seconds', async () => {
    const { items, assertions } = pipelineRun('ic-proc');
    const started = performance.now();
    const result = await promisify(execFile)(
      process.execPath,
      ['bin/intentsim.js', 'items', 'check', '--items', items, '--assertions', assertions, '--out', proc!],
      // SIGKILL: the old code ignored SIGTERM while it spun.
      { timeout: 60_000, killSignal: 'SIGKILL' },
    ).catch((err: { code: number; stderr: string; killed: boolean }) => err);
    expect(result).toMatchObject({ code: 1, killed: false });
    expect((result as { stderr: string }).stderr).toBe(
      `intentsim: /proc/intentsim-no-such: cannot create this folder (to create ${proc!}): mkdir failed with ENOENT; give a path where folders can be made\n`,
    );
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
