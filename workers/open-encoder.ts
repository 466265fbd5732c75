// One place that opens "the sentence encoder" for commands: the ONNX Sentence-BERT model (default) —
// on the calling thread, or spread over worker threads (workers/pooled-encoder.ts) — or, only when
// asked for by name, the offline hashing stand-in. `resolveEncoderOrStandIn` is the one path that
// falls back to the stand-in, for demos; it says so on stderr and in what it returns.
import { HashingSentenceEncoder, HASHING_ENCODER_NAME, HASHING_ENCODER_NOTICE } from '../embeddings/hashing-encoder.js';
import { ModelNotFoundError, resolveModel } from '../embeddings/model-resolution.js';
import { OnnxSentenceEncoder, type OnnxEncoderOptions } from '../embeddings/onnx-encoder.js';
import { parseEncoderChoice, type EncoderChoice } from '../embeddings/encoder-choice.js';
import type { EncoderDescription } from '../embeddings/encoder-description.js';
import type { EncodeOptions } from '../embeddings/sentence-encoder.js';

export { parseEncoderChoice, type EncoderChoice };

type PooledSentenceEncoder = import('./pooled-encoder.js').PooledSentenceEncoder;

export type AnyEncoder = OnnxSentenceEncoder | HashingSentenceEncoder | PooledSentenceEncoder;

export interface OpenEncoderOptions extends OnnxEncoderOptions {
  encoder?: EncoderChoice;
  /**
   * Worker threads, each with its own ONNX session of `intraOpThreads` threads (default 1 each);
   * 0 or absent: the calling thread. Workers overlap one chunk's tokenization with another's inference.
   */
  workers?: number;
  /** Where the stand-in's notice goes (default stderr). */
  warn?: (message: string) => void;
}

export async function openEncoder(options: OpenEncoderOptions = {}): Promise<AnyEncoder> {
  if (options.encoder === HASHING_ENCODER_NAME) {
    (options.warn ?? defaultWarn)(HASHING_ENCODER_NOTICE);
    return new HashingSentenceEncoder();
  }
  const workers = options.workers ?? 0;
  if (workers < 1) return OnnxSentenceEncoder.open(options);
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
  /** Set when the encoder is the stand-in: every report of the run prints it. */
  caveat?: string;
}

/**
 * For demos only: the real model's options when the model can be found, else the named stand-in's,
 * announced on stderr with a banner. The model is only resolved (found, or downloaded), not opened:
 * the caller opens it with openEncoder, once per stage. The stand-in named explicitly gets the
 * caveat and no banner (openEncoder prints its notice). Errors other than "model not found" (a
 * broken model folder, a failed download) still throw.
 */
export async function resolveEncoderOrStandIn(
  options: OpenEncoderOptions,
  write: (text: string) => void = (text) => process.stderr.write(text),
): Promise<DemoEncoderChoice> {
  if (options.encoder === HASHING_ENCODER_NAME) return { encoder: options, caveat: HASHING_ENCODER_NOTICE };
  try {
    await resolveModel(options);
    return { encoder: options };
  } catch (err) {
    if (!(err instanceof ModelNotFoundError)) throw err;
    const banner = [
      '',
      '!'.repeat(78),
      `!! all-MiniLM-L6-v2 was not found; the demo falls back to ${HASHING_ENCODER_NAME}.`,
      `!! ${HASHING_ENCODER_NOTICE}`,
      '!! To use the real model, see `intentsim model download --help` or pass --model-dir.',
      '!'.repeat(78),
      '',
    ].join('\n');
    write(`${err.message}\n${banner}\n`);
    return {
      encoder: { ...options, encoder: HASHING_ENCODER_NAME },
      caveat: `DEMO STAND-IN ENCODER: ${HASHING_ENCODER_NOTICE}`,
    };
  }
}

/** What manifests record about an encoder: its own describe() (kept for the command line's `model info`). */
export function describeEncoder(encoder: AnyEncoder): EncoderDescription {
  return encoder.describe();
}

function defaultWarn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}
