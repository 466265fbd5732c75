// Mechanical Turk, as IntentionQA and SessionIntentBench used it: a batch input CSV (one row per
// item, one column per ${variable} of the shipped template assets/mturk-template.html), and the
// results CSV MTurk gives back, read into the review's SQLite like labels made on the page.
//
// MTurk puts a row's values into the template as they are (HTML), so every value is written
// HTML-escaped: a title holding `<script>` shows as text on the worker's page too. In the results,
// each assignment is a row; the template's fields come back as `Answer.<name>` columns, a group of
// checkboxes sharing a name as its checked values joined by `|` (classic HTML layouts), or, for
// crowd-html layouts, all of them in one `Answer.taskAnswers` JSON column; both are read.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { CsvError, parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { InputError } from '../../core/errors.js';
import { fileError } from '../../core/file-errors.js';
import type { ReviewItem } from './review-items.js';
import { BLIND_REASONS, blindLetters, blindRef, blindView, itemLettersOf } from './blind-view.js';
import {
  REASONS,
  REVIEW_DB_FILE,
  VALIDITIES,
  type Reason,
  type ReviewStore,
  type StoredLabel,
  type Validity,
} from './review-store.js';

/** The annotator name of an MTurk worker: `mturk-<WorkerId>` (page annotators may not take it). */
export const MTURK_ANNOTATOR_PREFIX = 'mturk-';

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
 * A cell a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return) with a `'` in front, as OWASP advises against CSV injection: a requester who opens the
 * batch in a spreadsheet sees the text, and nothing runs.
 */
export function neutralizeFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/**
 * The batch input CSV of `items` (every value HTML-escaped; newlines as <br>; formulas neutralized).
 * With `blind`, the blind columns of the review with that seed (the options' order and letters
 * depend on it).
 */
