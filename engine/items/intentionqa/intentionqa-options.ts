// The options of an IntentionQA run: what each field means, the engine's defaults, the two presets
// (`paper`, `released`) and the one function that turns {preset, overrides} into complete, checked
// options. Where the paper and the released code (HKUST-KnowComp/IntentionQA) differ, each row of
// the table in docs/intentionqa.md is one field of PresetOptions below.
import { ConfigError } from '../../../core/errors.js';
import { DEFAULT_HNSW_PARAMS, type HnswParams, type RangeSearch } from '../../search/range-search.js';
import { parseSampling, type Sampling, type WindowStrategy } from '../../search/windows.js';
import { PAPER_DIFFICULTY, type DifficultyCuts } from './difficulty.js';
import { DEFAULT_VACUOUS_WORD_GROUPS } from './vacuous-intentions.js';

/**
 * The group-generic rule's default share: a text asserted for at least half of the kind pairs of a
 * shared phrase's group ("most pairs") is generic within it (docs/intentionqa.md, "Validity filters").
 */
export const DEFAULT_GROUP_GENERIC_SHARE = 0.5;

/**
 * Below this many assertions, starting workers costs more than drafting on the main thread: each
 * worker receives a structured clone of the titles and assertions and rebuilds the run's context
 * before its first draft (measured at 10k assertions on 2 cores: 3.2 s with 2 workers against 1.8 s
 * on the main thread, issue 38). Below it, draftInParallel (draft-pool.ts) drafts on the main thread whatever the
 * number of workers asked for (the records are the same either way).
 */
export const MIN_ASSERTIONS_FOR_WORKERS = 50_000;

/** Task 2's window anchor: the paper's masked answer p_B, or the released code's given p_A. */
export const ANCHORS = ['answer', 'given'] as const;
export type Anchor = (typeof ANCHORS)[number];

/**
 * How windows are enumerated. `exact`: complete, from the ranges around every anchor computed up
 * front by matrix products and re-scored exactly (MatrixRanges). `index`: HNSW candidates re-scored
 * exactly (complete up to the index's recall). `auto`: exact while the matrix products stay within
 * `matrixPairLimit` (anchors × products), the index above.
 */
export const EXACTNESS_MODES = ['auto', 'exact', 'index'] as const;
export type Exactness = (typeof EXACTNESS_MODES)[number];

/**
 * Which assertions the typicality filter keeps: `above` the threshold (the paper's "above 0.5" and
 * the released filterAssertItem.py's `typicality > 0.5`), or `at-least` the threshold (this engine's
 * rule before the two were compared; it keeps the assertions at exactly 0.5).
 */
export const TYPICALITY_COMPARISONS = ['above', 'at-least'] as const;
export type TypicalityComparison = (typeof TYPICALITY_COMPARISONS)[number];

/**
 * Task 1's distractor candidates: assertions of any relation (`mixed`: the paper, and the released
 * main file, made with getDistractors.py --mixRelation) or only of the assertion's own relation
 * (`same`: the released script's default, its "byRelation" set behind the paper's per-relation
 * analysis).
 */
export const RELATION_SCOPES = ['mixed', 'same'] as const;
export type RelationScope = (typeof RELATION_SCOPES)[number];

/**
 * Task 2's distractor products: those of the assertions kept by the filters (`assertions`: the
 * released code, which embedded no other product), or every product with a vector (`catalog`).
 */
export const TASK2_UNIVERSES = ['assertions', 'catalog'] as const;
export type Task2Universe = (typeof TASK2_UNIVERSES)[number];

/** Where the fields of PresetOptions start from: the paper's method, or the released code's. */
export const PRESETS = ['paper', 'released'] as const;
export type Preset = (typeof PRESETS)[number];

/** The relations the released filter drops (filter/filterAssertItem.py); the paper does not mention it. */
export const RELEASED_EXCLUDED_RELATIONS: readonly string[] = [
  'createdBy',
  'deriveFrom',
  'distinctFrom',
  'madeOf',
  'partOf',
  'similarTo',
  'symbolOf',
];

/** A window's bounds; which bound is inclusive is each task's rule (run-context.ts task1Window, task2Window). */
export interface WindowBounds {
  lo: number;
  hi: number;
}

