// Logistic regression with one feature by maximum likelihood: P(y = 1 | x) = σ(a + b·x), fitted by
// Newton's method on the log-likelihood (the same steps as iteratively reweighted least squares).
// Two parameters, so the Hessian is a 2 × 2 matrix inverted by hand. When the data are separated
// (every y = 1 above some x and every y = 0 below) the maximum is at infinity: the fit stops after
// its iterations (or when the gradient has vanished numerically) with `separated` set and the
// steepest curve it reached, a step in the limit, which is what the data say.

export interface LogisticFit {
  /** Intercept a. */
  a: number;
  /** Slope b (on the feature's scale). */
  b: number;
  /** Log-likelihood at (a, b). */
  logLikelihood: number;
  iterations: number;
  /** The gradient fell below the tolerance. */
  converged: boolean;
  /** No finite maximum: the classes are separated (or one class only). */
  separated: boolean;
  /**
   * Every x is the same value: no slope can be fitted (b stays 0, a is the constant model's), and
   * the classes are not "separated" by any threshold (issue 45: all-tied data were called separated).
   */
  tied: boolean;
}

export function sigmoid(t: number): number {
  return t >= 0 ? 1 / (1 + Math.exp(-t)) : Math.exp(t) / (1 + Math.exp(t));
}

/** log(1 + e^t) without overflow. */
function softplus(t: number): number {
  return t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t));
}

function logLikelihood(x: readonly number[], y: readonly (0 | 1)[], a: number, b: number): number {
  let ll = 0;
  for (let i = 0; i < x.length; i++) {
    const t = a + b * x[i]!;
    ll += y[i]! * t - softplus(t);
  }
  return ll;
}

const MAX_ITERATIONS = 100;
/** The least log-likelihood gain a Newton step must promise to be taken. */
const TOLERANCE = 1e-12;

/** The maximum-likelihood (a, b) of σ(a + b·x) for outcomes y (0 or 1). */
export function fitLogistic(x: readonly number[], y: readonly (0 | 1)[]): LogisticFit {
  if (x.length !== y.length) throw new RangeError(`fitLogistic: ${x.length} features, ${y.length} outcomes`);
  if (x.length === 0) throw new RangeError('fitLogistic: no observations');
  const positives = y.reduce<number>((s, v) => s + v, 0);
  if (positives === 0 || positives === y.length) {
    // One class only: the likelihood grows without bound towards p ≡ 0 or p ≡ 1.
    return {
      a: positives === 0 ? -Infinity : Infinity,
      b: 0,
      logLikelihood: 0,
      iterations: 0,
      converged: false,
      separated: true,
      tied: x.every((v) => v === x[0]),
    };
  }
  // Start from the constant model (b = 0, a = logit of the mean): its likelihood is finite.
  let a = Math.log(positives / (y.length - positives));
  let b = 0;
  let ll = logLikelihood(x, y, a, b);
  let iterations = 0;
  let converged = false;
  for (; iterations < MAX_ITERATIONS; iterations++) {
    // Gradient g and the negative Hessian H = Σ w [1 x; x x²], w = p(1 − p).
    let g0 = 0;
    let g1 = 0;
    let h00 = 0;
    let h01 = 0;
    let h11 = 0;
    for (let i = 0; i < x.length; i++) {
      const xi = x[i]!;
      const p = sigmoid(a + b * xi);
      const r = y[i]! - p;
      const w = p * (1 - p);
      g0 += r;
      g1 += r * xi;
      h00 += w;
      h01 += w * xi;
      h11 += w * xi * xi;
    }
    const det = h00 * h11 - h01 * h01;
    if (!(det > 0) || !Number.isFinite(det)) break;
    // Newton step H⁻¹ g, halved until the likelihood does not fall.
    let da = (h11 * g0 - h01 * g1) / det;
    let db = (h00 * g1 - h01 * g0) / det;
    // Converged when the gain the step promises (half the Newton decrement gᵀH⁻¹g) is below what
    // the log-likelihood's rounding can show: the step is taken unchecked (near the maximum Newton
    // converges quadratically) and the loop ends, rather than chase rounding.
    if ((g0 * da + g1 * db) / 2 < TOLERANCE) {
      a += da;
      b += db;
      ll = logLikelihood(x, y, a, b);
      iterations++;
      converged = true;
      break;
    }
    let next = logLikelihood(x, y, a + da, b + db);
    for (let half = 0; half < 30 && !(next >= ll); half++) {
      da /= 2;
      db /= 2;
      next = logLikelihood(x, y, a + da, b + db);
    }
    if (!(next >= ll)) break;
    a += da;
    b += db;
    ll = next;
  }
  const tied = x.every((v) => v === x[0]);
  return { a, b, logLikelihood: ll, iterations, converged, separated: !tied && isSeparated(x, y), tied };
}

/** Whether a threshold on x puts every y = 1 on one side and every y = 0 on the other (ties allowed). */
function isSeparated(x: readonly number[], y: readonly (0 | 1)[]): boolean {
  let min1 = Infinity;
  let max1 = -Infinity;
  let min0 = Infinity;
  let max0 = -Infinity;
  x.forEach((xi, i) => {
    if (y[i] === 1) {
      min1 = Math.min(min1, xi);
      max1 = Math.max(max1, xi);
    } else {
      min0 = Math.min(min0, xi);
      max0 = Math.max(max0, xi);
    }
  });
  return max0 <= min1 || max1 <= min0;
}
