// Difficulty of an item from Sim_p(p1, p2) of its co-buy pair (the paper, docs/intentionqa.md): ≥ 0.85 easy,
// [0.6, 0.85) medium, < 0.6 hard — cut points calibrated for Sentence-BERT context embeddings, and
// an option (IntentionQaOptions.difficulty) for other encoders. A pair with no similarity (a product
// without a vector) has no difficulty; such assertions are reported and not emitted, so this takes
// a number only.

export type Difficulty = 'easy' | 'medium' | 'hard';

export const DIFFICULTIES: readonly Difficulty[] = ['easy', 'medium', 'hard'];

/** Sim_p ≥ easy: easy; ≥ medium: medium; below: hard. */
export interface DifficultyCuts {
  easy: number;
  medium: number;
}

/** The paper's cut points. */
export const PAPER_DIFFICULTY: DifficultyCuts = { easy: 0.85, medium: 0.6 };

export function difficultyOf(pairSimilarity: number, cuts: DifficultyCuts = PAPER_DIFFICULTY): Difficulty {
  if (Number.isNaN(pairSimilarity)) throw new RangeError('difficultyOf: similarity is NaN');
  if (pairSimilarity >= cuts.easy) return 'easy';
  if (pairSimilarity >= cuts.medium) return 'medium';
  return 'hard';
}

/** `easy ≥ 0.85, medium ≥ 0.6`, for reports and manifests. */
export function formatDifficultyCuts(cuts: DifficultyCuts): string {
  return `easy ≥ ${cuts.easy}, medium ≥ ${cuts.medium}, hard below`;
}