/** The paper's Task-1 window, Sim_i ∈ [0.6, 0.9], calibrated for Sentence-BERT context embeddings. */
export const PAPER_TASK1_WINDOW: WindowBounds = { lo: 0.6, hi: 0.9 };
/** The paper's Task-2 window, Sim_p ∈ [0.7, 0.9), calibrated for Sentence-BERT context embeddings. */
export const PAPER_TASK2_WINDOW: WindowBounds = { lo: 0.7, hi: 0.9 };

export interface IntentionQaOptions {
  /** The preset the fields of PresetOptions started from (each may have been overridden). */
  preset: Preset;
  seed: number | string;
  /** Task 1 distractor sampling (Task 2 is uniform in both the paper and the released code). */
  sampling: Sampling;
  anchor: Anchor;
  /** The typicality filter's threshold; `typicalityComparison` says whether the threshold itself passes. */
  typicalityThreshold: number;
  typicalityComparison: TypicalityComparison;
  /** Assertions of these relations are dropped first, whatever their typicality. */
  excludeRelations: readonly string[];
  relationScope: RelationScope;
  task2Universe: Task2Universe;
  /** Only candidates whose concept words overlap (the released items' rule). */
  requireOverlap: boolean;
  /**
   * Validity filter `pair-asserted` (validity-filters.ts): no Task-1 distractor is an intention
   * asserted for the same unordered product pair (any typicality, any relation; compared after
   * normalize_name), and no Task-2 distractor product is asserted with p_A for the gold's intention.
   */
  excludePairAsserted: boolean;
  /**
   * Validity filter `generic`: an intention asserted for pairs in at least `genericMinGroups`
   * unrelated concept groups is never a distractor, and an assertion whose intention is generic is
   * dropped (reason `generic-gold`).
   */
  excludeGeneric: boolean;
  /** The generic filter's cut-off: distinct concept groups (validity-filters.ts, conceptGroups). */
  genericMinGroups: number;
  /**
   * Validity filter `second-answer`: a Task-1 distractor whose intention has a cosine ≥
   * `secondAnswerCosine` with an intention asserted for the pair, and a Task-2 distractor product
   * asserted with p_A for an intention that close to the gold's, are excluded. Needs intention
   * vectors (IntentionQaInput.intentionVectors); without them only equal texts count as close.
   */
  excludeSecondAnswers: boolean;
  /** The second-answer filter's threshold, in the encoder's space (calibration.ts, per encoder). */
  secondAnswerCosine: number;
  /**
   * Validity rule `kind-asserted` (validity-filters.ts, product-kinds.ts): a Task-1 distractor whose
   * intention is asserted (or, with intention vectors, close to one asserted) for another pair of the
   * same kinds of products, and a Task-2 distractor product that forms with p_A a pair of kinds for
   * which the gold's intention (or one close to it) is asserted, are refused.
   */
  excludeKindAsserted: boolean;
  /**
   * Validity rule `group-generic`: a text asserted for at least `groupGenericShare` of the kind pairs
   * of a group (the products holding a category phrase shared by several kinds) is generic within it:
   * never a Task-1 distractor for a pair of that group, and in Task 2 no product of the group is a
   * distractor when the gold's intention is generic within a group that p_A belongs to.
   */
  excludeGroupGeneric: boolean;
  /** The group-generic rule's share of the group's kind pairs, in (0, 1]. */
  groupGenericShare: number;
  /**
   * Validity rule `substitute`: a Task-2 distractor product of the gold's kind, or with a cosine ≥
   * `substituteCosine` to the gold (Sim_p), is a substitute of the gold and fits the question too;
   * so does one of p_A's kind (two of them "are both used for" what p_A is used for).
   */
  excludeSubstitutes: boolean;
  /** The substitute rule's cut on Sim_p(candidate, p_B). */
  substituteCosine: number;
  /**
   * Validity rule `vacuous` (vacuous-intentions.ts): an intention every word of which is used for
   * pairs across at least `vacuousWordGroups` unrelated concept groups says nothing about a product:
   * never a distractor, and its own assertion is dropped (reason `vacuous-gold`).
   */
  excludeVacuous: boolean;
  /** The vacuous rule's cut-off: concept groups a word's pairs span for the word to be generic. */
  vacuousWordGroups: number;
  /**
   * Validity rule `unexplained` (intention-fit.ts): an assertion whose intention fits its own pair's
   * titles less than `explainedMinFit` explains nothing and makes no item. Needs fit vectors
   * (IntentionQaInput.fitVectors); without them it holds for nothing.
   */
  excludeUnexplained: boolean;
  /** The unexplained rule's cut-off on the gold's pair fit (cosine, in the encoder's space). */
  explainedMinFit: number;
  /**
   * Validity rule `fits-as-well` (intention-fit.ts): a Task-2 distractor product that the gold's
   * intention fits within `fitMargin` of its fit to the item's pair (the given product and the gold)
   * is a second right answer: refused. Needs fit vectors, like `unexplained`.
   */
  excludeFitsAsWell: boolean;
  /** The fits-as-well rule's margin below the gold's fit (cosine). */
  fitMargin: number;
  /**
   * Validity rule `kind-words` (kind-words.ts): a Task-2 distractor product of a kind whose
   * intentions share a particular word with the gold's is refused. Needs excludeVacuous (its counts
   * tell particular words from generic ones). (Task 1's part, a distractor sharing such a word with
   * the kinds of the pair, cost a third of the items on real data; unanchored and title-words do its
   * work.)
   */
  excludeKindWords: boolean;
  /**
   * Validity rule `unanchored` (intention-fit.ts): a Task-1 distractor must fit the pair it was
   * asserted for by at least `anchorMargin` better than the item's pair; one that fits both alike
   * ("because he liked them", "a manner of gift for her" beside two earrings) belongs to no pair in
   * particular and is true of this one too. Needs fit vectors, like `unexplained`.
   */
  excludeUnanchored: boolean;
  /** The unanchored rule's margin (cosine): own pair fit minus the item's pair fit must be at least this. */
  anchorMargin: number;
  /**
   * Validity rule `title-words` (title-words.ts): a Task-2 distractor product whose title shares a
   * content word with the gold's or the given product's title is the same kind of thing: refused;
   * with kinds from title clusters, so is a Task-1 distractor asserted for a pair whose titles share
   * a word with the item's pair's.
   */
  excludeTitleWords: boolean;
  tasks: ReadonlyArray<1 | 2>;
  /** Task 1's distractor window on Sim_i (default the paper's, PAPER_TASK1_WINDOW). */
  task1Window: WindowBounds;
  /** Task 2's distractor window on Sim_p (default the paper's, PAPER_TASK2_WINDOW). */
  task2Window: WindowBounds;
  /** Difficulty cut points on Sim_p(p1, p2) (default the paper's, PAPER_DIFFICULTY). */
  difficulty: DifficultyCuts;
  exactness: Exactness;
  /** `auto` uses MatrixRanges up to this many anchor × product pairs, and the HNSW index above. */
  matrixPairLimit: number;
  /** ONNX Runtime threads for MatrixRanges (0 = every core). */
  matrixThreads: number;
  /** A ready range search (e.g. HnswRange over an index persisted next to the embeddings); overrides exactness. */
  search?: RangeSearch;
  /** Where to persist / reuse the HNSW index when one is built here. */
  indexPath?: string;
  /** Where to persist / reuse MatrixRanges when they are computed here. */
  rangesPath?: string;
  hnsw: HnswParams;
  /** Force rejection sampling or enumeration (tests, measurements); default by estimated cost. */
  strategy: WindowStrategy;
  progress: boolean;
}

