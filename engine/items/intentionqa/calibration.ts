// Which windows, difficulty cut points and centering suit an encoder's cosines, when the caller does
// not choose them. The paper's values were calibrated for Sentence-BERT context embeddings and stay
// the defaults for it (and for the hashing stand-in, whose cosines mean nothing anyway). Averaged
// GloVe vectors sit elsewhere: the values for glove-100d were chosen by measurement on the demo
// world (docs/intentionqa.md, "Other encoders", gives the measurement).
import { GLOVE_ENCODER_NAME } from '../../../embeddings/glove-encoder.js';
import { PAPER_DIFFICULTY, type DifficultyCuts } from './difficulty.js';
import {
  DEFAULT_ANCHOR_MARGIN,
  DEFAULT_EXPLAINED_MIN_FIT,
  DEFAULT_FIT_MARGIN,
  DEFAULT_SUBSTITUTE_COSINE,
  PAPER_TASK1_WINDOW,
  PAPER_TASK2_WINDOW,
  PAPER_SECOND_ANSWER_COSINE,
  type IntentionQaSettings,
  type WindowBounds,
} from './intentionqa-options.js';

export interface SimilarityCalibration {
  /** Subtract the mean product embedding before cosines (engine/search/centering.ts). */
  center: boolean;
  task1Window: WindowBounds;
  task2Window: WindowBounds;
  difficulty: DifficultyCuts;
  /** The second-answer filter's cosine threshold between intention texts (validity-filters.ts). */
  secondAnswerCosine: number;
  /** The substitute rule's cut on Sim_p(candidate, gold). */
  substituteCosine: number;
  /** The unexplained rule's cut-off on the gold's fit to its pair (intention-fit.ts). */
  explainedMinFit: number;
  /** The fits-as-well rule's margin below the gold's fit. */
  fitMargin: number;
  /** The unanchored rule's margin: own pair fit minus the item's pair fit (intention-fit.ts). */
  anchorMargin: number;
  /** Whether distractors need concept overlap with the question's products (docs/intentionqa.md). */
  requireOverlap: boolean;
}

/**
 * What the product vectors embed: context embeddings made from the graph (`pipeline --graph`), or
 * the products' titles (`catalog index`, given to `pipeline --product-vectors`). Their cosines sit
 * differently, so each has its own windows.
 */
export type VectorsKind = 'context' | 'title';

