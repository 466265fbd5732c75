// One query's scores: each recommended product against its target, the query's mean r_pro, r_shop,
// r_budget (with the voucher arithmetic) and whether it counts as a success for its intent.
import { productRelevance, type ProductRelevance, type TitleSimilarity } from './relevance.js';
import type { Intent, PredictedProduct, TargetQuery } from './shoppingbench-types.js';
import { checkBudget, type BudgetCheck } from './voucher.js';

export interface ScoredProduct extends ProductRelevance {
  productId: string;
  /** Index of the target this product was scored against. */
  target: number;
}

export interface QueryScore {
  queryId: string;
  intent: Intent;
  targets: number;
  /** False when the predictions file has no line for this query (scored as no recommendation). */
  predicted: boolean;
  products: ScoredProduct[];
  /** Σ r_pro / max(#products, #targets): a missing product counts 0, an extra one counts in the mean. */
  meanRPro: number;
  /** Every target covered and every product r_pro = 1. */
  allRelevant: boolean;
  /** #products = #targets and all from one shop. */
  rShop: number;
  rBudget: number | null;
  budget: BudgetCheck | null;
  /** The ASR criterion of the query's intent. */
  success: boolean;
}

/**
 * Pairs products with targets. One target: every product against it. Several: the one-to-one
 * assignment maximising Σ r_pro (exact, dynamic programming over subsets of targets); products beyond
 * the number of targets are scored against their best target.
 */
export function assignTargets(relevance: ProductRelevance[][], targets: number): number[] {
  const products = relevance.length;
  if (targets === 1) return relevance.map(() => 0);
  const extrasAllowed = Math.max(0, products - targets);
  const memo = new Map<string, { value: number; choice: number[] }>();
  const solve = (i: number, used: number, extras: number): { value: number; choice: number[] } => {
    if (i === products) return { value: 0, choice: [] };
    const key = `${i},${used},${extras}`;
    const hit = memo.get(key);
    if (hit) return hit;
    let best: { value: number; choice: number[] } | undefined;
    for (let t = 0; t < targets; t++) {
      if (used & (1 << t)) continue;
      const rest = solve(i + 1, used | (1 << t), extras);
      const value = relevance[i]![t]!.rPro + rest.value;
      if (!best || value > best.value + 1e-12) best = { value, choice: [t, ...rest.choice] };
    }
    if (extras < extrasAllowed) {
      let bestT = 0;
      for (let t = 1; t < targets; t++) if (relevance[i]![t]!.rPro > relevance[i]![bestT]!.rPro) bestT = t;
      const rest = solve(i + 1, used, extras + 1);
      const value = relevance[i]![bestT]!.rPro + rest.value;
      if (!best || value > best.value + 1e-12) best = { value, choice: [bestT, ...rest.choice] };
    }
    memo.set(key, best!);
    return best!;
  };
  return solve(0, 0, 0).choice;
}

export function scoreQuery(
  query: TargetQuery,
  products: readonly PredictedProduct[] | undefined,
  titleSim: TitleSimilarity,
): QueryScore {
  const list = products ?? [];
  const relevance = list.map((p) => query.targets.map((t) => productRelevance(p, t, titleSim)));
  const assignment = assignTargets(relevance, query.targets.length);
  const scored: ScoredProduct[] = list.map((p, i) => ({
    productId: p.productId,
    target: assignment[i]!,
    ...relevance[i]![assignment[i]!]!,
  }));
  const n = query.targets.length;
  const meanRPro = list.length === 0 ? 0 : scored.reduce((s, p) => s + p.rPro, 0) / Math.max(list.length, n);
  const allRelevant =
    list.length >= n &&
    scored.every((p) => p.numerator === p.denominator) &&
    new Set(scored.map((p) => p.target)).size === n;
  const shops = new Set(list.map((p) => p.shopId));
  const rShop = list.length === n && shops.size === 1 && !shops.has(undefined) ? 1 : 0;
  const budget =
    query.budget === undefined
      ? null
      : checkBudget(
          scored.map((p) => p.price ?? undefined),
          list.map((p) => p.shopId),
          query.budget,
          query.voucher,
        );
  const rBudget = budget === null ? null : budget.met ? 1 : 0;
  let success: boolean;
  switch (query.intent) {
    case 'product':
      success = allRelevant;
      break;
    case 'knowledge':
      success = allRelevant && scored.every((p) => p.rKw !== 0);
      break;
    case 'shop':
      success = allRelevant && rShop === 1;
      break;
    case 'voucher':
      success = allRelevant && rBudget === 1;
      break;
  }
  return {
    queryId: query.queryId,
    intent: query.intent,
    targets: n,
    predicted: products !== undefined,
    products: scored,
    meanRPro,
    allRelevant,
    rShop,
    rBudget,
    budget,
    success,
  };
}