/** The fields where the paper and the released code differ: what a preset sets. */
export type PresetOptions = Pick<
  IntentionQaOptions,
  | 'sampling'
  | 'anchor'
  | 'typicalityComparison'
  | 'excludeRelations'
  | 'relationScope'
  | 'task2Universe'
  | 'excludePairAsserted'
  | 'excludeGeneric'
  | 'excludeSecondAnswers'
  | 'excludeKindAsserted'
  | 'excludeGroupGeneric'
  | 'excludeSubstitutes'
  | 'excludeVacuous'
  | 'excludeUnexplained'
  | 'excludeFitsAsWell'
  | 'excludeKindWords'
  | 'excludeUnanchored'
  | 'excludeTitleWords'
>;

export const PRESET_OPTIONS: Readonly<Record<Preset, Readonly<PresetOptions>>> = {
  paper: {
    sampling: 'uniform',
    anchor: 'answer',
    typicalityComparison: 'above',
    excludeRelations: [],
    relationScope: 'mixed',
    // The paper does not say. Measured (bench/task2-universe.ts; docs/intentionqa.md, "Task 2's
    // product universe"): every product with a vector gives as many items on the demo world and
    // about 4% more on a generated one (more of them hard), twice the window members, and half as
    // many distractors that are a known co-purchase of p_A, with the same similarity to the gold.
    task2Universe: 'catalog',
    // Not the paper's code, but what its human annotation removed (docs/intentionqa.md, "Validity
    // filters"): on in every preset but `released`.
    excludePairAsserted: true,
    excludeGeneric: true,
    excludeSecondAnswers: true,
    excludeKindAsserted: true,
    excludeGroupGeneric: true,
    excludeSubstitutes: true,
    excludeVacuous: true,
    excludeUnexplained: true,
    excludeFitsAsWell: true,
    excludeKindWords: true,
    excludeUnanchored: true,
    excludeTitleWords: true,
  },
  released: {
    sampling: 'lowest',
    anchor: 'given',
    typicalityComparison: 'above',
    excludeRelations: RELEASED_EXCLUDED_RELATIONS,
    relationScope: 'same',
    task2Universe: 'assertions',
    // The released code removed a candidate only when its text equalled the gold's.
    excludePairAsserted: false,
    excludeGeneric: false,
    excludeSecondAnswers: false,
    excludeKindAsserted: false,
    excludeGroupGeneric: false,
    excludeSubstitutes: false,
    excludeVacuous: false,
    excludeUnexplained: false,
    excludeFitsAsWell: false,
    excludeKindWords: false,
    excludeUnanchored: false,
    excludeTitleWords: false,
  },
};

