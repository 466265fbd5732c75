// What manifests record about the encoder that made their vectors. Each encoder describes itself
// (describe()), so the record has one shape per kind of encoder and nobody has to ask which kind it
// is. Types, not interfaces: a description is plain JSON data (and assignable to a JSON record).
import type { ModelSourceKind, ResolutionAttempt } from './model-resolution.js';
import type { ExecutionProviderName, ProviderAttempt } from './execution-providers.js';
import type { ModelDtype } from './model-files.js';
import type { FingerprintedEncoder } from './sentence-encoder.js';

/** Cumulative counters over every encode() call of an encoder. */
export type EncoderStats = {
  sentences: number;
  batches: number;
  /** Tokens of the sentences themselves. */
  realTokens: number;
  /** Tokens fed to the model, padding included. */
  paddedTokens: number;
  /** Sentences longer than maxTokens, cut to it. */
  truncated: number;
  tokenizeMs: number;
  inferenceMs: number;
  poolingMs: number;
  /** Time the JavaScript thread waited on the session with nothing else to do. */
  waitMs: number;
  /** Wall time of the encode() calls. */
  encodeMs: number;
};

/** What the run manifest records about the model and where it ran. */
export type EncoderInfo = {
  encoder: 'onnx-sentence-bert';
  sentenceBert: true;
  model: string;
  source: ModelSourceKind;
  dir: string;
  dtype: ModelDtype;
  onnxFile: string;
  /** sha256 of the ONNX graph and tokenizer.json (first 16 hex digits) plus dtype and maxTokens. */
  fingerprint: string;
  dim: number;
  maxTokens: number;
  provider: ExecutionProviderName;
  providerAttempts: ProviderAttempt[];
  resolutionAttempts: ResolutionAttempt[];
  intraOpThreads: number | 'ort-default';
};

/** One ONNX session on the calling thread (OnnxSentenceEncoder). */
export type OnnxEncoderDescription = EncoderInfo & {
  /** Share of the tokens fed to the model that were padding (4 decimals). */
  paddingWasted: number;
  /** Whether encode() overlapped tokenization, the session's runs and pooling. */
  pipeline: boolean;
  /** Where mean pooling and L2 normalisation ran: in the ONNX graph or in JavaScript (pooling.ts). */
  pooling: 'graph' | 'js';
  /** The batch size encode() used when given none (64 on the CPU, 256 on webgpu and cuda by default). */
  batchSize: number;
  /** Threads tokenizing for a pipelined encode() (0: this thread). */
  tokenizerThreads: number;
  /** The model this engine derived and ran (fp16 conversion, in-graph pooling), when not onnxFile itself. */
  derivedModel?: { file: string; sha256: string; source: string; ms: number };
  /**
   * The CPU session's ORT-format model (ort-format-model.ts): the cached file opened from memory
   * ('cache'), built this time ('built (why)'), or not used ('not used (why)').
   */
  ortFormatModel?: { file?: string; source: string; bytesInMemory: number };
  /**
   * inferenceMs / encodeMs (4 decimals): the share of the wall time a batch was in the session. An
   * upper bound when pipelined, as a run's end is seen only once the JavaScript thread is free.
   */
  sessionBusyShare: number;
  stats: EncoderStats;
};

/** ONNX sessions in worker threads (PooledSentenceEncoder). */
export type PooledEncoderDescription = EncoderInfo & { workers: number };

/** One job kind's record in a queued run's manifest. */
export interface QueueJobsRecord {
  /** The BullMQ queue the jobs went to. */
  name: string;
  /** Jobs this run needed, and of them the ones already finished in Redis (from an earlier run). */
  jobs: number;
  reusedJobs: number;
  /** Jobs per execution provider that ran them. */
  providers: Record<string, number>;
}

/** Batches sent as jobs to worker processes through a Redis queue (QueuedSentenceEncoder). */
export type QueuedEncoderDescription = Omit<EncoderInfo, 'provider' | 'providerAttempts' | 'intraOpThreads'> & {
  /** `queue:` and the providers the workers ran (sentence jobs), e.g. `queue: cpu`. */
  provider: string;
  /** The encode-sentences jobs, and (embed, pipeline) the node-context jobs. */
  queue: QueueJobsRecord & {
    /** The Redis URL without its password. */
    url: string;
    nodeContext?: QueueJobsRecord;
  };
};

/** The offline stand-in (HashingSentenceEncoder), which says what it is not. */
export type StandInEncoderDescription = {
  encoder: string;
  sentenceBert: false;
  notice: string;
  model: string;
  dtype: 'none';
  fingerprint: string;
  dim: number;
  provider: string;
};

/** Averaged GloVe word vectors (GloveSentenceEncoder): meaningful, but not Sentence-BERT. */
export type WordVectorEncoderDescription = {
  encoder: string;
  sentenceBert: false;
  /** What the encoder is, and what its similarities are worth. */
  notice: string;
  /** Where the vectors come from and under which licences. */
  license: string;
  /** The word-vector package and version. */
  model: string;
  package: { name: string; version: string; dir: string };
  /** The converted cache folder the vectors were loaded from. */
  cache: string;
  weighting: { kind: 'mean' } | { kind: 'sif'; a: number };
  dtype: 'float32';
  fingerprint: string;
  dim: number;
  vocabulary: number;
  provider: string;
  /** How long opening took, and why the cache was converted then (null: it was read as it was). */
  load: { ms: number; converted: string | null };
  stats: { sentences: number; withoutVector: number; knownWords: number; unknownWords: number; encodeMs: number };
};

/**
 * glove-100d or the stand-in through a Redis queue (QueuedBaselineEncoder): the encoder's own record
 * (without its counters: the workers encoded), the providers that ran its jobs, and the jobs.
 */
export type QueuedBaselineDescription = (Omit<WordVectorEncoderDescription, 'stats'> | StandInEncoderDescription) & {
  queue: QueueJobsRecord & {
    /** The Redis URL without its password. */
    url: string;
  };
};

export type EncoderDescription =
  | OnnxEncoderDescription
  | PooledEncoderDescription
  | QueuedEncoderDescription
  | QueuedBaselineDescription
  | StandInEncoderDescription
  | WordVectorEncoderDescription;

/** An encoder that manifests and caches can describe. */
export interface DescribedEncoder extends FingerprintedEncoder {
  /** The storage type of the model's weights (cache keys use it); 'none' for the stand-in. */
  readonly dtype: string;
  describe(): EncoderDescription;
}
