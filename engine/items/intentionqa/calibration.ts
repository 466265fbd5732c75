// Which windows, difficulty cut points and centering suit an encoder's cosines, when the caller does
// not choose them. The paper's values were calibrated for Sentence-BERT context embeddings and stay
// the defaults for it (and for the hashing stand-in, whose cosines mean nothing anyway). Averaged
// GloVe vectors sit elsewhere: the values for glove-100d were chosen by measurement on the demo
// world (docs/intentionqa.md, "Other encoders", gives the measurement).
import { GLOVE_ENCODER_NAME } from '../../../embeddings/glove-encoder.js';
import { PAPER_DIFFICULTY, type DifficultyCuts } from './difficulty.js';
import { PAPER_TASK1_WINDOW, PAPER_TASK2_WINDOW, type WindowBounds } from './intentionqa-options.js';

export interface SimilarityCalibration {
  /** Subtract the mean product embedding before cosines (engine/search/centering.ts). */
  center: boolean;
  task1Window: WindowBounds;
  task2Window: WindowBounds;
  difficulty: DifficultyCuts;
}

export const PAPER_CALIBRATION: SimilarityCalibration = {
  center: false,
  task1Window: PAPER_TASK1_WINDOW,
  task2Window: PAPER_TASK2_WINDOW,
  difficulty: PAPER_DIFFICULTY,
};

/**
 * glove-100d, measured on the demo world (451 assertions at typicality ≥ 0.5; the table is in
 * docs/intentionqa.md). Raw averaged vectors are all alike (median pairwise cosine 0.92): with the
 * paper's windows every item is "easy", Task 2 finds distractors for 76 assertions, and those are
 * the products least like the gold (0% from its cluster). Centered, the median is −0.07 and the
 * co-buy pairs spread out (quartiles 0.44 / 0.75 / 0.83), so the paper's difficulty cut points
 * separate near-identical categories (easy), a cluster's categories (medium) and pairs across
 * clusters (hard): 24% / 48% / 28%. Windows lowered to Task 1 [0.3, 0.9] and Task 2 [0.4, 0.9) give
 * items for 415 and 397 assertions (the paper's: 281 and 319), and still 96% of the Task-2
 * distractors come from the gold's cluster (random products: 10%).
 */
export const GLOVE_CALIBRATION: SimilarityCalibration = {
  center: true,
  task1Window: { lo: 0.3, hi: 0.9 },
  task2Window: { lo: 0.4, hi: 0.9 },
  difficulty: PAPER_DIFFICULTY,
};

/** The defaults for the encoder that made the embeddings (EncoderDescription.encoder). */
export function calibrationFor(encoder: string): SimilarityCalibration {
  return encoder === GLOVE_ENCODER_NAME ? GLOVE_CALIBRATION : PAPER_CALIBRATION;
}
