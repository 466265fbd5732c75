// Red-team faults of issue 35 in `review`: a resumed review whose items folder changed (7), MTurk
// imports that lost or invented data (8, 9, 11), spreadsheet formulas in the batch CSV (12), results
// files and review databases that crashed the import (14), and unclear CSV errors (15). Each test
// failed on main@803aab8.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { exportReview } from '../engine/review/export-review.js';
import { importMturkResults } from '../engine/review/mturk.js';
import { openReview } from '../engine/review/open-review.js';
import { ReviewStore } from '../engine/review/review-store.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import { manyIntentionQaItems, writeItemsDir } from './support/review-fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intentsim-review-rel-'));

function markAllValid(store: ReviewStore, annotator = 'a'): void {
  const items = store.items();
  for (let p = 0; p < store.itemCount(); p++) {
    // A "valid" label marks the gold alone (one that does not is flagged and is no vote for --keep valid).
    const marks = { correct: items[p]!.gold, validity: 'valid' as const, reasons: [], otherText: '', ms: 5 };
    store.save(annotator, p, marks, new Date('2026-01-01T00:00:00Z'), 'browser');
  }
}

describe('7. a review whose items folder changed', () => {
  async function started() {
    const dir = tmp();
    const lines = manyIntentionQaItems(6);
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': lines });
    const review = join(dir, 'review');
    const { store } = await openReview({ itemsDir: items, reviewDir: review, annotators: ['a'] });
    markAllValid(store);
    store.close();
    return { dir, lines, items, review, file: join(items, 'intentionqa_task1.jsonl') };
  }

  it('is refused on resume, naming the missing and the changed items', async () => {
    const { lines, items, review, file } = await started();
    // Q2 and Q5 removed, Q3's gold changed.
    const edited = lines.filter((_, i) => i !== 1 && i !== 4).map((l) => l.replace('"gold_ind":"C"', '"gold_ind":"A"'));
    expect(edited.join('\n')).not.toBe(lines.filter((_, i) => i !== 1 && i !== 4).join('\n'));
    writeFileSync(file, edited.map((l) => l + '\n').join(''));
    await expect(openReview({ itemsDir: items, reviewDir: review })).rejects.toThrow(
      `${review}: the items folder ${items} changed since this review was started: ` +
        '2 sampled item(s) are no longer there (intentionqa_task1.jsonl#Q2, intentionqa_task1.jsonl#Q5); ' +
        '1 sampled item(s) changed since they were sampled (intentionqa_task1.jsonl#Q3). ' +
        'Refusing to resume it: restore those items, or start a new review in another folder',
    );
  });

  it('export --keep valid writes nothing of a changed folder; an unchanged one (items added) is fine', async () => {
    const { dir, lines, items, review, file } = await started();
    writeFileSync(
      file,
      lines
        .slice(0, 3)
        .map((l) => l + '\n')
        .join(''),
    );
    const out = join(dir, 'out');
    await expect(exportReview({ reviewDir: review, out, keep: 'valid' })).rejects.toThrow(
      '3 sampled item(s) are no longer there (intentionqa_task1.jsonl#Q4, intentionqa_task1.jsonl#Q5, ' +
        'intentionqa_task1.jsonl#Q6). Refusing to write the items that passed',
    );
    expect(() => readFileSync(join(out, 'items', 'intentionqa_task1.jsonl'))).toThrow(/ENOENT/);
    // Restored, with a new item appended: the sample is intact, the kept items are the folder's lines.
    const extra = manyIntentionQaItems(7)[6]!;
    writeFileSync(file, [...lines, extra].map((l) => l + '\n').join(''));
    const r = await exportReview({ reviewDir: review, out, keep: 'valid' });
    expect(r.kept).toEqual({ 'intentionqa_task1.jsonl': 6 });
    expect(readFileSync(join(out, 'items', 'intentionqa_task1.jsonl'), 'utf8')).toBe(
      lines.map((l) => l + '\n').join(''),
    );
    (await openReview({ itemsDir: items, reviewDir: review })).store.close();
  });
});

