// Similarities that have collapsed: an encoder that gives every product nearly the same vector (a
// generated model with random weights does) puts every cosine near 1, so no window holds anything
// and the run emits no items, or only "easy" ones, without any error. The spread of the sampled
// product-pair cosines tells: the central 90 % of them within COLLAPSED_SPREAD of each other.
import type { SimilarityDistribution } from './similarity-distribution.js';

/**
 * Below this width of the 5 %–95 % range of product-pair cosines, similarities count as collapsed.
 * Measured on the demo world: the generated test model's is 0.010 (0.989–0.999); the raw (uncentered)
 * averaged vectors of glove-100d, the tightest meaningful encoder here, spread over 0.097 (0.870–0.967).
 */
export const COLLAPSED_SPREAD = 0.02;

/** The warning for a run whose product-pair cosines have collapsed, or undefined. */
export function collapsedSimilarityWarning(distribution: SimilarityDistribution, encoder: string): string | undefined {
  const q = distribution.productPairs.quantiles; // at 0, 5 %, 25 %, 50 %, 75 %, 95 %, 100 %
  if (q.length === 0) return undefined;
  const [p5, p95] = [q[1]!, q[5]!];
  if (!(p95 - p5 < COLLAPSED_SPREAD)) return undefined;
  const share = (n: number, of: number) => `${of === 0 ? 0 : ((100 * n) / of).toFixed(1)}%`;
  const d = distribution;
  return (
    `similarities have collapsed: 90% of the sampled product-pair cosines lie in [${p5.toFixed(3)}, ${p95.toFixed(3)}], ` +
    `so the windows hold ${share(d.productPairs.inTask2Window, d.productPairs.n)} (Task 2) and ` +
    `${share(d.assertionPairs.inTask1Window, d.assertionPairs.n)} (Task 1) of the pairs and few or no items come out. ` +
    `The encoder (${encoder}) gives every product nearly the same vector, as a generated model with random weights ` +
    'does: use the real model, or glove-100d.'
  );
}
