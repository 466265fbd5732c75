// Agreement between annotators beyond chance: Cohen's κ for two annotators (Cohen 1960), Fleiss' κ
// for more (Fleiss 1971). κ = (P_o − P_e) / (1 − P_e); null when chance agreement is already 1
// (everyone used one category), where κ is undefined.

export interface KappaResult {
  kappa: number | null;
  /** Observed agreement P_o (Fleiss: P̄, the mean per-subject agreement). */
  observed: number;
  /** Agreement expected by chance P_e. */
  expected: number;
  /** Subjects (items) the statistic is computed over. */
  subjects: number;
  raters: number;
}

/** Cohen's κ of two raters' categories on the same subjects (`a[i]` and `b[i]` rate subject i). */
export function cohenKappa<C>(a: readonly C[], b: readonly C[]): KappaResult {
  if (a.length !== b.length) throw new RangeError(`cohenKappa: ${a.length} and ${b.length} ratings`);
  const n = a.length;
  if (n === 0) return { kappa: null, observed: 0, expected: 0, subjects: 0, raters: 2 };
  const countA = new Map<C, number>();
  const countB = new Map<C, number>();
  let same = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) same++;
    countA.set(a[i]!, (countA.get(a[i]!) ?? 0) + 1);
    countB.set(b[i]!, (countB.get(b[i]!) ?? 0) + 1);
  }
  const observed = same / n;
  let expected = 0;
  for (const [c, k] of countA) expected += (k / n) * ((countB.get(c) ?? 0) / n);
  return { kappa: kappaOf(observed, expected), observed, expected, subjects: n, raters: 2 };
}

/**
 * Fleiss' κ from a subjects × categories table: `counts[i][j]` raters put subject i in category j.
 * Every subject must have the same number of raters (at least 2).
 */
export function fleissKappa(counts: readonly (readonly number[])[]): KappaResult {
  const N = counts.length;
  if (N === 0) return { kappa: null, observed: 0, expected: 0, subjects: 0, raters: 0 };
  const n = counts[0]!.reduce((s, x) => s + x, 0);
  if (n < 2) throw new RangeError(`fleissKappa: each subject needs at least 2 raters, got ${n}`);
  const k = counts[0]!.length;
  const columnTotals = new Array<number>(k).fill(0);
  let sumP = 0;
  counts.forEach((row, i) => {
    const raters = row.reduce((s, x) => s + x, 0);
    if (raters !== n || row.length !== k) {
      throw new RangeError(
        `fleissKappa: subject ${i} has ${raters} ratings in ${row.length} categories, not ${n} in ${k}`,
      );
    }
    let squares = 0;
    row.forEach((x, j) => {
      squares += x * x;
      columnTotals[j]! += x;
    });
    sumP += (squares - n) / (n * (n - 1));
  });
  const observed = sumP / N;
  const expected = columnTotals.reduce((s, t) => s + (t / (N * n)) ** 2, 0);
  return { kappa: kappaOf(observed, expected), observed, expected, subjects: N, raters: n };
}

function kappaOf(observed: number, expected: number): number | null {
  return expected === 1 ? null : (observed - expected) / (1 - expected);
}
