// The sentence job kind on the queue: encode some whole batches of sentences. A job is exactly what the
// local encoder would pass to the model (the same sentences, in the same batch order and size), so
// a worker's vectors are the local run's, byte for byte. It carries the coordinator's model identity,
// which a worker checks against its own before it computes anything.
import { sha256OfJson } from '../../core/checksum.js';
import {
  checkModelField,
  finiteRowsFromBase64,
  MalformedJobError,
  MalformedResultError,
  resultFields,
  type ModelIdentity,
} from './job-payloads.js';
import { checkEncoderField, type BaselineRequest } from './baseline-request.js';

export const ENCODE_JOB_NAME = 'encode-sentences';

export interface EncodeJob {
  format: 1;
  model: ModelIdentity;
  /** Sentences in model order: consecutive batches of `batchSize` (the last one may be shorter). */
  sentences: string[];
  batchSize: number;
  normalize: boolean;
  /** The encoder, when not Sentence-BERT (baseline-request.ts): glove-100d or the offline stand-in. */
  encoder?: BaselineRequest;
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
  return `enc-${sha256OfJson(job).slice(0, 40)}`;
}

/** The job's fields checked one by one; the reason names the first one that is wrong. */
export function parseEncodeJob(data: unknown): EncodeJob {
  const fail = (reason: string): never => {
    throw new MalformedJobError(ENCODE_JOB_NAME, reason);
  };
  if (typeof data !== 'object' || data === null) return fail('the payload is not an object');
  const job = data as Record<string, unknown>;
  if (job.format !== 1) fail(`format must be 1, got ${JSON.stringify(job.format)}`);
  checkModelField(job.model, fail);
  if (!Array.isArray(job.sentences) || !job.sentences.every((s) => typeof s === 'string'))
    fail('sentences must be an array of strings');
  if (!Number.isInteger(job.batchSize) || (job.batchSize as number) < 1) fail('batchSize must be a positive integer');
  if (typeof job.normalize !== 'boolean') fail('normalize must be true or false');
  checkEncoderField(job.encoder, fail);
  return data as EncodeJob;
}

/**
 * The rows of a worker's result (anything Redis held), checked field by field against the number of
 * sentences and the dimension expected, every value finite; `MalformedResultError` says what is wrong.
 */
export function decodeVectors(result: unknown, rows: number, dim: number): Float32Array {
  const r = resultFields(result, { rows: 'integer', dim: 'integer', provider: 'string', vectors: 'string' });
  if (r.rows !== rows || r.dim !== dim)
    throw new MalformedResultError(`${String(r.rows)} × ${String(r.dim)} vectors, expected ${rows} × ${dim}`);
  return finiteRowsFromBase64(r.vectors as string, rows, dim);
}
