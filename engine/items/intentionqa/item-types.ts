// The records the IntentionQA assembly emits. Item field names and shapes are a superset of the
// released files (released_task1.jsonl / released_task2.jsonl): the released keys first, in the
// released order (including its spelling `distractors_asserstion`), then what this engine adds.
import type { WindowMethod, Sampling } from '../../search/windows.js';
import type { Anchor } from './intentionqa-options.js';
import type { Difficulty } from './difficulty.js';
import type { Letter, PromptPair } from './intentionqa-prompts.js';

export interface DistractorRecord {
  /** Assertion id (Task 1) or product id (Task 2). */
  id: string;
  /** The option text it contributes. */
  text: string;
  /** Exact Sim_i (Task 1) or Sim_p to the anchor (Task 2). */
  score: number;
  /** Concept-overlap flag (1 = the word sets intersect). */
  overlap: 0 | 1;
  /** How it was found: rejection sampling, exact scan, or the HNSW index (scores always exact). */
  method: WindowMethod;
  // What the rules read (rule-readings.ts), each only when the run has its vectors; after the keys
  // above, so that the released shape's records are unchanged.
  /** Task 1: the intention's fit to the item's pair; Task 2: the gold intention's fit to this product. */
  fit?: number;
  /** Task 1: the intention's fit to the pair it was asserted for (the unanchored rule). */
  own_fit?: number;
  /** Task 2: the gold intention's fit to the item's pair (the fits-as-well rule). */
  pair_fit?: number;
  /** The largest cosine to an intention asserted for the item's pair (Task 2: of the gold's, to one asserted with p_A for this product). */
  asserted_cosine?: number;
}

export interface SamplingRecord {
  sampling: Sampling;
  /** The window in interval notation, e.g. "[0.6, 0.9]". */
  window: string;
  /** Task 2: which product the window is centred on. */
  anchor?: Anchor;
  anchor_id?: string;
  /** False when some window enumeration came from the approximate index. */
  exact: boolean;
  /** Eligible window members when the window was enumerated; null after pure rejection sampling. */
  members: number | null;
  /** `lowest`: the released rule's m (pool = first m+1); null = fallback to the first in-window ones. */
  lowest_pool_end?: number | null;
  seed: string;
  /** Window members drawn but refused (false negatives, duplicate texts), in draw order. */
  refused: Array<{ id: string; score: number; reason: string }>;
}

export interface ItemCommon {
  id: string;
  item_a_id: string;
  item_b_id: string;
  item_a_name: string;
  item_b_name: string;
  relation: string;
  assertion: string;
  distractors_id: string[];
  distractors_score: number[];
}

export interface Task1Item extends ItemCommon {
  distractors_overlap: number[];
  distractors_asserstion: string[];
  typicality: number;
  gold_ind: Letter;
  options: Record<Letter, string>;
  hadFalseNegative: 0 | 1;
  task: 1;
  task_name: 'IntentUnderstand';
  difficulty: Difficulty;
  pair_similarity: number;
  prompts: PromptPair;
  distractors: DistractorRecord[];
  selection: SamplingRecord;
  /** The gold intention's fit to the item's pair (rule-readings.ts), when the run has fit vectors. */
  gold_fit?: number;
}

export interface Task2Item extends ItemCommon {
  distractors_product: string[];
  typicality: number;
  gold_ind: Letter;
  options: Record<Letter, string>;
  hadFalseNegative: 0 | 1;
  task: 2;
  task_name: 'IntentUtilize';
  difficulty: Difficulty;
  pair_similarity: number;
  prompts: PromptPair;
  distractors: DistractorRecord[];
  selection: SamplingRecord;
  /** The gold intention's fit to the item's pair (rule-readings.ts), when the run has fit vectors. */
  gold_fit?: number;
}

export type IntentionQaItem = Task1Item | Task2Item;

export type DropReason =
  | 'relation-excluded'
  | 'typicality-below-min'
  | 'product-without-vector'
  | 'product-not-in-catalogue'
  | 'window-empty'
  | 'too-few-distractors'
  // The validity filters (validity-filters.ts): a window that the filter emptied (fewer than three
  // distractors left, at least three without the filters), and an assertion whose intention is generic.
  | 'pair-asserted'
  | 'generic'
  | 'second-answer'
  | 'kind-asserted'
  | 'group-generic'
  | 'substitute'
  | 'vacuous'
  | 'fits-as-well'
  | 'kind-words'
  | 'unanchored'
  | 'title-words'
  | 'generic-gold'
  // The gold's own intention says nothing of any product (vacuous) or of its own pair (unexplained).
  | 'vacuous-gold'
  | 'unexplained'
  // `audit --drop-flagged` (engine/evaluation/audit.ts): items a judge model found with a second
  // right answer, or without the gold among the right ones.
  | 'judge-second-answer'
  | 'judge-gold-wrong'
  // A reader of item files (engine/scoring/intentionqa/intentionqa-item-file.ts): an item without
  // four options with distinct texts, set apart by `audit --drop-flagged` and `items check --drop-flagged`.
  | 'malformed';

/** An assertion that did not become an item of a task, and why (never silently lost). */
export interface DroppedAssertion {
  id: string;
  /** The task it is missing from; null = both (dropped before either task). */
  task: 1 | 2 | null;
  reason: DropReason;
  detail: string;
  /** For window failures: eligible members found, and members refused with reasons. */
  members?: number | null;
  refused?: Record<string, number>;
}

/**
 * One output record. A dropped record also carries the assertion's relation (for the report's
 * breakdown by relation; the dropped file holds `dropped` alone).
 */
export type IntentionQaRecord =
  { kind: 'item'; item: IntentionQaItem } | { kind: 'dropped'; dropped: DroppedAssertion; relation: string };
