// The Task-1 window universe: candidate assertions j scored by Sim_i(i, j), the minimum of the four
// product similarities (docs/intentionqa.md).
//
// Enumeration is exact given an exact product range search. If Sim_i(i, j) ≥ lo then every one of
// the four similarities is ≥ lo, in particular both products of j are within lo of the pivot (one
// product of i). So the assertions mentioning a product of R(pivot, lo) = {p : Sim_p(pivot, p) ≥ lo}
// contain every member of the window; each is then scored exactly. The cost is one range query
// (shared with Task 2 through the row cache, since the pivot is the Task-2 anchor), one visit of the
// assertions whose first product is in that range (IntentionQaContext.pivotCandidates, kept for the
// pivot's next assertion), and for each candidate its two similarities to the other product, each
// product's computed once however many candidates share it (1M assertions over 200k products: ~6,400
// candidates on ~4,800 products of a ~7,600-product range). Whether R itself is complete is the range
// search's business: the exact scan is; the HNSW index is up to its recall (then items say exact: false).
import { passesLo } from '../../search/range-search.js';
import type { CosineWindow, WindowUniverse } from '../../search/windows.js';
import type { IntentionQaContext } from './run-context.js';

/** Cost, in dot products, assumed for scoring the assertions around the pivot. */
const SCORING_COST = 256;

/**
 * `candidates`: the valid assertions draws are made from (default all; Task 1 with relationScope
 * `same` passes those of the query's relation). Enumeration lists every assertion around the pivot
 * whatever its relation, so the caller's `eligible` must hold the same restriction.
 */
export function intentionUniverse(
  ctx: IntentionQaContext,
  query: number,
  pivotRow: number,
  w: CosineWindow,
  pivotKnown = false,
  candidates: Int32Array = ctx.validAssertions,
): WindowUniverse {
  return {
    size: candidates.length,
    keyAt: (slot) => candidates[slot]!,
    score: (j, win) => {
      // Sim_i with early exit: once one of the four similarities fails lo, so does the minimum.
      const v = ctx.vectors;
      const a = ctx.rowA[query]!;
      const b = ctx.rowB[query]!;
      const c = ctx.rowA[j]!;
      const d = ctx.rowB[j]!;
      const lo = win.lo;
      const inc = win.loInclusive;
      const s1 = v.cosine(a, c);
      if (!passesLo(s1, lo, inc)) return -Infinity;
      const s2 = v.cosine(a, d);
      if (!passesLo(s2, lo, inc)) return -Infinity;
      const s3 = v.cosine(b, c);
      if (!passesLo(s3, lo, inc)) return -Infinity;
      const s4 = v.cosine(b, d);
      if (!passesLo(s4, lo, inc)) return -Infinity;
      const m = Math.min(s1, s2, s3, s4);
      return m;
    },
    drawCost: 4,
    // Deliberately independent of the cache state: an item's draws must not depend on which other
    // assertions were processed before it (sharding across workers gives the same items).
    enumerationCost: () => (pivotKnown ? 0 : ctx.search.estimatedCost()) + SCORING_COST,
    enumerate: () => {
      const near = ctx.ranges.aroundRow(pivotRow, w.lo, w.loInclusive);
      const around = ctx.pivotCandidates(pivotRow, near, w.lo, w.loInclusive);
      const other = ctx.rowA[query] === pivotRow ? ctx.rowB[query]! : ctx.rowA[query]!;
      const v = ctx.vectors;
      // Each product's similarity to the other product, computed the first time a candidate needs
      // it: a product shared by several candidates costs one dot product, and the second product of
      // a candidate whose first already fails lo costs none.
      const stamp = ctx.nextRowStamp();
      const known = ctx.rowStamps;
      const otherScore = ctx.rowScratch;
      const toOther = (row: number): number => {
        if (known[row] !== stamp) {
          known[row] = stamp;
          otherScore[row] = v.cosine(other, row);
        }
        return otherScore[row]!;
      };
      const keys: number[] = [];
      const scores: number[] = [];
      for (let k = 0; k < around.keys.length; k++) {
        const j = around.keys[k]!;
        const sc = toOther(ctx.rowA[j]!);
        if (!passesLo(sc, w.lo, w.loInclusive)) continue;
        const s = Math.min(around.pivotMin[k]!, sc, toOther(ctx.rowB[j]!));
        if (passesLo(s, w.lo, w.loInclusive)) {
          keys.push(j);
          scores.push(s);
        }
      }
      return { keys, scores, method: near.method, exact: near.exact };
    },
  };
}
