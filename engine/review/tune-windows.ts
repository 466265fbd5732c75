// `intentsim tune`: window bounds from a review's labels (docs/tune.md). Each reviewed IntentionQA
// item gives three distractors, each with the similarity that placed it in its window (Task 1: Sim_i,
// Task 2: Sim_p; the item's `distractors[].score`) and whether the review found it right (more than
// half of the item's judgements marked it). Per task:
//   1. fit P(right | s) = σ(a + b·s) by maximum likelihood (logistic-fit.ts);
//   2. estimate an item's F-Neg for a window W over the observed similarities S:
//        F-Neg(W) = 1 − (1 − p̄_W)³,  p̄_W = the mean of σ(a + b·s) over the s of S inside W,
//      the three distractors drawn from W independently (what the window sampling does);
//   3. propose the widest window, by share of S kept, whose F-Neg(W) ≤ the target. With b ≥ 0 (the
//      usual: the closer, the likelier a second answer) that is [lo, hi'] with lo unchanged and hi' as
//      high as the target allows; with b < 0, lo is raised instead. The bound is put halfway between
//      the last similarity kept and the next one, so it means the same for an inclusive or exclusive
//      bound;
//   4. intervals by bootstrap over items (resampling whole items, so that an item's three
//      distractors stay together), seeded: the same review, target, seed and count give the same
//      figures.
import { join } from 'node:path';
import { InputError, UserError } from '../../core/errors.js';
import { Rng } from '../../core/rng.js';
import { majorityRight } from './item-measures.js';
import { fitLogistic, sigmoid, type LogisticFit } from './logistic-fit.js';
import type { ReviewItem } from './review-items.js';
import { ItemLines, type ItemLine } from './rejoin-items.js';
import type { ReviewStore, StoredLabel } from './review-store.js';
import { wilsonInterval, type Proportion } from './wilson-interval.js';

/** What the rules read for one distractor (the item's `distractors[k]`; rule-readings.ts), when recorded. */
export interface DistractorReadings {
  fit?: number;
  own_fit?: number;
  pair_fit?: number;
  asserted_cosine?: number;
}

/** The reading fields a distractor record may carry. */
export const READING_FIELDS = ['fit', 'own_fit', 'pair_fit', 'asserted_cosine'] as const;

/** One reviewed item's distractors: their similarities and whether each was found right. */
export interface TuneItem {
  key: string;
  task: 1 | 2;
  similarities: number[];
  right: boolean[];
  /** Each distractor's readings, in the order of `similarities` (empty records when none; absent: none at all). */
  readings?: DistractorReadings[];
  /** The window the item's distractors were drawn from (its `selection.window`), when recorded. */
  window: { lo: number; hi: number } | null;
}

export interface TuneOptions {
  /** The largest estimated F-Neg of an item (default 0.05). */
  maxFNeg?: number;
  /** Bootstrap replicates (default 1000). */
  bootstrap?: number;
  /** Seed of the bootstrap (default 1). */
  seed?: number;
}

export interface BootstrapInterval {
  low: number | null;
  high: number | null;
}

export interface TaskProposal {
  task: 1 | 2;
  items: number;
  distractors: number;
  /** Distractors found right. */
  right: number;
  /** The F-Neg measured: items with at least one distractor found right (Wilson 95%). */
  measuredFNeg: Proportion;
  fit: {
    a: number | null;
    b: number | null;
    separated: boolean;
    /** Every similarity is the same: no slope (b) can be fitted. */
    tied: boolean;
    a95: BootstrapInterval;
    b95: BootstrapInterval;
  };
  /**
   * The window the items came from (the items' selection.window; else the observed range), with
   * how many of the distractor similarities lie inside it; the estimate is null when none does
   * (nothing observed to estimate from).
   */
  current: {
    lo: number;
    hi: number;
    inside: number;
    estimatedFNeg: number | null;
    estimatedFNeg95: BootstrapInterval;
  };
  /**
   * The proposal: `moved` names the bound that changed (none when the current window already meets
   * the target); `bound95` is the moved bound's interval. Null when no window meets the target.
   */
  proposed: {
    lo: number;
    hi: number;
    moved: 'hi' | 'lo' | 'none';
    bound95: BootstrapInterval;
    /** Share of the observed distractor similarities inside the proposed window. */
    keptShare: number;
    estimatedFNeg: number;
    estimatedFNeg95: BootstrapInterval;
  } | null;
  /** Why there is no proposal (null when there is one). */
  noProposal: string | null;
  /** Bootstrap replicates in which no window met the target (their bound is left out of bound95). */
  infeasibleReplicates: number;
}

