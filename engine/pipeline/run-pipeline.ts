// `intentsim pipeline`: products + assertions + graph → IntentionQA items, in one run.
//
// Data flows one way:
//   products → concepts → matched nodes → node context embeddings (deduplicated, cached) →
//   product embeddings → window search → windows → items.
// Stage 1 (embed) is engine/pipeline/run-embed.ts and stage 2 (items) is engine/items/intentionqa/; this file
// chains them, records where the time goes, and makes a rerun cheap:
//   - node embeddings persist in OUT/cache/node-embeddings.sqlite, so a rerun after a crash or
//     Ctrl-C embeds only the nodes that were not finished;
//   - the window search (exact ranges by matrix products, or for the largest runs an HNSW index)
//     persists next to the embeddings and is recomputed only when they or the anchors change;
//   - every output file is written to a temporary name and renamed into place;
//   - OUT is claimed first (core/output-claim.ts): locked, temporary files of killed runs removed,
//     and manifest.json removed until this run has finished.
// Layout of OUT:
//   embeddings/  embeddings.npy, ids.txt, phrases.jsonl, unembedded.jsonl, manifest.json (stage 1);
//                embeddings-mean.npy, the mean subtracted before cosines when centering (stage 2)
//   items/       intentionqa_task1.jsonl, intentionqa_task2.jsonl, intentionqa_dropped.jsonl,
//                intentionqa_summary.json, intentionqa_report.md/.svg (stage 2)
//   manifest.json  options, encoder, counts and per-stage timings of the whole run (written last)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { UserError, type OnError } from '../../core/errors.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { RejectsSink } from '../../core/rejects.js';
import { readJsonl, type InputLimits } from '../../core/jsonl.js';
import { redact } from '../../core/redact.js';
import type { NeighbourhoodMode } from '../../graph/graph-store.js';
import { embedPaths, runEmbed, type EmbedManifest, type EmbedRunOptions } from './run-embed.js';
import { runItemsStage, type PipelineItemOptions } from './items-stage.js';
import { readNpyFloat32 } from '../../core/npy.js';
import type { VectorSet } from '../../embeddings/sentence-encoder.js';
import { readAssertions } from '../items/intentionqa/assertions.js';
import type { Assertion } from '../items/intentionqa/assertions.js';
import {
  presetOverrides,
  wordAndFitRules,
  type WordAndFitRules,
  type Preset,
  type PresetOptions,
  type WindowBounds,
} from '../items/intentionqa/intentionqa-options.js';
import type { ValiditySettings } from '../items/intentionqa/validity-filters.js';
import { workerThreads } from '../../workers/encoder-spec.js';
import type { DifficultyCuts } from '../items/intentionqa/difficulty.js';
import type { EncoderDescription } from '../../embeddings/encoder-description.js';

/**
 * Stage 1's options: runEmbed's (graph, products, concepts, mode, encoder, chunkProducts, …),
 * less what the pipeline sets itself: the output folder (OUT/embeddings), the titles it hands to
 * stage 2, and the error mode, input limits and progress bar, which both stages share. `nodeCacheDir`, the
 * node-embedding cache root, defaults to OUT/cache here.
 */
export type PipelineEmbedOptions = Omit<EmbedRunOptions, 'out' | 'titles' | 'onError' | 'limits' | 'progress'>;

export { EMBEDDINGS_MEAN_FILE, type PipelineItemOptions } from './items-stage.js';

export interface PipelineOptions {
  embed: PipelineEmbedOptions;
  /** Assertions JSONL: stage 2's input. */
  assertions: string;
  items: PipelineItemOptions;
  out: string;
  onError: OnError;
  /** Limits on the input files' lines and texts (core/jsonl-batches.ts). */
  limits?: InputLimits;
  progress?: boolean;
  /** Set by `intentsim demo` when it fell back to the offline stand-in encoder: printed in every report. */
  caveat?: string;
  /** The item settings file some of `items` came from (`--settings`): recorded in the manifest. */
  settingsFile?: { file: string; sha256: string };
}