export function mturkBatchCsv(items: readonly ReviewItem[], blind?: { seed: number }): string {
  if (blind) {
    const rows = items.map((item) => {
      const view = blindView(item, blind.seed);
      const option = (l: string) => view.options.find((o) => o.letter === l)?.text ?? '';
      const values = [view.ref, view.task, view.products.join(' · '), view.question, ...MTURK_LETTERS.map(option)];
      return values.map(batchCell);
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
    return values.map(batchCell);
  });
  return stringify([[...MTURK_INPUT_COLUMNS], ...rows], { quoted: true, record_delimiter: '\n' });
}

/** A value as the batch CSV holds it (and MTurk gives it back in `Input.*`): HTML-escaped, <br>, no formula. */
function batchCell(value: string): string {
  return neutralizeFormula(escapeHtml(value).replace(/\r?\n/g, '<br>'));
}

/** The option text of each template letter of a row as this review shows it ('' for a letter it has not). */
function shownOptions(item: ReviewItem, blindSeed: number | undefined): Map<string, string> {
  const options = blindSeed === undefined ? item.options : blindView(item, blindSeed).options;
  return new Map(MTURK_LETTERS.map((l) => [l, options.find((o) => o.letter === l)?.text ?? '']));
}

export interface MturkImportOptions {
  /**
   * Replace labels an earlier import stored for the same worker and item when they differ (default:
   * refuse: a second results file would otherwise overwrite the first's labels silently).
   */
  replace?: boolean;
}

export interface MturkImportResult {
  /** Assignments read into the review (new or replacing an earlier import's). */
  imported: number;
  /** Of those, assignments that replaced a different label of the same worker and item (with `replace`). */
  replaced: number;
  /** Assignments already in the review with the same label (a results file imported again): left as they are. */
  unchanged: number;
  /** Assignments not imported because MTurk marks them Rejected. */
  rejected: number;
  /** Workers who gave them (each is annotator `mturk-<WorkerId>`). */
  workers: number;
}

type Row = Record<string, string>;

/** MTurk's longest assignment duration (a year): a longer time taken is not one MTurk reports. */
const MAX_WORK_SECONDS = 365 * 24 * 3600;

/** The first year a SubmitTime can have: MTurk opened in 2005. */
const FIRST_SUBMIT_YEAR = 2005;

/** A record of the results CSV with the line it starts on (a quoted field may span lines). */
interface ResultsRow {
  row: Row;
  line: number;
}

/**
 * The rows of a results CSV, streamed (a batch's results file may be larger than a string can be):
 * each with the line it starts on; a row csv-parse cannot read (an unclosed quote, a short row) is
 * an InputError naming the file, line and column.
 */
async function* resultsRows(file: string): AsyncGenerator<ResultsRow> {
  const source = createReadStream(file);
  const parser = source.pipe(parse({ columns: true, bom: true, skip_empty_lines: true, info: true, raw: true }));
  try {
    for await (const { record, info, raw } of parser as AsyncIterable<{
      record: Row;
      info: { lines: number };
      raw: string;
    }>) {
      // info.lines is the record's last line: back up over the line breaks inside its fields.
      const body = raw.replace(/^(\r?\n)+/, '').replace(/\r?\n$/, '');
      yield { row: record, line: info.lines - (body.match(/\n/g)?.length ?? 0) };
    }
  } catch (err) {
    if (err instanceof CsvError) {
      const at = err as CsvError & { lines?: number; column?: string | number };
      const reason = err.message.replace(/\s+(at|on) line \d+\.?$/, '');
      throw new InputError(
        { file, line: at.lines, field: typeof at.column === 'string' ? at.column : undefined },
        `not a CSV row MTurk writes: ${reason}`,
      );
    }
    throw fileError(err, file, { what: 'MTurk results file' });
  } finally {
    // A refused row stops the reading: the file is closed without reading the rest.
    source.destroy();
    parser.destroy();
  }
}

/** The paths `review import` reads and writes (core/check-paths.ts): the review's database is written. */
export function importMturkPaths(o: { reviewDir: string; mturkResults: string }): PathChecks {
  return {
    inputFiles: { mturkResults: o.mturkResults },
    outputFiles: { reviewDir: join(o.reviewDir, REVIEW_DB_FILE) },
  };
}

/**
 * Reads an MTurk results CSV into the review: one label per approved or submitted assignment,
 * annotator `mturk-<WorkerId>`, time taken WorkTimeInSeconds, saved at SubmitTime. All rows are
 * checked before any is saved, and they are saved in one transaction. Two assignments of one worker
 * for one item are refused (MTurk gives one; the second would replace the first silently), and so
 * is a worker whose annotator name is a page annotator's: the two origins are kept apart.
 */
export async function importMturkResults(
  store: ReviewStore,
  file: string,
  options: MturkImportOptions = {},
): Promise<MturkImportResult> {
  checkPaths(importMturkPaths({ reviewDir: store.dir, mturkResults: file }));
  const items = store.items();
  const settings = store.settings();
  // A blind review's rows name items by reference and options by the letters the blind view shows.
  const blind = settings.blind === true;
  const byRef = blind ? new Map(items.map((item, p) => [blindRef(item), p])) : undefined;
  const pageAnnotators = new Set(store.annotators().map((a) => a.name));
  // Labels earlier imports stored, by worker and item: a second import must not replace them unsaid.
  const stored = new Map(
    store
      .labels()
      .filter((l) => l.origin === 'mturk')
      .map((l) => [`${l.annotator}\u0000${l.position}`, l]),
  );
  let unchanged = 0;
  let replaced = 0;
  let headerChecked = false;
  const labels: Parameters<ReviewStore['saveAll']>[0][number][] = [];
  const lineOf = new Map<string, number>();
  let rejected = 0;
  const workers = new Set<string>();
  for await (const { row, line } of resultsRows(file)) {
    const at = { file, line };
    const field = (name: string): string => {
      const v = row[name];
      if (v === undefined) throw new InputError({ ...at, field: name }, 'missing column');
      return v;
    };
    if (field('AssignmentStatus') === 'Rejected') {
      rejected++;
      continue;
    }
    const keyColumn = blind ? 'Input.item_ref' : 'Input.item_key';
    const key = unescapeHtml(field(keyColumn));
    const position = blind ? byRef!.get(key) : store.positionOf(key);
    if (position === undefined)
      throw new InputError({ ...at, field: keyColumn }, `"${key}" is not an item of this review`);
    const markField = blind ? 'Answer.rightOptions' : 'Answer.correct';
    if (!headerChecked) {
      checkAnswerColumns(row, at, blind);
      headerChecked = true;
    }
    const answers = answersOf(row, at);
    const item = items[position]!;
    checkShownOptions(row, at, item, key, blind ? settings.seed : undefined);
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
      // The blind template shows no gold, and offers no "gold wrong" (issue 45).
      if (blind && !BLIND_REASONS.includes(r as Reason))
        throw new InputError(
          { ...at, field: 'Answer.reasons' },
          `"${r}" is not a reason of a blind review (its template shows no gold): the results are not of this review's batch`,
        );
    }
    const seconds = workSeconds(field('WorkTimeInSeconds'), at);
    const submitted = submitTime(field('SubmitTime'), at);
    const worker = field('WorkerId');
    if (!/^[A-Za-z0-9]{1,64}$/.test(worker))
      throw new InputError({ ...at, field: 'WorkerId' }, 'expected letters and digits');
    const annotator = `${MTURK_ANNOTATOR_PREFIX}${worker}`;
    if (pageAnnotators.has(annotator)) {
      throw new InputError(
        { ...at, field: 'WorkerId' },
        `worker ${worker} would be annotator ${annotator}, a page annotator of this review; ` +
          "its labels are kept apart from MTurk's (review the page annotator under another name)",
      );
    }
    const pair = `${worker}\u0000${position}`;
    const earlier = lineOf.get(pair);
    if (earlier !== undefined) {
      throw new InputError(
        { ...at, field: 'WorkerId' },
        `worker ${worker} answered ${key} already on line ${earlier}: MTurk gives one assignment per worker ` +
          'and item, and the second would replace the first; remove one of the rows',
      );
    }
    lineOf.set(pair, line);
    workers.add(worker);
    const label = {
      annotator,
      position,
      correct: [...new Set(correct)].sort(),
      validity,
      reasons: REASONS.filter((r) => reasons.includes(r)),
      otherText: reasons.includes('other') ? answers.other_text : '',
      ms: seconds * 1000,
      savedAt: new Date(submitted),
      origin: 'mturk' as const,
    };
    const earlierImport = stored.get(`${annotator}\u0000${position}`);
    if (earlierImport !== undefined) {
      if (sameLabel(earlierImport, label)) {
        unchanged++;
        continue;
      }
      if (options.replace !== true) {
        throw new InputError(
          { ...at, field: 'WorkerId' },
          `worker ${worker} has a different label for ${key} from an earlier import (saved ${earlierImport.savedAt}); ` +
            'importing this row would replace it: remove the row, or import with replace to replace it',
        );
      }
      replaced++;
    }
    labels.push(label);
  }
  store.saveAll(labels);
  return { imported: labels.length, replaced, unchanged, rejected, workers: workers.size };
}

