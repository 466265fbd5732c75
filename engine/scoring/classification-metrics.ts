// Accuracy and Macro-F1 of binary answers, and what a uniformly random answerer scores in
// expectation. A metric that is undefined is null, never 0: SessionIntentBench reports "–" where a
// baseline has no Macro-F1, and a 0 would read as "always wrong".
//
// Macro-F1 is the mean of the two classes' F1, F1 = 2PR / (P + R), with P = TP / (TP + FP) and
// R = TP / (TP + FN) of that class. A class that is never predicted has no precision, and one that
// is never the gold answer has no recall; its F1, and so the Macro-F1, is then undefined. A
// constant answerer (MAJORITY, a model that always says "Yes") therefore has no Macro-F1. An
// unparseable answer predicts neither class: it is a false negative of its gold class.
import type { BinaryLabel } from '../items/sib/labels.js';

export const BINARY_LABELS: readonly BinaryLabel[] = ['positive', 'negative'];

/** correct / n, or null when n = 0. */
export function accuracy(correct: number, n: number): number | null {
  return n === 0 ? null : correct / n;
}

export interface ClassCounts {
  /** Predicted this class, and it was the gold one. */
  tp: number;
  /** Predicted this class, and it was not. */
  fp: number;
  /** The gold class, not predicted. */
  fn: number;
}

/** Per-class counts; a prediction of null (unparseable) is a false negative of its gold class only. */
export function classCounts(
  gold: readonly BinaryLabel[],
  predicted: readonly (BinaryLabel | null)[],
): Record<BinaryLabel, ClassCounts> {
  if (gold.length !== predicted.length)
    throw new RangeError(`classCounts: ${gold.length} gold labels, ${predicted.length} predictions`);
  const counts = { positive: { tp: 0, fp: 0, fn: 0 }, negative: { tp: 0, fp: 0, fn: 0 } };
  gold.forEach((g, i) => {
    const p = predicted[i];
    if (p === g) counts[g].tp += 1;
    else {
      counts[g].fn += 1;
      if (p !== null && p !== undefined) counts[p].fp += 1;
    }
  });
  return counts;
}

/** F1 of one class, or null when its precision or recall is undefined. */
export function f1Of({ tp, fp, fn }: ClassCounts): number | null {
  if (tp + fp === 0 || tp + fn === 0) return null;
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** Mean of the two classes' F1, or null when either is undefined. */
export function macroF1Of(counts: Record<BinaryLabel, ClassCounts>): number | null {
  const fp = f1Of(counts.positive);
  const fn = f1Of(counts.negative);
  return fp === null || fn === null ? null : (fp + fn) / 2;
}

export interface BinaryScores {
  n: number;
  correct: number;
  accuracy: number | null;
  f1: Record<BinaryLabel, number | null>;
  macroF1: number | null;
}

export function binaryScores(gold: readonly BinaryLabel[], predicted: readonly (BinaryLabel | null)[]): BinaryScores {
  const counts = classCounts(gold, predicted);
  const correct = counts.positive.tp + counts.negative.tp;
  return {
    n: gold.length,
    correct,
    accuracy: accuracy(correct, gold.length),
    f1: { positive: f1Of(counts.positive), negative: f1Of(counts.negative) },
    macroF1: macroF1Of(counts),
  };
}

/**
 * The binomial probabilities P(k) of k successes in n trials of probability p, for k in [lo, hi]:
 * in log space, so that n in the millions neither underflows nor overflows.
 */
function binomialPmf(n: number, p: number, lo: number, hi: number): number[] {
  if (p <= 0 || p >= 1) return Array.from({ length: hi - lo + 1 }, (_, i) => (lo + i === (p <= 0 ? 0 : n) ? 1 : 0));
  const logP = Math.log(p);
  const logQ = Math.log1p(-p);
  let logPk = n * logQ; // k = 0
  for (let k = 0; k < lo; k++) logPk += Math.log(n - k) - Math.log(k + 1) + logP - logQ;
  const out: number[] = [];
  for (let k = lo; k <= hi; k++) {
    out.push(Math.exp(logPk));
    logPk += Math.log(n - k) - Math.log(k + 1) + logP - logQ;
  }
  return out;
}

/** Where a binomial's mass is: the mean ± 12 standard deviations (the mass outside is below 1e-30). */
function binomialSupport(n: number, p: number): [number, number] {
  const spread = 12 * Math.sqrt(n * p * (1 - p)) + 1;
  const mean = n * p;
  return [Math.max(0, Math.floor(mean - spread)), Math.min(n, Math.ceil(mean + spread))];
}

export interface ExpectedRandomScores {
  accuracy: number | null;
  /** E[Macro-F1] over the draws where it is defined; null when it never is. */
  macroF1: number | null;
  /** The probability that a draw has no Macro-F1 (it never predicts one of the classes). */
  macroF1Undefined: number;
}

/**
 * What an answerer that says "positive" with probability `pPositive`, independently per item,
 * scores in expectation on `positives` + `negatives` gold labels. Accuracy is exact; Macro-F1 is
 * summed over the (true positives, false positives) pairs of the two binomials.
 */
export function expectedRandomScores(positives: number, negatives: number, pPositive: number): ExpectedRandomScores {
  const n = positives + negatives;
  const acc = n === 0 ? null : (pPositive * positives + (1 - pPositive) * negatives) / n;
  if (positives === 0 || negatives === 0) return { accuracy: acc, macroF1: null, macroF1Undefined: 1 };
  const [tpLo, tpHi] = binomialSupport(positives, pPositive);
  const [fpLo, fpHi] = binomialSupport(negatives, pPositive);
  const pTp = binomialPmf(positives, pPositive, tpLo, tpHi);
  const pFp = binomialPmf(negatives, pPositive, fpLo, fpHi);
  let sum = 0;
  let mass = 0;
  for (let tp = tpLo; tp <= tpHi; tp++) {
    for (let fp = fpLo; fp <= fpHi; fp++) {
      const w = pTp[tp - tpLo]! * pFp[fp - fpLo]!;
      if (w === 0) continue;
      // Predicted negative: the other items; their true negatives are the negatives not called positive.
      const f1 = macroF1Of({
        positive: { tp, fp, fn: positives - tp },
        negative: { tp: negatives - fp, fp: positives - tp, fn: fp },
      });
      if (f1 === null) continue;
      sum += w * f1;
      mass += w;
    }
  }
  return { accuracy: acc, macroF1: mass === 0 ? null : sum / mass, macroF1Undefined: Math.max(0, 1 - mass) };
}