export interface TuneResult {
  maxFNeg: number;
  bootstrap: number;
  seed: number;
  tasks: TaskProposal[];
}

/**
 * The reviewed IntentionQA items with their distractors' similarities and the majority's marks;
 * each item's line as the review stored it, or, with `itemsDir`, from that folder of the same items
 * made again (rejoin-items.ts).
 */
export function readTuneItems(store: ReviewStore, itemsDir?: string): TuneItem[] {
  const settings = store.settings();
  const items = store.items();
  const raw = store.rawLines();
  const byItem = new Map<number, StoredLabel[]>();
  for (const l of store.labels()) byItem.set(l.position, [...(byItem.get(l.position) ?? []), l]);
  const again = itemsDir === undefined ? undefined : new ItemLines(itemsDir);
  const out: TuneItem[] = [];
  for (const [position, labels] of [...byItem.entries()].sort((x, y) => x[0] - y[0])) {
    const item = items[position]!;
    if (item.benchmark !== 'intentionqa' || item.gold.length !== 1) continue;
    const line = again?.rejoin(item, raw[position]!) ?? {
      raw: raw[position]!,
      file: join(settings.itemsDir, item.file),
      line: item.line,
    };
    out.push(tuneItem(item, line, majorityRight(item, labels)));
  }
  return out;
}

function tuneItem(item: ReviewItem, { raw, file, line }: ItemLine, right: string[]): TuneItem {
  const at = { file, line };
  const json = JSON.parse(raw) as Record<string, unknown>;
  const distractors = json.distractors;
  if (!Array.isArray(distractors)) {
    throw new InputError(
      { ...at, field: 'distractors' },
      'missing: tune needs the similarity that placed each distractor (items written by this pipeline carry it)',
    );
  }
  const scoreOf = new Map<string, number>();
  const readingsOf = new Map<string, DistractorReadings>();
  distractors.forEach((d: unknown, i) => {
    const r = d as { text?: unknown; score?: unknown } & Record<string, unknown>;
    if (typeof r?.text !== 'string' || typeof r.score !== 'number' || !Number.isFinite(r.score)) {
      throw new InputError({ ...at, field: `distractors.${i}` }, 'expected {"text": string, "score": number}');
    }
    scoreOf.set(r.text, r.score);
    const readings: DistractorReadings = {};
    for (const f of READING_FIELDS) {
      const v = r[f];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new InputError({ ...at, field: `distractors.${i}.${f}` }, `expected a number, got ${JSON.stringify(v)}`);
      readings[f] = v;
    }
    readingsOf.set(r.text, readings);
  });
  const similarities: number[] = [];
  const marks: boolean[] = [];
  const readings: DistractorReadings[] = [];
  // The option as the file writes it: the review shows a cleaned text (a title's "&quot;" as '"'),
  // while distractors[].text is the file's, so the two are matched in the file's spelling.
  const written = json.options as Record<string, unknown> | undefined;
  for (const o of item.options) {
    if (o.letter === item.gold[0]) continue;
    const text = typeof written?.[o.letter] === 'string' ? (written[o.letter] as string) : o.text;
    const s = scoreOf.get(text);
    if (s === undefined) {
      throw new InputError({ ...at, field: `options.${o.letter}` }, "not among the item's distractors[].text");
    }
    similarities.push(s);
    marks.push(right.includes(o.letter));
    readings.push(readingsOf.get(text)!);
  }
  return {
    key: item.key,
    task: item.task === 'intentionqa-2' ? 2 : 1,
    similarities,
    right: marks,
    readings,
    window: windowOf(json, at),
  };
}

/** The item's `selection.window` ("[0.6, 0.9]", "[0.7, 0.9)"), or null when it has none. */
function windowOf(
  json: Record<string, unknown>,
  at: { file: string; line: number },
): { lo: number; hi: number } | null {
  const selection = json.selection as { window?: unknown } | undefined;
  if (selection?.window === undefined) return null;
  const m = /^[[(]\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*[\])]$/.exec(String(selection.window));
  if (!m) throw new InputError({ ...at, field: 'selection.window' }, `not an interval: ${String(selection.window)}`);
  return { lo: Number(m[1]), hi: Number(m[2]) };
}

/** 1 − (1 − p̄)³: P(at least one of three distractors right), each right with probability p̄. */
export function itemFNeg(meanP: number): number {
  return 1 - (1 - meanP) ** 3;
}

interface Curve {
  a: number;
  b: number;
}

