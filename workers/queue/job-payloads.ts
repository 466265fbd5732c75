// What every job kind on the queue shares: the model identity a worker checks before computing, the
// error for a payload that is not what its kind says, and float32 rows as base64 (JSON carries them).
import type { ModelDtype } from '../../embeddings/model-files.js';
import { kernelClass } from '../../embeddings/kernel-class.js';

/** What identifies the vectors a model gives: a worker with any other value refuses the job. */
export interface ModelIdentity {
  fingerprint: string;
  dtype: ModelDtype;
  maxTokens: number;
  /**
   * ONNX Runtime's kernel class for this dtype on the machine (embeddings/kernel-class.ts): CPUs of
   * other classes give other bytes (q8: other integer kernels; both dtypes: other float kernels).
   */
  kernels: string;
}

/** The identity of `model` on this machine. */
export function modelIdentity(model: { fingerprint: string; dtype: ModelDtype; maxTokens: number }): ModelIdentity {
  return { ...model, kernels: kernelClass(model.dtype) };
}

/** Why a worker with `own` identity must not run a job made for `wanted`, or undefined when it may. */
export function identityMismatch(wanted: ModelIdentity, own: ModelIdentity): string | undefined {
  for (const field of ['fingerprint', 'dtype', 'maxTokens'] as const) {
    if (wanted[field] !== own[field])
      return `refused: the job wants model ${field} ${String(wanted[field])}, this worker has ${String(own[field])}`;
  }
  if (wanted.kernels !== own.kernels)
    return `refused: the job wants ${wanted.dtype} kernels of CPU class ${wanted.kernels}, this worker has ${own.kernels} (their vectors differ)`;
  return undefined;
}

/** Checks a payload's model field; `fail` throws with the reason. */
export function checkModelField(model: unknown, fail: (reason: string) => never): void {
  if (typeof model !== 'object' || model === null) fail('model is missing');
  const m = model as Record<string, unknown>;
  if (typeof m.fingerprint !== 'string') fail('model.fingerprint must be a string');
  if (m.dtype !== 'fp32' && m.dtype !== 'q8') fail('model.dtype must be fp32 or q8');
  if (!Number.isInteger(m.maxTokens)) fail('model.maxTokens must be an integer');
  if (typeof m.kernels !== 'string') fail('model.kernels must be a string');
}

export class MalformedJobError extends Error {
  constructor(jobName: string, reason: string) {
    super(`malformed ${jobName} job: ${reason}`);
    this.name = 'MalformedJobError';
  }
}

/**
 * A worker's result that is not what its job asked for: missing or mistyped fields, another shape,
 * or values that are not finite. The coordinator refuses it naming the job (job-client.ts), never
 * writes it anywhere, and computes the job again rather than reuse it.
 */
export class MalformedResultError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MalformedResultError';
  }
}

/** The result as an object with these fields typed as given; `MalformedResultError` names the first that is not. */
export function resultFields(
  result: unknown,
  fields: Record<string, 'string' | 'integer' | 'array' | 'object'>,
): Record<string, unknown> {
  if (typeof result !== 'object' || result === null || Array.isArray(result))
    throw new MalformedResultError(`the result is ${result === null ? 'null' : typeof result}, not an object`);
  const r = result as Record<string, unknown>;
  for (const [field, kind] of Object.entries(fields)) {
    const v = r[field];
    const ok =
      kind === 'integer'
        ? Number.isSafeInteger(v) && (v as number) >= 0
        : kind === 'array'
          ? Array.isArray(v)
          : kind === 'object'
            ? typeof v === 'object' && v !== null && !Array.isArray(v)
            : typeof v === kind;
    if (!ok)
      throw new MalformedResultError(
        v === undefined
          ? `${field} is missing`
          : `${field} must be ${kind === 'integer' ? 'a whole number ≥ 0' : `a ${kind}`}`,
      );
  }
  return r;
}

/** `rows` × `dim` finite float32 rows from base64; `MalformedResultError` for another size or a NaN or infinite value. */
export function finiteRowsFromBase64(text: string, rows: number, dim: number): Float32Array {
  const vectors = float32FromBase64(text, rows, dim);
  if (vectors === undefined)
    throw new MalformedResultError(
      `${Buffer.from(text, 'base64').byteLength} vector bytes, expected ${rows} × ${dim} float32 (${rows * dim * 4})`,
    );
  for (let i = 0; i < vectors.length; i++) {
    if (!Number.isFinite(vectors[i]!))
      throw new MalformedResultError(
        `row ${Math.floor(i / dim)} has a ${Number.isNaN(vectors[i]!) ? 'NaN' : 'infinite'} value at column ${i % dim}`,
      );
  }
  return vectors;
}

export function float32ToBase64(vectors: Float32Array): string {
  return Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength).toString('base64');
}

/** `rows` × `dim` float32 rows from base64; undefined when the byte count is not that. */
export function float32FromBase64(text: string, rows: number, dim: number): Float32Array | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.byteLength !== rows * dim * 4) return undefined;
  const out = new Float32Array(rows * dim);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}