/** The on/off fields of the validity rules (validity-filters.ts), in the order of VALIDITY_FILTERS. */
export const VALIDITY_RULE_FIELDS = [
  'excludePairAsserted',
  'excludeGeneric',
  'excludeSecondAnswers',
  'excludeKindAsserted',
  'excludeGroupGeneric',
  'excludeSubstitutes',
  'excludeVacuous',
  'excludeUnexplained',
  'excludeFitsAsWell',
  'excludeKindWords',
  'excludeUnanchored',
  'excludeTitleWords',
] as const;
export type ValidityRuleField = (typeof VALIDITY_RULE_FIELDS)[number];

/**
 * The switches and cut-offs of the rules that read words and fits (vacuous, unexplained,
 * fits-as-well, kind-words, unanchored, title-words): what the manifests and the report record of them, in this order.
 */
export const WORD_AND_FIT_RULE_FIELDS = [
  'excludeVacuous',
  'vacuousWordGroups',
  'excludeUnexplained',
  'explainedMinFit',
  'excludeFitsAsWell',
  'fitMargin',
  'excludeKindWords',
  'excludeUnanchored',
  'anchorMargin',
  'excludeTitleWords',
] as const;
export type WordAndFitRules = Pick<IntentionQaOptions, (typeof WORD_AND_FIT_RULE_FIELDS)[number]>;

/** The options' WORD_AND_FIT_RULE_FIELDS. */
export function wordAndFitRules(o: IntentionQaOptions): WordAndFitRules {
  return Object.fromEntries(WORD_AND_FIT_RULE_FIELDS.map((f) => [f, o[f]])) as unknown as WordAndFitRules;
}

/** Whether a rule that reads intention-to-title fits is on (they need fit vectors: intention-fit.ts). */
export function anyFitRule(
  o: Pick<IntentionQaOptions, 'excludeUnexplained' | 'excludeFitsAsWell' | 'excludeUnanchored'>,
): boolean {
  return o.excludeUnexplained || o.excludeFitsAsWell || o.excludeUnanchored;
}

/** Whether any validity rule is on. */
export function anyValidityRule(o: Pick<IntentionQaOptions, ValidityRuleField>): boolean {
  return VALIDITY_RULE_FIELDS.some((f) => o[f]);
}

/**
 * The generic filter's default cut-off. On the demo world (docs/intentionqa.md, "Validity filters")
 * 65 of 66 intention texts span 1 concept group and "because they are both used for the same
 * purpose." spans 9: any cut-off from 2 to 9 separates them; 3 leaves room for an intention shared by
 * two neighbouring categories.
 */
export const DEFAULT_GENERIC_MIN_GROUPS = 3;

/**
 * The second-answer threshold for Sentence-BERT sentence embeddings of intention texts (not
 * measured here: no Sentence-BERT model on the development machine). Sentence-BERT gives
 * paraphrases cosines around 0.8 and above; calibration.ts has the measured glove-100d value.
 */
