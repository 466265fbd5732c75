// JSONL input, record by record, with errors that name file, line and field, and `--on-error skip`
// support: `readJsonl` (the reading itself, with its checks of encoding and size, is
// core/jsonl-batches.ts) and FieldReader, the helpers `parse` functions are written with.
import { InputError } from './errors.js';
import { readJsonlBatches, type JsonlRecord, type ReadJsonlOptions } from './jsonl-batches.js';

export type { InputLimits, JsonlRecord, ReadJsonlOptions, UniqueKey } from './jsonl-batches.js';

/**
 * Reads a JSONL file record by record (blank lines are ignored). `parse` turns the decoded JSON into
 * a typed record or throws an InputError (FieldReader builds them); with `unique`, a repeated key is
 * such an error too. With onError 'skip', bad lines are counted and written to the rejects sink
 * instead of stopping the read. Lines are read, decoded and checked by readJsonlBatches a chunk at a
 * time, so a bad line is reported once the records before it have been handed out.
 */
export async function* readJsonl<T>(
  file: string,
  parseRecord: (json: unknown, at: { file: string; line: number }) => T,
  options: ReadJsonlOptions<NoInfer<T>> = {},
): AsyncGenerator<JsonlRecord<T>> {
  for await (const batch of readJsonlBatches(file, parseRecord, { ...options, batchSize: 1 })) yield* batch;
}

/** Helpers for writing `parse` functions: each throws an InputError naming the field. */
export class FieldReader {
  constructor(
    private readonly json: unknown,
    private readonly at: { file: string; line: number },
  ) {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new InputError(at, 'expected a JSON object');
    }
  }

  private get obj(): Record<string, unknown> {
    return this.json as Record<string, unknown>;
  }

  error(field: string, reason: string): InputError {
    return new InputError({ ...this.at, field }, reason);
  }

  has(field: string): boolean {
    return this.obj[field] !== undefined && this.obj[field] !== null;
  }

  raw(field: string): unknown {
    return this.obj[field];
  }

  string(field: string, { allowEmpty = false } = {}): string {
    const v = this.obj[field];
    if (typeof v !== 'string')
      throw this.error(field, v === undefined ? 'missing' : `expected a string, got ${describe(v)}`);
    if (!allowEmpty && v.trim() === '') throw this.error(field, 'must not be empty');
    return v;
  }

  /**
   * An id: a non-empty string. A JSON number is refused, as null and objects are: JSON.parse has
   * already rounded it to a double (12345678901234567891 → 12345678901234567000, so two ids can
   * collide) and dropped its form (1.50 → 1.5), so no string made from it is the id the file holds.
   */
  id(field: string): string {
    const v = this.obj[field];
    if (typeof v === 'number') throw this.error(field, numericIdReason(v));
    return this.string(field);
  }

  number(field: string, { min, max }: { min?: number; max?: number } = {}): number {
    const v = this.obj[field];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw this.error(field, v === undefined ? 'missing' : `expected a finite number, got ${describe(v)}`);
    }
    if (min !== undefined && v < min) throw this.error(field, `must be ≥ ${min}, got ${v}`);
    if (max !== undefined && v > max) throw this.error(field, `must be ≤ ${max}, got ${v}`);
    return v;
  }

  stringArray(field: string): string[] {
    const v = this.obj[field];
    if (!Array.isArray(v))
      throw this.error(field, v === undefined ? 'missing' : `expected an array, got ${describe(v)}`);
    return v.map((item, i) => {
      if (typeof item !== 'string') throw this.error(`${field}[${i}]`, `expected a string, got ${describe(item)}`);
      return item;
    });
  }

  object(field: string): Record<string, unknown> {
    const v = this.obj[field];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw this.error(field, v === undefined ? 'missing' : `expected an object, got ${describe(v)}`);
    }
    return v as Record<string, unknown>;
  }
}

/** Why a numeric id is refused, for every reader of ids. */
export function numericIdReason(v: number): string {
  return `an id must be a JSON string, got the number ${String(v)} as read (a JSON number loses digits and its written form: quote the id as it is written in the source)`;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}
