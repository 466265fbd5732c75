// A blind reading sheet of SessionIntentBench items, for annotators who work from a text file rather
// than the review page (issue 46): `review sib-sheet` draws a seeded sample from an items folder —
// `perKind` distinct questions of each constructed kind and `fillers` original T1–T3 questions —
// shuffles it, and writes
//   sheet.md          the questions numbered 1…n as the blind page shows them: the zero-shot prompt's
//                     question and options, no id, no kind, no label
//   instructions.md   how to answer (as the customer, one letter; every right option for a choice)
//   key.json          which item each number is, its kind and labelled letters (keep it from annotators)
// and `review sib-sheet-score` reads the key and one answers file per annotator (`N: C` or
// `N: A, C` a line) and computes the figures of sib-agreement.ts. Questions are distinct by the
// text shown: a kind with fewer distinct questions than asked gives what it has.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { InputError, UserError } from '../../core/errors.js';
import { Rng } from '../../core/rng.js';
import { readJsonFile } from '../../core/file-errors.js';
import { readReviewItems, type ReviewItem } from './review-items.js';
import { blindView } from './blind-view.js';
import {
  isSibBinary,
  sibAgreement,
  sibAgreementMarkdown,
  type MarkedLabel,
  type SibAgreement,
} from './sib-agreement.js';

export const SIB_SHEET_KINDS = ['t1-hard-negative', 't2-hard-negative', 't3-negative', 'next-product-choice'] as const;

export interface SibSheetOptions {
  itemsDir: string;
  out: string;
  /** Distinct questions of each constructed kind (default 20). */
  perKind?: number;
  /** Distinct original T1–T3 questions among them (default 20). */
  fillers?: number;
  seed: number;
}

export interface SibSheetKeyEntry {
  n: number;
  key: string;
  id: string;
  task: string;
  kind: string;
  /** The labelled letters (a binary kind: its side; a choice: the gold). */
  gold: string[];
}

export interface SibSheetKey {
  items_dir: string;
  seed: number;
  questions: SibSheetKeyEntry[];
}

/** The text a question shows (question and options): questions are distinct by it. */
function shownText(item: ReviewItem): string {
  return `${item.question}\n${item.options.map((o) => `${o.letter}. ${o.text}`).join('\n')}`;
}

/** The group an item is drawn in: a constructed kind, `original` (T1–T3), or null (not drawn). */
function groupOf(item: ReviewItem): string | null {
  if (item.benchmark !== 'sib') return null;
  if ((SIB_SHEET_KINDS as readonly string[]).includes(item.difficulty)) return item.difficulty;
  if (item.difficulty === 'original' && ['sib-1', 'sib-2', 'sib-3'].includes(item.task)) return 'original';
  return null;
}

export async function writeSibSheet(options: SibSheetOptions): Promise<SibSheetKey> {
  const perKind = options.perKind ?? 20;
  const fillers = options.fillers ?? 20;
  const { items } = await readReviewItems(options.itemsDir);
  const groups = new Map<string, ReviewItem[]>();
  const seen = new Set<string>();
  for (const { item } of items) {
    const g = groupOf(item);
    if (g === null) continue;
    const text = shownText(item);
    if (seen.has(text)) continue;
    seen.add(text);
    groups.set(g, [...(groups.get(g) ?? []), item]);
  }
  const rng = new Rng(`sib-sheet/${options.seed}`);
  const chosen: ReviewItem[] = [];
  for (const g of [...SIB_SHEET_KINDS, 'original'])
    chosen.push(...rng.shuffle([...(groups.get(g) ?? [])]).slice(0, g === 'original' ? fillers : perKind));
  if (chosen.length === 0) throw new UserError(`${options.itemsDir}: no SessionIntentBench items to put on a sheet`);
  const order = rng.shuffle(chosen);
  const key: SibSheetKey = {
    items_dir: resolve(options.itemsDir),
    seed: options.seed,
    questions: order.map((item, i) => ({
      n: i + 1,
      key: item.key,
      id: item.id,
      task: item.task,
      kind: groupOf(item)!,
      gold: item.gold,
    })),
  };
  const sheet = [
    '# Questions',
    '',
    `${order.length} questions. Answer each in your answers file as \`N: letter\`.`,
    '',
  ];
  order.forEach((item, i) => {
    const view = blindView(item, options.seed);
    const ask = isSibBinary(item)
      ? 'Answer with the ONE letter you would choose as the customer.'
      : 'Mark EVERY option that is a right answer (one or more letters).';
    sheet.push(
      `## ${i + 1}`,
      '',
      '```text',
      view.question,
      ...view.options.map((o) => `${o.letter}. ${o.text}`),
      '```',
      '',
      ask,
      '',
    );
  });
  await mkdir(options.out, { recursive: true });
  await writeFileAtomic(join(options.out, 'sheet.md'), sheet.join('\n'));
  await writeFileAtomic(join(options.out, 'instructions.md'), SIB_SHEET_INSTRUCTIONS);
  await writeFileAtomic(join(options.out, 'key.json'), JSON.stringify(key, null, 2) + '\n');
  return key;
}