export const PAPER_SECOND_ANSWER_COSINE = 0.8;

/**
 * The substitute rule's cut on Sim_p(candidate, gold). On the demo world (glove-100d, centered)
 * products of one category have cosines ≥ 0.99 and products of different categories ≤ 0.97, so the
 * cut matters only where the window reaches above it; the kind test does the rest
 * (docs/intentionqa.md, "Validity filters").
 */
export const DEFAULT_SUBSTITUTE_COSINE = 0.9;

/**
 * The unexplained rule's cut-off on the gold's pair fit, and the fits-as-well margin, for encoders
 * without a calibration of their own: the conservative values of glove-100d on context embeddings
 * (refuse only what is clear; calibration.ts). Sentence-BERT's are not measured here (no model on
 * the development machine).
 */
export const DEFAULT_EXPLAINED_MIN_FIT = -0.1;
export const DEFAULT_FIT_MARGIN = -0.1;
/** The unanchored rule's margin without a calibration: refuse only a distractor that fits the item's pair 0.1 better than its own. */
export const DEFAULT_ANCHOR_MARGIN = -0.1;

/** The engine's defaults: the paper preset, and the settings that no preset touches. */
export const DEFAULT_INTENTIONQA_OPTIONS: IntentionQaOptions = {
  preset: 'paper',
  ...PRESET_OPTIONS.paper,
  seed: 0,
  typicalityThreshold: 0.5,
  requireOverlap: true,
  genericMinGroups: DEFAULT_GENERIC_MIN_GROUPS,
  secondAnswerCosine: PAPER_SECOND_ANSWER_COSINE,
  groupGenericShare: DEFAULT_GROUP_GENERIC_SHARE,
  substituteCosine: DEFAULT_SUBSTITUTE_COSINE,
  vacuousWordGroups: DEFAULT_VACUOUS_WORD_GROUPS,
  explainedMinFit: DEFAULT_EXPLAINED_MIN_FIT,
  fitMargin: DEFAULT_FIT_MARGIN,
  anchorMargin: DEFAULT_ANCHOR_MARGIN,
  tasks: [1, 2],
  task1Window: PAPER_TASK1_WINDOW,
  task2Window: PAPER_TASK2_WINDOW,
  difficulty: PAPER_DIFFICULTY,
  exactness: 'auto',
  // Matrix products grow as anchors × products, the index as products · log: at 100k products and
  // assertions on 2 cores the products take 28 s against 60 s of index build plus ~80 s of kNN
  // queries (bench/items.ts), so they stay ahead up to a few 100k. 1e11 pairs is about 400k products
  // with as many assertions (0.6 distinct anchors per assertion there).
  matrixPairLimit: 1e11,
  matrixThreads: 0,
  hnsw: DEFAULT_HNSW_PARAMS,
  strategy: 'auto',
  progress: false,
};