/** A review of `n` items (Q1…Qn) with page annotators `annotators`, and a results file writer. */
async function mturkReview(n = 2, annotators = ['a']) {
  const dir = tmp();
  const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(n) });
  const review = join(dir, 'review');
  (await openReview({ itemsDir: items, reviewDir: review, annotators })).store.close();
  return { dir, review, results: join(dir, 'results.csv') };
}

const _RESULT_COLUMNS = [
  'WorkerId',
  'AssignmentStatus',
  'SubmitTime',
  'WorkTimeInSeconds',
  'Input.item_key',
  'Answer.correct',
  'Answer.validity',
  'Answer.reasons',
] as const;
type ResultRow = Partial<Record<(typeof _RESULT_COLUMNS)[number] | 'Answer.taskAnswers' | 'Answer.other_text', string>>;

function resultRow(worker: string, id: string, over: ResultRow = {}): ResultRow {
  return {
    WorkerId: worker,
    AssignmentStatus: 'Submitted',
    SubmitTime: 'Mon Jan 05 10:01:42 PST 2026',
    WorkTimeInSeconds: '5',
    'Input.item_key': `intentionqa_task1.jsonl#${id}`,
    'Answer.correct': 'A',
    'Answer.validity': 'valid',
    'Answer.reasons': '',
    ...over,
  };
}

function writeResults(file: string, rows: ResultRow[]): void {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  writeFileSync(file, stringify([columns, ...rows.map((r) => columns.map((c) => r[c as keyof ResultRow] ?? ''))]));
}

async function importInto(review: string, results: string) {
  const store = ReviewStore.open(review);
  try {
    return { result: await importMturkResults(store, results), labels: store.labels() };
  } finally {
    store.close();
  }
}

async function importFailure(review: string, results: string): Promise<string> {
  const store = ReviewStore.open(review);
  try {
    await importMturkResults(store, results);
    return 'imported';
  } catch (err) {
    expect(store.labels()).toEqual([]); // nothing saved
    return (err as Error).message;
  } finally {
    store.close();
  }
}

describe('8. review import: two assignments of one worker for one item', () => {
  it('are refused, naming both lines; the printed counts are the stored ones', async () => {
    const { review, results } = await mturkReview();
    writeResults(results, [
      resultRow('W1', 'Q1'),
      resultRow('W1', 'Q2'),
      resultRow('W1', 'Q1', { 'Answer.validity': 'invalid' }),
    ]);
    expect(await importFailure(review, results)).toBe(
      `${results}:4 (field "WorkerId"): worker W1 answered intentionqa_task1.jsonl#Q1 already on line 2: ` +
        'MTurk gives one assignment per worker and item, and the second would replace the first; remove one of the rows',
    );
    writeResults(results, [resultRow('W1', 'Q1'), resultRow('W2', 'Q1'), resultRow('W1', 'Q2')]);
    const { result, labels } = await importInto(review, results);
    expect(result).toEqual({ imported: 3, replaced: 0, unchanged: 0, rejected: 0, workers: 2 });
    expect(labels).toHaveLength(result.imported);
  });
});

describe('9. review import: times MTurk never writes', () => {
  it.each([
    ['WorkTimeInSeconds', '1e306'],
    ['WorkTimeInSeconds', ''],
    ['WorkTimeInSeconds', '-3'],
    ['WorkTimeInSeconds', '31536001'],
    ['SubmitTime', '0'],
    ['SubmitTime', '2026'],
    ['SubmitTime', ''],
    ['SubmitTime', 'Mon Jan 05 10:01:42 PST 1999'],
  ] as const)('%s = "%s" is refused, naming file, line and column', async (column, value) => {
    const { review, results } = await mturkReview();
    writeResults(results, [resultRow('W1', 'Q1'), resultRow('W1', 'Q2', { [column]: value })]);
    const message = await importFailure(review, results);
    expect(message).toContain(`${results}:3 (field "${column}"): expected `);
    expect(message).toContain(`got "${value}"`);
  });

  it('a plain time and an MTurk date are read', async () => {
    const { review, results } = await mturkReview();
    writeResults(results, [resultRow('W1', 'Q1', { WorkTimeInSeconds: '42.5' })]);
    const { labels } = await importInto(review, results);
    expect(labels[0]).toMatchObject({ ms: 42500, savedAt: '2026-01-05T18:01:42.000Z' });
  });
});

