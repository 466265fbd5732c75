// The one job kind on the queue: encode some whole batches of sentences. A job is exactly what the
// local encoder would pass to the model (the same sentences, in the same batch order and size), so
// a worker's vectors are the local run's, byte for byte. It carries the coordinator's model identity,
// which a worker checks against its own before it computes anything.
import { createHash } from 'node:crypto';
import type { ModelDtype } from '../../embeddings/model-files.js';

export const ENCODE_JOB_NAME = 'encode-sentences';

/** What identifies the vectors a model gives: a worker with any other value refuses the job. */
export interface ModelIdentity {
  fingerprint: string;
  dtype: ModelDtype;
  maxTokens: number;
}

export interface EncodeJob {
  format: 1;
  model: ModelIdentity;
  /** Sentences in model order: consecutive batches of `batchSize` (the last one may be shorter). */
  sentences: string[];
  batchSize: number;
  normalize: boolean;
}

/** What a worker returns: the rows of the job's sentences, float32, as base64. */
export interface EncodeJobResult {
  rows: number;
  dim: number;
  /** Execution provider that ran the job ('cpu', 'cuda', …), recorded per job by the coordinator. */
  provider: string;
  vectors: string;
}

/** A job id from the content and settings: the same work always gets the same id, so adding it twice is harmless. */
export function encodeJobId(job: EncodeJob): string {
  return `enc-${createHash('sha256').update(JSON.stringify(job)).digest('hex').slice(0, 40)}`;
}

/** The job's fields checked one by one; the reason names the first one that is wrong. */
export function parseEncodeJob(data: unknown): EncodeJob {
  const fail = (reason: string): never => {
    throw new MalformedJobError(reason);
  };
  if (typeof data !== 'object' || data === null) return fail('the payload is not an object');
  const job = data as Record<string, unknown>;
  if (job.format !== 1) fail(`format must be 1, got ${JSON.stringify(job.format)}`);
  const model = job.model as Record<string, unknown> | undefined;
  if (typeof model !== 'object' || model === null) fail('model is missing');
  if (typeof model!.fingerprint !== 'string') fail('model.fingerprint must be a string');
  if (model!.dtype !== 'fp32' && model!.dtype !== 'q8') fail('model.dtype must be fp32 or q8');
  if (!Number.isInteger(model!.maxTokens)) fail('model.maxTokens must be an integer');
  if (!Array.isArray(job.sentences) || !job.sentences.every((s) => typeof s === 'string'))
    fail('sentences must be an array of strings');
  if (!Number.isInteger(job.batchSize) || (job.batchSize as number) < 1) fail('batchSize must be a positive integer');
  if (typeof job.normalize !== 'boolean') fail('normalize must be true or false');
  return data as EncodeJob;
}

export class MalformedJobError extends Error {
  constructor(reason: string) {
    super(`malformed ${ENCODE_JOB_NAME} job: ${reason}`);
    this.name = 'MalformedJobError';
  }
}

/** Why a worker with `own` identity must not run a job made for `wanted`, or undefined when it may. */
export function identityMismatch(wanted: ModelIdentity, own: ModelIdentity): string | undefined {
  for (const field of ['fingerprint', 'dtype', 'maxTokens'] as const) {
    if (wanted[field] !== own[field])
      return `refused: the job wants model ${field} ${String(wanted[field])}, this worker has ${String(own[field])}`;
  }
  return undefined;
}

export function encodeVectors(vectors: Float32Array): string {
  return Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength).toString('base64');
}

/** The rows of a result, checked against the number of sentences and the dimension expected. */
export function decodeVectors(result: EncodeJobResult, rows: number, dim: number): Float32Array {
  const bytes = Buffer.from(result.vectors, 'base64');
  if (result.rows !== rows || result.dim !== dim || bytes.byteLength !== rows * dim * 4)
    throw new Error(
      `a worker returned ${result.rows} × ${result.dim} vectors (${bytes.byteLength} bytes), expected ${rows} × ${dim}`,
    );
  const out = new Float32Array(rows * dim);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}
