// `intentsim tune`: the validity rules' cut-offs from a review's labels (docs/tune.md), as
// tune-windows.ts finds the windows. The items record per distractor what the rules read
// (engine/items/intentionqa/rule-readings.ts); each rule keeps a distractor when its reading r is on
// the safe side of the cut-off:
//
//   anchorMargin        Task 1   r = own_fit − fit     kept when r ≥ m   (unanchored refuses fit > own_fit − m)
//   fitMargin           Task 2   r = pair_fit − fit    kept when r > m   (fits-as-well refuses fit ≥ pair_fit − m)
//   secondAnswerCosine  Tasks 1, 2  r = asserted_cosine  kept when r < c   (second-answer refuses r ≥ c)
//
// Per rule, over the reviewed distractors that carry its reading: fit P(right | r) = σ(a + b·r) by
// maximum likelihood; propose the cut-off that keeps the most of them with an item's estimated F-Neg
// 1 − (1 − p̄)³ ≤ the target (p̄: the curve's mean over the kept readings), placed halfway between the
// last reading kept and the next, so that ≥ / > / < mean the same there; 95% intervals by bootstrap
// over items, seeded. The items were made with the rule on, so every reading lies on the kept side of
// the cut-off the run used: tune can tighten a cut-off, never loosen one. When every observed reading
// meets the target, it proposes nothing (the run's cut-off stands; the labels cannot say how far it
// could go), and with fewer than MIN_READINGS labelled readings it does not try.
import { Rng } from '../../core/rng.js';
import { sigmoid, type LogisticFit } from './logistic-fit.js';
import {
  boundAlong,
  fitLabelled,
  itemFNeg,
  percentileInterval,
  type BootstrapInterval,
  type DistractorReadings,
  type TuneItem,
  type TuneOptions,
} from './tune-windows.js';

/** The item settings tune fits from the readings. */
export const CUTOFF_SETTINGS = ['anchorMargin', 'fitMargin', 'secondAnswerCosine'] as const;
export type CutoffSetting = (typeof CUTOFF_SETTINGS)[number];

/** Fewer labelled readings than this for a rule: no cut-off is fitted (too few to estimate a curve). */
export const MIN_READINGS = 10;

interface CutoffRule {
  setting: CutoffSetting;
  tasks: ReadonlyArray<1 | 2>;
  /** The reading, as the table names it. */
  reading: string;
  /** How a kept distractor's reading compares with the cut-off. */
  keep: '≥' | '>' | '<';
  value: (r: DistractorReadings) => number | undefined;
}

const RULES: readonly CutoffRule[] = [
  {
    setting: 'anchorMargin',
    tasks: [1],
    reading: 'own_fit − fit',
    keep: '≥',
    value: (r) => (r.own_fit === undefined || r.fit === undefined ? undefined : r.own_fit - r.fit),
  },
  {
    setting: 'fitMargin',
    tasks: [2],
    reading: 'pair_fit − fit',
    keep: '>',
    value: (r) => (r.pair_fit === undefined || r.fit === undefined ? undefined : r.pair_fit - r.fit),
  },
  {
    setting: 'secondAnswerCosine',
    tasks: [1, 2],
    reading: 'asserted_cosine',
    keep: '<',
    value: (r) => r.asserted_cosine,
  },
];

export interface CutoffProposal {
  setting: CutoffSetting;
  reading: string;
  keep: '≥' | '>' | '<';
  tasks: Array<1 | 2>;
  /** Items with at least one distractor that carries the reading. */
  items: number;
  /** Distractors that carry it, and of those the ones found right. */
  distractors: number;
  right: number;
  fit: {
    a: number | null;
    b: number | null;
    separated: boolean;
    tied: boolean;
    a95: BootstrapInterval;
    b95: BootstrapInterval;
  };
  /** The observed readings' range and the estimated F-Neg of an item drawn from all of them. */
  observed: { lo: number; hi: number; estimatedFNeg: number; estimatedFNeg95: BootstrapInterval };
  proposed: {
    value: number;
    value95: BootstrapInterval;
    /** Share of the observed readings the cut-off keeps. */
    keptShare: number;
    estimatedFNeg: number;
    estimatedFNeg95: BootstrapInterval;
  } | null;
  /** Why there is no proposal (null when there is one): the setting's `notTuned` reason. */
  noProposal: string | null;
  /** Replicates in which even the safest reading was above the target, and in which every reading met it (neither gives a cut-off). */
  infeasibleReplicates: number;
  unmovedReplicates: number;
}

/** One item's readings for a rule: the distractors that carry it. */
interface RuleItem {
  values: number[];
  right: boolean[];
}

function ruleItems(items: readonly TuneItem[], rule: CutoffRule): RuleItem[] {
  const out: RuleItem[] = [];
  for (const item of items) {
    if (!rule.tasks.includes(item.task) || item.readings === undefined) continue;
    const values: number[] = [];
    const right: boolean[] = [];
    item.readings.forEach((r, k) => {
      const v = rule.value(r);
      if (v === undefined) return;
      values.push(v);
      right.push(item.right[k]!);
    });
    if (values.length > 0) out.push({ values, right });
  }
  return out;
}

