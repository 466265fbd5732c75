// One place that opens "the sentence encoder" for commands and library runs: openEncoder(spec,
// execution) (encoder-spec.ts) — the ONNX Sentence-BERT model (default) on the calling thread, over
// worker threads (workers/pooled-encoder.ts) or through a queue (workers/queue/), or, when the spec
// names it, the GloVe word-vector baseline or the offline hashing stand-in. It returns the Encoder
// (encoder.ts) that every run takes: a caller opens one and hands it to as many runs as it likes.
// `resolveEncoderOrStandIn` is the one path that falls back, for demos: to GloVe when its optional
// package is installed, else to the stand-in; it says so on stderr and in what it returns.
import { HashingSentenceEncoder, HASHING_ENCODER_NAME, HASHING_ENCODER_NOTICE } from '../embeddings/hashing-encoder.js';
import { GloveSentenceEncoder, GLOVE_ENCODER_NAME, GLOVE_NOTICE } from '../embeddings/glove-encoder.js';
import { findGlovePackage, GloveNotInstalledError } from '../embeddings/glove-cache.js';
import { ModelNotFoundError, resolveModel } from '../embeddings/model-resolution.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { parseEncoderChoice, type EncoderChoice } from '../embeddings/encoder-choice.js';
import type { EncoderDescription } from '../embeddings/encoder-description.js';
import type { EncodeOptions } from '../embeddings/sentence-encoder.js';
import { baselineRequestOf } from './queue/baseline-request.js';
import { LOCAL_EXECUTION, type EncoderExecution, type EncoderSpec } from './encoder-spec.js';
import { Encoder, type AnyEncoder } from './encoder.js';
import { attachTokenizerThreads } from './tokenizer-threads.js';

export { parseEncoderChoice, type EncoderChoice };

export async function openEncoder(
  spec: EncoderSpec = {},
  execution: EncoderExecution = LOCAL_EXECUTION,
): Promise<Encoder> {
  const started = performance.now();
  if (execution.kind === 'queue') {
    const baseline = baselineRequestOf(spec);
    if (baseline !== undefined) {
      // glove-100d and the stand-in: opened here for their identity; the workers open their own.
      const local = await openRunner(spec, LOCAL_EXECUTION);
      if (!(local instanceof GloveSentenceEncoder || local instanceof HashingSentenceEncoder))
        throw new Error(`internal: ${spec.encoder} opened as ${local.name}`);
      const { QueuedBaselineEncoder } = await import('./queue/queued-baseline.js');
      const queued = await QueuedBaselineEncoder.open(local, baseline, execution.queue).catch(async (err: unknown) => {
        await local.close();
        throw err;
      });
      return new Encoder(spec, execution, queued, performance.now() - started);
    }
    // Loaded when asked for: a local run never loads BullMQ.
    const { QueuedSentenceEncoder } = await import('./queue/queued-encoder.js');
    const queued = await QueuedSentenceEncoder.open(spec, execution.queue);
    // The queue owns both of its runners: the sentence jobs' (queued) and the node-context jobs'.
    return new Encoder(spec, execution, queued, performance.now() - started, {
      open: (graph) => queued.openContextRunner(graph),
    });
  }
  return new Encoder(spec, execution, await openRunner(spec, execution), performance.now() - started);
}

async function openRunner(
  spec: EncoderSpec,
  execution: Exclude<EncoderExecution, { kind: 'queue' }>,
): Promise<AnyEncoder> {
  if (spec.encoder === HASHING_ENCODER_NAME) {
    (spec.warn ?? defaultWarn)(HASHING_ENCODER_NOTICE);
    return new HashingSentenceEncoder();
  }
  if (spec.encoder === GLOVE_ENCODER_NAME) {
    return GloveSentenceEncoder.open({
      cacheDir: spec.cacheDir,
      glovePackageDir: spec.glovePackageDir,
      sif: spec.sif,
      log: spec.warn ?? defaultNote,
    });
  }
  if (execution.kind === 'local') {
    const { kind: _kind, tokenizerThreads, ...session } = execution;
    const encoder = await OnnxSentenceEncoder.open({ ...spec, ...session });
    attachTokenizerThreads(encoder, tokenizerThreads ?? 'auto', spec.cacheDir);
    return encoder;
  }
  // Resolve (and download) once, here: workers then open the same folder and never race a download,
  // and a missing model is a ModelNotFoundError on this thread, where callers can catch it.
  const model = await resolveModel(spec);
  const { PooledSentenceEncoder } = await import('./pooled-encoder.js');
  const { workers, intraOpThreads, ...rest } = execution;
  return PooledSentenceEncoder.open(
    { ...spec, ...rest, modelDir: model.dir, dtype: model.dtype },
    { workers, threadsPerWorker: intraOpThreads && intraOpThreads > 0 ? intraOpThreads : 1 },
  );
}

