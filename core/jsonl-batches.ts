// The one reader of JSONL files: every input file of every command is read here, record by record
// (`readJsonl`, core/jsonl.ts) or in arrays (`readJsonlBatches`). What it guarantees for each line:
//   - a UTF-8 byte-order mark at the start of the file is skipped (it is not part of the first record);
//   - bytes that are not valid UTF-8 make the line bad (file:line), instead of turning silently into
//     U+FFFD; so does a lone surrogate (`"\ud800"`), which no UTF-8 file or store can hold;
//   - a line longer than `maxLineBytes`, or a string value longer than `maxTextLength` characters,
//     is bad: a 50 MB title would otherwise be held, tokenized and stored whole;
//   - invalid JSON, an error of the caller's `parse` and a repeated `unique` key make the line bad.
// A bad line stops the read with an InputError naming file, line (and field); with onError 'skip' it
// is counted and written to the rejects sink instead.
//
// Reading a multi-million-line file through readline and one async-generator step per line cost
// about as much as JSON.parse itself (2M edge lines: 6.6 CPU-s against 2.4 for the parsing); this
// reads 1 MiB chunks, checks their UTF-8 at once (node:buffer's isUtf8), splits them with indexOf
// and yields an array of records at a time.
import { isUtf8 } from 'node:buffer';
import { open, type FileHandle } from 'node:fs/promises';
import { ConfigError, InputError, type OnError } from './errors.js';
import { fileError } from './file-errors.js';
import type { RejectsSink } from './rejects.js';

export interface JsonlRecord<T> {
  /** 1-based line number in the file. */
  line: number;
  value: T;
  /** The line itself, with `keepText` (for a caller that may reject the record later, as it was). */
  text?: string;
}

/** How long a line and a text of an input file may be (docs/commands.md, "Common behaviour"). */
export interface InputLimits {
  /** The longest line accepted, in bytes (default DEFAULT_MAX_LINE_BYTES); a longer one is a bad line. */
  maxLineBytes?: number;
  /** The longest string value accepted in a record, in characters (default DEFAULT_MAX_TEXT_LENGTH). */
  maxTextLength?: number;
}

/**
 * 16 MiB: far above any record of these formats (an ASER edge is under 1 KB, a SessionIntentBench
 * session of the paper's shape a few hundred KB), far below what hurts (a 50 MB title made
 * `catalog index` use 3.1 GB).
 */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
/**
 * 65,536 characters: Sentence-BERT reads at most 256 tokens (about 1,000 characters) of a text, and
 * ASER node texts, titles and intentions are sentences; a longer text is a broken file.
 */
export const DEFAULT_MAX_TEXT_LENGTH = 65_536;

/** A line or a text over its limit; `limit` names the option that raises it. */
export class InputLimitError extends InputError {
  constructor(
    location: { file: string; line: number; field?: string },
    reason: string,
    readonly limit: keyof InputLimits,
  ) {
    super(location, reason);
    this.name = 'InputLimitError';
  }
}

export interface ReadJsonlOptions<T = unknown> extends InputLimits {
  onError?: OnError;
  /** Where skipped lines go when onError is 'skip' (required then). */
  rejects?: RejectsSink;
  /** A key that no two records may share: a repeat is a bad line, like a parse error. */
  unique?: UniqueKey<T>;
  /** Hand each record's line out with it (JsonlRecord.text). */
  keepText?: boolean;
}

/** A key no two records of a file may share, e.g. `{ of: (p) => p.id, field: 'id', what: 'product id' }`. */
export interface UniqueKey<T> {
  of(value: T): string;
  /** The field a repeat's error names. */
  field: string;
  /** What the key is, in the error: `duplicate <what> "<key>" (first on line <n>)`. */
  what: string;
  /** How the error shows the key, when quoting it is not clear (a key made of several fields). */
  show?(value: T): string;
}

