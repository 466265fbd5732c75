// `review import` of results that do not belong to the review (issue 45, faults 4, 5 and 11): a
// missing answer column, the results of another blind review's batch (same items, options in
// another order), and a second import of the same worker's labels.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { exportReview } from '../engine/review/export-review.js';
import { importMturkResults } from '../engine/review/mturk.js';
import { openReview } from '../engine/review/open-review.js';
import { ReviewStore } from '../engine/review/review-store.js';
import { manyIntentionQaItems, writeItemsDir } from './support/review-fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intentsim-review-import-'));
const ASSIGNMENT = {
  AssignmentStatus: 'Submitted',
  SubmitTime: 'Mon Jan 05 10:01:42 PST 2026',
  WorkTimeInSeconds: '30',
};

/** A review of `n` Task-1 items (blind with `seed`, or open) and the rows of its MTurk batch, keyed by column. */
async function reviewWithBatch(dir: string, name: string, n: number, blind?: { seed: number }) {
  const items = join(dir, 'items');
  writeItemsDir(items, { 'intentionqa_task1.jsonl': manyIntentionQaItems(n) });
  const review = join(dir, name);
  const opened = await openReview({
    itemsDir: items,
    reviewDir: review,
    annotators: ['a'],
    ...(blind ? { blind: true, seed: blind.seed } : {}),
  });
  opened.store.close();
  const batch = join(dir, `${name}-batch.csv`);
  await exportReview({ reviewDir: review, out: join(dir, `${name}-out`), mturkCsv: batch });
  return { review, batch: parse(readFileSync(batch, 'utf8'), { columns: true }) as Record<string, string>[] };
}

/** Results rows as MTurk writes them: every batch column back as Input.*, then the answers. */
function writeResults(file: string, rows: Array<Record<string, string>>): void {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  writeFileSync(file, stringify([columns, ...rows.map((r) => columns.map((c) => r[c] ?? ''))]));
}

function resultsOf(
  batch: Record<string, string>[],
  worker: string,
  answers: (k: number) => Record<string, string>,
): Array<Record<string, string>> {
  return batch.map((row, k) => ({
    WorkerId: worker,
    ...ASSIGNMENT,
    ...Object.fromEntries(Object.entries(row).map(([c, v]) => [`Input.${c}`, v])),
    ...answers(k),
  }));
}

async function importing(review: string, file: string, options: { replace?: boolean } = {}) {
  const store = ReviewStore.open(review);
  try {
    return await importMturkResults(store, file, options);
  } finally {
    store.close();
  }
}

const labelsOf = (review: string) => {
  const store = ReviewStore.open(review);
  try {
    return store.labels();
  } finally {
    store.close();
  }
};

describe('a missing answer column (fault 4)', () => {
  it('a blind review refuses results of the open template (Answer.correct, no Answer.rightOptions), naming file and column', async () => {
    const dir = tmp();
    const { review, batch } = await reviewWithBatch(dir, 'blind', 3, { seed: 4 });
    const results = join(dir, 'results.csv');
    writeResults(
      results,
      resultsOf(batch, 'W1', () => ({ 'Answer.correct': 'A', 'Answer.validity': 'valid' })),
    );
    await expect(importing(review, results)).rejects.toThrow(
      `${results}:2 (field "Answer.rightOptions"): missing column: the blind review's marks are read from it; ` +
        `it has "Answer.correct", the answer column of the open template: these are results of a review that is ` +
        "not blind, not of this blind review's batch",
    );
    expect(labelsOf(review)).toEqual([]);
  });

  it('an open review refuses results without Answer.correct', async () => {
    const dir = tmp();
    const { review, batch } = await reviewWithBatch(dir, 'open', 2);
    const results = join(dir, 'results.csv');
    writeResults(
      results,
      resultsOf(batch, 'W1', () => ({ 'Answer.validity': 'valid' })),
    );
    await expect(importing(review, results)).rejects.toThrow(
      `${results}:2 (field "Answer.correct"): missing column: the review's marks are read from it; ` +
        `the template's checkboxes named "correct" come back as that column`,
    );
  });
});

