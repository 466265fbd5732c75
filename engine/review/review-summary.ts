// What a review found: the validity rate per task × difficulty with Wilson 95% intervals, the share
// of judgements that marked a second right answer, the gold-agreement rate, and the agreement
// between annotators on validity (Cohen's κ for two annotators, Fleiss' κ for more). A judgement is
// one annotator's label on one item; rates are over judgements, and say so.
import { cohenKappa, fleissKappa, type KappaResult } from './agreement.js';
import type { ReviewItem } from './review-items.js';
import { VALIDITIES, type StoredLabel, type Validity } from './review-store.js';
import { wilsonInterval, type Proportion } from './wilson-interval.js';
import { sibAgreement, type SibAgreement } from './sib-agreement.js';
import {
  consistencyReport,
  itemMeasures,
  judgementMarks,
  type ConsistencyReport,
  type MeasureRow,
} from './item-measures.js';

export interface StratumValidity extends Proportion {
  task: string;
  difficulty: string;
}

export interface AgreementSummary {
  method: 'cohen' | 'fleiss';
  /**
   * What is compared: the verdict (valid / invalid / unsure), or, for `exact-gold`, whether the
   * judgement's marks are exactly the gold (exact / not; items with a gold only).
   */
  on: 'validity' | 'exact-gold';
  kappa: number | null;
  observed: number;
  expected: number;
  /** Items compared (labelled by both annotators / by `raters` annotators each). */
  items: number;
  raters: number;
  /** Items left out: labelled by fewer annotators (or, for Fleiss, more than `raters`). */
  itemsLeftOut: number;
  /** Cohen: counts[a][b] items the first annotator put in category a and the second in b (VALIDITIES order; exact-gold: exact, not). */
  table?: number[][];
  annotators?: [string, string];
  /** Fleiss: how many judgements went to each category (the same order). */
  categoryTotals?: number[];
}

export interface ReviewSummary {
  items: { sampled: number; labelled: number; itemsDirItems: number };
  /** The labels were made without seeing the gold (`review start --blind`). */
  blind: boolean;
  judgements: number;
  annotators: Array<{ name: string; judgements: number; medianMs: number | null }>;
  /** Validity rate (valid / judgements) per task × difficulty, then over all. */
  validity: StratumValidity[];
  validityAll: Proportion;
  validityCounts: Record<Validity, number>;
  /** Judgements that marked an option outside the gold as correct, over judgements of items with a gold. */
  secondRightAnswer: Proportion;
  /** Judgements that marked the gold option (SIB binary labels: a letter on the gold's side) as correct. */
  goldAgreement: Proportion;
  agreement: AgreementSummary | null;
  /** Agreement on whether a judgement's marks are exactly the gold (the per-item Valid's ingredient). */
  agreementOnMarks: AgreementSummary | null;
  /** Median time of one judgement made on the page, in milliseconds. */
  medianMs: number | null;
  /** The paper's measures per item (majority of votes: Valid, F-Neg, Correct) and per judgement, per task × difficulty. */
  measures: MeasureRow[];
  /** Labels whose verdict "valid" contradicts their marks (no gold marked, or a distractor marked). */
  consistency: ConsistencyReport;
  /** SessionIntentBench items: judged as labelled per binary kind, Valid / F-Neg / Correct per choice kind. */
  sib: SibAgreement;
}