/** Whether an earlier import's label is the one a row gives (the same results file imported again). */
function sameLabel(
  a: StoredLabel,
  b: { correct: string[]; validity: string; reasons: string[]; otherText: string; ms: number; savedAt: Date },
): boolean {
  return (
    JSON.stringify([a.correct, a.validity, a.reasons, a.otherText, a.ms]) ===
      JSON.stringify([b.correct, b.validity, b.reasons, b.otherText, b.ms]) &&
    Date.parse(a.savedAt) === b.savedAt.getTime()
  );
}

/**
 * The answer column of the template must be there (issue 45: results of the open template, with
 * `Answer.correct`, imported into a blind review, which reads `Answer.rightOptions`, stored labels
 * with nothing marked). Checked on the first row: every row has the same columns.
 */
function checkAnswerColumns(row: Row, at: { file: string; line: number }, blind: boolean): void {
  const json = row['Answer.taskAnswers'];
  if (json !== undefined && json !== '') return; // crowd-html: the fields are in the JSON (answersOf)
  const [want, other] = blind ? ['rightOptions', 'correct'] : ['correct', 'rightOptions'];
  if (`Answer.${want}` in row) return;
  const hint =
    `Answer.${other}` in row
      ? `; it has "Answer.${other}", the answer column of the ${blind ? 'open' : 'blind'} template: ` +
        `these are results of a ${blind ? 'review that is not blind' : 'blind review'}, not of this ${blind ? 'blind ' : ''}review's batch`
      : `; the template's checkboxes named "${want}" come back as that column`;
  throw new InputError(
    { ...at, field: `Answer.${want}` },
    `missing column: the ${blind ? 'blind ' : ''}review's marks are read from it${hint}`,
  );
}

