// Accuracy, Macro-F1 and the baselines on small hand-computed sets; the expected scores of RANDOM
// against a brute-force enumeration of every draw.
import { describe, expect, it } from 'vitest';
import {
  binaryScores,
  classCounts,
  expectedRandomScores,
  f1Of,
  macroF1Of,
} from '../engine/scoring/classification-metrics.js';
import { expectedRandomAccuracy, majorityClass, majorityLetter, randomLetter } from '../engine/scoring/baselines.js';
import type { BinaryLabel } from '../engine/items/sib/labels.js';

const P: BinaryLabel = 'positive';
const N: BinaryLabel = 'negative';

describe('accuracy and Macro-F1', () => {
  it('match a hand computation, an unparseable answer being a false negative of its gold class only', () => {
    // positive: TP 2, FP 0, FN 1 → P 1, R 2/3, F1 0.8; negative: TP 1, FP 1, FN 1 → F1 0.5.
    const s = binaryScores([P, P, P, N, N], [P, N, P, N, null]);
    expect(classCounts([P, P, P, N, N], [P, N, P, N, null])).toEqual({
      positive: { tp: 2, fp: 0, fn: 1 },
      negative: { tp: 1, fp: 1, fn: 1 },
    });
    expect(s.correct).toBe(3);
    expect(s.accuracy).toBeCloseTo(0.6, 15);
    expect(s.f1.positive).toBeCloseTo(0.8, 15);
    expect(s.f1.negative).toBeCloseTo(0.5, 15);
    expect(s.macroF1).toBeCloseTo(0.65, 15);
  });

  it('is 0 when defined and all wrong, and undefined (null), never 0, when a class is never predicted', () => {
    expect(binaryScores([P, N], [N, P]).macroF1).toBe(0);
    // MAJORITY on a negative-majority set: positive is never predicted, so it has no precision.
    const majorityNegative = binaryScores([P, N, N], [N, N, N]);
    expect(majorityNegative.accuracy).toBeCloseTo(2 / 3, 15);
    expect(majorityNegative.f1).toEqual({ positive: null, negative: 0.8 });
    expect(majorityNegative.macroF1).toBeNull();
    // And on a positive-majority set, the negative class has none.
    expect(binaryScores([P, P, N], [P, P, P]).macroF1).toBeNull();
    // A class that is never the gold answer has no recall.
    expect(f1Of({ tp: 0, fp: 2, fn: 0 })).toBeNull();
    expect(binaryScores([], []).accuracy).toBeNull();
    expect(macroF1Of({ positive: { tp: 1, fp: 0, fn: 0 }, negative: { tp: 1, fp: 0, fn: 0 } })).toBe(1);
  });
});

/** Every possible draw of n independent answers, with its probability: the slow, obvious expectation. */
function bruteForceRandom(gold: readonly BinaryLabel[], pPositive: number) {
  let acc = 0;
  let f1 = 0;
  let defined = 0;
  for (let mask = 0; mask < 1 << gold.length; mask++) {
    const predicted = gold.map((_, i) => ((mask >> i) & 1 ? P : N));
    const w = predicted.reduce((p, x) => p * (x === P ? pPositive : 1 - pPositive), 1);
    const s = binaryScores(gold, predicted);
    acc += w * s.accuracy!;
    if (s.macroF1 !== null) {
      f1 += w * s.macroF1;
      defined += w;
    }
  }
  return { accuracy: acc, macroF1: f1 / defined, undefinedProbability: 1 - defined };
}

describe('RANDOM: expected scores', () => {
  it('equal a brute-force enumeration of every draw', () => {
    for (const [gold, p] of [
      [[P, P, P, N, N], 0.5],
      [[P, N, N, N, N, N, P], 1 / 3],
      [[P, N], 0.5],
      [[P, P, P, P, N, N, N, N, N, P], 0.25],
    ] as Array<[BinaryLabel[], number]>) {
      const positives = gold.filter((g) => g === P).length;
      const e = expectedRandomScores(positives, gold.length - positives, p);
      const b = bruteForceRandom(gold, p);
      expect(e.accuracy).toBeCloseTo(b.accuracy, 12);
      expect(e.macroF1).toBeCloseTo(b.macroF1, 12);
      expect(e.macroF1Undefined).toBeCloseTo(b.undefinedProbability, 12);
    }
  });

  it("give the paper's T4 RANDOM accuracy: 54.38 % from a 63.15 % negative majority with letters A / B / C", () => {
    // T4: A positive, B and C negative, so a uniform letter says "positive" with probability 1/3.
    const e = expectedRandomScores(737, 1263, 1 / 3);
    expect((e.accuracy! * 100).toFixed(2)).toBe('54.38');
    expect(((1263 / 2000) * 100).toFixed(2)).toBe('63.15');
    // T1–T3 (two positive letters of four): 50.00 whatever the labels.
    expect(expectedRandomScores(623, 377, 0.5).accuracy).toBe(0.5);
  });

  it('has no Macro-F1 when the set has one class only, and works at scale without underflow', () => {
    expect(expectedRandomScores(5, 0, 0.5)).toEqual({ accuracy: 0.5, macroF1: null, macroF1Undefined: 1 });
    const big = expectedRandomScores(600_000, 400_000, 0.5);
    expect(big.accuracy).toBe(0.5);
    // Large sets: the F1 of each class is its plug-in value: 2·0.5·0.6/(0.5+0.6) and 2·0.5·0.4/(0.5+0.4).
    expect(big.macroF1).toBeCloseTo((0.6 / 1.1 + 0.4 / 0.9) / 2, 5);
    expect(big.macroF1Undefined).toBe(0);
  });
});

describe('baselines', () => {
  it('RANDOM on multiple choice expects the mean of 1 / options, and draws deterministically per item', () => {
    expect(expectedRandomAccuracy([4, 4, 2])).toBeCloseTo((0.25 + 0.25 + 0.5) / 3, 15);
    expect(expectedRandomAccuracy([])).toBeNull();
    const letters = ['A', 'B', 'C', 'D'];
    const draws = Array.from({ length: 4000 }, (_, i) => randomLetter(1, `item-${i}`, letters));
    expect(Array.from({ length: 4000 }, (_, i) => randomLetter(1, `item-${i}`, letters))).toEqual(draws);
    expect(Array.from({ length: 4000 }, (_, i) => randomLetter(2, `item-${i}`, letters))).not.toEqual(draws);
    for (const l of letters) {
      const share = draws.filter((d) => d === l).length / draws.length;
      expect(share).toBeGreaterThan(0.22);
      expect(share).toBeLessThan(0.28);
    }
  });

  it('MAJORITY takes the most frequent gold answer; ties go to A–Z order, or to positive', () => {
    expect(majorityLetter(['C', 'B', 'C', 'A'])).toBe('C');
    expect(majorityLetter(['D', 'B', 'B', 'D'])).toBe('B');
    expect(majorityLetter([])).toBeNull();
    expect(majorityClass([N, P, N])).toBe(N);
    expect(majorityClass([N, P])).toBe(P);
    expect(majorityClass([])).toBeNull();
  });
});