describe('11. review import: a worker whose annotator name is a page annotator', () => {
  it('is refused, and a page annotator may not take an MTurk name', async () => {
    const { dir, review, results } = await mturkReview(2, ['a']);
    // A review of the time before the names were reserved: a page annotator mturk-W1 with a label.
    const db = new Database(join(review, 'review.sqlite'));
    db.prepare("INSERT INTO annotators (name, token) VALUES ('mturk-W1', 'tok')").run();
    db.close();
    const store = ReviewStore.open(review);
    const marks = { correct: ['B'], validity: 'invalid' as const, reasons: [], otherText: '', ms: 5 };
    store.save('mturk-W1', 0, marks, new Date('2026-01-01T00:00:00Z'), 'browser');
    store.close();
    writeResults(results, [resultRow('W1', 'Q1')]);
    const s = ReviewStore.open(review);
    await expect(importMturkResults(s, results)).rejects.toThrow(
      `${results}:2 (field "WorkerId"): worker W1 would be annotator mturk-W1, a page annotator of this review`,
    );
    expect(s.labels('mturk-W1')).toMatchObject([{ correct: ['B'], origin: 'browser' }]);
    s.close();
    await expect(
      openReview({ itemsDir: join(dir, 'items'), reviewDir: join(dir, 'other'), annotators: ['mturk-W2'] }),
    ).rejects.toThrow(`annotators "mturk-W2": names starting with mturk- are MTurk workers'`);
  });
});