export function summarizeReview(
  items: readonly ReviewItem[],
  labels: readonly StoredLabel[],
  itemsDirItems: number,
  blind = false,
): ReviewSummary {
  const strata = new Map<string, { task: string; difficulty: string; valid: number; n: number }>();
  const counts: Record<Validity, number> = { valid: 0, invalid: 0, unsure: 0 };
  let second = 0;
  let goldMarked = 0;
  let withGold = 0;
  for (const l of labels) {
    const item = items[l.position]!;
    const key = `${item.task}\u0000${item.difficulty}`;
    const s = strata.get(key) ?? { task: item.task, difficulty: item.difficulty, valid: 0, n: 0 };
    s.n++;
    if (l.validity === 'valid') s.valid++;
    strata.set(key, s);
    counts[l.validity]++;
    if (item.gold.length > 0) {
      withGold++;
      if (l.correct.some((c) => !item.gold.includes(c))) second++;
      if (l.correct.some((c) => item.gold.includes(c))) goldMarked++;
    }
  }
  const names = [...new Set(labels.map((l) => l.annotator))].sort();
  return {
    items: { sampled: items.length, labelled: new Set(labels.map((l) => l.position)).size, itemsDirItems },
    blind,
    judgements: labels.length,
    annotators: names.map((name) => {
      const own = labels.filter((l) => l.annotator === name);
      return {
        name,
        judgements: own.length,
        medianMs: median(own.filter((l) => l.origin === 'browser').map((l) => l.ms)),
      };
    }),
    validity: [...strata.values()]
      .sort((a, b) =>
        a.task < b.task ? -1 : a.task > b.task ? 1 : difficultyRank(a.difficulty) - difficultyRank(b.difficulty),
      )
      .map((s) => ({ task: s.task, difficulty: s.difficulty, ...wilsonInterval(s.valid, s.n) })),
    validityAll: wilsonInterval(counts.valid, labels.length),
    validityCounts: counts,
    secondRightAnswer: wilsonInterval(second, withGold),
    goldAgreement: wilsonInterval(goldMarked, withGold),
    agreement: agreementOn(labels, names, 'validity', VALIDITIES, (l) => l.validity),
    agreementOnMarks: agreementOn(
      labels.filter((l) => items[l.position]!.gold.length > 0),
      names,
      'exact-gold',
      ['exact', 'not'],
      (l) => (judgementMarks(items[l.position]!, l.correct).exact ? 'exact' : 'not'),
    ),
    medianMs: median(labels.filter((l) => l.origin === 'browser').map((l) => l.ms)),
    measures: itemMeasures(items, labels),
    consistency: consistencyReport(items, labels),
    sib: sibAgreement(items, labels),
  };
}

const DIFFICULTY_ORDER = ['easy', 'medium', 'hard'];
function difficultyRank(d: string): number {
  const i = DIFFICULTY_ORDER.indexOf(d);
  return i < 0 ? DIFFICULTY_ORDER.length : i;
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * κ on a category of each judgement (the verdict, or whether its marks are exactly the gold). Two annotators: Cohen's κ over the items both labelled. More: Fleiss' κ over the
 * items with the most common number (≥ 2) of labels, which need not come from the same people
 * (Fleiss' κ allows that; MTurk assigns workers per item).
 */
function agreementOn<C extends string>(
  labels: readonly StoredLabel[],
  names: string[],
  on: AgreementSummary['on'],
  categories: readonly C[],
  categoryOf: (l: StoredLabel) => C,
): AgreementSummary | null {
  const byItem = new Map<number, StoredLabel[]>();
  for (const l of labels) byItem.set(l.position, [...(byItem.get(l.position) ?? []), l]);
  const category = (c: C) => categories.indexOf(c);
  if (names.length === 2) {
    const [a, b] = names as [string, string];
    const pairs: Array<[C, C]> = [];
    for (const ls of byItem.values()) {
      const la = ls.find((l) => l.annotator === a);
      const lb = ls.find((l) => l.annotator === b);
      if (la && lb) pairs.push([categoryOf(la), categoryOf(lb)]);
    }
    if (pairs.length === 0) return null;
    const table = categories.map(() => categories.map(() => 0));
    for (const [x, y] of pairs) table[category(x)]![category(y)]!++;
    const k = cohenKappa(
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
    );
    return {
      method: 'cohen',
      on,
      ...kappaFields(k),
      itemsLeftOut: byItem.size - pairs.length,
      table,
      annotators: [a, b],
    };
  }
  if (names.length < 2) return null;
  const sizes = new Map<number, number>();
  for (const ls of byItem.values()) if (ls.length >= 2) sizes.set(ls.length, (sizes.get(ls.length) ?? 0) + 1);
  if (sizes.size === 0) return null;
  const raters = [...sizes.entries()].sort((x, y) => y[1] - x[1] || y[0] - x[0])[0]![0];
  const rows = [...byItem.values()]
    .filter((ls) => ls.length === raters)
    .map((ls) => {
      const row = categories.map(() => 0);
      for (const l of ls) row[category(categoryOf(l))]!++;
      return row;
    });
  const k = fleissKappa(rows);
  const categoryTotals = categories.map((_, j) => rows.reduce((s, r) => s + r[j]!, 0));
  return {
    method: 'fleiss',
    on,
    ...kappaFields(k),
    itemsLeftOut: byItem.size - rows.length,
    categoryTotals,
  };
}

function kappaFields(k: KappaResult): Pick<AgreementSummary, 'kappa' | 'observed' | 'expected' | 'items' | 'raters'> {
  return { kappa: k.kappa, observed: k.observed, expected: k.expected, items: k.subjects, raters: k.raters };
}