/** Mean σ(a + b·s) over the s in [lo, hi], and their share of all; null when none is inside. */
export function windowEstimate(
  curve: Curve,
  similarities: readonly number[],
  lo: number,
  hi: number,
): { meanP: number; share: number } | null {
  let sum = 0;
  let n = 0;
  for (const s of similarities) {
    if (s >= lo && s <= hi) {
      sum += sigmoid(curve.a + curve.b * s);
      n++;
    }
  }
  return n === 0 ? null : { meanP: sum / n, share: n / similarities.length };
}

/**
 * The bound that keeps the most of `similarities` with F-Neg ≤ target: `hi` for a rising curve (b ≥
 * 0), `lo` for a falling one. `none` (the whole range meets the target) or null (not even the one
 * safest similarity does).
 */
export function proposeBound(
  curve: Curve,
  similarities: readonly number[],
  target: number,
  direction: 'hi' | 'lo',
): { bound: number | null; kept: number } | null {
  const s = [...similarities].sort((x, y) => (direction === 'hi' ? x - y : y - x));
  return boundAlong(curve, s, target, 'first-failure');
}

/**
 * Walks `sorted` (safest first) and keeps the prefix whose estimated item F-Neg (itemFNeg of the
 * curve's mean over it) is ≤ target, never splitting equal values: up to the first prefix that fails
 * (`first-failure`: the windows) or the longest that meets it (`longest`: the rules' cut-offs,
 * tune-cutoffs.ts). The bound lies between the last value kept and the next; `bound` null: all kept;
 * null: not even the safest.
 */
export function boundAlong(
  curve: Curve,
  sorted: readonly number[],
  target: number,
  until: 'first-failure' | 'longest',
): { bound: number | null; kept: number } | null {
  let sum = 0;
  let kept = 0;
  for (let k = 0; k < sorted.length; k++) {
    sum += sigmoid(curve.a + curve.b * sorted[k]!);
    const meets = itemFNeg(sum / (k + 1)) <= target;
    if (!meets && until === 'first-failure') break;
    // A bound cannot split equal values: count k only where the next one differs.
    if (meets && (k + 1 === sorted.length || sorted[k + 1] !== sorted[k])) kept = k + 1;
  }
  if (kept === 0) return null;
  if (kept === sorted.length) return { bound: null, kept };
  return { bound: roundBetween(sorted[kept - 1]!, sorted[kept]!), kept };
}

/** A short number strictly between x and y (their midpoint, rounded to 4 decimals when that stays between). */
export function roundBetween(x: number, y: number): number {
  const mid = (x + y) / 2;
  const rounded = Math.round(mid * 1e4) / 1e4;
  return rounded > Math.min(x, y) && rounded < Math.max(x, y) ? rounded : mid;
}

/** Proposes windows per task from the tune items. */
export function tuneWindows(items: readonly TuneItem[], options: TuneOptions = {}): TuneResult {
  const maxFNeg = options.maxFNeg ?? 0.05;
  const bootstrap = options.bootstrap ?? 1000;
  const seed = options.seed ?? 1;
  if (!(maxFNeg > 0 && maxFNeg < 1)) throw new UserError(`the F-Neg target must be in (0, 1), got ${maxFNeg}`);
  if (!(Number.isInteger(bootstrap) && bootstrap >= 0))
    throw new UserError(`bootstrap must be a whole number ≥ 0, got ${bootstrap}`);
  const tasks: TaskProposal[] = [];
  for (const task of [1, 2] as const) {
    const own = items.filter((i) => i.task === task);
    if (own.length > 0) tasks.push(tuneTask(task, own, maxFNeg, bootstrap, seed));
  }
  if (tasks.length === 0) throw new UserError('no labelled IntentionQA item in the review: nothing to tune on');
  return { maxFNeg, bootstrap, seed, tasks };
}

/** P(right | value) fitted over every distractor of the items: each item's values beside its judgements (`right`). */
export function fitLabelled<T extends { right: readonly boolean[] }>(
  items: readonly T[],
  valuesOf: (item: T) => readonly number[],
): { fit: LogisticFit; values: number[] } {
  const values = items.flatMap(valuesOf);
  const y = items.flatMap((i) => i.right.map((r) => (r ? 1 : 0) as 0 | 1));
  return { fit: fitLogistic(values, y), values };
}

function fitItems(items: readonly TuneItem[]): { fit: LogisticFit; similarities: number[] } {
  const { fit, values } = fitLabelled(items, (i) => i.similarities);
  return { fit, similarities: values };
}

