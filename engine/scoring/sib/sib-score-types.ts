// What scoring SessionIntentBench produces: a line per question, and the summary the tables are
// drawn from. Binary groups (T1–T4 and their constructed negatives) get accuracy and Macro-F1; the
// next-product choice, a four-way question, gets accuracy.
import type { BinaryLabel } from '../../items/sib/labels.js';
import type { TaskNumber } from '../../items/sib/sib-types.js';
import type { SibStyle } from '../answer-styles.js';
import type { AnswerStatus } from '../answer-sheets.js';
import type { ScoredRun, UnscoredInput } from '../score-files.js';
import type { AnswerCounts } from '../score-tables.js';
import type { SibGroup } from './sib-questions.js';

export type SibStatus = AnswerStatus | 'unlabelled';

export interface SibItemScore {
  group: SibGroup;
  id: string;
  task: TaskNumber | null;
  /** The gold binary label (or, for the next-product choice, letter); null when not annotated. */
  gold: string | null;
  /** What the parser read (" " when it found nothing); null when there was nothing to read. */
  parsed: string | null;
  /** The parsed letter's binary label (or the letter itself for the next-product choice); null if none. */
  predicted: string | null;
  /** null when the question is not scored (unlabelled, missing, failed request). */
  correct: boolean | null;
  status: SibStatus;
}

/** Accuracy and, for binary groups, Macro-F1 (null when undefined) and each class's F1. */
export interface SibScores {
  n: number;
  correct: number;
  accuracy: number | null;
  macro_f1: number | null;
  f1: Record<BinaryLabel, number | null> | null;
}

export interface SibGroupSummary {
  group: SibGroup;
  binary: boolean;
  counts: AnswerCounts & {
    /** With a gold label; only these are scored and count for the baselines. */
    labelled: number;
    unlabelled: number;
  };
  model: SibScores;
  random: {
    /** Expected accuracy; expected Macro-F1 over the draws where it is defined. */
    expected: { accuracy: number | null; macro_f1: number | null; macro_f1_undefined_probability: number | null };
    draw: SibScores;
  };
  majority: { answer: string | null; scores: SibScores };
}

export interface SibScoreSummary extends ScoredRun<SibStyle>, UnscoredInput {
  benchmark: 'sib';
  groups: SibGroupSummary[];
}