export interface ReadJsonlBatchesOptions<T = unknown> extends ReadJsonlOptions<T> {
  /** Records per yielded array: at least this many (a batch ends at a chunk boundary), except the last (default 10,000). */
  batchSize?: number;
  /** Bytes read at a time (default 1 MiB; tests use tiny chunks to cross every boundary). */
  chunkBytes?: number;
}

type Parse<T> = (json: unknown, at: { file: string; line: number }) => T;

/**
 * `parse` followed by the uniqueness check of `unique`: a record whose key an earlier record had is
 * an InputError naming the field and the earlier line. A key counts once its record is accepted, so
 * a rejected line (onError 'skip') does not make a later one a repeat.
 */
export function parseUnique<T>(parse: Parse<T>, unique: UniqueKey<T> | undefined): Parse<T> {
  if (!unique) return parse;
  const firstLine = new Map<string, number>();
  return (json, at) => {
    const value = parse(json, at);
    const key = unique.of(value);
    const first = firstLine.get(key);
    if (first !== undefined)
      throw new InputError(
        { ...at, field: unique.field },
        `duplicate ${unique.what} ${unique.show ? unique.show(value) : JSON.stringify(key)} (first on line ${first})`,
      );
    firstLine.set(key, at.line);
    return value;
  };
}

/** A lone high surrogate, or a lone low one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first string (key or value) of `value` that breaks a rule, with its dotted field path. */
function badString(
  value: unknown,
  path: string,
  maxTextLength: number,
  surrogates: boolean,
): { field: string; reason: string; limit?: keyof InputLimits } | undefined {
  if (typeof value === 'string') {
    if (value.length > maxTextLength)
      return {
        field: path,
        reason: `a text of ${value.length} characters, more than the limit of ${maxTextLength} (maxTextLength)`,
        limit: 'maxTextLength',
      };
    if (surrogates && LONE_SURROGATE.test(value))
      return { field: path, reason: 'contains a lone surrogate (\\ud800–\\udfff without its pair), which is not text' };
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = badString(value[i], `${path}[${i}]`, maxTextLength, surrogates);
      if (bad) return bad;
    }
    return undefined;
  }
  for (const [key, v] of Object.entries(value)) {
    const field = path === '' ? key : `${path}.${key}`;
    if (surrogates && LONE_SURROGATE.test(key))
      return { field, reason: 'the field name contains a lone surrogate (\\ud800–\\udfff without its pair)' };
    const bad = badString(v, field, maxTextLength, surrogates);
    if (bad) return bad;
  }
  return undefined;
}

/**
 * One line's record: JSON.parse (a syntax error becomes an InputError naming file and line), the
 * text checks (no string over `maxTextLength`, no lone surrogate), then `parse`.
 */
export function parseJsonlLine<T>(
  text: string,
  file: string,
  line: number,
  parse: Parse<T>,
  maxTextLength = DEFAULT_MAX_TEXT_LENGTH,
): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InputError({ file, line }, `invalid JSON: ${(err as Error).message}`);
  }
  // A decoded string is never longer than its line, and only a \u escape can make a lone surrogate
  // (valid UTF-8 cannot encode one): most lines need no walk through their values.
  const longText = text.length > maxTextLength;
  const escapes = text.includes('\\u');
  if (longText || escapes) {
    const bad = badString(json, '', maxTextLength, escapes);
    if (bad) {
      const at = { file, line, ...(bad.field === '' ? {} : { field: bad.field }) };
      throw bad.limit ? new InputLimitError(at, bad.reason, bad.limit) : new InputError(at, bad.reason);
    }
  }
  return parse(json, { file, line });
}

function positiveLimit(name: keyof InputLimits, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!(Number.isInteger(v) && v >= 1)) throw new ConfigError(name, `must be a positive integer, got ${v}`);
  return v;
}