/**
 * The options a row's worker saw (`Input.option_A` … as the batch gave them) must be those this
 * review shows for the item, letter for letter (issue 45: the results of another blind review of
 * the same items, with another seed and so another order, mapped marks to options the worker had
 * not picked). A blind review's rows must carry them (MTurk's results always do); an open review's
 * are checked when present.
 */
function checkShownOptions(
  row: Row,
  at: { file: string; line: number },
  item: ReviewItem,
  key: string,
  blindSeed: number | undefined,
): void {
  for (const [letter, text] of shownOptions(item, blindSeed)) {
    const column = `Input.option_${letter}`;
    const value = row[column];
    if (value === undefined) {
      if (blindSeed === undefined) return;
      throw new InputError(
        { ...at, field: column },
        "missing column: a blind review checks that each row's options are those it showed " +
          '(the options were shuffled; MTurk gives the batch columns back as Input.*)',
      );
    }
    if (value === batchCell(text) || unescapeHtml(value.replace(/<br>/g, '\n')) === text) continue;
    throw new InputError(
      { ...at, field: column },
      `the worker was shown ${JSON.stringify(value)} as option ${letter} of ${key}, but this review shows ` +
        `${JSON.stringify(text)}: the row is from another review's batch (${blindSeed === undefined ? 'other items' : 'another seed, so another order'}); ` +
        "import the results of this review's own batch (review export --mturk-csv)",
    );
  }
}

/** WorkTimeInSeconds: a plain number of seconds, at most MAX_WORK_SECONDS (not `1e306`, not empty). */
function workSeconds(value: string, at: { file: string; line: number }): number {
  const seconds = /^\d{1,9}(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!(seconds <= MAX_WORK_SECONDS)) {
    throw new InputError(
      { ...at, field: 'WorkTimeInSeconds' },
      `expected a number of seconds from 0 to ${MAX_WORK_SECONDS} (a year), got "${value}"`,
    );
  }
  return seconds;
}

/** SubmitTime: a date as MTurk writes it (`Mon Jan 05 10:01:42 PST 2026`), not a bare number, from 2005 on. */
function submitTime(value: string, at: { file: string; line: number }): number {
  const time = /^\s*[-+]?[\d.]*\s*$/.test(value) ? NaN : Date.parse(value);
  const year = new Date(time).getUTCFullYear();
  if (Number.isNaN(time) || year < FIRST_SUBMIT_YEAR || time > Date.now() + 24 * 3600 * 1000) {
    throw new InputError(
      { ...at, field: 'SubmitTime' },
      `expected the time MTurk recorded (e.g. "Mon Jan 05 10:01:42 PST 2026", from ${FIRST_SUBMIT_YEAR} to now), got "${value}"`,
    );
  }
  return time;
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
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (err) {
      throw new InputError({ ...at, field: 'Answer.taskAnswers' }, `not JSON (${(err as Error).message})`);
    }
    // crowd-html writes a list holding one object of the form's fields.
    const first: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
    if (first === null || typeof first !== 'object' || Array.isArray(first)) {
      const got =
        parsed === null
          ? 'null'
          : Array.isArray(parsed)
            ? `a list whose first value is ${JSON.stringify(first ?? null)}`
            : JSON.stringify(parsed);
      throw new InputError(
        { ...at, field: 'Answer.taskAnswers' },
        `expected a JSON list holding one object of the form's answers, got ${got}`,
      );
    }
    const text = (v: unknown) => (Array.isArray(v) ? v.join('|') : typeof v === 'string' ? v : '');
    const fields = first as Record<string, unknown>;
    return {
      correct: text(fields.correct),
      rightOptions: text(fields.rightOptions),
      validity: text(fields.validity),
      reasons: text(fields.reasons),
      other_text: text(fields.other_text),
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
