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
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { InputError } from '../../core/errors.js';
import type { ReviewItem } from './review-items.js';
import { blindLetters, blindRef, blindView, itemLettersOf } from './blind-view.js';
import { REASONS, VALIDITIES, type Reason, type ReviewStore, type Validity } from './review-store.js';

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

/**
 * The batch input columns of a blind review (assets/mturk-template-blind.html): no gold, no item key
 * (an opaque reference instead), no difficulty or relation; options in the blind page's order and
 * letters. Workers answer in `rightOptions`, the letters they found right.
 */
export const MTURK_BLIND_INPUT_COLUMNS = [
  'item_ref',
  'task',
  'products',
  'question',
  ...MTURK_LETTERS.map((l) => `option_${l}`),
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

/**
 * The batch input CSV of `items` (every value HTML-escaped; newlines as <br>). With `blind`, the
 * blind columns of the review with that seed (the options' order and letters depend on it).
 */
export function mturkBatchCsv(items: readonly ReviewItem[], blind?: { seed: number }): string {
  if (blind) {
    const rows = items.map((item) => {
      const view = blindView(item, blind.seed);
      const option = (l: string) => view.options.find((o) => o.letter === l)?.text ?? '';
      const values = [view.ref, view.task, view.products.join(' · '), view.question, ...MTURK_LETTERS.map(option)];
      return values.map((v) => escapeHtml(v).replace(/\r?\n/g, '<br>'));
    });
    return stringify([[...MTURK_BLIND_INPUT_COLUMNS], ...rows], { quoted: true, record_delimiter: '\n' });
  }
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
export function importMturkResults(store: ReviewStore, file: string): MturkImportResult {
  const rows = parse(readFileSync(file, 'utf8'), { columns: true, bom: true, skip_empty_lines: true }) as Row[];
  const items = store.items();
  const settings = store.settings();
  // A blind review's rows name items by reference and options by the letters the blind view shows.
  const blind = settings.blind === true;
  const byRef = blind ? new Map(items.map((item, p) => [blindRef(item), p])) : undefined;
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
    const keyColumn = blind ? 'Input.item_ref' : 'Input.item_key';
    const key = unescapeHtml(field(keyColumn));
    const position = blind ? byRef!.get(key) : store.positionOf(key);
    if (position === undefined)
      throw new InputError({ ...at, field: keyColumn }, `"${key}" is not an item of this review`);
    const answers = answersOf(row, at);
    const item = items[position]!;
    const markField = blind ? 'Answer.rightOptions' : 'Answer.correct';
    const marked = splitValues(blind ? answers.rightOptions : answers.correct);
    const shown = blind ? blindLetters(item, settings.seed) : undefined;
    const letters = new Set(shown ? shown.toItem.keys() : item.options.map((o) => o.letter));
    for (const c of marked) {
      if (!letters.has(c)) throw new InputError({ ...at, field: markField }, `"${c}" is not an option of ${key}`);
    }
    const correct = shown ? itemLettersOf(marked, shown)! : marked;
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
  /** A blind template's marks: the letters shown, joined by |. */
  rightOptions: string;
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
      rightOptions: text(first.rightOptions),
      validity: text(first.validity),
      reasons: text(first.reasons),
      other_text: text(first.other_text),
    };
  }
  return {
    correct: row['Answer.correct'] ?? '',
    rightOptions: row['Answer.rightOptions'] ?? '',
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