describe('12. the MTurk batch CSV', () => {
  it('neutralizes cells a spreadsheet would run as formulas (OWASP: a leading quote)', async () => {
    const dir = tmp();
    const titles = ['=HYPERLINK("http://x","y")', '+1+2', '-2+3', '@SUM(A1)', '\tTab', 'Plain'];
    const items = writeItemsDir(join(dir, 'items'), {
      'intentionqa_task1.jsonl': manyIntentionQaItems(titles.length, (i) => titles[i]!),
    });
    (await openReview({ itemsDir: items, reviewDir: join(dir, 'review') })).store.close();
    const batch = join(dir, 'batch.csv');
    await exportReview({ reviewDir: join(dir, 'review'), out: join(dir, 'out'), mturkCsv: batch });
    const rows = parse(readFileSync(batch, 'utf8'), { columns: true }) as Record<string, string>[];
    const products = rows.map((r) => r.products!.split(' · ')[0]!).sort();
    expect(products).toEqual(
      ["'+1+2", "'-2+3", "'=HYPERLINK(&quot;http://x&quot;,&quot;y&quot;)", "'@SUM(A1)", "'\tTab", 'Plain'].sort(),
    );
    // No cell of the file starts a formula.
    for (const row of rows) for (const v of Object.values(row)) expect(v).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe('14. review import and review databases that crashed', () => {
  it('a results CSV with an unclosed quote or a short row: file, line and column', async () => {
    const { review, results } = await mturkReview();
    writeResults(results, [resultRow('W1', 'Q1')]);
    const good = readFileSync(results, 'utf8');
    writeFileSync(results, good + 'W2,Submitted,"Mon Jan 05 10:01:42 PST 2026,5\n');
    expect(await importFailure(review, results)).toMatch(
      new RegExp(`^${results}:3 \\(field "SubmitTime"\\): not a CSV row MTurk writes: Quote Not Closed`),
    );
    writeFileSync(results, good + 'W2,Submitted\n');
    expect(await importFailure(review, results)).toBe(
      `${results}:3 (field "SubmitTime"): not a CSV row MTurk writes: Invalid Record Length: columns length is 8, got 2`,
    );
  });

  it('a review.sqlite that is not a database, or is a graph store: a clear error, nothing added', async () => {
    const dir = tmp();
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(2) });
    const garbage = join(dir, 'garbage');
    mkdirSync(garbage);
    writeFileSync(join(garbage, 'review.sqlite'), 'this is not a database, just text'.repeat(100));
    expect(() => ReviewStore.open(garbage)).toThrow(
      `${join(garbage, 'review.sqlite')}: not a review database (not a SQLite database: file is not a database)`,
    );
    await expect(openReview({ itemsDir: items, reviewDir: garbage })).rejects.toThrow(/not a review database/);
    const graphDir = join(dir, 'graph');
    const store = SqliteGraphStore.open(join(graphDir, 'review.sqlite'), { mode: 'write' });
    await store.upsertEdges([{ head: 'PersonX buy a phone', tail: 'PersonX be happy', senses: { Result: 1 } }]);
    await store.close();
    const before = readFileSync(join(graphDir, 'review.sqlite'));
    await expect(openReview({ itemsDir: items, reviewDir: graphDir })).rejects.toThrow(
      `${join(graphDir, 'review.sqlite')}: not a review database (it holds the tables meta, nodes, edges, purchase_objects: an intentsim graph store?)`,
    );
    await expect(exportReview({ reviewDir: graphDir, out: join(dir, 'out') })).rejects.toThrow(/not a review database/);
    expect(readFileSync(join(graphDir, 'review.sqlite')).equals(before)).toBe(true);
  });
});

describe('14. review import: the results file is streamed', () => {
  it('a bad row is reported while the file is still being written (a FIFO whose writer waits)', async () => {
    const { dir, review, results } = await mturkReview();
    // (csv-parse holds a chunk's last row until it sees what follows: W3 lets W2 through.)
    writeResults(results, [
      resultRow('W1', 'Q1'),
      resultRow('W2', 'Q1', { 'Answer.validity': 'nope' }),
      resultRow('W3', 'Q1'),
    ]);
    const fifo = join(dir, 'results.fifo');
    execFileSync('mkfifo', [fifo]);
    // The writer sends the rows, then holds the FIFO open for a minute: reading it whole (as
    // readFileSync did) would wait for that minute; a stream reads the rows as they come.
    const writer = spawn('sh', ['-c', '{ cat "$1"; sleep 60; } > "$2"', 'sh', results, fifo], {
      detached: true,
      stdio: 'ignore',
    });
    const started = Date.now();
    try {
      expect(await importFailure(review, fifo)).toBe(
        `${fifo}:3 (field "Answer.validity"): must be valid, invalid, unsure, got "nope"`,
      );
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      process.kill(-writer.pid!, 'SIGKILL');
    }
  }, 30_000);
});

describe('15. review import: unclear errors', () => {
  it('a multi-line field does not shift the reported line', async () => {
    const { review, results } = await mturkReview();
    writeResults(results, [
      resultRow('W1', 'Q1'),
      { ...resultRow('W2', 'Q1'), 'Answer.other_text': 'line one\nline two\nline three' },
      resultRow('W3', 'Q1', { 'Answer.validity': 'nope' }),
    ]);
    // Lines: 1 header, 2 W1, 3–5 W2 (its note spans three), 6 W3.
    expect(readFileSync(results, 'utf8').split('\n')[5]).toMatch(/^W3,/);
    expect(await importFailure(review, results)).toBe(
      `${results}:6 (field "Answer.validity"): must be valid, invalid, unsure, got "nope"`,
    );
  });

  it('Answer.taskAnswers = null says what it expected', async () => {
    const { review, results } = await mturkReview();
    writeResults(results, [{ ...resultRow('W1', 'Q1'), 'Answer.taskAnswers': 'null' }]);
    expect(await importFailure(review, results)).toBe(
      `${results}:2 (field "Answer.taskAnswers"): expected a JSON list holding one object of the form's answers, got null`,
    );
    writeResults(results, [
      {
        ...resultRow('W1', 'Q1', { 'Answer.correct': '', 'Answer.validity': '' }),
        'Answer.taskAnswers': '[{"correct":["B"],"validity":"valid"}]',
      },
    ]);
    expect((await importInto(review, results)).labels[0]).toMatchObject({ correct: ['B'], validity: 'valid' });
  });

  it('--mturk-results DIR names the path and the option', async () => {
    const { dir, review } = await mturkReview();
    const store = ReviewStore.open(review);
    await expect(importMturkResults(store, dir)).rejects.toThrow(
      `${dir} (mturkResults): is a folder, not a file; give the path of a file`,
    );
    store.close();
  });
});