/**
 * The cut-off that keeps the most of `values` with F-Neg ≤ target, the safe side being high values
 * (`high`: kept when above the cut-off) or low ones. Unlike the windows' proposeBound, the longest
 * prefix (safest first) that meets the target, not the first that fails: the rule fixes the
 * direction, whatever the fitted slope. `bound` null: every value kept; null: not even the safest.
 */
export function proposeCutoff(
  curve: { a: number; b: number },
  values: readonly number[],
  target: number,
  safe: 'high' | 'low',
): { bound: number | null; kept: number } | null {
  const s = [...values].sort((x, y) => (safe === 'high' ? y - x : x - y));
  return boundAlong(curve, s, target, 'longest');
}

/** The estimated F-Neg of an item drawn from the readings a cut-off keeps (null bound: all); null when none is kept. */
function keptFNeg(
  curve: LogisticFit,
  values: readonly number[],
  bound: number | null,
  safe: 'high' | 'low',
): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values)
    if (bound === null || (safe === 'high' ? v > bound : v < bound)) {
      sum += sigmoid(curve.a + curve.b * v);
      n++;
    }
  return n === 0 ? null : itemFNeg(sum / n);
}

function fitRule(items: readonly RuleItem[]): { fit: LogisticFit; values: number[] } {
  return fitLabelled(items, (i) => i.values);
}

/** Proposes a cut-off for each rule whose reading the items carry (none: the rule is not listed). */
export function tuneCutoffs(items: readonly TuneItem[], options: TuneOptions = {}): CutoffProposal[] {
  const target = options.maxFNeg ?? 0.05;
  const replicates = options.bootstrap ?? 1000;
  const seed = options.seed ?? 1;
  const out: CutoffProposal[] = [];
  for (const rule of RULES) {
    const own = ruleItems(items, rule);
    if (own.length > 0) out.push(tuneRule(rule, own, target, replicates, seed));
  }
  return out;
}

function tuneRule(
  rule: CutoffRule,
  items: readonly RuleItem[],
  target: number,
  replicates: number,
  seed: number,
): CutoffProposal {
  const safe = rule.keep === '<' ? 'low' : 'high';
  const { fit, values } = fitRule(items);
  const enough = values.length >= MIN_READINGS;
  const main = enough ? proposeCutoff(fit, values, target, safe) : null;
  const bound = main?.bound ?? null;

  const rng = new Rng(`tune/${seed}/${rule.setting}`);
  const as: number[] = [];
  const bs: number[] = [];
  const bounds: number[] = [];
  const allF: number[] = [];
  const keptF: number[] = [];
  let infeasible = 0;
  let unmoved = 0;
  for (let r = 0; r < replicates; r++) {
    const sample = Array.from({ length: items.length }, () => items[rng.int(items.length)]!);
    const rep = fitRule(sample);
    if (Number.isFinite(rep.fit.a)) {
      as.push(rep.fit.a);
      bs.push(rep.fit.b);
    }
    allF.push(keptFNeg(rep.fit, rep.values, null, safe)!);
    if (bound !== null) {
      const f = keptFNeg(rep.fit, rep.values, bound, safe);
      if (f !== null) keptF.push(f);
    }
    const b = proposeCutoff(rep.fit, rep.values, target, safe);
    if (b === null) infeasible++;
    else if (b.bound === null) unmoved++;
    else bounds.push(b.bound);
  }
  const finite = (x: number) => (Number.isFinite(x) ? x : null);
  const noProposal = !enough
    ? `only ${values.length} labelled distractors carry ${rule.reading} (at least ${MIN_READINGS} needed)`
    : main === null
      ? `no cut-off meets the target (estimated F-Neg ≤ ${target}): even the safest ${rule.reading} is above it`
      : main.bound === null
        ? `every observed ${rule.reading} meets the target (estimated F-Neg ≤ ${target}): the cut-off the items were made with stands (the labels cannot say how far it could be loosened)`
        : null;
  return {
    setting: rule.setting,
    reading: rule.reading,
    keep: rule.keep,
    tasks: [...rule.tasks],
    items: items.length,
    distractors: values.length,
    right: items.reduce((s, i) => s + i.right.filter(Boolean).length, 0),
    fit: {
      a: finite(fit.a),
      b: finite(fit.b),
      separated: fit.separated,
      tied: fit.tied,
      a95: percentileInterval(as),
      b95: percentileInterval(bs),
    },
    observed: {
      lo: Math.min(...values),
      hi: Math.max(...values),
      estimatedFNeg: keptFNeg(fit, values, null, safe)!,
      estimatedFNeg95: percentileInterval(allF),
    },
    proposed:
      main === null || bound === null
        ? null
        : {
            value: bound,
            value95: percentileInterval(bounds),
            keptShare: main.kept / values.length,
            estimatedFNeg: keptFNeg(fit, values, bound, safe)!,
            estimatedFNeg95: percentileInterval(keptF),
          },
    noProposal,
    infeasibleReplicates: infeasible,
    unmovedReplicates: unmoved,
  };
}