describe("another blind review's results (fault 5)", () => {
  it('are refused, naming the row and the option shown, when the options were shown in another order', async () => {
    const dir = tmp();
    const mine = await reviewWithBatch(dir, 'seed4', 8, { seed: 4 });
    const other = await reviewWithBatch(dir, 'seed5', 8, { seed: 5 });
    // Same items and refs (the rows in another order), the options in another order on some row.
    const mineByRef = new Map(mine.batch.map((r) => [r.item_ref!, r]));
    expect([...mineByRef.keys()].sort()).toEqual(other.batch.map((r) => r.item_ref!).sort());
    const shownDiffers = (row: Record<string, string>) =>
      ['A', 'B', 'C', 'D'].find((l) => row[`option_${l}`] !== mineByRef.get(row.item_ref!)![`option_${l}`]);
    const differs = other.batch.findIndex((row) => shownDiffers(row) !== undefined);
    expect(differs).toBeGreaterThanOrEqual(0);
    const letter = shownDiffers(other.batch[differs]!)!;
    const results = join(dir, 'results.csv');
    writeResults(
      results,
      resultsOf(other.batch, 'W1', () => ({ 'Answer.rightOptions': 'A', 'Answer.validity': 'valid' })),
    );
    const err = (await importing(mine.review, results).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain(`${results}:${differs + 2} (field "Input.option_${letter}"): the worker was shown `);
    expect(err.message).toContain("the row is from another review's batch (another seed, so another order)");
    expect(labelsOf(mine.review)).toEqual([]);
    // Its own batch's results are read.
    writeResults(
      results,
      resultsOf(mine.batch, 'W1', () => ({ 'Answer.rightOptions': 'A', 'Answer.validity': 'valid' })),
    );
    expect((await importing(mine.review, results)).imported).toBe(8);
  });

  it('a blind review needs the Input.option_* columns to check them', async () => {
    const dir = tmp();
    const { review, batch } = await reviewWithBatch(dir, 'blind', 2, { seed: 4 });
    const results = join(dir, 'results.csv');
    const rows = resultsOf(batch, 'W1', () => ({ 'Answer.rightOptions': 'A', 'Answer.validity': 'valid' }));
    writeResults(
      results,
      rows.map((row) => Object.fromEntries(Object.entries(row).filter(([c]) => c !== 'Input.option_A'))),
    );
    await expect(importing(review, results)).rejects.toThrow(
      `${results}:2 (field "Input.option_A"): missing column: a blind review checks that each row's options are those it showed`,
    );
  });
});

describe('a second import of the same worker (fault 11)', () => {
  it('the same results again change nothing; a different label is refused unless replace', async () => {
    const dir = tmp();
    const { review, batch } = await reviewWithBatch(dir, 'open', 3);
    const results = join(dir, 'results.csv');
    writeResults(
      results,
      resultsOf(batch, 'W1', () => ({ 'Answer.correct': 'A', 'Answer.validity': 'valid' })),
    );
    expect(await importing(review, results)).toMatchObject({ imported: 3, replaced: 0, unchanged: 0 });
    expect(await importing(review, results)).toMatchObject({ imported: 0, replaced: 0, unchanged: 3 });
    const changed = join(dir, 'changed.csv');
    writeResults(
      changed,
      resultsOf(batch, 'W1', (k) => ({ 'Answer.correct': k === 1 ? 'B' : 'A', 'Answer.validity': 'valid' })),
    );
    const key = batch[1]!.item_key!;
    await expect(importing(review, changed)).rejects.toThrow(
      `${changed}:3 (field "WorkerId"): worker W1 has a different label for ${key} from an earlier import`,
    );
    expect(labelsOf(review).map((l) => l.correct)).toEqual([['A'], ['A'], ['A']]);
    expect(await importing(review, changed, { replace: true })).toMatchObject({
      imported: 1,
      replaced: 1,
      unchanged: 2,
    });
    expect(labelsOf(review).map((l) => l.correct)).toEqual([['A'], ['B'], ['A']]);
  });
});
