// What the validity rules that read numbers read for a distractor they let through, recorded in its
// `distractors[k]` record so that blind labels can set the rules' cut-offs (`intentsim tune`,
// docs/tune.md): a cut-off is only as good as the readings it was fitted on, and a reading not
// recorded at the draw could only be recomputed with the run's exact vectors.
//
//   Task 1  fit              the distractor's intention's fit to the item's pair (intention-fit.ts pairFit)
//           own_fit          its fit to the pair it was asserted for: unanchored refuses fit > own_fit − anchorMargin
//           asserted_cosine  the largest cosine to an intention asserted for the item's pair (the gold's
//                            among them): second-answer refuses ≥ secondAnswerCosine
//   Task 2  fit              the gold's intention's fit to the distractor product
//           pair_fit         its fit to the item's pair (given, gold): fits-as-well refuses fit ≥ pair_fit − fitMargin
//           asserted_cosine  the largest cosine of the gold's intention to one asserted for (given, distractor)
//
// A reading is present only when the run has its vectors (fit vectors: a fit rule is on; intention
// vectors: second-answer is on) and it is a number (no vector for a text, nothing asserted): never
// under `--preset released`, whose items stay the released shape. Numbers are written as computed,
// as `score` is (JSON keeps a double exactly, so the same seed gives the same bytes).
import type { Task1Pair, Task2Pair, ValidityIndex } from './validity-filters.js';

/** The readings of a Task-1 distractor (each present only when known). */
export interface Task1Readings {
  fit?: number;
  own_fit?: number;
  asserted_cosine?: number;
}

/** The readings of a Task-2 distractor (each present only when known). */
export interface Task2Readings {
  fit?: number;
  pair_fit?: number;
  asserted_cosine?: number;
}

/** The fields whose value is a finite number, in the given order (NaN would be written as null). */
function known<T extends Record<string, number>>(values: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(values)) if (Number.isFinite(v)) out[k as keyof T] = v as T[keyof T];
  return out;
}

/** Task 1: distractor key id `key`, asserted for product indices `own`, offered for `pair`. */
export function task1Readings(
  index: ValidityIndex,
  key: number,
  pair: Task1Pair,
  own: { a: number; b: number },
): Task1Readings {
  const fit = index.fit;
  return known({
    fit: fit ? fit.pairFit(key, pair.a, pair.b) : NaN,
    own_fit: fit ? fit.pairFit(key, own.a, own.b) : NaN,
    asserted_cosine: index.vectors ? index.largestCosine(key, pair.asserted) : NaN,
  });
}

/** Task 2: product index `candidate` offered for `pair` (task2Pair). */
export function task2Readings(index: ValidityIndex, pair: Task2Pair, candidate: number): Task2Readings {
  const fit = index.fit;
  const { goldKey, given } = pair;
  const known2 = goldKey >= 0;
  return known({
    fit: fit && known2 ? fit.fit(goldKey, candidate) : NaN,
    pair_fit: fit && known2 ? pair.goldFit : NaN,
    asserted_cosine: index.vectors && known2 ? index.largestCosine(goldKey, index.assertedIds(given, candidate)) : NaN,
  });
}

/**
 * The draft's `goldFit` (the item's `gold_fit`): the gold intention's fit to its own pair, what
 * unexplained compares with explainedMinFit; no field when unknown.
 */
export function goldFitField(
  index: ValidityIndex | undefined,
  goldKey: number,
  a: number,
  b: number,
): { goldFit?: number } {
  const f = index?.fit?.pairFit(goldKey, a, b);
  return f !== undefined && Number.isFinite(f) ? { goldFit: f } : {};
}