export const SIB_SHEET_INSTRUCTIONS = `# Instructions

You will read numbered questions (sheet.md) about online shopping sessions: a customer browsed some
products, in order, and the question asks what the customer would do next or how a product or a
comparison fits what the customer wants. Nothing on the sheet tells you what the right answer is,
and no question is a trick: answer each on its own, from what it shows.

**Questions with the answers A. Yes … D. No** (or A–C for the question about how the customer's
intention evolves): put yourself in the customer's place and pick the ONE letter you would answer —
A (Yes), B (Maybe yes), C (Maybe no), D (No). Use "maybe" when the product or the comparison fits
partly or could fit; use a plain Yes or No when it clearly does or clearly does not.

**"Which product are you most likely to purchase next?"** (four products A–D): mark EVERY product
that fits the customer's stated intention as a next purchase — one letter if only one fits, several
if several fit equally well, none only if none fits.

Write your answers in a plain text file, one line per question, the question number, a colon and
the letter(s), e.g.

    1: C
    2: A
    3: B, D

Answer every question; do not consult other annotators. There is no time limit; a few seconds to a
minute per question is usual.
`;

/** One annotator's answers: question number → letters (upper case, sorted, distinct). */
export function readSheetAnswers(
  file: string,
  questions: number,
  lettersOf: (n: number) => string[],
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const text = raw.trim();
      if (text === '' || text.startsWith('#')) return;
      const at = { file, line: i + 1 };
      const m = /^(\d+)\s*[:.)]\s*(.*)$/.exec(text);
      if (!m) throw new InputError(at, `expected "N: letter(s)", got ${JSON.stringify(text)}`);
      const n = Number(m[1]);
      if (n < 1 || n > questions) throw new InputError(at, `question ${n} is not on the sheet (1–${questions})`);
      if (out.has(n)) throw new InputError(at, `question ${n} answered twice`);
      const letters = (m[2]!.toUpperCase().match(/[A-Z]/g) ?? []).filter((l, k, all) => all.indexOf(l) === k).sort();
      const allowed = lettersOf(n);
      const bad = letters.find((l) => !allowed.includes(l));
      if (bad) throw new InputError(at, `question ${n} has no option ${bad} (options ${allowed.join(', ')})`);
      out.set(n, letters);
    });
  return out;
}

export interface SibSheetScore {
  agreement: SibAgreement;
  /** Questions an annotator left unanswered, by annotator. */
  unanswered: Record<string, number[]>;
  markdown: string;
}

/** The figures of a sheet's answers: one file per annotator (`name` → file). */
export async function scoreSibSheet(keyFile: string, answers: Record<string, string>): Promise<SibSheetScore> {
  const key = (await readJsonFile(keyFile, { what: 'sheet key' })) as SibSheetKey;
  const { items } = await readReviewItems(key.items_dir);
  const byKey = new Map(items.map(({ item }) => [item.key, item]));
  const sheetItems = key.questions.map((q) => {
    const item = byKey.get(q.key);
    if (!item) throw new UserError(`${keyFile}: question ${q.n} is ${q.key}, which ${key.items_dir} no longer holds`);
    return item;
  });
  const labels: MarkedLabel[] = [];
  const unanswered: Record<string, number[]> = {};
  for (const [name, file] of Object.entries(answers)) {
    const got = readSheetAnswers(file, sheetItems.length, (n) => sheetItems[n - 1]!.options.map((o) => o.letter));
    unanswered[name] = key.questions.map((q) => q.n).filter((n) => !got.has(n));
    for (const [n, letters] of got) labels.push({ position: n - 1, correct: letters });
  }
  const agreement = sibAgreement(sheetItems, labels);
  const markdown = [
    `# Blind sheet: ${key.questions.length} questions, ${Object.keys(answers).length} annotator(s)`,
    '',
    ...Object.entries(unanswered).map(
      ([n, qs]) => `- ${n}: ${qs.length === 0 ? 'every question answered' : `unanswered ${qs.join(', ')}`}`,
    ),
    '',
    ...sibAgreementMarkdown(agreement),
  ].join('\n');
  return { agreement, unanswered, markdown };
}
