// The one reader of IntentionQA item files, for every command that reads items (review, audit, ask,
// the embedding solver, items check): the engine's files and the released ones alike. Each line goes
// through core/jsonl.ts's reader (a BOM skipped, bytes that are not UTF-8 refused, ids read as JSON
// strings) and parseIntentionQaQuestion (the task from the record, the file's name or its distractor
// field; the prompts rendered with the paper's templates when the record has none). What it adds:
//   - each item's line as read, so that a command writing items back (review export --keep,
//     audit --drop-flagged, items check --drop-flagged) writes them byte for byte;
//   - what a page or a judge shows (display): the question and the options with their HTML
//     references decoded (the released titles carry `&quot;`, `&amp;`), never the line itself;
//   - malformed items, counted and set apart with a reason instead of stopping the read: an item
//     needs four options with four distinct texts (the released Task-1 file has 99 without, Task 2 172).
import { decodeHtmlEntities } from '../../../core/html-entities.js';
import type { OnError } from '../../../core/errors.js';
import { readJsonl, type InputLimits } from '../../../core/jsonl.js';
import type { RejectsSink } from '../../../core/rejects.js';
import { parseIntentionQaQuestion, type IntentionQaQuestion, type IntentionQaTask } from './intentionqa-questions.js';

/** Options an item must have, each with its own text. */
export const ITEM_OPTIONS = 4;

/** What is shown of an item, its HTML character references decoded. */
export interface IntentionQaDisplay {
  /** item_a_name and item_b_name. */
  products: [string, string];
  /** The zero-shot prompt up to its first option line, without the options and the answer instruction. */
  question: string;
  /** Letter → option text, in the item's order. */
  options: Record<string, string>;
}

export interface IntentionQaItemLine {
  question: IntentionQaQuestion;
  display: IntentionQaDisplay;
  /** 1-based line in its file, and the line as read (a BOM before the first record excluded). */
  line: number;
  text: string;
}

/** An item set apart: it has not four options with distinct texts. */
export interface MalformedItem {
  file: string;
  line: number;
  id: string;
  task: IntentionQaTask;
  reason: string;
  /** The line as read. */
  text: string;
}

export interface IntentionQaItemFile {
  file: string;
  items: IntentionQaItemLine[];
  malformed: MalformedItem[];
}

export interface ReadIntentionQaItemsOptions {
  onError?: OnError;
  rejects?: RejectsSink;
  limits?: InputLimits;
  /** Keep malformed items among the items (they are still listed in `malformed`); default false: set them apart. */
  keepMalformed?: boolean;
}

/** Why an item is malformed, or undefined: it needs exactly four options, no two with one text. */
export function malformedReason(options: Readonly<Record<string, string>>): string | undefined {
  const letters = Object.keys(options);
  if (letters.length !== ITEM_OPTIONS)
    return `${letters.length} option${letters.length === 1 ? '' : 's'} (${letters.join(', ')}), not ${ITEM_OPTIONS}`;
  const firstWith = new Map<string, string>();
  for (const [letter, text] of Object.entries(options)) {
    const first = firstWith.get(text);
    if (first !== undefined) return `options ${first} and ${letter} have the same text`;
    firstWith.set(text, letter);
  }
  return undefined;
}

/** What kind of fault a malformedReason names, for counts by kind. */
export type MalformedKind = 'fewer than 4 options' | 'more than 4 options' | 'a repeated option text';

/** The kind of fault of a reason malformedReason gave. */
export function malformedKind(reason: string): MalformedKind {
  const options = /^(\d+) options? /.exec(reason);
  if (options === null) return 'a repeated option text';
  return Number(options[1]) < ITEM_OPTIONS ? 'fewer than 4 options' : 'more than 4 options';
}

/** Malformed items counted by kind, the kinds in a fixed order (those with none left out). */
export function malformedCounts(malformed: ReadonlyArray<{ reason: string }>): Partial<Record<MalformedKind, number>> {
  const counts: Partial<Record<MalformedKind, number>> = {};
  for (const kind of ['fewer than 4 options', 'more than 4 options', 'a repeated option text'] as const) {
    const n = malformed.filter((m) => malformedKind(m.reason) === kind).length;
    if (n > 0) counts[kind] = n;
  }
  return counts;
}

/** The zero-shot prompt up to its first option line (`A. <text>`); the whole prompt when it lists none. */
function questionOf(q: IntentionQaQuestion): string {
  const [letter, text] = Object.entries(q.options)[0]!;
  const cut = q.prompts.zero_shot.indexOf(`\n${letter}. ${text}`);
  return (cut < 0 ? q.prompts.zero_shot : q.prompts.zero_shot.slice(0, cut)).trim();
}

export function displayOf(q: IntentionQaQuestion): IntentionQaDisplay {
  const options: Record<string, string> = {};
  for (const [letter, text] of Object.entries(q.options)) options[letter] = decodeHtmlEntities(text);
  return {
    products: [decodeHtmlEntities(q.productNames[0]), decodeHtmlEntities(q.productNames[1])],
    question: decodeHtmlEntities(questionOf(q)),
    options,
  };
}

/**
 * Reads an IntentionQA items file: its items in line order, each with its line as read, and its
 * malformed items apart. A bad line (invalid JSON or UTF-8, a missing field, a numeric or repeated
 * id) stops the read with an error naming file, line and field, or with onError 'skip' goes to the
 * rejects sink.
 */
export async function readIntentionQaItems(
  file: string,
  options: ReadIntentionQaItemsOptions = {},
): Promise<IntentionQaItemFile> {
  const parse = (json: unknown, at: { file: string; line: number }) => {
    const question = parseIntentionQaQuestion(json, at);
    return { question, display: displayOf(question) };
  };
  const out: IntentionQaItemFile = { file, items: [], malformed: [] };
  for await (const { value, line, text } of readJsonl(file, parse, {
    onError: options.onError,
    rejects: options.rejects,
    ...options.limits,
    unique: { of: (v) => v.question.id, field: 'id', what: 'id' },
    keepText: true,
  })) {
    const reason = malformedReason(value.question.options);
    if (reason !== undefined) {
      out.malformed.push({ file, line, id: value.question.id, task: value.question.task, reason, text: text! });
      if (!options.keepMalformed) continue;
    }
    out.items.push({ ...value, line, text: text! });
  }
  return out;
}
