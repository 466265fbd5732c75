// Options shared by `pipeline` and `demo`: how embeddings and IntentionQA items are made, and the one
// function that turns them into the pipeline's {embed, items} options.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { SAMPLINGS } from '../../engine/search/windows.js';
import { ANCHORS, EXACTNESS_MODES } from '../../engine/items/intentionqa/run-context.js';
import { MIN_ASSERTIONS_FOR_WORKERS } from '../../engine/items/intentionqa/draft-pool.js';
import type { PipelineOptions } from '../../engine/pipeline/run-pipeline.js';
import { addNeighbourhoodModeOption } from './graph-options.js';
import { addEncodeWorkersOption, encoderOptions, type ModelCliOptions } from './model-options.js';
import { addBadInputOptions, inputLimits } from './bad-input.js';
import { addSeedOption } from './seed-option.js';
import { autoOrNonNegativeInt, fraction, seed } from './value-parsers.js';

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
      new Option('--sampling <how>', 'Task 1 distractors: uniform in the window (paper) or lowest (released code)')
        .choices(SAMPLINGS)
        .default('uniform'),
    )
    .addOption(
      new Option(
        '--anchor <which>',
        'Task 2 window anchored on the masked answer p_B (paper) or the given p_A (released code)',
      )
        .choices(ANCHORS)
        .default('answer'),
    )
    .addOption(
      new Option(
        '--exactness <how>',
        'window enumeration: exact (ranges around every anchor by matrix products, re-scored exactly), index (HNSW candidates, complete up to the index recall), auto (exact up to 1e11 anchor × product pairs, index above)',
      )
        .choices(EXACTNESS_MODES)
        .default('auto'),
    )
    .option('--typicality <min>', 'drop assertions below this typicality first (a number in [0, 1])', fraction, 0.5);
  return addBadInputOptions(withItems, 'a rejects file in the output folder');
}

/** The parsed values of addItemOptions. */
export type ItemCliOptions = ReturnType<
  ReturnType<typeof addItemOptions<[], Record<never, never>, Record<never, never>>>['opts']
>;

/**
 * The pipeline's options from the flags that `pipeline` and `demo` share: stage 1's neighbourhood
 * mode, encoder and encoding threads; stage 2's item settings and drafting threads; the error mode
 * and the input limits.
 */
export function pipelineStageOptions(o: ModelCliOptions & ItemCliOptions): Pick<
  PipelineOptions,
  'items' | 'onError' | 'limits' | 'progress'
> & {
  embed: Pick<PipelineOptions['embed'], 'mode' | 'encoder' | 'workers'>;
} {
  return {
    embed: { mode: o.mode, encoder: encoderOptions(o), workers: o.workers },
    items: {
      workers: o.itemWorkers,
      seed: o.seed,
      sampling: o.sampling,
      anchor: o.anchor,
      exactness: o.exactness,
      typicalityMin: o.typicality,
    },
    onError: o.onError,
    limits: inputLimits(o),
    progress: process.stderr.isTTY,
  };
}
