// The items a person reviews, read from an items folder the pipeline wrote: IntentionQA Task 1 and
// Task 2 (intentionqa_task1.jsonl, intentionqa_task2.jsonl) and SessionIntentBench (sib-tasks.jsonl,
// sib-distractors.jsonl). Each becomes one ReviewItem: what the page shows (product names, relation,
// the question as the prompt shows it, options A–D, the gold letters) plus the item's own line, kept
// byte for byte so that `review export --keep valid` writes the input format back. IntentionQA files
// are read by the one reader of item files (intentionqa-item-file.ts: the released files too, their
// HTML references decoded for the page, malformed items set apart); every file through core/jsonl.ts
// (a BOM skipped, bytes that are not UTF-8 refused, ids JSON strings).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, UserError } from '../../core/errors.js';
import { numericIdReason, readJsonl } from '../../core/jsonl.js';
import { readIntentionQaItems, type MalformedItem } from '../scoring/intentionqa/intentionqa-item-file.js';

/** The item files `review` reads, in this order; a folder needs at least one. */
export const REVIEW_ITEM_FILES = [
  'intentionqa_task1.jsonl',
  'intentionqa_task2.jsonl',
  'released_task1.jsonl',
  'released_task2.jsonl',
  'sib-tasks.jsonl',
  'sib-distractors.jsonl',
] as const;
export type ReviewItemFile = (typeof REVIEW_ITEM_FILES)[number];

export interface ReviewOption {
  letter: string;
  text: string;
}

/** One item as the review page shows it, and where it came from. */
export interface ReviewItem {
  /** Unique in a review: `<file>#<id>`. */
  key: string;
  /** The item's own id. */
  id: string;
  file: ReviewItemFile;
  /** 1-based line of the item in its file. */
  line: number;
  benchmark: 'intentionqa' | 'sib';
  /** Stratum fields: `intentionqa-1`, `intentionqa-2`, `sib-1` … `sib-4`, `sib-next-product`. */
  task: string;
  /** IntentionQA: easy / medium / hard; SIB: `original` or the distractor kind (`t1-hard-negative`, …). */
  difficulty: string;
  /** IntentionQA: the ASER relation; SIB: `-` (none). */
  relation: string;
  /** The products the item is about (IntentionQA: items A and B; SIB: the session's products in order). */
  products: string[];
  /** The question as the zero-shot prompt shows it, without its list of options. */
  question: string;
  options: ReviewOption[];
  /** The letters the item counts as right (IntentionQA: one; SIB binary labels: every letter of that side). */
  gold: string[];
  /** What the gold stands for, in words (SIB: `negative (constructed)`, …). */
  goldNote: string;
}

/** A ReviewItem with its line as read, for writing kept items back. */
export interface SourcedReviewItem {
  item: ReviewItem;
  raw: string;
}

/** The items of a folder, and the IntentionQA items set apart as malformed (not four distinct options). */
export interface ReviewItems {
  items: SourcedReviewItem[];
  malformed: MalformedItem[];
}

/** Reads every review item file present in `dir`, in file order then line order. */
export async function readReviewItems(dir: string): Promise<ReviewItems> {
  const present = REVIEW_ITEM_FILES.filter((f) => existsSync(join(dir, f)));
  if (present.length === 0) {
    throw new UserError(`${dir}: no item files to review (expected one of ${REVIEW_ITEM_FILES.join(', ')})`);
  }
  const out: ReviewItems = { items: [], malformed: [] };
  for (const file of present) {
    const path = join(dir, file);
    if (file.startsWith('sib')) {
      const unique = { of: (i: ReviewItem) => i.id, field: 'id', what: 'id' };
      for await (const { value, text } of readJsonl(path, (json, at) => sibItem(file, json, at), {
        unique,
        keepText: true,
      }))
        out.items.push({ item: value, raw: text! });
      continue;
    }
    const read = await readIntentionQaItems(path);
    out.malformed.push(...read.malformed);
    for (const { question: q, display, line, text } of read.items) {
      out.items.push({
        item: {
          key: `${file}#${q.id}`,
          id: q.id,
          file,
          line,
          benchmark: 'intentionqa',
          task: `intentionqa-${q.task}`,
          difficulty: q.difficulty ?? 'unknown',
          relation: q.relation === '' ? '-' : q.relation,
          products: display.products,
          question: display.question,
          options: Object.entries(display.options).map(([letter, text]) => ({ letter, text })),
          gold: [q.gold],
          goldNote: 'gold_ind',
        },
        raw: text,
      });
    }
  }
  return out;
}

type At = { file: string; line: number };

/** The zero-shot prompt up to its first option line (`A. …`). */
function questionOfPrompt(prompt: string): string {
  const at = prompt.search(/\nA\. /);
  return (at < 0 ? prompt : prompt.slice(0, at)).trim();
}

