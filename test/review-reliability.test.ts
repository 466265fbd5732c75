// Red-team faults of issue 35 in `review`: a resumed review whose items folder changed (7), MTurk
// imports that lost or invented data (8, 9, 11), spreadsheet formulas in the batch CSV (12), results
// files and review databases that crashed the import (14), and unclear CSV errors (15). Each test
// failed on main@803aab8.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportReview } from '../engine/review/export-review.js';
import { openReview } from '../engine/review/open-review.js';
import type { ReviewStore } from '../engine/review/review-store.js';
import { manyIntentionQaItems, writeItemsDir } from './support/review-fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intentsim-review-rel-'));

function markAllValid(store: ReviewStore, annotator = 'a'): void {
  for (let p = 0; p < store.itemCount(); p++) {
    const marks = { correct: ['A'], validity: 'valid' as const, reasons: [], otherText: '', ms: 5 };
    store.save(annotator, p, marks, new Date('2026-01-01T00:00:00Z'), 'browser');
  }
}

describe('7. a review whose items folder changed', () => {
  function started() {
    const dir = tmp();
    const lines = manyIntentionQaItems(6);
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': lines });
    const review = join(dir, 'review');
    const { store } = openReview({ itemsDir: items, reviewDir: review, annotators: ['a'] });
    markAllValid(store);
    store.close();
    return { dir, lines, items, review, file: join(items, 'intentionqa_task1.jsonl') };
  }

  it('is refused on resume, naming the missing and the changed items', () => {
    const { lines, items, review, file } = started();
    // Q2 and Q5 removed, Q3's gold changed.
    const edited = lines.filter((_, i) => i !== 1 && i !== 4).map((l) => l.replace('"gold_ind":"C"', '"gold_ind":"A"'));
    expect(edited.join('\n')).not.toBe(lines.filter((_, i) => i !== 1 && i !== 4).join('\n'));
    writeFileSync(file, edited.map((l) => l + '\n').join(''));
    expect(() => openReview({ itemsDir: items, reviewDir: review })).toThrow(
      `${review}: the items folder ${items} changed since this review was started: ` +
        '2 sampled item(s) are no longer there (intentionqa_task1.jsonl#Q2, intentionqa_task1.jsonl#Q5); ' +
        '1 sampled item(s) changed since they were sampled (intentionqa_task1.jsonl#Q3). ' +
        'Refusing to resume it: restore those items, or start a new review in another folder',
    );
  });

  it('export --keep valid writes nothing of a changed folder; an unchanged one (items added) is fine', async () => {
    const { dir, lines, items, review, file } = started();
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
    openReview({ itemsDir: items, reviewDir: review }).store.close();
  });
});