function tuneTask(
  task: 1 | 2,
  items: readonly TuneItem[],
  target: number,
  replicates: number,
  seed: number,
): TaskProposal {
  const { fit, similarities } = fitItems(items);
  const direction = fit.b >= 0 ? 'hi' : 'lo';
  const windows = items.map((i) => i.window).filter((w) => w !== null);
  const lo0 = windows.length > 0 ? Math.min(...windows.map((w) => w.lo)) : Math.min(...similarities);
  const hi0 = windows.length > 0 ? Math.max(...windows.map((w) => w.hi)) : Math.max(...similarities);
  // A bound is proposed among the similarities inside the current window only: one placed among
  // those outside it (issue 45: distractor scores all below [0.6, 0.9] gave {lo: 0.6, hi: 0.3566})
  // would not be a window at all.
  const inWindow = (sims: readonly number[]) => sims.filter((s) => s >= lo0 && s <= hi0);
  const inside = inWindow(similarities);
  const main = inside.length === 0 ? null : proposeBound(fit, inside, target, direction);
  const proposedWindow =
    main === null
      ? null
      : main.bound === null
        ? { lo: lo0, hi: hi0 }
        : direction === 'hi'
          ? { lo: lo0, hi: main.bound }
          : { lo: main.bound, hi: hi0 };
  const estimate = (curve: Curve, sims: readonly number[], w: { lo: number; hi: number }) => {
    const e = windowEstimate(curve, sims, w.lo, w.hi);
    return e === null ? null : itemFNeg(e.meanP);
  };

  // The bootstrap: resample items with replacement; refit; the bound and the estimates again.
  const rng = new Rng(`tune/${seed}/task${task}`);
  const as: number[] = [];
  const bs: number[] = [];
  const bounds: number[] = [];
  const currentF: number[] = [];
  const proposedF: number[] = [];
  let infeasible = 0;
  for (let r = 0; r < replicates; r++) {
    const sample = Array.from({ length: items.length }, () => items[rng.int(items.length)]!);
    const rep = fitItems(sample);
    if (Number.isFinite(rep.fit.a)) as.push(rep.fit.a);
    if (Number.isFinite(rep.fit.a)) bs.push(rep.fit.b);
    const c = estimate(rep.fit, rep.similarities, { lo: lo0, hi: hi0 });
    if (c !== null) currentF.push(c);
    if (proposedWindow) {
      const p = estimate(rep.fit, rep.similarities, proposedWindow);
      if (p !== null) proposedF.push(p);
    }
    const b = proposeBound(rep.fit, inWindow(rep.similarities), target, direction);
    if (b === null) infeasible++;
    else bounds.push(b.bound ?? (direction === 'hi' ? hi0 : lo0));
  }
  const right = items.reduce((s, i) => s + i.right.filter(Boolean).length, 0);
  const measured = items.filter((i) => i.right.some(Boolean)).length;
  const finite = (x: number) => (Number.isFinite(x) ? x : null);
  return {
    task,
    items: items.length,
    distractors: similarities.length,
    right,
    measuredFNeg: wilsonInterval(measured, items.length),
    fit: {
      a: finite(fit.a),
      b: finite(fit.b),
      separated: fit.separated,
      tied: fit.tied,
      a95: percentileInterval(as),
      b95: percentileInterval(bs),
    },
    current: {
      lo: lo0,
      hi: hi0,
      inside: inside.length,
      estimatedFNeg: estimate(fit, similarities, { lo: lo0, hi: hi0 }),
      estimatedFNeg95: percentileInterval(currentF),
    },
    proposed:
      proposedWindow === null || main === null
        ? null
        : {
            ...proposedWindow,
            moved: main.bound === null ? 'none' : direction,
            bound95: percentileInterval(bounds),
            keptShare: main.kept / similarities.length,
            // The proposal keeps at least one observed similarity: the estimate exists.
            estimatedFNeg: estimate(fit, similarities, proposedWindow)!,
            estimatedFNeg95: percentileInterval(proposedF),
          },
    noProposal:
      inside.length === 0
        ? `none of the ${similarities.length} distractor similarities lies inside the items' window ` +
          `[${lo0}, ${hi0}]: nothing to estimate from`
        : main === null
          ? `no window meets the target (estimated F-Neg ≤ ${target}): even the safest similarity's is above it`
          : null,
    infeasibleReplicates: infeasible,
  };
}

/** The 2.5% and 97.5% quantiles (linear between order statistics); nulls for no values. */
export function percentileInterval(values: readonly number[]): BootstrapInterval {
  if (values.length === 0) return { low: null, high: null };
  const s = [...values].sort((x, y) => x - y);
  const q = (p: number) => {
    const h = (s.length - 1) * p;
    const i = Math.floor(h);
    return s[i]! + (h - i) * ((s[Math.min(i + 1, s.length - 1)] ?? s[i]!) - s[i]!);
  };
  return { low: q(0.025), high: q(0.975) };
}
