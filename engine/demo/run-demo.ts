// `intentsim demo`, the README's main command: the generated demo world through the whole IntentionQA
// pipeline, plus SessionIntentBench assembly on the sample sessions. Layout of OUT:
//   world/        graph.sqlite, products.jsonl, assertions.jsonl, concepts.jsonl, world.json
//                 (deterministic, reused when world.json says it was written whole with this seed
//                 and this version of the world's vocabulary, DEMO_WORLD_VERSION)
//   intentionqa/  the pipeline's output (engine/pipeline/run-pipeline.ts)
//   intentionqa-unfiltered/  the same run with the validity filters off (only when one is on), whose
//                 items the embedding solver also answers (evaluation/unfiltered/) for the report's
//                 validity section (solver-comparison.ts)
//   sib-input/    the sample sessions, annotations and catalogue
//   sib/          SessionIntentBench tasks and distractor-backed items
//   evaluation/   the embedding solver's answers to the IntentionQA items (responses_task1.jsonl,
//                 responses_task2.jsonl) and their scores next to RANDOM and MAJORITY (scores/)
// It uses all-MiniLM-L6-v2 when it can be found; if it cannot, it falls back to glove-100d (averaged
// GloVe word vectors, from an optional npm package: meaningful, coarser), and only without that
// package to the offline stand-in encoder; a fallback is announced on stderr, in what it returns and
// in every manifest and report. The encoder is opened once, and every stage uses it. The pipeline
// takes the windows and centering the encoder calls for (engine/items/intentionqa/calibration.ts).
// OUT is claimed first (core/output-claim.ts: locked, temporary files of killed runs removed), and
// each part claims its own folder and removes its completion file (world.json, intentionqa's
// manifest.json, sib-summary.json) before rewriting it.
import { existsSync, rmSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { readJsonFile } from '../../core/file-errors.js';
import { checkPaths } from '../../core/check-paths.js';
import { UserError, type OnError } from '../../core/errors.js';
import type { InputLimits } from '../../core/jsonl.js';
import { resolveEncoderOrStandIn, withEncoder } from '../../workers/open-encoder.js';
import { LOCAL_EXECUTION, type EncoderExecution, type EncoderSpec } from '../../workers/encoder-spec.js';
import type { Encoder } from '../../workers/encoder.js';
import { HASHING_ENCODER_NAME } from '../../embeddings/hashing-encoder.js';
import { assembleSib, type SibSummary } from '../items/sib/assemble-sib.js';
import { DEFAULT_WINDOWS, type DistractorWindows } from '../items/sib/distractors.js';
import { PROMPT_STYLES } from '../items/sib/sib-types.js';
import { DEFAULT_INTENTIONQA_OPTIONS, VALIDITY_RULE_FIELDS } from '../items/intentionqa/intentionqa-options.js';
import {
  runPipeline,
  type PipelineEmbedOptions,
  type PipelineItemOptions,
  type PipelineManifest,
  type PipelineOptions,
} from '../pipeline/run-pipeline.js';
import { solveByEmbedding } from '../evaluation/embedding-solver.js';
import { scoreIntentionQa } from '../scoring/intentionqa/score-intentionqa.js';
import type { IntentionQaScoreSummary } from '../scoring/intentionqa/intentionqa-score-types.js';
import { INTENTIONQA_FILES } from '../items/intentionqa/write-items.js';
import { DEMO_WORLD_VERSION, writeDemo } from './demo-world.js';
import {
  appendSolverComparison,
  appendWarnings,
  belowChanceWarnings,
  solverAccuracy,
  type SolverComparison,
} from './solver-comparison.js';
import { writeSampleFiles } from './sib-sample-data.js';
import { makeDirs } from '../../core/make-dirs.js';

export interface RunDemoOptions {
  /** Output folder: world/, intentionqa/, sib-input/, sib/. */
  out: string;
  /**
   * The encoder every stage uses, opened once: the model (all-MiniLM-L6-v2 by default; when it cannot
   * be found, glove-100d, else the stand-in: see resolveEncoderOrStandIn) and where it runs (default
   * this thread).
   */
  encoder: { spec: EncoderSpec; execution?: EncoderExecution };
  /** Stage 1's options, less its inputs (the demo world is the input) and the encoder. */
  embed: Omit<PipelineEmbedOptions, 'graph' | 'products' | 'concepts' | 'encoder'>;
  /** Stage 2's options; `items.seed` also seeds the world and the SessionIntentBench tasks. */
  items: PipelineItemOptions;
  onError: OnError;
  limits?: InputLimits;
  progress?: boolean;
  /** Where the demo says what it is doing, and the stand-in's banner (default: stderr). */
  log?: (text: string) => void;
  /** The item settings file some of `items` came from (`--settings`): recorded in the manifest. */
  settingsFile?: PipelineOptions['settingsFile'];
}

export interface DemoRun {
  pipeline: PipelineManifest;
  sib: { summary: SibSummary; dir: string; distractorItems: number };
  /** The embedding solver on the IntentionQA items, scored: the demo's closing table. */
  evaluation: { summary: IntentionQaScoreSummary; dir: string };
  /** With a validity filter on: the solver on the filtered items beside the same run's unfiltered ones. */
  solverComparison?: SolverComparison;
  /** Where the embedding solver scores below chance on a task (printed on stderr, appended to the report). */
  solverWarnings: string[];
  /** Set when the demo's encoder is not Sentence-BERT: what every report says about it. */
  caveat?: string;
  seconds: number;
}

/** A world folder is reused when it was written completely with the same seed and world version. */
async function ensureDemoWorld(dir: string, seed: number): Promise<void> {
  const marker = join(dir, 'world.json');
  if (existsSync(marker)) {
    const done = (await readJsonFile(marker, {
      what: 'demo world marker',
      ifDamaged: 'delete it: the demo writes the world again',
    })) as { seed?: number; version?: number };
    if (done.seed === seed && done.version === DEMO_WORLD_VERSION && existsSync(join(dir, 'graph.sqlite'))) return;
  }
  // The marker goes first: a world rewritten half-way must not be reused under the old one.
  rmSync(marker, { force: true });
  const world = await writeDemo(dir, { seed });
  await writeFileAtomic(
    marker,
    JSON.stringify({
      seed,
      version: DEMO_WORLD_VERSION,
      nodes: world.nodes,
      edges: world.edges,
      products: world.products,
      assertions: world.assertions,
    }) + '\n',
  );
}

/**
 * Windows for the SIB distractors under the stand-in: word-hashing cosines between short texts sit
 * far below Sentence-BERT's, so the defaults would leave the demo without items (0 of 275 T1 hard
 * negatives). glove-100d keeps the defaults: with them it makes all 275 items of every kind on the
 * sample sessions.
 */
const STAND_IN_SIB_WINDOWS: DistractorWindows = {
  intention: { lo: 0.05, hi: 0.8 },
  attribute: { lo: 0.05, hi: 0.8 },
  comparison: { lo: 0.05, hi: 0.9 },
  nextProduct: { lo: 0.05, hi: 0.9 },
};

/** Whether an items file holds an item (a non-blank line). */
async function hasItems(file: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  return (await readFile(file, 'utf8')).split('\n').some((l) => l.trim() !== '');
}

export async function runDemo(options: RunDemoOptions): Promise<DemoRun> {
  // Paths first: the claim creates the output folder, and a bad path must fail before that.
  checkPaths({ outputDirs: { out: options.out } });
  return withClaimedOutput(options.out, 'folder', {}, () => runClaimed(options));
}

async function runClaimed(options: RunDemoOptions): Promise<DemoRun> {
  const started = performance.now();
  const log = options.log ?? ((text: string) => process.stderr.write(text));
  const seed = options.items.seed ?? DEFAULT_INTENTIONQA_OPTIONS.seed;
  const worldDir = join(options.out, 'world');
  log(`demo: writing the demo world to ${worldDir}\n`);
  await ensureDemoWorld(worldDir, Number(seed) || 0);

  const { encoder: spec, caveat } = await resolveEncoderOrStandIn(options.encoder.spec, log);
  return withEncoder(spec, options.encoder.execution ?? LOCAL_EXECUTION, (encoder) =>
    runStages(options, { worldDir, seed, started, log, encoder, caveat }),
  );
}

/** The demo's stages on the world in `worldDir`, all with the one opened `encoder`. */
async function runStages(
  options: RunDemoOptions,
  run: {
    worldDir: string;
    seed: string | number;
    started: number;
    log: (text: string) => void;
    encoder: Encoder;
    caveat: string | undefined;
  },
): Promise<DemoRun> {
  const { worldDir, seed, started, log, encoder, caveat } = run;
  log('demo: running the IntentionQA pipeline\n');
  // The demo world's inputs, shared by the run and (with a validity filter on) its unfiltered twin.
  const world = {
    graph: join(worldDir, 'graph.sqlite'),
    products: join(worldDir, 'products.jsonl'),
    concepts: join(worldDir, 'concepts.jsonl'),
  };
  const runOn = (embed: Partial<typeof options.embed>, items: typeof options.items, out: string) =>
    runPipeline({
      embed: { ...options.embed, ...world, encoder, ...embed },
      assertions: join(worldDir, 'assertions.jsonl'),
      items,
      out,
      onError: options.onError,
      limits: options.limits,
      progress: options.progress,
      caveat,
      settingsFile: options.settingsFile,
    });
  const pipeline = await runOn({}, options.items, join(options.out, 'intentionqa'));

  // With a validity filter on, the same run with every validity rule off, for the solver comparison
  // (solver-comparison.ts): the node cache and the encoder are shared, so this costs the items stage.
  const unfilteredDir = join(options.out, 'intentionqa-unfiltered');
  const unfiltered =
    pipeline.validity === null
      ? undefined
      : await runOn(
          { nodeCacheDir: options.embed.nodeCacheDir ?? join(options.out, 'intentionqa', 'cache') },
          { ...options.items, ...Object.fromEntries(VALIDITY_RULE_FIELDS.map((f) => [f, false])) },
          unfilteredDir,
        );

  log('demo: assembling SessionIntentBench tasks from the sample sessions\n');
  const sibInputs = await writeSampleFiles(join(options.out, 'sib-input'));
  const sibDir = join(options.out, 'sib');
  const summary: SibSummary = await assembleSib({
    sessions: sibInputs.sessions,
    annotations: sibInputs.annotations,
    catalog: sibInputs.catalog,
    out: sibDir,
    seed,
    styles: [...PROMPT_STYLES],
    encoder,
    windows: encoder.spec.encoder === HASHING_ENCODER_NAME ? STAND_IN_SIB_WINDOWS : DEFAULT_WINDOWS,
    onError: options.onError,
    limits: options.limits,
  });
  const distractorItems = summary.distractors ? Object.values(summary.distractors.made).reduce((a, b) => a + b, 0) : 0;

  log('demo: answering the IntentionQA items with the embedding solver, scored next to RANDOM and MAJORITY\n');
  const evaluationDir = join(options.out, 'evaluation');
  const itemsDir = join(options.out, 'intentionqa', 'items');
  const files = ([1, 2] as const).map((task) => ({
    items: join(itemsDir, INTENTIONQA_FILES[`task${task}`]),
    responses: join(evaluationDir, `responses_task${task}.jsonl`),
  }));
  const unfilteredFiles = ([1, 2] as const).map((task) => ({
    items: join(unfilteredDir, 'items', INTENTIONQA_FILES[`task${task}`]),
    responses: join(evaluationDir, 'unfiltered', `responses_task${task}.jsonl`),
  }));
  let comparison: SolverComparison | undefined;
  // A task whose window yielded no item (issue 45: `--settings` with such a Task-2 window exited 1
  // here, after writing the items) is not answered or scored: said, and its accuracy is "–".
  const solve = async (f: { items: string; responses: string }, what: string): Promise<boolean> => {
    if (!(await hasItems(f.items))) {
      log(`demo: ${what} has no items (its window yielded none): not answered or scored\n`);
      await rm(f.responses, { force: true });
      return false;
    }
    await makeDirs(dirname(f.responses));
    await solveByEmbedding({ items: f.items, out: f.responses, encoder, onError: options.onError });
    return true;
  };
  const accuracyOf = async (f: { items: string; responses: string }, solved: boolean) =>
    solved ? solverAccuracy(f.items, f.responses) : { items: 0, correct: 0 };
  const solved: boolean[] = [];
  for (const [k, f] of files.entries()) solved.push(await solve(f, `Task ${k + 1}`));
  if (unfiltered) {
    log("demo: answering the unfiltered items too (the report's validity section)\n");
    const unfilteredSolved: boolean[] = [];
    for (const [k, f] of unfilteredFiles.entries()) unfilteredSolved.push(await solve(f, `Task ${k + 1} (unfiltered)`));
    const accuracy = async (k: 0 | 1) => ({
      filtered: await accuracyOf(files[k]!, solved[k]!),
      unfiltered: await accuracyOf(unfilteredFiles[k]!, unfilteredSolved[k]!),
    });
    comparison = { task1: await accuracy(0), task2: await accuracy(1) };
    await appendSolverComparison(pipeline.outputs.report, comparison, encoder.name);
  }
  const warnings = belowChanceWarnings(
    [await accuracyOf(files[0]!, solved[0]!), await accuracyOf(files[1]!, solved[1]!)],
    encoder.name,
  );
  for (const w of warnings) log(`warning: ${w}\n`);
  await appendWarnings(pipeline.outputs.report, warnings);
  const scored = files.filter((_, k) => solved[k]);
  if (scored.length === 0)
    throw new UserError(
      'no IntentionQA item in either task (the windows yielded none): nothing to evaluate; the items and ' +
        `their report are in ${itemsDir}`,
    );
  const evaluation = await scoreIntentionQa({
    files: scored,
    style: 'zero_shot',
    out: join(evaluationDir, 'scores'),
    seed,
    caption: caveat,
  });
  return {
    pipeline,
    sib: { summary, dir: sibDir, distractorItems },
    evaluation: { summary: evaluation.summary, dir: evaluationDir },
    ...(comparison ? { solverComparison: comparison } : {}),
    solverWarnings: warnings,
    caveat,
    seconds: (performance.now() - started) / 1000,
  };
}
