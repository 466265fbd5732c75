// Task 2 — IntentUtilize: given p_A and the intention, choose p_B. Distractors are products from the
// Sim_p window (task2Window, the paper's [0.7, 0.9) by default) around the anchor (anchor `answer`:
// p_B, the paper; `given`: p_A, the released code), uniform in both the paper and the released code,
// among the task2Universe (the kept assertions' products, or every product with a vector). Never p_A
// itself or a product titled like it; with requireOverlap (default) only products whose concept words
// overlap p_A's (docs/intentionqa.md, "A vs candidate"); p_B itself or a product titled like p_B is a
// false negative, dropped, recorded and backfilled; a title equal to an already chosen distractor is
// refused the same way. The validity filters (validity-filters.ts), when on, refuse a product asserted
// with p_A for the gold's intention (`pair-asserted`) or for one close to it (`second-answer`); the
// rules beyond the exact pair refuse a product that forms with p_A a pair of kinds for which the
// gold's intention (or one close to it) is asserted (`kind-asserted`), one of a group within which
// the gold's intention is generic, shared with p_A (`group-generic`), and a substitute of the gold or
// of p_A: the gold's kind, p_A's kind ("they both are used for X" holds of two of p_A's kind too), or
// Sim_p to the gold ≥ substituteCosine (`substitute`).
import type { Rng } from '../../../core/rng.js';
import { drawFromWindow, formatWindow, productUniverse } from '../../search/windows.js';
import { task2Window, type IntentionQaContext } from './run-context.js';
import type { IntentionQaOptions } from './intentionqa-options.js';
import { DISTRACTORS_PER_ITEM, shortWindow, type DraftResult } from './draft.js';
import { goldFitField, task2Readings } from './rule-readings.js';

/** `enumerated` in the result: whether the anchor's range was enumerated (Task 1 then reuses it). */
export function draftTask2(
  ctx: IntentionQaContext,
  i: number,
  options: IntentionQaOptions,
  rng: Rng,
  rngLabel: string,
): DraftResult {
  const a = ctx.assertions[i]!;
  const w = task2Window(options);
  const given = ctx.rowA[i]!;
  const answer = ctx.rowB[i]!;
  const anchor = options.anchor === 'answer' ? answer : given;
  const wordsA = ctx.task2Words;
  wordsA.mark([given]);
  const givenTitle = ctx.titleIdOfRow[given]!;
  const goldTitle = ctx.titleIdOfRow[answer]!;
  const taken = new Set<number>();
  const validity = ctx.validity;
  const goldKey = validity ? ctx.intentionIds[i]! : -1;
  const givenProduct = validity ? validity.productIndex(a.itemA) : -1;
  const goldProduct = validity ? validity.productIndex(a.itemB) : -1;
  // A row is its product's index.
  const pair = validity?.task2Pair(
    goldKey,
    givenProduct,
    goldProduct,
    (row) => ctx.vectors.cosine(row, answer) >= options.substituteCosine,
  );
  const universe = productUniverse(
    ctx.vectors.vector(anchor),
    ctx.search,
    w,
    () => {
      const near = ctx.ranges.aroundRow(anchor, w.lo, w.loInclusive);
      return { keys: near.rows, scores: near.scores, method: near.method, exact: near.exact };
    },
    ctx.task2Rows,
  );
  // A range query around the anchor also serves Task 1 of this assertion (its pivot is the same
  // product), so when both tasks run it costs each of them half.
  const shared = options.tasks.includes(1) ? 0.5 : 1;
  const r = drawFromWindow(
    { ...universe, enumerationCost: () => shared * ctx.search.estimatedCost() },
    {
      ...w,
      k: DISTRACTORS_PER_ITEM,
      sampling: 'uniform',
      rng,
      strategy: options.strategy,
      eligible: (row) =>
        row !== given &&
        row !== anchor &&
        ctx.inTask2Universe[row] === 1 &&
        ctx.titleIdOfRow[row]! >= 0 &&
        ctx.titleIdOfRow[row] !== givenTitle &&
        (!options.requireOverlap || wordsA.overlaps(row)),
      // Titles compared by id (equal ids, equal normalised titles; eligible rows have a title): a
      // window's members are a thousand rows scattered over the catalogue.
      accept: (row) => {
        const title = ctx.titleIdOfRow[row]!;
        if (row === answer || title === goldTitle) return 'false-negative';
        const refusal = pair && validity!.task2Refusal(pair, row, options);
        if (refusal !== undefined) return refusal;
        if (taken.has(title)) return 'duplicate-option';
        taken.add(title);
        return true;
      },
    },
  );
  const enumerated = r.members !== undefined;
  if (r.chosen.length < DISTRACTORS_PER_ITEM) {
    return {
      ok: false,
      enumerated,
      dropped: shortWindow(
        a.id,
        2,
        r,
        `Sim_p ${formatWindow(w)} around ${options.anchor === 'answer' ? 'p_B' : 'p_A'}${options.task2Universe === 'assertions' ? " among the kept assertions' products" : ''}`,
      ),
    };
  }
  return {
    ok: true,
    enumerated,
    draft: {
      distractors: r.chosen.map((c) => ({
        id: ctx.vectors.ids[c.key]!,
        text: ctx.titleOfRow[c.key]!,
        score: c.score,
        overlap: wordsA.overlaps(c.key) ? 1 : 0,
        method: c.via,
        ...(pair ? task2Readings(validity!, pair, c.key) : {}),
      })),
      hadFalseNegative: r.dropped.some((d) => d.reason === 'false-negative'),
      selection: {
        sampling: 'uniform',
        window: formatWindow(w),
        anchor: options.anchor,
        anchor_id: ctx.vectors.ids[anchor]!,
        exact: r.exact,
        members: r.members ?? null,
        seed: rngLabel,
        // Listed for an item only: a short window's record just counts its refusals.
        refused: r.dropped.map((d) => ({ id: ctx.vectors.ids[d.key]!, score: d.score, reason: d.reason })),
      },
      ...goldFitField(validity, goldKey, givenProduct, goldProduct),
    },
  };
}
