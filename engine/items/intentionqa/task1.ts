// Task 1 — IntentUnderstand: given p1 and p2, choose the intention. Distractors are other assertions'
// intentions from the Sim_i window (docs/intentionqa.md): never an assertion sharing a product with
// this one; with requireOverlap (default) only assertions whose concept words overlap (AB vs CD); with
// relationScope `same` only assertions of this one's relation; an intention equal to the gold
// (normalised text) is a false negative, dropped, recorded and backfilled; a text equal to an already
// chosen distractor is refused the same way, so the four options are distinct. The validity filters
// (validity-filters.ts), when on, refuse an intention asserted for this pair (`pair-asserted`), a
// generic one (`generic`) and one close to an intention asserted for this pair (`second-answer`); the
// rules beyond the exact pair refuse one asserted (or close to one asserted) for another pair of the
// same kinds of products (`kind-asserted`) and one generic within a group both products belong to
// (`group-generic`).
import type { Rng } from '../../../core/rng.js';
import { drawFromWindow, formatWindow } from '../../search/windows.js';
import { task1Window, type IntentionQaContext } from './run-context.js';
import type { IntentionQaOptions } from './intentionqa-options.js';
import { DISTRACTORS_PER_ITEM, shortWindow, type DraftResult } from './draft.js';
import { intentionUniverse } from './intention-window.js';
import { goldFitField, task1Readings } from './rule-readings.js';

/**
 * Draws Task-1 distractors for valid assertion i (both products have vectors). `pivotKnown`: this
 * assertion's Task 2 already enumerated the pivot's range, so enumerating here costs only the scoring
 * (a fact about this assertion alone, so the draw does not depend on other assertions).
 */
export function draftTask1(
  ctx: IntentionQaContext,
  i: number,
  options: IntentionQaOptions,
  rng: Rng,
  rngLabel: string,
  pivotKnown = false,
): DraftResult {
  const a = ctx.assertions[i]!;
  const w = task1Window(options);
  // Pivot = the Task-2 anchor product, so that one cached range query serves both tasks.
  const pivot = options.anchor === 'answer' ? ctx.rowB[i]! : ctx.rowA[i]!;
  const wordsAB = ctx.task1Words;
  wordsAB.mark([ctx.rowA[i]!, ctx.rowB[i]!]);
  const overlapOf = (j: number): boolean => wordsAB.overlaps(ctx.rowA[j]!) || wordsAB.overlaps(ctx.rowB[j]!);
  const sameRelation = options.relationScope === 'same';
  const inScope = (j: number): boolean => !sameRelation || ctx.assertions[j]!.relation === a.relation;
  const candidates = sameRelation ? ctx.validAssertionsOfRelation.get(a.relation)! : ctx.validAssertions;
  const gold = ctx.normIntention[i]!;
  const taken = new Set<string>();
  const validity = ctx.validity;
  const pair = validity?.task1Pair(validity.productIndex(a.itemA), validity.productIndex(a.itemB), ctx.intentionIds[i]);
  const r = drawFromWindow(intentionUniverse(ctx, i, pivot, w, pivotKnown, candidates), {
    ...w,
    k: DISTRACTORS_PER_ITEM,
    sampling: options.sampling,
    rng,
    strategy: options.strategy,
    eligible: (j) => j !== i && inScope(j) && !ctx.sharesProduct(i, j) && (!options.requireOverlap || overlapOf(j)),
    accept: (j) => {
      const text = ctx.normIntention[j]!;
      if (text === gold) return 'false-negative';
      const own = { a: ctx.rowA[j]!, b: ctx.rowB[j]! }; // a row is its product's index
      const refusal = validity?.task1Refusal(ctx.intentionIds[j]!, pair!, options, own);
      if (refusal !== undefined) return refusal;
      if (taken.has(text)) return 'duplicate-option';
      taken.add(text);
      return true;
    },
  });
  const enumerated = r.members !== undefined;
  if (r.chosen.length < DISTRACTORS_PER_ITEM) {
    return {
      ok: false,
      enumerated,
      dropped: shortWindow(
        a.id,
        1,
        r,
        `Sim_i ${formatWindow(w)}${sameRelation ? ` within relation "${a.relation}"` : ''}`,
      ),
    };
  }
  return {
    ok: true,
    enumerated,
    draft: {
      distractors: r.chosen.map((c) => ({
        id: ctx.assertions[c.key]!.id,
        text: ctx.assertions[c.key]!.intention,
        score: c.score,
        overlap: overlapOf(c.key) ? 1 : 0,
        method: c.via,
        ...(validity
          ? task1Readings(validity, ctx.intentionIds[c.key]!, pair!, { a: ctx.rowA[c.key]!, b: ctx.rowB[c.key]! })
          : {}),
      })),
      hadFalseNegative: r.dropped.some((d) => d.reason === 'false-negative'),
      selection: {
        sampling: options.sampling,
        window: formatWindow(w),
        exact: r.exact,
        members: r.members ?? null,
        ...(options.sampling === 'lowest' ? { lowest_pool_end: r.lowestPoolEnd ?? null } : {}),
        seed: rngLabel,
        // Listed for an item only: a short window's record just counts its refusals.
        refused: r.dropped.map((d) => ({ id: ctx.assertions[d.key]!.id, score: d.score, reason: d.reason })),
      },
      ...(pair ? goldFitField(validity, ctx.intentionIds[i]!, pair.a, pair.b) : {}),
    },
  };
}
