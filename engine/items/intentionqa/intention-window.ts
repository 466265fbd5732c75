// The Task-1 window universe: candidate assertions j scored by Sim_i(i, j), the minimum of the four
// product similarities (docs/intentionqa.md).
//
// Enumeration is exact given an exact product range search. If Sim_i(i, j) ≥ lo then every one of
// the four similarities is ≥ lo, in particular both products of j are within lo of the pivot (one
// product of i). So the assertions mentioning a product of R(pivot, lo) = {p : Sim_p(pivot, p) ≥ lo}
// contain every member of the window; each is then scored exactly. The cost is one range query
// (shared with Task 2 through the row cache, since the pivot is the Task-2 anchor), one visit of the
// assertions mentioning a product in that range (IntentionQaContext.pivotCandidates, kept for the
// pivot's next assertion), and for each candidate its two similarities to the other product — or,
// when candidates outnumber half the range (dense assertions: 1M over 200k products), one similarity
// per product of the range and two look-ups per candidate. Whether R itself is complete is the range
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
      const keys: number[] = [];
      const scores: number[] = [];
      const n = around.keys.length;
      if (2 * n <= near.rows.length) {
        // Few candidates: their own two similarities to the other product.
        for (let k = 0; k < n; k++) {
          const j = around.keys[k]!;
          const s3 = v.cosine(other, ctx.rowA[j]!);
          if (!passesLo(s3, w.lo, w.loInclusive)) continue;
          const s = Math.min(around.pivotMin[k]!, s3, v.cosine(other, ctx.rowB[j]!));
          if (passesLo(s, w.lo, w.loInclusive)) {
            keys.push(j);
            scores.push(s);
          }
        }
      } else {
        // Many candidates (dense assertions): one similarity per product of the pivot's range, then
        // each candidate is two look-ups. The same scores as above (the same dot products).
        const stamp = ctx.nextVisitStamp();
        const near2 = ctx.rowStamps;
        const otherScore = ctx.rowScratch;
        for (const row of near.rows) {
          const s = v.cosine(other, row);
          if (passesLo(s, w.lo, w.loInclusive)) {
            near2[row] = stamp;
            otherScore[row] = s;
          }
        }
        for (let k = 0; k < n; k++) {
          const j = around.keys[k]!;
          const c = ctx.rowA[j]!;
          const d = ctx.rowB[j]!;
          if (near2[c] !== stamp || near2[d] !== stamp) continue;
          const s = Math.min(around.pivotMin[k]!, otherScore[c]!, otherScore[d]!);
          if (passesLo(s, w.lo, w.loInclusive)) {
            keys.push(j);
            scores.push(s);
          }
        }
      }
      return { keys, scores, method: near.method, exact: near.exact };
    },
  };
}
