// The encoders besides Sentence-BERT on the queue: a job for glove-100d (with its weighting) or the
// offline stand-in names the encoder it wants, and a worker opens that encoder on the first job that
// asks (it needs no model files: glove-100d's vectors come from the npm package, the stand-in has
// none). Their arithmetic is plain JavaScript on float64 sums, the same on every CPU, so a job's
// identity names no kernel class: any worker gives the coordinator's bytes. A Sentence-BERT job
// names no encoder (its payload is as it always was).
import { GLOVE_ENCODER_NAME } from '../../embeddings/glove-encoder.js';
import { HASHING_ENCODER_NAME } from '../../embeddings/hashing-encoder.js';
import type { ModelIdentity } from './job-payloads.js';

export type BaselineRequest = { name: 'glove-100d'; sif: boolean } | { name: 'offline-hashing-v1' };

/** The kernel class of a baseline: JavaScript's IEEE arithmetic, not a CPU's SIMD kernels. */
export const BASELINE_KERNELS = 'javascript';

/** What identifies a baseline's vectors: its fingerprint (vectors, tokenization and weighting). */
export function baselineIdentity(encoder: { fingerprint: string }): ModelIdentity {
  return { fingerprint: encoder.fingerprint, dtype: 'fp32', maxTokens: 0, kernels: BASELINE_KERNELS };
}

/** The request for a spec's encoder, or undefined for Sentence-BERT (its jobs name none). */
export function baselineRequestOf(spec: { encoder?: string; sif?: boolean }): BaselineRequest | undefined {
  if (spec.encoder === GLOVE_ENCODER_NAME) return { name: GLOVE_ENCODER_NAME, sif: spec.sif ?? false };
  if (spec.encoder === HASHING_ENCODER_NAME) return { name: HASHING_ENCODER_NAME };
  return undefined;
}

/** Checks a payload's encoder field (absent: Sentence-BERT); `fail` throws with the reason. */
export function checkEncoderField(encoder: unknown, fail: (reason: string) => never): void {
  if (encoder === undefined) return;
  if (typeof encoder !== 'object' || encoder === null) fail('encoder must be an object');
  const e = encoder as Record<string, unknown>;
  if (e.name === GLOVE_ENCODER_NAME) {
    if (typeof e.sif !== 'boolean') fail('encoder.sif must be true or false');
    return;
  }
  if (e.name !== HASHING_ENCODER_NAME)
    fail(`encoder.name must be ${GLOVE_ENCODER_NAME} or ${HASHING_ENCODER_NAME}, got ${JSON.stringify(e.name)}`);
}
