// The Wilson score interval for a binomial proportion (Wilson 1927): unlike p ± z·√(p(1−p)/n) it
// stays inside [0, 1] and does not collapse to a point at 0/n or n/n, which matters for the small
// strata a review produces.

/** z for a two-sided 95% interval: the 0.975 quantile of the standard normal. */
export const Z_95 = 1.959963984540054;

export interface Proportion {
  successes: number;
  n: number;
  /** successes / n; null when n = 0. */
  rate: number | null;
  /** Wilson 95% interval; null when n = 0. */
  low: number | null;
  high: number | null;
}

export function wilsonInterval(successes: number, n: number, z = Z_95): Proportion {
  if (!(Number.isInteger(successes) && Number.isInteger(n) && successes >= 0 && successes <= n)) {
    throw new RangeError(`wilsonInterval: need 0 ≤ successes ≤ n (integers), got ${successes} of ${n}`);
  }
  if (n === 0) return { successes, n, rate: null, low: null, high: null };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { successes, n, rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
