// The IntentionQA paper's measures of a reviewed item, from the options its annotators marked right
// (every right option, not one answer): an option is right for the item when more than half of the
// item's judgements mark it (majority of votes; a tie is not a majority). Then
//   Correct: the gold is right;  F-Neg: a distractor is right;  Valid: the gold and no distractor.
// Beside them, the same three read off each judgement alone (per-judgement rates), and the labels
// whose verdict contradicts their own marks: "valid" without the gold marked, or with a distractor
// marked too. Such a label is no vote for keeping the item (`review export --keep valid`).
// SIB items with a constructed binary label have a gold side of several letters: "the gold" is any
// letter of that side. Items without a gold (annotators tied) have no measure.
import type { ReviewItem } from './review-items.js';
import type { StoredLabel } from './review-store.js';
import { wilsonInterval, type Proportion } from './wilson-interval.js';

/** What one judgement's marks say about its item. */
export interface JudgementMarks {
  goldMarked: boolean;
  /** A letter outside the gold marked right. */
  distractorMarked: boolean;
  /** The gold marked and no distractor: the judgement finds the item valid by its marks. */
  exact: boolean;
}

export function judgementMarks(item: ReviewItem, correct: readonly string[]): JudgementMarks {
  const goldMarked = correct.some((c) => item.gold.includes(c));
  const distractorMarked = correct.some((c) => !item.gold.includes(c));
  return { goldMarked, distractorMarked, exact: goldMarked && !distractorMarked };
}

export const LABEL_FLAGS = ['valid-without-gold', 'valid-with-distractor'] as const;
export type LabelFlag = (typeof LABEL_FLAGS)[number];

/** How a label's verdict contradicts its marks (none for a consistent label or an item without a gold). */
export function labelFlags(item: ReviewItem, label: Pick<StoredLabel, 'validity' | 'correct'>): LabelFlag[] {
  if (label.validity !== 'valid' || item.gold.length === 0) return [];
  const m = judgementMarks(item, label.correct);
  const flags: LabelFlag[] = [];
  if (!m.goldMarked) flags.push('valid-without-gold');
  if (m.distractorMarked) flags.push('valid-with-distractor');
  return flags;
}

/** A judgement that counts as a vote to keep its item: "valid", and its marks agree. */
export function isKeepVote(item: ReviewItem, label: Pick<StoredLabel, 'validity' | 'correct'>): boolean {
  return label.validity === 'valid' && labelFlags(item, label).length === 0;
}

/** The options right for an item by majority of its judgements' marks. */
export function majorityRight(item: ReviewItem, labels: readonly Pick<StoredLabel, 'correct'>[]): string[] {
  return item.options
    .map((o) => o.letter)
    .filter((letter) => 2 * labels.filter((l) => l.correct.includes(letter)).length > labels.length);
}

export interface MeasureRow {
  task: string;
  /** A difficulty, or `all` for the task's row. */
  difficulty: string;
  /** Per item (majority of votes), over the items with a gold and at least one label. */
  valid: Proportion;
  fNeg: Proportion;
  correct: Proportion;
  /** Per judgement, over the judgements of those items. */
  perJudgement: {
    /** Judgements whose marks are exactly the gold (the gold, no distractor). */
    exact: Proportion;
    distractorMarked: Proportion;
    goldMarked: Proportion;
    /** Judgements with the verdict "valid". */
    validVerdict: Proportion;
  };
}

interface Tally {
  task: string;
  difficulty: string;
  items: [number, number, number, number];
  judgements: [number, number, number, number, number];
}

/**
 * The measures per task × difficulty and per task (difficulty `all`), tasks in name order,
 * difficulties easy, medium, hard, then others by name.
 */
export function itemMeasures(items: readonly ReviewItem[], labels: readonly StoredLabel[]): MeasureRow[] {
  const byItem = new Map<number, StoredLabel[]>();
  for (const l of labels) byItem.set(l.position, [...(byItem.get(l.position) ?? []), l]);
  const tallies = new Map<string, Tally>();
  const tally = (task: string, difficulty: string) => {
    const key = `${task}\u0000${difficulty}`;
    let t = tallies.get(key);
    if (!t) tallies.set(key, (t = { task, difficulty, items: [0, 0, 0, 0], judgements: [0, 0, 0, 0, 0] }));
    return t;
  };
  for (const [position, own] of byItem) {
    const item = items[position]!;
    if (item.gold.length === 0) continue;
    const right = judgementMarks(item, majorityRight(item, own));
    for (const t of [tally(item.task, item.difficulty), tally(item.task, 'all')]) {
      t.items[0]++;
      if (right.exact) t.items[1]++;
      if (right.distractorMarked) t.items[2]++;
      if (right.goldMarked) t.items[3]++;
      for (const l of own) {
        const m = judgementMarks(item, l.correct);
        t.judgements[0]++;
        if (m.exact) t.judgements[1]++;
        if (m.distractorMarked) t.judgements[2]++;
        if (m.goldMarked) t.judgements[3]++;
        if (l.validity === 'valid') t.judgements[4]++;
      }
    }
  }
  return [...tallies.values()]
    .sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : difficultyRank(a.difficulty, b.difficulty)))
    .map((t) => ({
      task: t.task,
      difficulty: t.difficulty,
      valid: wilsonInterval(t.items[1], t.items[0]),
      fNeg: wilsonInterval(t.items[2], t.items[0]),
      correct: wilsonInterval(t.items[3], t.items[0]),
      perJudgement: {
        exact: wilsonInterval(t.judgements[1], t.judgements[0]),
        distractorMarked: wilsonInterval(t.judgements[2], t.judgements[0]),
        goldMarked: wilsonInterval(t.judgements[3], t.judgements[0]),
        validVerdict: wilsonInterval(t.judgements[4], t.judgements[0]),
      },
    }));
}

const DIFFICULTY_ORDER = ['easy', 'medium', 'hard'];

function difficultyRank(a: string, b: string): number {
  const rank = (d: string) => {
    const i = DIFFICULTY_ORDER.indexOf(d);
    return d === 'all' ? DIFFICULTY_ORDER.length + 1 : i < 0 ? DIFFICULTY_ORDER.length : i;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** One label whose verdict contradicts its marks. */
export interface FlaggedLabel {
  annotator: string;
  item: string;
  flags: LabelFlag[];
}

export interface ConsistencyReport {
  /** Labels with the verdict "valid". */
  validLabels: number;
  validWithoutGold: number;
  validWithDistractor: number;
  /** Every flagged label, by annotator then item position. */
  labels: FlaggedLabel[];
}

export function consistencyReport(items: readonly ReviewItem[], labels: readonly StoredLabel[]): ConsistencyReport {
  const flagged: FlaggedLabel[] = [];
  for (const l of labels) {
    const flags = labelFlags(items[l.position]!, l);
    if (flags.length > 0) flagged.push({ annotator: l.annotator, item: l.itemKey, flags });
  }
  return {
    validLabels: labels.filter((l) => l.validity === 'valid').length,
    validWithoutGold: flagged.filter((f) => f.flags.includes('valid-without-gold')).length,
    validWithDistractor: flagged.filter((f) => f.flags.includes('valid-with-distractor')).length,
    labels: flagged,
  };
}
