// What the rest of the engine needs from an embedding model, and how vectors are passed around.

/** Options of `encode`, after sentence-transformers' `encode(sentences, batch_size, normalize_embeddings)`. */
export interface EncodeOptions {
  /** Sentences per model call (default: the encoder's defaultBatchSize, else 64). */
  batchSize?: number;
  /** L2-normalise each output row (default true: all-MiniLM-L6-v2 semantics). */
  normalize?: boolean;
}

/**
 * Turns sentences into fixed-size vectors. A sentence with nothing to embed (for glove-100d, no word
 * it knows) gets an all-zero row, never NaN: consumers read a zero row as "no vector" (isZeroRow),
 * count it and leave it out of means, windows and indexes.
 */
export interface SentenceEncoder {
  /** Model id or folder, or the name of an offline stand-in (never presented as a real model). */
  readonly name: string;
  readonly dim: number;
  /** Execution provider that actually ran: 'cpu', 'cuda', 'webgpu', or 'none' for non-ONNX encoders. */
  readonly provider: string;
  /** The batch size encode() uses when given none (per provider for the ONNX encoder); absent: 64. */
  readonly defaultBatchSize?: number;
  /** Row-major float32 matrix, sentences.length × dim, rows in input order. */
  encode(sentences: readonly string[], options?: EncodeOptions): Promise<Float32Array>;
  close(): Promise<void>;
}

/** A set of labelled vectors: row i of `data` (length ids.length × dim, row-major) belongs to ids[i]. */
export interface VectorSet {
  ids: string[];
  dim: number;
  data: Float32Array;
}

/**
 * An encoder whose outputs can be cached: `fingerprint` changes whenever the vectors could (model
 * bytes, tokenizer, dtype, truncation), and `sentenceBert` says whether it is a real Sentence-BERT
 * model or an offline stand-in (which must never be presented as one).
 */
export interface FingerprintedEncoder extends SentenceEncoder {
  readonly fingerprint: string;
  readonly sentenceBert: boolean;
}

/** Whether row `row` of a row-major matrix of width `dim` is all zeros: a sentence without a vector. */
export function isZeroRow(vectors: Float32Array, row: number, dim: number): boolean {
  for (let d = row * dim; d < (row + 1) * dim; d++) if (vectors[d] !== 0) return false;
  return true;
}
