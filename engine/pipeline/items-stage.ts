// The pipeline's stage 2, one implementation for both sources of product vectors: context
// embeddings made from a graph (run-pipeline.ts) and vectors the user gives (`--product-vectors`,
// run-from-vectors.ts). From the vectors on, every step and every validity rule is this code:
//   calibration (windows, cut points, centering and the rules' cut-offs for the encoder and the kind
//   of vectors, unless given) → centering → the intention and title vectors of the rules, made by
//   the run's encoder → the window search → the draws → the items, the report and the warnings.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeNpyMatrix } from '../../core/npy.js';
import { warning } from '../../core/notice.js';
import type { SentenceEncoder, VectorSet } from '../../embeddings/sentence-encoder.js';
import type { Assertion } from '../items/intentionqa/assertions.js';
import { IntentionQaRun } from '../items/intentionqa/build-items.js';
import { calibratedSettings, type VectorsKind } from '../items/intentionqa/calibration.js';
import { collapsedSimilarityWarning } from '../items/intentionqa/collapsed-similarities.js';
import { draftInParallel, resolveItemWorkers } from '../items/intentionqa/draft-pool.js';
import type { IntentionFitVectors } from '../items/intentionqa/intention-fit.js';
import { anyFitRule, resolveOptions, type IntentionQaSettings } from '../items/intentionqa/intentionqa-options.js';
import type { ReportSettings } from '../items/intentionqa/intentionqa-report.js';
import { intentionRows, titleRows } from '../items/intentionqa/rule-vectors.js';
import { writeItems, type WrittenItems } from '../items/intentionqa/write-items.js';
import { titleKinds } from '../items/intentionqa/title-kinds.js';
import { centerVectors } from '../search/centering.js';
import { UnitVectors } from '../search/unit-vectors.js';

/**
 * Stage 2's options: a preset and overrides (how items are drawn), and how many threads draft them.
 * Windows, difficulty cut points, centering and the rules' cut-offs left undefined take the encoder's
 * calibration (engine/items/intentionqa/calibration.ts).
 */
export interface PipelineItemOptions extends IntentionQaSettings {
  /** Worker threads drafting items (0 = main thread; auto, the default = every core for large runs). */
  workers?: number | 'auto';
  /** Subtract the mean product embedding before every cosine (written to embeddings/embeddings-mean.npy). */
  center?: boolean;
}

/** The file the mean subtracted by centering is written to, next to the vectors' window search. */
export const EMBEDDINGS_MEAN_FILE = 'embeddings-mean.npy';

export interface ItemsStageInput {
  assertions: readonly Assertion[];
  /** Product id → title. */
  titles: ReadonlyMap<string, string>;
  /** Product id → normalised category phrases. */
  phrases: ReadonlyMap<string, readonly string[]>;
  /** The product vectors the windows are drawn in. */
  productVectors: VectorSet;
  /**
   * Whose calibration applies: the encoder that made the vectors and what they embed (context
   * embeddings or titles); null when the vectors' encoder is unknown (the windows must then be given).
   */
  calibration: { encoder: string; vectors: VectorsKind } | null;
  /**
   * The run's encoder: it encodes the intention texts and the titles that the validity rules compare
   * (second-answer, unexplained, fits-as-well). Absent: those rules compare only equal texts or hold
   * for nothing, and the report says so.
   */
  textEncoder?: SentenceEncoder;
  /**
   * Kinds from clusters of the title vectors (title-kinds.ts) instead of the category phrases: for
   * phrases that are only the titles' head phrases, which split one kind into many. Needs textEncoder.
   */
  kindsFromTitles?: boolean;
  items: PipelineItemOptions;
  /** Where the window search and the centering mean are saved (reused by a rerun). */
  searchDir: string;
  itemsDir: string;
  progress?: boolean;
  /** Printed at the top of the report (what makes the results doubtful), if anything. */
  caveat?: string;
  /** The encoder the report names (the one that made the product vectors). */
  encoderName: { name: string; sentenceBert: boolean };
}

