// Mechanical Turk, as IntentionQA and SessionIntentBench used it: a batch input CSV (one row per
// item, one column per ${variable} of the shipped template assets/mturk-template.html), and the
// results CSV MTurk gives back, read into the review's SQLite like labels made on the page.
//
// MTurk puts a row's values into the template as they are (HTML), so every value is written
// HTML-escaped: a title holding `<script>` shows as text on the worker's page too. In the results,
// each assignment is a row; the template's fields come back as `Answer.<name>` columns, a group of
// checkboxes sharing a name as its checked values joined by `|` (classic HTML layouts), or, for
// crowd-html layouts, all of them in one `Answer.taskAnswers` JSON column; both are read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { InputError } from '../../core/errors.js';
import type { ReviewItem } from './review-items.js';
import { REASONS, REVIEW_DB_FILE, VALIDITIES, type Reason, type ReviewStore, type Validity } from './review-store.js';

/** The option letters a template row has room for. */
export const MTURK_LETTERS = ['A', 'B', 'C', 'D'] as const;

/** The batch input columns, in order (the template's ${variables}). */
export const MTURK_INPUT_COLUMNS = [
  'item_key',
  'task',
  'difficulty',
  'relation',
  'products',
  'question',
  ...MTURK_LETTERS.map((l) => `option_${l}`),
  'gold',
] as const;

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The batch input CSV of `items` (every value HTML-escaped; newlines as <br>). */
export function mturkBatchCsv(items: readonly ReviewItem[]): string {
  const rows = items.map((item) => {
    const option = (l: string) => item.options.find((o) => o.letter === l)?.text ?? '';
    const values: string[] = [
      item.key,
      item.task,
      item.difficulty,
      item.relation,
      item.products.join(' · '),
      item.question,
      ...MTURK_LETTERS.map(option),
      item.gold.length > 0 ? `${item.gold.join(', ')} (${item.goldNote})` : item.goldNote,
    ];
    return values.map((v) => escapeHtml(v).replace(/\r?\n/g, '<br>'));
  });
  return stringify([[...MTURK_INPUT_COLUMNS], ...rows], { quoted: true, record_delimiter: '\n' });
}

export interface MturkImportResult {
  /** Assignments read into the review. */
  imported: number;
  /** Assignments not imported because MTurk marks them Rejected. */
  rejected: number;
  /** Workers who gave them (each is annotator `mturk-<WorkerId>`). */
  workers: number;
}

type Row = Record<string, string>;

/**
 * Reads an MTurk results CSV into the review: one label per approved or submitted assignment,
 * annotator `mturk-<WorkerId>`, time taken WorkTimeInSeconds, saved at SubmitTime. All rows are
 * checked before any is saved, and they are saved in one transaction.
 */
/** The paths `review import` reads and writes (core/check-paths.ts): the review's database is written. */
export function importMturkPaths(o: { reviewDir: string; mturkResults: string }): PathChecks {
  return {
    inputFiles: { mturkResults: o.mturkResults },
    outputFiles: { reviewDir: join(o.reviewDir, REVIEW_DB_FILE) },
  };
}

export function importMturkResults(store: ReviewStore, file: string): MturkImportResult {
  checkPaths(importMturkPaths({ reviewDir: store.dir, mturkResults: file }));
  const rows = parse(readFileSync(file, 'utf8'), { columns: true, bom: true, skip_empty_lines: true }) as Row[];
  const items = store.items();
  const labels: Parameters<ReviewStore['saveAll']>[0][number][] = [];
  let rejected = 0;
  const workers = new Set<string>();
  rows.forEach((row, i) => {
    const at = { file, line: i + 2 };
    const field = (name: string): string => {
      const v = row[name];
      if (v === undefined) throw new InputError({ ...at, field: name }, 'missing column');
      return v;
    };
    if (field('AssignmentStatus') === 'Rejected') {
      rejected++;
      return;
    }
    const key = unescapeHtml(field('Input.item_key'));
    const position = store.positionOf(key);
    if (position === undefined)
      throw new InputError({ ...at, field: 'Input.item_key' }, `"${key}" is not an item of this review`);
    const answers = answersOf(row, at);
    const item = items[position]!;
    const correct = splitValues(answers.correct);
    const letters = new Set(item.options.map((o) => o.letter));
    for (const c of correct) {
      if (!letters.has(c))
        throw new InputError({ ...at, field: 'Answer.correct' }, `"${c}" is not an option of ${key}`);
    }
    const validity = answers.validity as Validity;
    if (!VALIDITIES.includes(validity)) {
      throw new InputError(
        { ...at, field: 'Answer.validity' },
        `must be ${VALIDITIES.join(', ')}, got "${answers.validity}"`,
      );
    }
    const reasons = splitValues(answers.reasons);
    for (const r of reasons) {
      if (!REASONS.includes(r as Reason))
        throw new InputError({ ...at, field: 'Answer.reasons' }, `unknown reason "${r}"`);
    }
    const seconds = Number(field('WorkTimeInSeconds'));
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new InputError(
        { ...at, field: 'WorkTimeInSeconds' },
        `expected a number of seconds, got "${row.WorkTimeInSeconds}"`,
      );
    }
    const submitted = Date.parse(field('SubmitTime'));
    if (Number.isNaN(submitted))
      throw new InputError({ ...at, field: 'SubmitTime' }, `not a date: "${row.SubmitTime}"`);
    const worker = field('WorkerId');
    if (!/^[A-Za-z0-9]{1,64}$/.test(worker))
      throw new InputError({ ...at, field: 'WorkerId' }, 'expected letters and digits');
    workers.add(worker);
    labels.push({
      annotator: `mturk-${worker}`,
      position,
      correct: [...new Set(correct)].sort(),
      validity,
      reasons: REASONS.filter((r) => reasons.includes(r)),
      otherText: reasons.includes('other') ? answers.other_text : '',
      ms: seconds * 1000,
      savedAt: new Date(submitted),
      origin: 'mturk',
    });
  });
  store.saveAll(labels);
  return { imported: labels.length, rejected, workers: workers.size };
}

interface Answers {
  correct: string;
  validity: string;
  reasons: string;
  other_text: string;
}

/** The template's fields of one assignment: `Answer.<name>` columns or the `Answer.taskAnswers` JSON. */
function answersOf(row: Row, at: { file: string; line: number }): Answers {
  const json = row['Answer.taskAnswers'];
  if (json !== undefined && json !== '') {
    let first: Record<string, unknown>;
    try {
      first = (JSON.parse(json) as Array<Record<string, unknown>>)[0] ?? {};
    } catch {
      throw new InputError({ ...at, field: 'Answer.taskAnswers' }, 'not JSON');
    }
    const text = (v: unknown) => (Array.isArray(v) ? v.join('|') : typeof v === 'string' ? v : '');
    return {
      correct: text(first.correct),
      validity: text(first.validity),
      reasons: text(first.reasons),
      other_text: text(first.other_text),
    };
  }
  return {
    correct: row['Answer.correct'] ?? '',
    validity: row['Answer.validity'] ?? '',
    reasons: row['Answer.reasons'] ?? '',
    other_text: row['Answer.other_text'] ?? '',
  };
}

function splitValues(v: string): string[] {
  return v
    .split('|')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
