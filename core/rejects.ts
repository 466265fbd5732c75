// With `--on-error skip`, bad records are counted and written to a rejects JSONL file (never dropped silently).
// A line whose bytes are not UTF-8 cannot be a JSON string as it was: its `input` shows it decoded
// (with U+FFFD where bytes were invalid), and `input_base64` keeps its bytes exactly.
import { isUtf8 } from 'node:buffer';
import { openAtomicWriter, type AtomicWriter } from './atomic.js';
import type { InputError } from './errors.js';

export interface RejectRecord {
  file: string;
  line?: number;
  field?: string;
  reason: string;
  /** The offending input, as text (invalid UTF-8 shown as U+FFFD). */
  input: string;
  /** The offending line's bytes, exactly, when they are not valid UTF-8 (`input` cannot hold them). */
  input_base64?: string;
}

export class RejectsSink {
  private writer: AtomicWriter | undefined;
  private opening: Promise<AtomicWriter> | undefined;
  count = 0;
  readonly byReason = new Map<string, number>();

  /** @param path where the rejects file appears (created only if something is rejected). */
  constructor(readonly path: string) {}

  /** Writes one reject; `input` as bytes when they may not be UTF-8 (kept exactly when they are not). */
  async reject(err: InputError, input: string | Uint8Array): Promise<void> {
    this.count += 1;
    this.byReason.set(err.reason, (this.byReason.get(err.reason) ?? 0) + 1);
    this.opening ??= openAtomicWriter(this.path);
    this.writer = await this.opening;
    const record: RejectRecord =
      typeof input === 'string'
        ? { ...err.location, reason: err.reason, input }
        : isUtf8(input)
          ? { ...err.location, reason: err.reason, input: Buffer.from(input).toString('utf8') }
          : {
              ...err.location,
              reason: err.reason,
              input: Buffer.from(input).toString('utf8'),
              input_base64: Buffer.from(input).toString('base64'),
            };
    await this.writer.write(JSON.stringify(record) + '\n');
  }

  /** Publishes the rejects file (if anything was rejected). */
  async close(): Promise<void> {
    if (this.opening) await (await this.opening).commit();
  }

  summary(): string {
    return this.count === 0 ? 'no rejects' : `${this.count} rejected (see ${this.path})`;
  }
}

/**
 * A sink that only counts: for a second pass over a file whose bad lines an earlier pass has already
 * written to a rejects file (writing them again would report each twice).
 */
export class CountingRejects extends RejectsSink {
  constructor() {
    super('');
  }
  override async reject(): Promise<void> {
    this.count += 1;
  }
  override async close(): Promise<void> {}
}