export interface ItemsStageResult {
  run: IntentionQaRun;
  written: WrittenItems;
  center: boolean;
  /** The mean subtracted by centering, or null. */
  meanFile: string | null;
  itemWorkers: number;
  settings: ReportSettings;
  warnings: string[];
  timings: Record<string, number>;
}

export async function runItemsStage(input: ItemsStageInput): Promise<ItemsStageResult> {
  const timings: Record<string, number> = {};
  const { workers: itemWorkerRequest = 'auto', center: givenCenter, ...given } = input.items;
  const { center, settings: itemOptions } = input.calibration
    ? calibratedSettings(input.calibration.encoder, { ...given, center: givenCenter }, input.calibration.vectors)
    : { center: givenCenter ?? false, settings: given };
  const resolved = resolveOptions(itemOptions);

  // The texts the rules compare, encoded once by the run's encoder.
  let t = performance.now();
  const encoder = input.textEncoder;
  const needsIntentions = resolved.excludeSecondAnswers || anyFitRule(resolved);
  // Intention and title vectors are centered like the products (each on its own mean).
  const intentionVectors =
    encoder && needsIntentions ? await intentionRows(encoder, input.assertions, center) : undefined;
  const needsTitles = anyFitRule(resolved) || input.kindsFromTitles === true;
  const titles = encoder && needsTitles ? await titleRows(encoder, input.titles, center) : undefined;
  const fits: IntentionFitVectors | undefined =
    intentionVectors && titles && anyFitRule(resolved) ? { intentions: intentionVectors, titles } : undefined;
  const kindLabels = input.kindsFromTitles && titles ? titleKinds(titles) : undefined;
  timings.encodeIntentions = Math.round(performance.now() - t);

  t = performance.now();
  const meanFile = join(input.searchDir, EMBEDDINGS_MEAN_FILE);
  let vectorSet = input.productVectors;
  if (center) {
    const centered = centerVectors(vectorSet);
    await writeNpyMatrix(meanFile, centered.mean, 1, vectorSet.dim);
    vectorSet = centered.centered;
  } else {
    await rm(meanFile, { force: true }); // a previous centered run's mean no longer describes these outputs
  }
  const run = await IntentionQaRun.prepare({
    products: input.titles,
    assertions: input.assertions,
    // Normalised once; the raw matrix is not kept (it would double the largest allocation of the stage).
    embeddings: UnitVectors.fromVectorSet(vectorSet),
    phrases: input.phrases,
    ...(intentionVectors ? { intentionVectors } : {}),
    ...(fits ? { fitVectors: fits } : {}),
    ...(kindLabels ? { kindLabels } : {}),
    options: {
      ...itemOptions,
      indexPath: join(input.searchDir, 'products.hnsw'),
      rangesPath: join(input.searchDir, 'window-ranges.bin'),
      progress: input.progress ?? false,
    },
  });
  timings.search = Math.round(performance.now() - t); // MatrixRanges, or the HNSW index built or loaded

  t = performance.now();
  const itemWorkers = resolveItemWorkers(itemWorkerRequest, run.size);
  const records =
    itemWorkers > 0 ? draftInParallel(run, { workers: itemWorkers, progress: input.progress ?? false }) : run.records();
  const settings = run.settings({
    ...(input.caveat ? { caveat: input.caveat } : {}),
    encoder: { ...input.encoderName, centered: center },
  });
  const written = await writeItems(records, input.itemsDir, settings);
  timings.items = Math.round(performance.now() - t);
  const collapsed = collapsedSimilarityWarning(run.similarityDistribution(), settings.encoder?.name ?? 'the encoder');
  const warnings = collapsed === undefined ? [] : [collapsed];
  for (const w of warnings) warning(w);
  return { run, written, center, meanFile: center ? meanFile : null, itemWorkers, settings, warnings, timings };
}
