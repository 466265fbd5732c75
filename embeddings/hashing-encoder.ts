// `offline-hashing-v1`: a deterministic stand-in for demos on machines without the real model. It is
// NOT Sentence-BERT and says so (kind, sentenceBert: false, and the name): similarities between its
// vectors reflect shared words, not meaning. Each lower-cased word unigram and bigram is hashed
// (FNV-1a) to one of `dim` buckets with a hashed sign (the "hashing trick"), counts are summed, and
// the row is L2-normalised. A sentence without words gives the zero vector.
import { hashString } from '../core/rng.js';
import type { EncodeOptions } from './sentence-encoder.js';
import type { DescribedEncoder, StandInEncoderDescription } from './encoder-description.js';
import { l2NormalizeRow } from './pooling.js';
import { ConfigError } from '../core/errors.js';
import { HASHING_ENCODER_NAME } from './encoder-choice.js';

export { HASHING_ENCODER_NAME };

export const HASHING_ENCODER_NOTICE =
  `${HASHING_ENCODER_NAME} is an offline stand-in, not a Sentence-BERT model: its similarities count shared words ` +
  'and carry no meaning. Use a real model (--model-dir or the cache) for anything but a demo.';

export class HashingSentenceEncoder implements DescribedEncoder {
  readonly name = HASHING_ENCODER_NAME;
  readonly kind = 'offline-stand-in' as const;
  readonly sentenceBert = false as const;
  readonly provider = 'none';
  /** No model weights. */
  readonly dtype = 'none';
  /** Versioned with the name: any change to the features must change the name. */
  readonly fingerprint = HASHING_ENCODER_NAME;

  constructor(readonly dim = 384) {
    if (!Number.isInteger(dim) || dim < 1) throw new ConfigError('dim', `must be a positive integer, got ${dim}`);
  }

  async encode(sentences: readonly string[], options: EncodeOptions = {}): Promise<Float32Array> {
    const normalize = options.normalize ?? true;
    const out = new Float32Array(sentences.length * this.dim);
    sentences.forEach((sentence, row) => {
      const offset = row * this.dim;
      for (const feature of hashingFeatures(sentence)) {
        const h = hashString(feature);
        // Low bits pick the bucket, the top bit the sign (independent enough for a demo).
        out[offset + (h % this.dim)]! += h >>> 31 === 1 ? -1 : 1;
      }
      if (normalize) l2NormalizeRow(out, offset, this.dim);
    });
    return out;
  }

  describe(): StandInEncoderDescription {
    return {
      encoder: this.name,
      sentenceBert: false,
      notice: HASHING_ENCODER_NOTICE,
      model: this.name,
      dtype: this.dtype,
      fingerprint: this.fingerprint,
      dim: this.dim,
      provider: this.provider,
    };
  }

  async close(): Promise<void> {}
}

/** Word unigrams and bigrams (`a b`) of the lower-cased sentence; words are runs of letters/digits. */
export function hashingFeatures(sentence: string): string[] {
  const words = sentence.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const features = [...words];
  for (let i = 0; i + 1 < words.length; i++) features.push(`${words[i]} ${words[i + 1]}`);
  return features;
}
