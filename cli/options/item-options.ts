// Options shared by `pipeline` and `demo`: how embeddings and IntentionQA items are made, and the one
// function that turns them into the pipeline's {embed, items} options.
//
// The flags a preset sets have no default here: a flag the user did not give stays undefined, so
// the library resolves it from --preset (engine/items/intentionqa/intentionqa-options.ts), and a
// flag the user gave overrides the preset.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { SAMPLINGS } from '../../engine/search/windows.js';
import {
  ANCHORS,
  EXACTNESS_MODES,
  PRESETS,
  PRESET_OPTIONS,
  RELATION_SCOPES,
  TASK2_UNIVERSES,
  TYPICALITY_COMPARISONS,
  MIN_ASSERTIONS_FOR_WORKERS,
  type PresetOptions,
  type ValidityRuleField,
} from '../../engine/items/intentionqa/intentionqa-options.js';
import type { PipelineOptions } from '../../engine/pipeline/run-pipeline.js';
import { readItemSettings, type ItemSettings } from '../../engine/items/intentionqa/item-settings-file.js';
import { warning } from '../../core/notice.js';
import { progressWanted } from '../../core/progress.js';
import { addNeighbourhoodModeOption } from './graph-options.js';
import { addEncodeWorkersOption, encoderExecution, encoderSpec, type ModelCliOptions } from './model-options.js';
import type { EncoderExecution, EncoderSpec } from '../../workers/encoder-spec.js';
import type { QueueOptions } from '../../workers/queue/job-client.js';
import { addBadInputOptions, inputLimits } from './bad-input.js';
import { addSeedOption } from './seed-option.js';
import {
  autoOrNonNegativeInt,
  cosineBounds,
  difficultyCuts,
  fraction,
  nameList,
  number,
  positiveInt,
  seed,
} from './value-parsers.js';

/** The flag of each field a preset sets (a new preset row fails to compile until it has a flag). */
const PRESET_FLAGS: Record<keyof PresetOptions, string> = {
  sampling: '--sampling',
  relationScope: '--relation-scope',
  anchor: '--anchor',
  task2Universe: '--task2-universe',
  typicalityComparison: '--typicality-comparison',
  excludeRelations: '--exclude-relations',
  excludePairAsserted: '--exclude-pair-asserted',
  excludeGeneric: '--exclude-generic',
  excludeSecondAnswers: '--exclude-second-answers',
  excludeKindAsserted: '--exclude-kind-asserted',
  excludeGroupGeneric: '--exclude-group-generic',
  excludeSubstitutes: '--exclude-substitutes',
  excludeVacuous: '--exclude-vacuous',
  excludeUnexplained: '--exclude-unexplained',
  excludeFitsAsWell: '--exclude-fits-as-well',
  excludeKindWords: '--exclude-kind-words',
  excludeUnanchored: '--exclude-unanchored',
  excludeTitleWords: '--exclude-title-words',
};

/** The help text's default for a flag that a preset sets: each preset's value. */
function presetDefault(field: keyof PresetOptions): string {
  const show = (v: PresetOptions[keyof PresetOptions]) =>
    Array.isArray(v) ? (v.length === 0 ? 'none' : v.join(',')) : String(v);
  return `(default: the preset's; ${PRESETS.map((p) => `${p}: ${show(PRESET_OPTIONS[p][field])}`).join(', ')})`;
}