export interface PipelineManifest {
  format: 'intentsim-pipeline/1';
  inputs: { graph: string; products: string; assertions: string; concepts: string | null };
  options: WordAndFitRules & {
    mode: NeighbourhoodMode;
    workers: number;
    itemWorkers: number;
    seed: string;
    /** The preset the item options started from, and the fields given that differ from it. */
    preset: Preset;
    presetOverrides: Partial<PresetOptions>;
    /** The resolved item options (the preset's, then the overrides). */
    sampling: string;
    anchor: string;
    typicalityThreshold: number;
    typicalityComparison: string;
    excludeRelations: string[];
    relationScope: string;
    task2Universe: string;
    exactness: string;
    task1Window: WindowBounds;
    task2Window: WindowBounds;
    difficulty: DifficultyCuts;
    /** Whether the mean product embedding was subtracted before cosines. */
    center: boolean;
    /** How windows were enumerated (the report's words). */
    search: string;
    /** The validity filters (validity-filters.ts), on or off. */
    excludePairAsserted: boolean;
    excludeGeneric: boolean;
    excludeSecondAnswers: boolean;
    genericMinGroups: number;
    secondAnswerCosine: number;
    excludeKindAsserted: boolean;
    excludeGroupGeneric: boolean;
    groupGenericShare: number;
    excludeSubstitutes: boolean;
    substituteCosine: number;
    requireOverlap: boolean;
  };
  /** What the validity filters saw and caught (null when all three are off). */
  validity: ValiditySettings | null;
  /** The saved window ranges or index this run reloaded instead of computing (null: computed). */
  reusedSearch: string | null;
  /** Why the window search was computed rather than reloaded: nothing saved, other inputs, a damaged file (null: reloaded). */
  searchComputedBecause: string | null;
  caveat: string | null;
  /** The item settings file (`--settings`) and the SHA-256 of its bytes; absent when none was given. */
  settingsFile?: { file: string; sha256: string };
  encoder: EncoderDescription;
  counts: {
    products: number;
    productsEmbedded: number;
    assertions: number;
    assertionsRejected: number;
    task1Items: number;
    task2Items: number;
    /** Assertions without an item, per task and reason. */
    dropped: { task1: Record<string, number>; task2: Record<string, number>; both: Record<string, number> };
    /** Window members refused, per task and reason (false negatives, repeats, the validity rules) in the emitted items. */
    refused: { task1: Record<string, number>; task2: Record<string, number> };
  };
  sentences: { embeddedByEngine: number; releasedPipelineWouldEmbed: number };
  /** What makes the results doubtful although the run finished (collapsed similarities); also printed. */
  warnings: string[];
  /** Wall milliseconds per stage. */
  timings: Record<string, number>;
  outputs: { embeddings: string; items: string; report: string; mean: string | null };
}

/** Product id → normalised category phrases, as stage 1 wrote them (our own output: not re-validated). */
async function readPhrases(file: string, limits: InputLimits = {}): Promise<Map<string, string[]>> {
  const phrases = new Map<string, string[]>();
  for await (const { value } of readJsonl(file, (json) => json as { id: string; phrases: string[] }, limits)) {
    phrases.set(value.id, value.phrases);
  }
  return phrases;
}

export async function readEmbeddings(dir: string): Promise<VectorSet> {
  const matrix = await readNpyFloat32(join(dir, 'embeddings.npy'));
  const ids = (await readFile(join(dir, 'ids.txt'), 'utf8')).split('\n').filter((line) => line !== '');
  const [rows, dim] = matrix.shape;
  if (rows !== ids.length || dim === undefined) {
    throw new UserError(
      `${dir}: embeddings.npy has ${rows} rows but ids.txt has ${ids.length} ids: rerun the embed stage`,
    );
  }
  return { ids, dim, data: matrix.data };
}

/**
 * What runPipeline reads and writes, checked before any work (a command checks them before it opens
 * the encoder): stage 1's paths and the assertions.
 */
export function pipelinePaths(
  options: Pick<PipelineOptions, 'assertions' | 'out'> & {
    embed: Pick<PipelineEmbedOptions, 'graph' | 'products' | 'concepts' | 'nodeCacheDir' | 'nodeCache'>;
  },
): PathChecks {
  const stage1 = embedPaths({
    ...options.embed,
    out: join(options.out, 'embeddings'),
    nodeCacheDir: options.embed.nodeCacheDir ?? join(options.out, 'cache'),
  });
  return {
    inputFiles: { ...stage1.inputFiles, assertions: options.assertions },
    outputDirs: { out: options.out, ...stage1.outputDirs },
  };
}

export async function runPipeline(options: PipelineOptions): Promise<PipelineManifest> {
  // Paths first: the claim creates the output folder, and a bad path must fail before that.
  checkPaths(pipelinePaths(options));
  const completionFiles = [join(options.out, 'manifest.json')];
  return withClaimedOutput(options.out, 'folder', { completionFiles }, () => runClaimed(options));
}

