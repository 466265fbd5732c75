// What scoring IntentionQA produces: a line per item, and the summary the tables are drawn from.
import type { Difficulty } from '../../items/intentionqa/difficulty.js';
import type { IntentionQaStyle } from '../answer-styles.js';
import type { AnswerStatus } from '../answer-sheets.js';
import type { ScoredRun, UnscoredInput } from '../score-files.js';
import type { AnswerCounts } from '../score-tables.js';
import type { IntentionQaTask } from './intentionqa-questions.js';
import type { MalformedKind } from './intentionqa-item-file.js';

/** Columns of the tables: the three difficulties, "unknown" when items have none, and "all". */
export type Column = Difficulty | 'unknown' | 'all';

/**
 * Besides the answer's status: 'fewer-options', an answered item computeACC.py excludes;
 * 'malformed', an item without a response line that is malformed (not four options with distinct
 * texts), so that ask and the embedding solver did not ask it: not missing, set apart.
 */
export type IntentionQaStatus = AnswerStatus | 'fewer-options' | 'malformed';

export interface IntentionQaItemScore {
  task: IntentionQaTask;
  id: string;
  difficulty: Difficulty | null;
  relation: string;
  gold: string;
  /** What the parser read (" " when it found nothing); null when there was nothing to read. */
  parsed: string | null;
  /** null when the item is not scored (missing, failed request, fewer than 4 options, malformed). */
  correct: boolean | null;
  status: IntentionQaStatus;
}

export interface AccuracyCell {
  correct: number;
  n: number;
  /** correct / n; null when n = 0. */
  accuracy: number | null;
}

export interface IntentionQaTaskSummary {
  task: IntentionQaTask;
  counts: AnswerCounts & {
    /** Excluded: fewer than 4 options (released files only). */
    fewer_options: number;
    /** Malformed, not asked: no response line, and not four options with distinct texts (released files only). */
    malformed: number;
    /** The malformed items by kind of fault. */
    malformed_kinds: Partial<Record<MalformedKind, number>>;
  };
  model: Partial<Record<Column, AccuracyCell>>;
  random: {
    expected: Partial<Record<Column, number | null>>;
    draw: Partial<Record<Column, AccuracyCell>>;
  };
  majority: { letter: string | null; cells: Partial<Record<Column, AccuracyCell>> };
}

export interface IntentionQaScoreSummary extends ScoredRun<IntentionQaStyle>, UnscoredInput {
  benchmark: 'intentionqa';
  columns: Column[];
  tasks: IntentionQaTaskSummary[];
  /** Model accuracy per relation and task. */
  relations: Array<{ relation: string; tasks: Partial<Record<`task${IntentionQaTask}`, AccuracyCell>> }>;
}