/** The validity rules' switches (VALIDITY_RULE_FIELDS): what each does, and what its --no- form calls it. */
const RULE_SWITCHES: ReadonlyArray<{ field: ValidityRuleField; help: string; off: string }> = [
  {
    field: 'excludePairAsserted',
    help: `validity filter: no Task-1 distractor is an intention asserted for the same product pair (any typicality or relation), no Task-2 distractor is asserted with p_A for the gold's intention`,
    off: 'the pair-asserted filter',
  },
  {
    field: 'excludeGeneric',
    help: `validity filter: an intention asserted across ≥ --generic-min-groups unrelated concept groups is never a distractor, and its own assertion is dropped (generic-gold)`,
    off: 'the generic filter',
  },
  {
    field: 'excludeSecondAnswers',
    help: `validity filter: no distractor whose intention is within --second-answer-cosine of one asserted for the pair (Task 1) or of the gold's, asserted with p_A (Task 2)`,
    off: 'the second-answer filter',
  },
  {
    field: 'excludeKindAsserted',
    help: `validity rule: no Task-1 distractor asserted for another pair of the same kinds of products, no Task-2 distractor that forms with p_A a pair of kinds asserted for the gold's intention (or one within --second-answer-cosine)`,
    off: 'the kind-asserted rule',
  },
  {
    field: 'excludeGroupGeneric',
    help: `validity rule: a text asserted for ≥ --group-generic-share of the kind pairs of a group (products sharing a category phrase held by several kinds) is no distractor within that group`,
    off: 'the group-generic rule',
  },
  {
    field: 'excludeSubstitutes',
    help: `validity rule: no Task-2 distractor of the gold's kind or with Sim_p to the gold ≥ --substitute-cosine`,
    off: 'the substitute rule',
  },
  {
    field: 'excludeVacuous',
    help: `validity rule: an intention every word of which is used for pairs across ≥ --vacuous-word-groups unrelated concept groups says nothing of a product: no distractor, and its own assertion is dropped (vacuous-gold)`,
    off: 'the vacuous rule',
  },
  {
    field: 'excludeUnexplained',
    help: `validity rule: an assertion whose intention fits its own two titles less than --explained-min-fit explains nothing: no item (unexplained)`,
    off: 'the unexplained rule',
  },
  {
    field: 'excludeFitsAsWell',
    help: `validity rule: no Task-2 distractor product that the gold's intention fits within --fit-margin of its fit to the item's pair`,
    off: 'the fits-as-well rule',
  },
  {
    field: 'excludeKindWords',
    help: `validity rule: no Task-2 distractor product of a kind (title clusters) whose intentions share a particular word with the gold's`,
    off: 'the kind-words rule',
  },
  {
    field: 'excludeUnanchored',
    help: `validity rule: no Task-1 distractor that fits the item's pair within --anchor-margin of its fit to the pair it was asserted for (it belongs to no pair in particular)`,
    off: 'the unanchored rule',
  },
  {
    field: 'excludeTitleWords',
    help: `validity rule: no Task-2 distractor product whose title shares a content word with the gold's or the given product's title; with title-cluster kinds, no Task-1 distractor asserted for a pair whose titles share one with the item's pair's`,
    off: 'the title-words rule',
  },
];

/** The parsed rule switches: each field true or false when its flag or --no- form was given, else absent. */
type RuleSwitches = { [K in ValidityRuleField]?: boolean };

/**
 * The validity rules' switches (docs/intentionqa.md, "Validity filters"): each flag and its --no-
 * form; neither given, the preset decides (on in paper, off in released). Added from one table and
 * typed as one flat object: chained one by one they nest deeper than the compiler instantiates.
 */
function addRuleSwitches<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
): Command<Args, Opts & RuleSwitches, Globals> {
  for (const { field, help, off } of RULE_SWITCHES) {
    const flag = PRESET_FLAGS[field];
    cmd.option(flag, `${help} ${presetDefault(field)}`);
    cmd.option(`--no-${flag.slice(2)}`, `turn ${off} off, whatever the preset`);
  }
  return cmd as unknown as Command<Args, Opts & RuleSwitches, Globals>;
}