/** Opens the encoder, hands it to `use`, closes it whatever `use` did: the commands' one opening path. */
export async function withEncoder<T>(
  spec: EncoderSpec,
  execution: EncoderExecution,
  use: (encoder: Encoder) => Promise<T>,
): Promise<T> {
  const encoder = await openEncoder(spec, execution);
  try {
    return await use(encoder);
  } finally {
    await encoder.close();
  }
}

/**
 * sentence-transformers' `model.encode(sentences)` in one call: opens the encoder that `options`
 * name (the real all-MiniLM-L6-v2 by default) where `execution` says (default: this thread),
 * encodes, closes. Rows are L2-normalised unless `normalize: false`. For many calls, open the
 * encoder once with openEncoder and call its encode().
 */
export async function encode(
  sentences: readonly string[],
  options: EncoderSpec & EncodeOptions = {},
  execution: EncoderExecution = LOCAL_EXECUTION,
): Promise<Float32Array> {
  const { normalize, ...spec } = options;
  return withEncoder(spec, execution, (encoder) =>
    encoder.encode(sentences, { batchSize: options.batchSize, normalize }),
  );
}

/** The encoder a demo runs with, as a spec for openEncoder, and the caveat its reports print. */
export interface DemoEncoderChoice {
  encoder: EncoderSpec;
  /** Set when the encoder is not Sentence-BERT: every report of the run prints it. */
  caveat?: string;
}

const GLOVE_CAVEAT = `WORD-VECTOR BASELINE: ${GLOVE_NOTICE}`;
const STAND_IN_CAVEAT = `DEMO STAND-IN ENCODER: ${HASHING_ENCODER_NOTICE}`;

/**
 * For demos only: the real model's options when the model can be found; else glove-100d's when its
 * optional package is installed; else the stand-in's. A fallback is announced on stderr with a
 * banner. The model is only resolved (found, or downloaded), not opened: the caller opens it with
 * openEncoder, once for all its stages. An encoder named explicitly gets its caveat and no banner. Errors
 * other than "model not found" (a broken model folder, a failed download) still throw.
 */
export async function resolveEncoderOrStandIn(
  options: EncoderSpec,
  write: (text: string) => void = (text) => process.stderr.write(text),
): Promise<DemoEncoderChoice> {
  if (options.encoder === HASHING_ENCODER_NAME) return { encoder: options, caveat: HASHING_ENCODER_NOTICE };
  if (options.encoder === GLOVE_ENCODER_NAME) return { encoder: options, caveat: GLOVE_CAVEAT };
  try {
    await resolveModel(options);
    return { encoder: options };
  } catch (err) {
    if (!(err instanceof ModelNotFoundError)) throw err;
    const banner = (lines: string[]) => ['', '!'.repeat(78), ...lines.map((l) => `!! ${l}`), '!'.repeat(78), ''];
    const realModel = 'To use the real model, see `intentsim model download --help` or pass --model-dir.';
    let gloveMissing: GloveNotInstalledError;
    try {
      findGlovePackage(options.glovePackageDir);
      const lines = banner([
        `all-MiniLM-L6-v2 was not found; the demo uses ${GLOVE_ENCODER_NAME} instead.`,
        GLOVE_NOTICE,
        realModel,
      ]);
      write(`${err.message}\n${lines.join('\n')}\n`);
      return { encoder: { ...options, encoder: GLOVE_ENCODER_NAME }, caveat: GLOVE_CAVEAT };
    } catch (missing) {
      if (!(missing instanceof GloveNotInstalledError)) throw missing;
      gloveMissing = missing;
    }
    const lines = banner([
      `all-MiniLM-L6-v2 was not found, and neither was ${GLOVE_ENCODER_NAME}'s word-vector package;`,
      `the demo falls back to ${HASHING_ENCODER_NAME}.`,
      HASHING_ENCODER_NOTICE,
      realModel,
    ]);
    write(`${err.message}\n${gloveMissing.message}\n${lines.join('\n')}\n`);
    return { encoder: { ...options, encoder: HASHING_ENCODER_NAME }, caveat: STAND_IN_CAVEAT };
  }
}

/** What manifests record about an encoder: its own describe() (kept for the command line's `model info`). */
export function describeEncoder(encoder: Encoder): EncoderDescription {
  return encoder.describe();
}

function defaultWarn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

function defaultNote(message: string): void {
  process.stderr.write(`note: ${message}\n`);
}