async function runClaimed(options: PipelineOptions): Promise<PipelineManifest> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  const embeddingsDir = join(options.out, 'embeddings');
  const itemsDir = join(options.out, 'items');

  // The assertions first: a bad assertions file fails before any embedding.
  let t = performance.now();
  const assertionRejects = new RejectsSink(join(itemsDir, 'assertions.rejects.jsonl'));
  const assertions: Assertion[] = [];
  for await (const a of readAssertions(options.assertions, {
    ...options.limits,
    onError: options.onError,
    rejects: assertionRejects,
  }))
    assertions.push(a);
  await assertionRejects.close();
  timings.loadAssertions = Math.round(performance.now() - t);

  // Stage 1: context embeddings of every product (resumable through the node cache).
  t = performance.now();
  const titles = new Map<string, string>(); // filled by stage 1 (read once), used by stage 2
  const embed: EmbedManifest = await runEmbed({
    ...options.embed,
    titles,
    out: embeddingsDir,
    nodeCacheDir: options.embed.nodeCacheDir ?? join(options.out, 'cache'),
    onError: options.onError,
    limits: options.limits,
    progress: options.progress,
  });
  timings.embed = Math.round(performance.now() - t);
  for (const [stage, ms] of Object.entries(embed.timings)) timings[`embed.${stage}`] = ms;

  // Stage 2: items from the embeddings, with the windows and centering the encoder calls for unless
  // the options say otherwise (items-stage.ts, the same code as for given vectors).
  t = performance.now();
  const vectorSet = await readEmbeddings(embeddingsDir);
  const phrases = await readPhrases(join(embeddingsDir, 'phrases.jsonl'), options.limits);
  timings.loadInputs = Math.round(performance.now() - t);
  const encoder = embed.encoder;
  const stage = await runItemsStage({
    assertions,
    titles,
    phrases,
    productVectors: vectorSet,
    calibration: { encoder: encoder.encoder, vectors: 'context' },
    textEncoder: options.embed.encoder,
    items: options.items,
    searchDir: embeddingsDir,
    itemsDir,
    progress: options.progress,
    ...(options.caveat ? { caveat: options.caveat } : {}),
    encoderName: { name: encoder.sentenceBert ? encoder.model : encoder.encoder, sentenceBert: encoder.sentenceBert },
  });
  Object.assign(timings, stage.timings);
  const { run, written, center, itemWorkers, settings, warnings } = stage;
  timings.total = Math.round(performance.now() - started);

  const o = run.options;
  const manifest: PipelineManifest = {
    format: 'intentsim-pipeline/1',
    inputs: {
      graph: redact(options.embed.graph),
      products: options.embed.products,
      assertions: options.assertions,
      concepts: options.embed.concepts ?? null,
    },
    options: {
      mode: options.embed.mode,
      workers: workerThreads(options.embed.encoder.execution),
      itemWorkers,
      seed: String(o.seed),
      preset: o.preset,
      presetOverrides: presetOverrides(o),
      sampling: o.sampling,
      anchor: o.anchor,
      typicalityThreshold: o.typicalityThreshold,
      typicalityComparison: o.typicalityComparison,
      excludeRelations: [...o.excludeRelations],
      relationScope: o.relationScope,
      task2Universe: o.task2Universe,
      exactness: o.exactness,
      task1Window: o.task1Window,
      task2Window: o.task2Window,
      difficulty: o.difficulty,
      center,
      search: settings.search,
      excludePairAsserted: o.excludePairAsserted,
      excludeGeneric: o.excludeGeneric,
      excludeSecondAnswers: o.excludeSecondAnswers,
      genericMinGroups: o.genericMinGroups,
      secondAnswerCosine: o.secondAnswerCosine,
      excludeKindAsserted: o.excludeKindAsserted,
      excludeGroupGeneric: o.excludeGroupGeneric,
      groupGenericShare: o.groupGenericShare,
      excludeSubstitutes: o.excludeSubstitutes,
      substituteCosine: o.substituteCosine,
      ...wordAndFitRules(o),
      requireOverlap: o.requireOverlap,
    },
    validity: run.validitySettings() ?? null,
    caveat: options.caveat ?? null,
    ...(options.settingsFile ? { settingsFile: options.settingsFile } : {}),
    reusedSearch: run.context.reusedSearchFrom ?? null,
    searchComputedBecause: run.context.searchComputedBecause ?? null,
    encoder: embed.encoder,
    counts: {
      products: embed.counts.products,
      productsEmbedded: embed.counts.embedded,
      assertions: assertions.length + assertionRejects.count,
      assertionsRejected: assertionRejects.count,
      task1Items: written.stats.task1.items,
      task2Items: written.stats.task2.items,
      dropped: {
        task1: written.stats.task1.dropped,
        task2: written.stats.task2.dropped,
        both: written.stats.droppedBoth,
      },
      refused: { task1: written.stats.task1.refused, task2: written.stats.task2.refused },
    },
    sentences: {
      embeddedByEngine: embed.counts.context.sentencesEncoded,
      releasedPipelineWouldEmbed: embed.counts.releasedPipelineSentences,
    },
    warnings,
    timings,
    outputs: {
      embeddings: embeddingsDir,
      items: itemsDir,
      report: written.files.report,
      mean: stage.meanFile,
    },
  };
  await writeFileAtomic(join(options.out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}