export const PAPER_CALIBRATION: SimilarityCalibration = {
  center: false,
  task1Window: PAPER_TASK1_WINDOW,
  task2Window: PAPER_TASK2_WINDOW,
  difficulty: PAPER_DIFFICULTY,
  secondAnswerCosine: PAPER_SECOND_ANSWER_COSINE,
  substituteCosine: DEFAULT_SUBSTITUTE_COSINE,
  explainedMinFit: DEFAULT_EXPLAINED_MIN_FIT,
  fitMargin: DEFAULT_FIT_MARGIN,
  anchorMargin: DEFAULT_ANCHOR_MARGIN,
  requireOverlap: true,
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
/**
 * glove-100d's second-answer threshold, measured on the demo world's 66 intention texts (averaged
 * GloVe vectors centered on their mean; docs/intentionqa.md, "Validity filters", has the table).
 * Averaged word vectors cannot tell a paraphrase from a neighbouring topic: at 0.75 the pairs caught
 * are "used for camping" ~ "used for hiking" (0.865), "making her look elegant" ~ "making her feel
 * pretty" (0.773), but also "taking care of baby" ~ "taking care of pet" (0.830); 9 of 2,119 text
 * pairs (0.4%) are at or above it. Lower, the filter removes mostly different intentions of one
 * template ("a type of X" ~ "a type of Y": 0.63–0.79), which are the hard distractors.
 */
export const GLOVE_SECOND_ANSWER_COSINE = 0.75;

/**
 * glove-100d's cut-offs of the rules that read fits (intention-fit.ts), with context embeddings (a
 * graph): intentions are written for the graph's products, whose titles they fit loosely, so the
 * rules refuse only what is clear: a gold whose fit to its titles is below -0.1, a Task-2 candidate
 * that fits the gold's intention 0.1 better than the gold. On the demo world, written so that valid
 * items exist, these keep Task 1 at 290 items (291 without the rules) and Task 2 at 267 (301); at
 * the title calibration's cut-offs (0.05, 0.05) Task 2 fell to 186 items the blind readers had
 * found valid.
 */
export const GLOVE_EXPLAINED_MIN_FIT = -0.1;
export const GLOVE_FIT_MARGIN = -0.1;
/**
 * On title vectors of the released IntentionQA data (intention and title vectors each centered), an
 * assertion's intention fits its own two titles at a median cosine of 0.17 and a random pair's at
 * -0.01; below 0.05 the golds are mostly ones that explain nothing ("because he thought it was a good
 * deal"), and a Task-2 candidate within 0.05 of the gold's fit is one the readers took as right.
 */
export const GLOVE_TITLE_FIT_MARGIN = 0.05;
export const GLOVE_TITLE_EXPLAINED_MIN_FIT = 0.05;
/**
 * The unanchored rule's margin on the same title vectors, fitted to the blind labels of the earlier
 * real-data reads (docs/real-data.md, section 6): of 428 Task-1 distractors readers judged, 60 were
 * second right answers (14.0%); the 169 that fit their own pair at least 0.2 better than the item's
 * pair hold 7 of them (4.1%). At 0.1: 7.6%; at 0.15: 6.6%; at 0.25: 1.6% of 124.
 */
export const GLOVE_TITLE_ANCHOR_MARGIN = 0.2;

export const GLOVE_CALIBRATION: SimilarityCalibration = {
  center: true,
  task1Window: { lo: 0.3, hi: 0.9 },
  task2Window: { lo: 0.4, hi: 0.9 },
  difficulty: PAPER_DIFFICULTY,
  secondAnswerCosine: GLOVE_SECOND_ANSWER_COSINE,
  substituteCosine: DEFAULT_SUBSTITUTE_COSINE,
  explainedMinFit: GLOVE_EXPLAINED_MIN_FIT,
  fitMargin: GLOVE_FIT_MARGIN,
  anchorMargin: DEFAULT_ANCHOR_MARGIN,
  requireOverlap: true,
};

/**
 * glove-100d on title vectors (`catalog index --encoder glove-100d`), measured on the released
 * IntentionQA data (3,042 Amazon titles, 2,315 FolkScope assertions; docs/real-data.md has the
 * table): TITLE_CALIBRATION_NOTE says how.
 */
export const GLOVE_TITLE_CALIBRATION: SimilarityCalibration = {
  center: true,
  // Lowered from 0.25 with the unanchored and title-words rules (issue 44), which refuse most
  // candidates near the pair: at 0.25 Task 1 made items for 33.5% of the assertions, at 0.2 for 44.5%.
  task1Window: { lo: 0.2, hi: 0.7 },
  task2Window: { lo: 0.4, hi: 0.8 },
  difficulty: PAPER_DIFFICULTY,
  secondAnswerCosine: GLOVE_SECOND_ANSWER_COSINE,
  substituteCosine: DEFAULT_SUBSTITUTE_COSINE,
  explainedMinFit: GLOVE_TITLE_EXPLAINED_MIN_FIT,
  fitMargin: GLOVE_TITLE_FIT_MARGIN,
  anchorMargin: GLOVE_TITLE_ANCHOR_MARGIN,
  // Title head phrases are the only concepts here: overlap of head phrases keeps a candidate of the
  // question's own kind, which the kind rules then refuse (a substitute, a sibling's intention).
  requireOverlap: false,
};

/** The defaults for the encoder that made the vectors (EncoderDescription.encoder) and what they embed. */
export function calibrationFor(encoder: string, vectors: VectorsKind = 'context'): SimilarityCalibration {
  if (encoder !== GLOVE_ENCODER_NAME) return PAPER_CALIBRATION;
  return vectors === 'title' ? GLOVE_TITLE_CALIBRATION : GLOVE_CALIBRATION;
}

/** Whether an encoder has a calibration measured for vectors of this kind (else the paper's values stand in). */
export function hasCalibration(encoder: string, vectors: VectorsKind): boolean {
  return encoder === GLOVE_ENCODER_NAME || vectors === 'context';
}

/**
 * The items stage's settings for embeddings made by `encoder`, in the order: the library defaults,
 * then the encoder's calibration, then the preset, then the fields given. The calibration only fills
 * what the caller left undefined (no preset sets windows, cut points or centering), and
 * resolveOptions applies the preset and the given fields on top. Returns whether to center and the
 * settings for IntentionQaRun.prepare.
 */
export function calibratedSettings(
  encoder: string,
  given: IntentionQaSettings & { center?: boolean | undefined },
  vectors: VectorsKind = 'context',
): { center: boolean; settings: IntentionQaSettings } {
  const calibration = calibrationFor(encoder, vectors);
  const { center, ...fields } = given;
  // A field that is undefined is not given: it must not erase the calibration's value.
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const settings: IntentionQaSettings = {
    task1Window: calibration.task1Window,
    task2Window: calibration.task2Window,
    difficulty: calibration.difficulty,
    secondAnswerCosine: calibration.secondAnswerCosine,
    substituteCosine: calibration.substituteCosine,
    explainedMinFit: calibration.explainedMinFit,
    fitMargin: calibration.fitMargin,
    anchorMargin: calibration.anchorMargin,
    requireOverlap: calibration.requireOverlap,
    ...defined,
  };
  return { center: center ?? calibration.center, settings };
}
