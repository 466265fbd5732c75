// `intentsim demo`, the README's main command: the generated demo world through the whole IntentionQA
// pipeline, plus SessionIntentBench assembly on the sample sessions. Layout of OUT:
//   world/        graph.sqlite, products.jsonl, assertions.jsonl, concepts.jsonl, world.json
//                 (deterministic, reused when world.json says it was written whole with this seed)
//   intentionqa/  the pipeline's output (engine/pipeline/run-pipeline.ts)
//   sib-input/    the sample sessions, annotations and catalogue
//   sib/          SessionIntentBench tasks and distractor-backed items
// It uses all-MiniLM-L6-v2 when it can be found; if it cannot, and only then, it falls back to the
// offline stand-in encoder and says so on stderr, in what it returns and in every manifest and report.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { readJsonFile } from '../../core/file-errors.js';
import { checkPaths } from '../../core/check-paths.js';
import type { OnError } from '../../core/errors.js';
import type { InputLimits } from '../../core/jsonl.js';
import { openEncoder, resolveEncoderOrStandIn } from '../../workers/open-encoder.js';
import { assembleSib, type SibSummary } from '../items/sib/assemble-sib.js';
import { DEFAULT_WINDOWS, type DistractorWindows } from '../items/sib/distractors.js';
import { PROMPT_STYLES } from '../items/sib/sib-types.js';
import { DEFAULT_INTENTIONQA_OPTIONS } from '../items/intentionqa/run-context.js';
import {
  runPipeline,
  type PipelineEmbedOptions,
  type PipelineItemOptions,
  type PipelineManifest,
} from '../pipeline/run-pipeline.js';
import { writeDemo } from './demo-world.js';
import { writeSampleFiles } from './sib-sample-data.js';

export interface RunDemoOptions {
  /** Output folder: world/, intentionqa/, sib-input/, sib/. */
  out: string;
  /** Stage 1's options, less its inputs (the demo world is the input). */
  embed: Omit<PipelineEmbedOptions, 'graph' | 'products' | 'concepts'>;
  /** Stage 2's options; `items.seed` also seeds the world and the SessionIntentBench tasks. */
  items: PipelineItemOptions;
  onError: OnError;
  limits?: InputLimits;
  progress?: boolean;
  /** Where the demo says what it is doing, and the stand-in's banner (default: stderr). */
  log?: (text: string) => void;
}

export interface DemoRun {
  pipeline: PipelineManifest;
  sib: { summary: SibSummary; dir: string; distractorItems: number };
  /** Set when the demo fell back to the stand-in encoder: what every report says about it. */
  caveat?: string;
  seconds: number;
}

/** A world folder is reused when it was written completely with the same seed. */
async function ensureDemoWorld(dir: string, seed: number): Promise<void> {
  const marker = join(dir, 'world.json');
  if (existsSync(marker)) {
    const done = (await readJsonFile(marker, {
      what: 'demo world marker',
      ifDamaged: 'delete it: the demo writes the world again',
    })) as { seed?: number };
    if (done.seed === seed && existsSync(join(dir, 'graph.sqlite'))) return;
  }
  const world = await writeDemo(dir, { seed });
  await writeFileAtomic(
    marker,
    JSON.stringify({
      seed,
      nodes: world.nodes,
      edges: world.edges,
      products: world.products,
      assertions: world.assertions,
    }) + '\n',
  );
}

/**
 * Windows for the SIB distractors under the stand-in: word-hashing cosines between short texts sit
 * far below Sentence-BERT's, so the defaults would leave the demo without items.
 */
const STAND_IN_SIB_WINDOWS: DistractorWindows = {
  intention: { lo: 0.05, hi: 0.8 },
  attribute: { lo: 0.05, hi: 0.8 },
  comparison: { lo: 0.05, hi: 0.9 },
  nextProduct: { lo: 0.05, hi: 0.9 },
};

export async function runDemo(options: RunDemoOptions): Promise<DemoRun> {
  const started = performance.now();
  checkPaths({ outputDirs: { out: options.out } });
  const log = options.log ?? ((text: string) => process.stderr.write(text));
  const seed = options.items.seed ?? DEFAULT_INTENTIONQA_OPTIONS.seed;
  const worldDir = join(options.out, 'world');
  log(`demo: writing the demo world to ${worldDir}\n`);
  await ensureDemoWorld(worldDir, Number(seed) || 0);

  const { encoder, caveat } = await resolveEncoderOrStandIn(options.embed.encoder, log);
  log('demo: running the IntentionQA pipeline\n');
  const pipeline = await runPipeline({
    embed: {
      ...options.embed,
      graph: join(worldDir, 'graph.sqlite'),
      products: join(worldDir, 'products.jsonl'),
      concepts: join(worldDir, 'concepts.jsonl'),
      encoder,
    },
    assertions: join(worldDir, 'assertions.jsonl'),
    items: options.items,
    out: join(options.out, 'intentionqa'),
    onError: options.onError,
    limits: options.limits,
    progress: options.progress,
    caveat,
  });

  log('demo: assembling SessionIntentBench tasks from the sample sessions\n');
  const sibInputs = await writeSampleFiles(join(options.out, 'sib-input'));
  const sibDir = join(options.out, 'sib');
  const sibEncoder = await openEncoder(encoder);
  let summary: SibSummary;
  try {
    summary = await assembleSib({
      sessions: sibInputs.sessions,
      annotations: sibInputs.annotations,
      catalog: sibInputs.catalog,
      outDir: sibDir,
      seed,
      styles: [...PROMPT_STYLES],
      encoder: sibEncoder,
      windows: caveat ? STAND_IN_SIB_WINDOWS : DEFAULT_WINDOWS,
      onError: options.onError,
      limits: options.limits,
    });
  } finally {
    await sibEncoder.close();
  }
  const distractorItems = summary.distractors ? Object.values(summary.distractors.made).reduce((a, b) => a + b, 0) : 0;
  return {
    pipeline,
    sib: { summary, dir: sibDir, distractorItems },
    caveat,
    seconds: (performance.now() - started) / 1000,
  };
}
