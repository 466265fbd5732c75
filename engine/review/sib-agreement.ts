// The SessionIntentBench figures of a review (issue 46): for the binary kinds (the tasks T1–T4, asked
// as written or as a constructed negative), whether the annotators, answering as the customer on the
// task's scale (one letter each), judge the item as labelled, and how strongly; for the next-product
// choice the paper's Valid / F-Neg / Correct (item-measures.ts: every option marked right, majority).
//
// A binary item's judgement is its one marked letter; a judgement marking none or several is left out
// (counted). Per item, over the judgements kept: the side (the labelled side: the gold letters, or the
// other side) more than half of them chose; the letter more than half chose; unanimous when every one
// chose the same side. "Strong" is the extreme letter of the labelled side: No (D) for a negative,
// Yes (A) for a positive — for T4 (A–C) A and C.
import type { ReviewItem } from './review-items.js';
import { judgementMarks, majorityRight } from './item-measures.js';
import { wilsonInterval, type Proportion } from './wilson-interval.js';

/** The part of a label these figures read. */
export interface MarkedLabel {
  position: number;
  correct: string[];
}

export interface SibBinaryRow {
  /** `sib-1` … `sib-4`. */
  task: string;
  /** `original` or the constructed kind (`t1-hard-negative`, …). */
  kind: string;
  /** Items with a label side and at least one one-letter judgement. */
  items: number;
  /** Majority of judgements on the labelled side. */
  asLabelled: Proportion;
  /** Majority letter the labelled side's extreme letter (a strong "No" for a negative). */
  strong: Proportion;
  /** Every judgement on the same side. */
  unanimous: Proportion;
  /** Judgements marking none or several letters (left out). */
  notOneAnswer: number;
  /** Judgements per letter, over the kind's items. */
  letters: Record<string, number>;
}

export interface SibChoiceRow {
  task: string;
  kind: string;
  items: number;
  valid: Proportion;
  fNeg: Proportion;
  correct: Proportion;
}

export interface SibAgreement {
  binary: SibBinaryRow[];
  choices: SibChoiceRow[];
}

/** Whether an item is a SIB question answered on a scale (T1–T4 and their constructed negatives). */
export function isSibBinary(item: ReviewItem): boolean {
  return item.benchmark === 'sib' && item.task !== 'sib-next-product';
}

/** The extreme letter of the labelled side: the first letter for a positive side, the last for a negative. */
function extremeOf(item: ReviewItem): string {
  const letters = item.options.map((o) => o.letter);
  return item.gold.includes(letters[0]!) ? letters[0]! : letters[letters.length - 1]!;
}