function sibItem(file: ReviewItemFile, json: unknown, at: At): ReviewItem {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new InputError(at, 'expected a JSON object');
  const r = new Fields(json as Record<string, unknown>, at);
  const id = r.id('id');
  const kind = r.has('kind') ? r.str('kind') : 'original';
  const prompt = r.str('prompts.zero-shot');
  const products = [...prompt.matchAll(/^Product \d+: (.*)$/gm)].map((m) => m[1]!);
  if (kind === 'next-product-choice') {
    const opts = r.arr('options').map((_, i) => ({
      letter: r.str(`options.${i}.letter`),
      text: r.str(`options.${i}.title`),
    }));
    return {
      ...sibCommon(file, id, at, 'sib-next-product', kind, products),
      question: questionOfPrompt(prompt),
      options: opts,
      gold: [r.str('answer')],
      goldNote: 'the product bought next',
    };
  }
  const task = r.num('task');
  const letters = r.arr('answer_letters').map((_, i) => r.str(`answer_letters.${i}`));
  const { question, options } = splitSibPrompt(prompt, letters, at);
  const { gold, note } = sibGold(r, letters);
  return {
    ...sibCommon(file, id, at, `sib-${task}`, kind, products),
    question,
    options,
    gold,
    goldNote: note,
  };
}

function sibCommon(
  file: ReviewItemFile,
  id: string,
  at: At,
  task: string,
  difficulty: string,
  products: string[],
): Omit<ReviewItem, 'question' | 'options' | 'gold' | 'goldNote'> {
  return { key: `${file}#${id}`, id, file, line: at.line, benchmark: 'sib', task, difficulty, relation: '-', products };
}

/**
 * A SIB prompt is paragraphs: the session (products), the question, the options on one line
 * (`A. Yes: … B. Maybe yes: …`) and the answer request. The options paragraph is the one that starts
 * with `A. `; it is split at each ` X. ` of the task's answer letters, in order.
 */
function splitSibPrompt(prompt: string, letters: string[], at: At): { question: string; options: ReviewOption[] } {
  const paragraphs = prompt.split('\n\n');
  const i = paragraphs.findIndex((p) => p.startsWith(`${letters[0]}. `));
  if (i < 0) throw new InputError({ ...at, field: 'prompts.zero-shot' }, 'no options paragraph (“A. …”)');
  const block = paragraphs[i]!;
  const starts = letters.map((l, k) => (k === 0 ? 0 : block.indexOf(` ${l}. `)));
  if (starts.some((s, k) => s < 0 || (k > 0 && s <= starts[k - 1]!))) {
    throw new InputError(
      { ...at, field: 'prompts.zero-shot' },
      `options paragraph lacks ${letters.join(', ')} in order`,
    );
  }
  const options = letters.map((letter, k) => ({
    letter,
    text: block
      .slice(starts[k]!, k + 1 < letters.length ? starts[k + 1] : undefined)
      .trim()
      .slice(letter.length + 2),
  }));
  return { question: paragraphs.slice(0, i).join('\n\n').trim(), options };
}

/**
 * The gold of a SIB item: the annotated letter when there is one; for a constructed (binary) label,
 * every letter on that side (positive: the first half, Yes / Maybe yes; negative: the rest).
 */
function sibGold(r: Fields, letters: string[]): { gold: string[]; note: string } {
  if (!r.has('label')) return { gold: [], note: 'no label' };
  if (r.has('label.letter')) return { gold: [r.str('label.letter')], note: `label ${r.str('label.letter')}` };
  if (r.has('label.tied')) {
    const tied = r.arr('label.tied').map((_, i) => r.str(`label.tied.${i}`));
    return { gold: [], note: `no label: annotators tied between ${tied.join(' and ')}` };
  }
  if (!r.has('label.binary')) return { gold: [], note: 'no label' };
  const binary = r.str('label.binary');
  const half = letters.length === 3 ? 2 : letters.length / 2;
  const gold = binary === 'positive' ? letters.slice(0, half) : letters.slice(half);
  return { gold, note: `${binary} (${r.has('label.source') ? r.str('label.source') : 'label'})` };
}

/** Dotted-path field access with errors naming file, line and field. */
class Fields {
  constructor(
    private readonly json: Record<string, unknown>,
    private readonly at: At,
  ) {}

  private get(path: string): unknown {
    let v: unknown = this.json;
    for (const part of path.split('.')) {
      if (typeof v !== 'object' || v === null) return undefined;
      v = (v as Record<string, unknown>)[part];
    }
    return v;
  }

  /** An id: a JSON string (a number has lost its digits and its written form to JSON.parse). */
  id(path: string): string {
    const v = this.get(path);
    if (typeof v === 'number') throw new InputError({ ...this.at, field: path }, numericIdReason(v));
    return this.str(path);
  }

  has(path: string): boolean {
    const v = this.get(path);
    return v !== undefined && v !== null;
  }

  str(path: string): string {
    const v = this.get(path);
    if (typeof v === 'number') return String(v);
    if (typeof v !== 'string')
      throw new InputError({ ...this.at, field: path }, v === undefined ? 'missing' : 'expected a string');
    return v;
  }

  num(path: string): number {
    const v = this.get(path);
    if (typeof v !== 'number')
      throw new InputError({ ...this.at, field: path }, v === undefined ? 'missing' : 'expected a number');
    return v;
  }

  obj(path: string): Record<string, unknown> {
    const v = this.get(path);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw new InputError({ ...this.at, field: path }, v === undefined ? 'missing' : 'expected an object');
    }
    return v as Record<string, unknown>;
  }

  arr(path: string): unknown[] {
    const v = this.get(path);
    if (!Array.isArray(v))
      throw new InputError({ ...this.at, field: path }, v === undefined ? 'missing' : 'expected an array');
    return v;
  }
}
