// The items a person reviews, read from an items folder the pipeline wrote: IntentionQA Task 1 and
// Task 2 (intentionqa_task1.jsonl, intentionqa_task2.jsonl) and SessionIntentBench (sib-tasks.jsonl,
// sib-distractors.jsonl). Each becomes one ReviewItem: what the page shows (product names, relation,
// the question as the prompt shows it, options A–D, the gold letters) plus the item's own line, kept
// byte for byte so that `review export --keep valid` writes the input format back.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, UserError } from '../../core/errors.js';

/** The item files `review` reads, in this order; a folder needs at least one. */
export const REVIEW_ITEM_FILES = [
  'intentionqa_task1.jsonl',
  'intentionqa_task2.jsonl',
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

/** Reads every review item file present in `dir`, in file order then line order. */
export function readReviewItems(dir: string): SourcedReviewItem[] {
  const present = REVIEW_ITEM_FILES.filter((f) => existsSync(join(dir, f)));
  if (present.length === 0) {
    throw new UserError(`${dir}: no item files to review (expected one of ${REVIEW_ITEM_FILES.join(', ')})`);
  }
  const out: SourcedReviewItem[] = [];
  const keys = new Set<string>();
  for (const file of present) {
    const path = join(dir, file);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.forEach((raw, i) => {
      if (raw.trim() === '') return;
      const at = { file: path, line: i + 1 };
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch (err) {
        throw new InputError(at, `not valid JSON (${(err as Error).message})`);
      }
      const item = toReviewItem(file, json, at);
      if (keys.has(item.key)) throw new InputError({ ...at, field: 'id' }, `repeated id "${item.id}"`);
      keys.add(item.key);
      out.push({ item, raw });
    });
  }
  return out;
}

type At = { file: string; line: number };

function toReviewItem(file: ReviewItemFile, json: unknown, at: At): ReviewItem {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new InputError(at, 'expected a JSON object');
  const r = new Fields(json as Record<string, unknown>, at);
  return file.startsWith('intentionqa') ? intentionQaItem(file, r, at) : sibItem(file, r, at);
}

function intentionQaItem(file: ReviewItemFile, r: Fields, at: At): ReviewItem {
  const id = r.str('id');
  const task = r.num('task');
  if (task !== 1 && task !== 2) throw new InputError({ ...at, field: 'task' }, `must be 1 or 2, got ${task}`);
  const options = r.obj('options');
  const letters = Object.keys(options);
  const prompt = r.str('prompts.zero_shot');
  return {
    key: `${file}#${id}`,
    id,
    file,
    line: at.line,
    benchmark: 'intentionqa',
    task: `intentionqa-${task}`,
    difficulty: r.str('difficulty'),
    relation: r.str('relation'),
    products: [r.str('item_a_name'), r.str('item_b_name')],
    question: questionOfIntentionQaPrompt(prompt),
    options: letters.map((letter) => ({ letter, text: r.str(`options.${letter}`) })),
    gold: [r.str('gold_ind')],
    goldNote: 'gold_ind',
  };
}

/** The zero-shot prompt up to its first option line (`A. …`). */
function questionOfIntentionQaPrompt(prompt: string): string {
  const at = prompt.search(/\nA\. /);
  return (at < 0 ? prompt : prompt.slice(0, at)).trim();
}

function sibItem(file: ReviewItemFile, r: Fields, at: At): ReviewItem {
  const id = r.str('id');
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
      question: questionOfIntentionQaPrompt(prompt),
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