export function sibAgreement(items: readonly ReviewItem[], labels: readonly MarkedLabel[]): SibAgreement {
  const byItem = new Map<number, MarkedLabel[]>();
  for (const l of labels) byItem.set(l.position, [...(byItem.get(l.position) ?? []), l]);
  const binary = new Map<
    string,
    {
      task: string;
      kind: string;
      n: number;
      as: number;
      strong: number;
      unanimous: number;
      skip: number;
      letters: Record<string, number>;
    }
  >();
  const choices = new Map<
    string,
    { task: string; kind: string; n: number; valid: number; fNeg: number; correct: number }
  >();
  const positions = [...byItem.keys()].sort((a, b) => a - b);
  for (const position of positions) {
    const item = items[position]!;
    const own = byItem.get(position)!;
    if (item.benchmark !== 'sib' || item.gold.length === 0) continue;
    const key = `${item.task}\u0000${item.difficulty}`;
    if (!isSibBinary(item)) {
      const c = choices.get(key) ?? { task: item.task, kind: item.difficulty, n: 0, valid: 0, fNeg: 0, correct: 0 };
      const m = judgementMarks(item, majorityRight(item, own));
      c.n++;
      if (m.exact) c.valid++;
      if (m.distractorMarked) c.fNeg++;
      if (m.goldMarked) c.correct++;
      choices.set(key, c);
      continue;
    }
    const row = binary.get(key) ?? {
      task: item.task,
      kind: item.difficulty,
      n: 0,
      as: 0,
      strong: 0,
      unanimous: 0,
      skip: 0,
      letters: Object.fromEntries(item.options.map((o) => [o.letter, 0])),
    };
    binary.set(key, row);
    const answers: string[] = [];
    for (const l of own) {
      if (l.correct.length === 1) answers.push(l.correct[0]!);
      else row.skip++;
    }
    if (answers.length === 0) continue;
    for (const a of answers) row.letters[a] = (row.letters[a] ?? 0) + 1;
    const onSide = answers.filter((a) => item.gold.includes(a)).length;
    const extreme = answers.filter((a) => a === extremeOf(item)).length;
    row.n++;
    if (2 * onSide > answers.length) row.as++;
    if (2 * extreme > answers.length) row.strong++;
    if (onSide === answers.length || onSide === 0) row.unanimous++;
  }
  const order = (a: { task: string; kind: string }, b: { task: string; kind: string }) =>
    a.task < b.task
      ? -1
      : a.task > b.task
        ? 1
        : a.kind === b.kind
          ? 0
          : a.kind === 'original'
            ? -1
            : b.kind === 'original'
              ? 1
              : a.kind < b.kind
                ? -1
                : 1;
  return {
    binary: [...binary.values()].sort(order).map((r) => ({
      task: r.task,
      kind: r.kind,
      items: r.n,
      asLabelled: wilsonInterval(r.as, r.n),
      strong: wilsonInterval(r.strong, r.n),
      unanimous: wilsonInterval(r.unanimous, r.n),
      notOneAnswer: r.skip,
      letters: r.letters,
    })),
    choices: [...choices.values()].sort(order).map((c) => ({
      task: c.task,
      kind: c.kind,
      items: c.n,
      valid: wilsonInterval(c.valid, c.n),
      fNeg: wilsonInterval(c.fNeg, c.n),
      correct: wilsonInterval(c.correct, c.n),
    })),
  };
}

/** The figures as markdown: one table for the binary kinds, one for the choices (empty: no lines). */
export function sibAgreementMarkdown(a: SibAgreement): string[] {
  if (a.binary.length === 0 && a.choices.length === 0) return [];
  const frac = (p: Proportion) =>
    p.n === 0 ? '–' : `${p.successes}/${p.n} (${((100 * p.successes) / p.n).toFixed(0)}%)`;
  const lines = [
    '## SessionIntentBench: judged as labelled',
    '',
    'Binary kinds: each judgement is the one letter an annotator answered as the customer; per item the ' +
      'majority side (labelled side: the letters of the label, e.g. C/D for a constructed negative), and ' +
      'whether the majority letter is the side’s extreme (a strong “No”, D, for a negative). Next-product ' +
      'choices: every right option marked; Valid / F-Neg / Correct by majority of marks.',
    '',
  ];
  if (a.binary.length > 0) {
    lines.push(
      '| task | kind | items | judged as labelled | strong (extreme letter) | unanimous side | letters | not one answer |',
      '|---|---|---:|---|---|---|---|---:|',
      ...a.binary.map(
        (r) =>
          `| ${r.task} | ${r.kind} | ${r.items} | ${frac(r.asLabelled)} | ${frac(r.strong)} | ${frac(r.unanimous)} | ` +
          `${Object.entries(r.letters)
            .map(([l, n]) => `${l} ${n}`)
            .join(', ')} | ${r.notOneAnswer} |`,
      ),
      '',
    );
  }
  if (a.choices.length > 0) {
    lines.push(
      '| task | kind | items | Valid | F-Neg | Correct |',
      '|---|---|---:|---|---|---|',
      ...a.choices.map(
        (c) => `| ${c.task} | ${c.kind} | ${c.items} | ${frac(c.valid)} | ${frac(c.fNeg)} | ${frac(c.correct)} |`,
      ),
      '',
    );
  }
  return lines;
}