export function addItemOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  const withEmbedding = addEncodeWorkersOption(addNeighbourhoodModeOption(cmd)).option(
    '--item-workers <n>',
    `worker threads drafting items (0: main thread; auto: every core when there are ≥ ${MIN_ASSERTIONS_FOR_WORKERS} assertions); the items are identical either way`,
    autoOrNonNegativeInt,
    'auto',
  );
  const withItems = addSeedOption(withEmbedding, seed)
    .addOption(
      new Option(
        '--preset <name>',
        `the paper's method or the released code's (docs/intentionqa.md): sets ${Object.values(PRESET_FLAGS).join(', ')}; each of those, given too, overrides it`,
      )
        .choices(PRESETS)
        .default('paper'),
    )
    .addOption(
      new Option(
        '--sampling <how>',
        `Task 1 distractors: uniform in the window (paper) or lowest (released code) ${presetDefault('sampling')}`,
      ).choices(SAMPLINGS),
    )
    .addOption(
      new Option(
        '--relation-scope <scope>',
        `Task 1 distractors from assertions of any relation (mixed) or of the assertion's own relation (same: the released code's by-relation set) ${presetDefault('relationScope')}`,
      ).choices(RELATION_SCOPES),
    )
    .addOption(
      new Option(
        '--anchor <which>',
        `Task 2 window anchored on the masked answer p_B (paper) or the given p_A (released code) ${presetDefault('anchor')}`,
      ).choices(ANCHORS),
    )
    .addOption(
      new Option(
        '--task2-universe <which>',
        `Task 2 distractors among the products of the kept assertions (assertions: the released code) or every product with a vector (catalog) ${presetDefault('task2Universe')}`,
      ).choices(TASK2_UNIVERSES),
    )
    .addOption(
      new Option(
        '--exactness <how>',
        'window enumeration: exact (ranges around every anchor by matrix products, re-scored exactly), index (HNSW candidates, complete up to the index recall), auto (exact up to 1e11 anchor × product pairs, index above)',
      )
        .choices(EXACTNESS_MODES)
        .default('auto'),
    )
    .option(
      '--typicality <threshold>',
      'the typicality filter: keep assertions above this threshold (a number in [0, 1]; --typicality-comparison at-least keeps the threshold itself too)',
      fraction,
      0.5,
    )
    .addOption(
      new Option(
        '--typicality-comparison <how>',
        `above: keep typicality > threshold (paper and released code); at-least: keep ≥ threshold ${presetDefault('typicalityComparison')}`,
      ).choices(TYPICALITY_COMPARISONS),
    )
    .addOption(
      new Option(
        '--exclude-relations <list>',
        `drop the assertions of these relations first (comma-separated; none: drop none) ${presetDefault('excludeRelations')}`,
      ).argParser(nameList),
    );
  const withCutoffs = addRuleSwitches(withItems)
    .option(
      '--group-generic-share <x>',
      "the group-generic rule's share of a group's kind pairs, in (0, 1] (default 0.5)",
      fraction,
    )
    .option(
      '--substitute-cosine <x>',
      "the substitute rule's cut on Sim_p(candidate, gold) (default: the encoder's; 0.9 for Sentence-BERT)",
      number,
    )
    .option(
      '--vacuous-word-groups <n>',
      "the vacuous rule's cut-off: unrelated concept groups a word's pairs span for the word to be generic (default 6)",
      positiveInt,
    )
    .option(
      '--explained-min-fit <x>',
      "the unexplained rule's cut-off on the gold's fit to its two titles (default: the encoder's; -0.1 for Sentence-BERT, not measured)",
      number,
    )
    .option(
      '--fit-margin <x>',
      "the fits-as-well rule's margin below the gold's fit (default: the encoder's; -0.1 for Sentence-BERT, not measured)",
      number,
    )
    .option(
      '--anchor-margin <x>',
      "the unanchored rule's margin: how much better a Task-1 distractor must fit its own pair than the item's (default: the encoder's; -0.1 for Sentence-BERT, not measured)",
      number,
    )
    .option(
      '--generic-min-groups <n>',
      "the generic filter's cut-off: distinct unrelated concept groups (default 3)",
      positiveInt,
    )
    .option(
      '--second-answer-cosine <x>',
      "the second-answer filter's cosine threshold between intention texts (default: the encoder's; 0.8 for Sentence-BERT)",
      number,
    );
  // No defaults here: left out, they take the encoder's calibration (the paper's for Sentence-BERT).
  const withWindows = withCutoffs
    .option(
      '--task1-window <lo,hi>',
      "Task 1 distractor window on Sim_i (default: the encoder's; the paper's [0.6, 0.9] for Sentence-BERT)",
      cosineBounds,
    )
    .option(
      '--task2-window <lo,hi>',
      "Task 2 distractor window on Sim_p, [lo, hi) (default: the encoder's; the paper's [0.7, 0.9) for Sentence-BERT)",
      cosineBounds,
    )
    .option(
      '--difficulty-cuts <medium,easy>',
      "difficulty from Sim_p(p1, p2): ≥ easy easy, ≥ medium medium, else hard (default: the encoder's; the paper's 0.6,0.85)",
      difficultyCuts,
    )
    .option(
      '--require-overlap',
      "distractors need concept overlap with the question's products (default: on, off for title vectors of glove-100d)",
    )
    .option('--no-require-overlap', 'distractors need no concept overlap')
    .option(
      '--center',
      'subtract the mean product embedding before cosines (default: on for glove-100d, off for Sentence-BERT)',
    )
    .option('--no-center', 'do not center, whatever the encoder')
    .option(
      '--settings <file>',
      "an item settings file (`intentsim tune` writes one): its windows and rules' cut-offs, each unless its flag (--task1-window, --task2-window, --anchor-margin, --fit-margin, --second-answer-cosine) is given too; the manifest records it and its SHA-256",
    );
  return addBadInputOptions(withWindows, 'a rejects file in the output folder');
}

