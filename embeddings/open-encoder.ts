// One place that opens "the sentence encoder" for commands: the ONNX Sentence-BERT model (default),
// or, only when asked for by name, the offline hashing stand-in. `openEncoderOrStandIn` is the one
// path that falls back to the stand-in, for demos; it says so on stderr and in what it returns.
import { HashingSentenceEncoder, HASHING_ENCODER_NAME, HASHING_ENCODER_NOTICE } from './hashing-encoder.js';
import { ModelNotFoundError } from './model-resolution.js';
import { OnnxSentenceEncoder, type OnnxEncoderOptions } from './onnx-encoder.js';

export type EncoderChoice = 'sentence-bert' | typeof HASHING_ENCODER_NAME;

export function parseEncoderChoice(value: string): EncoderChoice {
  if (value === 'sentence-bert' || value === HASHING_ENCODER_NAME) return value;
  throw new Error(`--encoder must be sentence-bert or ${HASHING_ENCODER_NAME}, got "${value}"`);
}

export type AnyEncoder = OnnxSentenceEncoder | HashingSentenceEncoder;

export interface OpenEncoderOptions extends OnnxEncoderOptions {
  encoder?: EncoderChoice;
  /** Where the stand-in's notice goes (default stderr). */
  warn?: (message: string) => void;
}

export async function openEncoder(options: OpenEncoderOptions = {}): Promise<AnyEncoder> {
  if (options.encoder === HASHING_ENCODER_NAME) {
    (options.warn ?? defaultWarn)(HASHING_ENCODER_NOTICE);
    return new HashingSentenceEncoder();
  }
  return OnnxSentenceEncoder.open(options);
}

/**
 * For demos only: the real model when it can be found, else the named stand-in, announced as such.
 * Errors other than "model not found" (a broken model, an unavailable forced device) still throw.
 */
export async function openEncoderOrStandIn(options: OpenEncoderOptions = {}): Promise<{ encoder: AnyEncoder; standInBecause?: string }> {
  try {
    return { encoder: await openEncoder(options) };
  } catch (err) {
    if (!(err instanceof ModelNotFoundError)) throw err;
    const warn = options.warn ?? defaultWarn;
    warn(`The Sentence-BERT model was not found; falling back to ${HASHING_ENCODER_NAME}.\n${err.message}`);
    warn(HASHING_ENCODER_NOTICE);
    return { encoder: new HashingSentenceEncoder(), standInBecause: err.message };
  }
}

/** What manifests record about an encoder. */
export function describeEncoder(encoder: AnyEncoder): Record<string, unknown> {
  if (encoder instanceof OnnxSentenceEncoder) {
    return { ...encoder.info, paddingWasted: round(encoder.paddingWasted, 4), stats: encoder.stats };
  }
  return {
    encoder: encoder.name,
    sentenceBert: false,
    notice: HASHING_ENCODER_NOTICE,
    model: encoder.name,
    dtype: 'none',
    fingerprint: encoder.fingerprint,
    dim: encoder.dim,
    provider: encoder.provider,
  };
}

/** The dtype recorded in cache keys ('none' for the stand-in). */
export function encoderDtype(encoder: AnyEncoder): string {
  return encoder instanceof OnnxSentenceEncoder ? encoder.info.dtype : 'none';
}

function defaultWarn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
