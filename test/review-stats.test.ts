// The review's statistics against published worked examples: Cohen's κ (Wikipedia, "Cohen's kappa",
// the 50-proposal example), Fleiss' κ (Fleiss 1971's table as Wikipedia's "Fleiss' kappa" gives it:
// 10 subjects, 14 raters, 5 categories) and Wilson 95% intervals (Newcombe 1998, Table I, method 3).
import { describe, expect, it } from 'vitest';
import { cohenKappa, fleissKappa } from '../engine/review/agreement.js';
import { wilsonInterval } from '../engine/review/wilson-interval.js';

describe("Cohen's κ", () => {
  it('is 0.4 on the 50-item example (20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no)', () => {
    const a = [...Array(20).fill('y'), ...Array(5).fill('y'), ...Array(10).fill('n'), ...Array(15).fill('n')];
    const b = [...Array(20).fill('y'), ...Array(5).fill('n'), ...Array(10).fill('y'), ...Array(15).fill('n')];
    const k = cohenKappa(a, b);
    expect(k.observed).toBeCloseTo(0.7, 12);
    expect(k.expected).toBeCloseTo(0.5, 12);
    expect(k.kappa).toBeCloseTo(0.4, 12);
    expect(k.subjects).toBe(50);
  });

  it('is 1 for identical ratings, undefined when both used one category', () => {
    expect(cohenKappa(['a', 'b', 'c'], ['a', 'b', 'c']).kappa).toBeCloseTo(1, 12);
    expect(cohenKappa(['a', 'a'], ['a', 'a']).kappa).toBeNull();
  });

  it('equals Fleiss’ κ’s formula with expected agreement from the pooled marginals only when the raters’ marginals agree', () => {
    // Same marginals for both raters (3 x, 1 y each): Cohen's P_e = Fleiss' P_e.
    const a = ['x', 'x', 'x', 'y'];
    const b = ['x', 'x', 'y', 'x'];
    const f = fleissKappa([
      [2, 0],
      [2, 0],
      [1, 1],
      [1, 1],
    ]);
    expect(cohenKappa(a, b).kappa).toBeCloseTo(f.kappa!, 12);
  });
});

describe("Fleiss' κ", () => {
  it('is 0.210 on Fleiss (1971)’s example', () => {
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    const k = fleissKappa(table);
    expect(k.observed).toBeCloseTo(0.378, 3);
    expect(k.expected).toBeCloseTo(0.213, 3);
    expect(k.kappa).toBeCloseTo(0.21, 3);
    expect(k.raters).toBe(14);
    expect(k.subjects).toBe(10);
  });

  it('refuses subjects with different numbers of raters', () => {
    expect(() =>
      fleissKappa([
        [1, 1],
        [2, 1],
      ]),
    ).toThrow(/subject 1 has 3 ratings/);
  });
});

describe('Wilson 95% interval', () => {
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i is [%f, %f] (Newcombe 1998)', (s, n, low, high) => {
    const p = wilsonInterval(s, n);
    expect(p.low).toBeCloseTo(low, 4);
    expect(p.high).toBeCloseTo(high, 4);
    expect(p.rate).toBe(s / n);
  });

  it('5/10 is [0.2366, 0.7634], symmetric about ½; n = 0 has no interval', () => {
    const p = wilsonInterval(5, 10);
    expect(p.low).toBeCloseTo(0.236593, 6);
    expect(p.high).toBeCloseTo(0.763407, 6);
    expect(wilsonInterval(0, 0)).toEqual({ successes: 0, n: 0, rate: null, low: null, high: null });
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
  });
});