/** The flag of each setting an item settings file may hold (`intentsim tune` writes them). */
export const SETTING_FLAGS: Record<keyof ItemSettings, string> = {
  task1Window: '--task1-window',
  task2Window: '--task2-window',
  anchorMargin: '--anchor-margin',
  fitMargin: '--fit-margin',
  secondAnswerCosine: '--second-answer-cosine',
};

/** The parsed values of addItemOptions. */
export type ItemCliOptions = ReturnType<
  ReturnType<typeof addItemOptions<[], Record<never, never>, Record<never, never>>>['opts']
>;

/**
 * The pipeline's options from the flags that `pipeline` and `demo` share: the encoder to open (its
 * spec, and its execution: the encoding threads, or `queue`); stage 1's neighbourhood mode; stage 2's
 * item settings and drafting threads; the error mode and the input limits.
 */
export function pipelineStageOptions(
  o: ModelCliOptions & ItemCliOptions,
  queue?: QueueOptions,
): Pick<PipelineOptions, 'items' | 'onError' | 'limits' | 'progress' | 'settingsFile'> & {
  encoder: { spec: EncoderSpec; execution: EncoderExecution };
  embed: Pick<PipelineOptions['embed'], 'mode'>;
} {
  // A flag given explicitly overrides the settings file (these flags have no defaults).
  const settings = o.settings === undefined ? undefined : readItemSettings(o.settings);
  const flagOf: Record<keyof ItemSettings, unknown> = {
    task1Window: o.task1Window,
    task2Window: o.task2Window,
    anchorMargin: o.anchorMargin,
    fitMargin: o.fitMargin,
    secondAnswerCosine: o.secondAnswerCosine,
  };
  // A setting tune found none for is left at its default: said, not silent (issue 45).
  for (const [field, why] of Object.entries(settings?.notTuned ?? {})) {
    if (flagOf[field as keyof ItemSettings] !== undefined) continue;
    const flag = SETTING_FLAGS[field as keyof ItemSettings];
    warning(
      field === 'task1Window' || field === 'task2Window'
        ? `${settings!.file}: tune found no ${flag} (${why}); the default window is used for it, ` +
            `which did not meet tune's target (give ${flag} to choose one)`
        : `${settings!.file}: tune found no ${flag} (${why}); the default is used for it (give ${flag} to choose one)`,
    );
  }
  const fromFile = settings?.items ?? {};
  return {
    encoder: { spec: encoderSpec(o), execution: encoderExecution(o, { workers: o.workers, queue }) },
    embed: { mode: o.mode },
    items: {
      workers: o.itemWorkers,
      seed: o.seed,
      preset: o.preset,
      sampling: o.sampling,
      relationScope: o.relationScope,
      anchor: o.anchor,
      task2Universe: o.task2Universe,
      exactness: o.exactness,
      typicalityThreshold: o.typicality,
      typicalityComparison: o.typicalityComparison,
      excludeRelations: o.excludeRelations,
      excludePairAsserted: o.excludePairAsserted,
      excludeGeneric: o.excludeGeneric,
      excludeSecondAnswers: o.excludeSecondAnswers,
      genericMinGroups: o.genericMinGroups,
      secondAnswerCosine: o.secondAnswerCosine ?? fromFile.secondAnswerCosine,
      excludeKindAsserted: o.excludeKindAsserted,
      excludeGroupGeneric: o.excludeGroupGeneric,
      groupGenericShare: o.groupGenericShare,
      excludeSubstitutes: o.excludeSubstitutes,
      substituteCosine: o.substituteCosine,
      requireOverlap: o.requireOverlap,
      excludeVacuous: o.excludeVacuous,
      vacuousWordGroups: o.vacuousWordGroups,
      excludeUnexplained: o.excludeUnexplained,
      explainedMinFit: o.explainedMinFit,
      excludeFitsAsWell: o.excludeFitsAsWell,
      fitMargin: o.fitMargin ?? fromFile.fitMargin,
      excludeKindWords: o.excludeKindWords,
      excludeUnanchored: o.excludeUnanchored,
      anchorMargin: o.anchorMargin ?? fromFile.anchorMargin,
      excludeTitleWords: o.excludeTitleWords,
      task1Window: o.task1Window ?? fromFile.task1Window,
      task2Window: o.task2Window ?? fromFile.task2Window,
      difficulty: o.difficultyCuts,
      center: o.center,
    },
    onError: o.onError,
    limits: inputLimits(o),
    progress: progressWanted(),
    ...(settings ? { settingsFile: { file: settings.file, sha256: settings.sha256 } } : {}),
  };
}
