// The Task-1 window universe: candidate assertions j scored by Sim_i(i, j), the minimum of the four
// product similarities (docs/intentionqa.md).
//
// Enumeration is exact given an exact product range search. If Sim_i(i, j) ≥ lo then every one of
// the four similarities is ≥ lo, in particular both products of j are within lo of the pivot (one
// product of i). So the assertions mentioning a product of R(pivot, lo) = {p : Sim_p(pivot, p) ≥ lo}
// contain every member of the window; each is then scored exactly. The cost is one range query
// (shared with Task 2 through the row cache, since the pivot is the Task-2 anchor) plus 4 dot products
// per assertion mentioning a product in that range. Whether R itself is complete is the range search's
// business: the exact scan is; the HNSW index is up to its recall (then items say exact: false).
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
      // Mark the range: a candidate with a product outside it has Sim_i < lo without any arithmetic,
      // and the pivot's two similarities are already known (the same exact dot products).
      const stamp = ctx.nextVisitStamp();
      const inRange = ctx.rowStamps;
      const pivotScore = ctx.rowScratch;
      for (let k = 0; k < near.rows.length; k++) {
        inRange[near.rows[k]!] = stamp;
        pivotScore[near.rows[k]!] = near.scores[k]!;
      }
      const other = ctx.rowA[query] === pivotRow ? ctx.rowB[query]! : ctx.rowA[query]!;
      const v = ctx.vectors;
      const visited = ctx.visitStamps;
      const keys: number[] = [];
      const scores: number[] = [];
      for (const row of near.rows) {
        const list = ctx.assertionsOfRow.get(row);
        if (!list) continue;
        for (const j of list) {
          if (visited[j] === stamp) continue;
          visited[j] = stamp;
          const c = ctx.rowA[j]!;
          const d = ctx.rowB[j]!;
          if (inRange[c] !== stamp || inRange[d] !== stamp) continue;
          const s3 = v.cosine(other, c);
          if (!passesLo(s3, w.lo, w.loInclusive)) continue;
          const s = Math.min(pivotScore[c]!, pivotScore[d]!, s3, v.cosine(other, d));
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