/** Line breaks as readline (with crlfDelay: Infinity) sees them: \r\n, \n, or a lone \r. */
const LINE_BREAK = /\r?\n|\r(?!\n)/;
const LF = 0x0a;
const CR = 0x0d;
/** How much of an over-long line a reject keeps. */
const KEPT_OF_LONG_LINE = 1000;

/**
 * Reads a JSONL file in batches of records, with the checks above. Line numbers are 1-based, blank
 * lines count and are skipped; \r\n, \n and a lone \r end a line. When a bad line stops the read
 * (onError 'fail'), the records before it are yielded first, then the error is thrown.
 */
export async function* readJsonlBatches<T>(
  file: string,
  parseRecord: Parse<T>,
  options: ReadJsonlBatchesOptions<NoInfer<T>> = {},
): AsyncGenerator<JsonlRecord<T>[]> {
  const onError = options.onError ?? 'fail';
  if (onError === 'skip' && !options.rejects) throw new Error('readJsonlBatches: onError "skip" needs a rejects sink');
  const parse = parseUnique(parseRecord, options.unique);
  const batchSize = options.batchSize ?? 10_000;
  if (!(Number.isInteger(batchSize) && batchSize >= 1))
    throw new ConfigError('batchSize', `must be a positive integer, got ${batchSize}`);
  const maxLineBytes = positiveLimit('maxLineBytes', options.maxLineBytes, DEFAULT_MAX_LINE_BYTES);
  const maxTextLength = positiveLimit('maxTextLength', options.maxTextLength, DEFAULT_MAX_TEXT_LENGTH);
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw fileError(err, file);
  }
  try {
    const buffer = Buffer.allocUnsafe(options.chunkBytes ?? 1 << 20);
    let line = 0;
    let batch: JsonlRecord<T>[] = [];
    let failure: unknown;
    // Bad lines under onError 'skip', written to the sink once their chunk is read: keeping `take`
    // synchronous saves an await per line.
    const rejected: Array<[InputError, string | Buffer]> = [];
    const bad = (err: InputError, input: string | Buffer): boolean => {
      if (onError === 'fail') {
        failure = err;
        return false;
      }
      rejected.push([err, input]);
      return true;
    };
    // Handles one line; returns false once the read must stop (the error is kept in `failure`).
    const take = (raw: string): boolean => {
      line += 1;
      const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
      if (text.trim() === '') return true;
      // UTF-16 length × 3 bounds the UTF-8 length: most lines need no byte count.
      if (text.length * 3 > maxLineBytes) {
        const bytes = Buffer.byteLength(text);
        if (bytes > maxLineBytes) return bad(tooLong(file, line, bytes, maxLineBytes), keptOf(text, bytes));
      }
      try {
        const value = parseJsonlLine(text, file, line, parse, maxTextLength);
        batch.push(options.keepText ? { line, value, text } : { line, value });
      } catch (err) {
        if (!(err instanceof InputError)) {
          failure = err;
          return false;
        }
        return bad(err, text);
      }
      return true;
    };
    // Lines of a text that ends with a line break (or is the file's unterminated last line).
    const takeAll = (text: string): boolean => {
      if (text.indexOf('\r') === -1) {
        let start = 0;
        for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
          if (!take(text.slice(start, nl))) return false;
          start = nl + 1;
        }
        return start === text.length || take(text.slice(start));
      }
      const lines = text.split(LINE_BREAK);
      // A text ending in a break splits into one more (empty) piece, which is no line.
      if (lines[lines.length - 1] === '') lines.pop();
      for (const l of lines) if (!take(l)) return false;
      return true;
    };
    // Lines of bytes that are not all valid UTF-8: split on the same breaks, each line checked alone.
    const takeBytes = (bytes: Buffer): boolean => {
      let start = 0;
      const one = (end: number): boolean => {
        const piece = bytes.subarray(start, end);
        if (isUtf8(piece)) return take(piece.toString('utf8'));
        line += 1;
        return bad(
          new InputError({ file, line }, 'not valid UTF-8 (convert the file to UTF-8, e.g. iconv -f LATIN1 -t UTF-8)'),
          // The bytes, copied (the chunk buffer is reused): the reject keeps them as they were.
          Buffer.from(piece),
        );
      };
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i];
        if (b !== LF && b !== CR) continue;
        if (!one(i)) return false;
        if (b === CR && bytes[i + 1] === LF) i += 1;
        start = i + 1;
      }
      return start === bytes.length || one(bytes.length);
    };
    const takeChunk = (bytes: Buffer): boolean =>
      bytes.length === 0 || (isUtf8(bytes) ? takeAll(bytes.toString('utf8')) : takeBytes(bytes));

    // Bytes after the last \n read so far: the start of a line that another chunk ends.
    let carry: Buffer = Buffer.alloc(0);
    // An over-long line being skipped: its first bytes (kept for the reject) and its length so far.
    let skipping: { kept: Buffer; bytes: number } | undefined;
    for (;;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, 0, buffer.length, null));
      } catch (err) {
        throw fileError(err, file);
      }
      const chunk = buffer.subarray(0, bytesRead);
      let ok = true;
      let from = 0;
      if (skipping) {
        const nl = chunk.indexOf(LF);
        const end = nl === -1 ? bytesRead : nl;
        if (skipping.kept.length < KEPT_OF_LONG_LINE)
          skipping.kept = Buffer.concat([
            skipping.kept,
            chunk.subarray(0, Math.min(end, KEPT_OF_LONG_LINE - skipping.kept.length)),
          ]);
        skipping.bytes += end;
        if (nl !== -1 || bytesRead === 0) {
          line += 1;
          const text = skipping.kept.toString('utf8');
          ok = bad(tooLong(file, line, skipping.bytes, maxLineBytes), `${text}… (${skipping.bytes} bytes)`);
          skipping = undefined;
          from = nl + 1;
        }
      }
      if (ok && !skipping) {
        if (bytesRead === 0) ok = takeChunk(carry);
        else {
          const lastNl = chunk.lastIndexOf(LF);
          if (lastNl < from) {
            carry = Buffer.concat([carry, chunk.subarray(from)]);
            // Lines ended by a lone \r (not the last byte: that may be the first half of a \r\n).
            const lastCr = carry.length < 2 ? -1 : carry.lastIndexOf(CR, carry.length - 2);
            if (lastCr !== -1) {
              ok = takeChunk(carry.subarray(0, lastCr + 1));
              carry = Buffer.from(carry.subarray(lastCr + 1));
            }
            // A line already longer than the limit is not held whole: the rest of it is skipped.
            if (carry.length > maxLineBytes) {
              skipping = { kept: Buffer.from(carry.subarray(0, KEPT_OF_LONG_LINE)), bytes: carry.length };
              carry = Buffer.alloc(0);
            }
          } else {
            const complete = chunk.subarray(from, lastNl + 1);
            ok = takeChunk(carry.length === 0 ? complete : Buffer.concat([carry, complete]));
            carry = Buffer.from(chunk.subarray(lastNl + 1));
          }
        }
      }
      for (const [err, input] of rejected) await options.rejects!.reject(err, input);
      rejected.length = 0;
      if (!ok || batch.length >= batchSize) {
        if (batch.length > 0) yield batch;
        batch = [];
        if (!ok) throw failure;
      }
      if (bytesRead === 0) break;
    }
    if (batch.length > 0) yield batch;
  } finally {
    await handle.close();
  }
}

function tooLong(file: string, line: number, bytes: number, max: number): InputLimitError {
  return new InputLimitError(
    { file, line },
    `a line of ${bytes} bytes, more than the limit of ${max} (maxLineBytes)`,
    'maxLineBytes',
  );
}

/** What a reject keeps of an over-long line: its start, and its length. */
function keptOf(text: string, bytes: number): string {
  return `${text.slice(0, KEPT_OF_LONG_LINE)}… (${bytes} bytes)`;
}
