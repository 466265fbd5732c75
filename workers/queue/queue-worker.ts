// The worker's side of the queue: takes encode jobs from a run's BullMQ queue and runs each with one
// encode() call of the local model, batch for batch as the coordinator cut them. A job made for
// another model, dtype or token limit is refused (failed without retries, with the reason); a job
// whose payload is malformed fails with the field that is wrong; the worker keeps serving after both.
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { OnnxSentenceEncoder } from '../../embeddings/onnx-encoder.js';
import {
  encodeVectors,
  identityMismatch,
  MalformedJobError,
  parseEncodeJob,
  type EncodeJob,
  type EncodeJobResult,
  type ModelIdentity,
} from './encode-job.js';
import { checkQueueReachable, redisOptions } from './redis-connection.js';
import { encodeQueueName } from './queue-names.js';

export interface QueueWorkerOptions {
  url: string;
  /** The run's queue name (default "intentsim"). */
  name?: string;
  /** Jobs run at once (default 1: one model call at a time uses every ONNX thread). */
  concurrency?: number;
  /** How long a job's lock lasts without renewal; a killed worker's job goes to another after it (default 30 s). */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for (default 30 s). */
  stalledIntervalMs?: number;
  /** One line per job and per refusal (default: none). */
  log?: (line: string) => void;
}

export interface QueueWorkerHandle {
  /** Stops taking jobs, lets the jobs in hand finish, disconnects. */
  close(): Promise<void>;
  /** Jobs finished, refused and malformed so far. */
  readonly counts: { done: number; refused: number; malformed: number };
}

export async function serveEncodeJobs(
  encoder: OnnxSentenceEncoder,
  options: QueueWorkerOptions,
): Promise<QueueWorkerHandle> {
  await checkQueueReachable(options.url);
  const own: ModelIdentity = {
    fingerprint: encoder.fingerprint,
    dtype: encoder.dtype,
    maxTokens: encoder.info.maxTokens,
  };
  const log = options.log ?? (() => {});
  const counts = { done: 0, refused: 0, malformed: 0 };
  const processJob = async (job: Job<unknown, EncodeJobResult>): Promise<EncodeJobResult> => {
    let payload: EncodeJob;
    try {
      payload = parseEncodeJob(job.data);
    } catch (err) {
      if (!(err instanceof MalformedJobError)) throw err;
      counts.malformed += 1;
      log(`job ${String(job.id)}: ${err.message}`);
      throw new UnrecoverableError(err.message);
    }
    const mismatch = identityMismatch(payload.model, own);
    if (mismatch) {
      counts.refused += 1;
      log(`job ${String(job.id)}: ${mismatch}`);
      throw new UnrecoverableError(mismatch);
    }
    const vectors = await encoder.encode(payload.sentences, {
      batchSize: payload.batchSize,
      normalize: payload.normalize,
      sortByLength: false, // the coordinator already put the sentences in the local run's batch order
    });
    counts.done += 1;
    log(`job ${String(job.id)}: ${payload.sentences.length} sentences`);
    return {
      rows: payload.sentences.length,
      dim: encoder.dim,
      provider: encoder.provider,
      vectors: encodeVectors(vectors),
    };
  };
  const worker = new Worker<unknown, EncodeJobResult>(encodeQueueName(options.name), processJob, {
    connection: redisOptions(options.url),
    concurrency: options.concurrency ?? 1,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    metrics: { maxDataPoints: 60 * 24 }, // a day of per-minute completions, for `queue status`
    name: `intentsim-worker-${process.pid}`,
  });
  worker.on('error', (err) => log(`worker: ${err.message}`));
  await worker.waitUntilReady();
  return { close: () => worker.close(), counts };
}