/** What a caller gives: a preset and any fields to override; a field that is undefined is not given. */
export type IntentionQaSettings = { [K in keyof IntentionQaOptions]?: IntentionQaOptions[K] | undefined };

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  const list = allowed.map((v) => `"${v}"`);
  const choices = list.length === 2 ? list.join(' or ') : `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
  throw new ConfigError(field, `must be ${choices}, got "${String(value)}"`);
}

export function parseAnchor(value: string): Anchor {
  return oneOf('anchor', value, ANCHORS);
}

export function parseExactness(value: string): Exactness {
  return oneOf('exactness', value, EXACTNESS_MODES);
}

/**
 * Complete, checked options: the engine's defaults, then the preset's fields (paper unless given),
 * then every field the caller gave. A pure function: the same settings give the same options.
 * Values may come from untyped callers (JSON configs, JavaScript), so enumerations are checked too.
 */
export function resolveOptions(settings: IntentionQaSettings = {}): IntentionQaOptions {
  const preset = oneOf('preset', settings.preset ?? DEFAULT_INTENTIONQA_OPTIONS.preset, PRESETS);
  const given = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
  const o: IntentionQaOptions = { ...DEFAULT_INTENTIONQA_OPTIONS, ...PRESET_OPTIONS[preset], ...given, preset };
  if (!(o.typicalityThreshold >= 0 && o.typicalityThreshold <= 1))
    throw new ConfigError('typicalityThreshold', `must be in [0, 1], got ${o.typicalityThreshold}`);
  oneOf('typicalityComparison', o.typicalityComparison, TYPICALITY_COMPARISONS);
  if (!Array.isArray(o.excludeRelations) || o.excludeRelations.some((r) => typeof r !== 'string' || r.trim() === ''))
    throw new ConfigError('excludeRelations', 'must be a list of relation names (non-empty strings)');
  // A set: sorted and without repeats, so that the manifest and the preset comparison ignore order.
  o.excludeRelations = [...new Set(o.excludeRelations)].sort();
  oneOf('relationScope', o.relationScope, RELATION_SCOPES);
  oneOf('task2Universe', o.task2Universe, TASK2_UNIVERSES);
  for (const field of VALIDITY_RULE_FIELDS)
    if (typeof o[field] !== 'boolean') throw new ConfigError(field, `must be true or false, got ${String(o[field])}`);
  if (!(Number.isInteger(o.genericMinGroups) && o.genericMinGroups >= 2))
    throw new ConfigError('genericMinGroups', `must be an integer ≥ 2, got ${String(o.genericMinGroups)}`);
  if (!(o.secondAnswerCosine >= -1 && o.secondAnswerCosine <= 1))
    throw new ConfigError('secondAnswerCosine', `must be in [-1, 1], got ${String(o.secondAnswerCosine)}`);
  if (!(o.groupGenericShare > 0 && o.groupGenericShare <= 1))
    throw new ConfigError('groupGenericShare', `must be in (0, 1], got ${String(o.groupGenericShare)}`);
  if (!(Number.isInteger(o.vacuousWordGroups) && o.vacuousWordGroups >= 2))
    throw new ConfigError('vacuousWordGroups', `must be an integer ≥ 2, got ${String(o.vacuousWordGroups)}`);
  if (!(o.explainedMinFit >= -1 && o.explainedMinFit <= 1))
    throw new ConfigError('explainedMinFit', `must be in [-1, 1], got ${String(o.explainedMinFit)}`);
  if (!(o.fitMargin >= -2 && o.fitMargin <= 2))
    throw new ConfigError('fitMargin', `must be in [-2, 2], got ${String(o.fitMargin)}`);
  if (!(o.anchorMargin >= -2 && o.anchorMargin <= 2))
    throw new ConfigError('anchorMargin', `must be in [-2, 2], got ${String(o.anchorMargin)}`);
  if (!(o.substituteCosine >= -1 && o.substituteCosine <= 1))
    throw new ConfigError('substituteCosine', `must be in [-1, 1], got ${String(o.substituteCosine)}`);
  if (o.tasks.length === 0 || o.tasks.some((t) => t !== 1 && t !== 2))
    throw new ConfigError('tasks', 'must be a non-empty subset of [1, 2]');
  parseSampling(o.sampling);
  parseAnchor(o.anchor);
  parseExactness(o.exactness);
  oneOf('strategy', o.strategy, ['auto', 'rejection', 'enumerate']);
  checkWindow('task1Window', o.task1Window);
  checkWindow('task2Window', o.task2Window);
  const cuts = o.difficulty;
  if (!(Number.isFinite(cuts?.medium) && Number.isFinite(cuts?.easy) && cuts.medium <= cuts.easy))
    throw new ConfigError('difficulty', `must be {medium, easy} with medium ≤ easy, got ${JSON.stringify(cuts)}`);
  return o;
}

/** A cosine window's bounds: -1 ≤ lo < hi ≤ 1. */
function checkWindow(field: string, w: WindowBounds): void {
  if (!(w && w.lo >= -1 && w.lo < w.hi && w.hi <= 1))
    throw new ConfigError(field, `must be {lo, hi} with -1 ≤ lo < hi ≤ 1, got ${JSON.stringify(w)}`);
}

/** The fields of PresetOptions whose value differs from the preset's (what the caller overrode). */
export function presetOverrides(o: IntentionQaOptions): Partial<PresetOptions> {
  const base = PRESET_OPTIONS[o.preset];
  const out: Partial<Record<keyof PresetOptions, unknown>> = {};
  for (const key of Object.keys(base) as Array<keyof PresetOptions>) {
    if (JSON.stringify(o[key]) !== JSON.stringify(base[key])) out[key] = o[key];
  }
  return out as Partial<PresetOptions>;
}
