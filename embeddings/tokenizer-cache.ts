// A compact copy of tokenizer.json in the cache folder, read at start-up instead of the file. In
// tokenizer.json a WordPiece vocabulary is a JSON object of 30,522 keys: JSON.parse builds it key by
// key, and the tokenizer library turns it into a Map through Object.entries, some 80 ms of each
// `encode` start-up. The copy keeps the tokens in id order as one string, a token a line (format 2:
// JSON.parse reads one string and split cuts it, faster than a JSON array of 30,522 strings, measured
// in issue 50; format 1 was that array), which parses and maps in a fraction of that; everything else
// in tokenizer.json is kept as it is. A vocabulary with a token holding a newline is not recorded.
//
// A record sits under <cache>/tokenizers/, one per tokenizer.json path, and is used only while that
// file's size, mtime, inode and device are those it was made from, and while its own checksum holds;
// otherwise tokenizer.json is read (and the record written again). A cache folder that cannot be
// written costs speed, never the result. Vocabularies that are not WordPiece, or whose ids are not
// exactly 0…n−1, are read from tokenizer.json every time.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Tokenizer } from '@huggingface/tokenizers';
import { writeFileAtomic } from '../core/atomic.js';
import { InputError } from '../core/errors.js';
import { fileIdentity, type FileIdentity } from './model-fingerprint.js';

/** tokenizer.json's content as the tokenizer is built from it. */
export interface TokenizerDefinition {
  /** tokenizer.json; with `vocabulary` set, its model.vocab is empty. */
  json: TokenizerJson;
  /** The WordPiece tokens in id order, to put in the built tokenizer (installVocabulary). */
  vocabulary?: string[];
  /** 'cache' when the compact record was read; 'file' when tokenizer.json was. */
  source: 'cache' | 'file';
}

/** The parts of tokenizer.json this module looks at. */
interface TokenizerJson {
  model: { type?: unknown; vocab?: unknown; [key: string]: unknown };
  added_tokens?: Array<{ id: number; content: string }>;
  [key: string]: unknown;
}

/** The record's first line; the second is the body, `{ json, vocabulary }` (the tokens joined by newlines). */
interface RecordHeader {
  format: typeof RECORD_FORMAT;
  file: FileIdentity;
  /** SHA-256 of the second line, so that a damaged record is noticed. */
  bodySha256: string;
}

/** The record format this code writes and reads; a record of another format is made again. */
const RECORD_FORMAT = 2;

/**
 * tokenizer.json at `path`: from its compact record under `cacheRoot` when one matches the file,
 * else from the file itself (recording it for the next start-up). No `cacheRoot`: the file, always.
 */
export async function readTokenizerDefinition(path: string, cacheRoot?: string): Promise<TokenizerDefinition> {
  const recordPath = cacheRoot === undefined ? undefined : tokenizerRecordPath(path, cacheRoot);
  const identity = await fileIdentity(resolve(path)).catch(() => undefined);
  if (recordPath !== undefined && identity !== undefined) {
    const cached = await readRecord(recordPath, identity);
    if (cached) return { ...cached, source: 'cache' };
  }
  const json = await readTokenizerJson(path);
  const compact = compactDefinition(json);
  if (compact === undefined) return { json, source: 'file' };
  if (recordPath !== undefined && identity !== undefined) {
    // Recorded only when the file did not change while it was read.
    const after = await fileIdentity(resolve(path)).catch(() => undefined);
    if (JSON.stringify(after) === JSON.stringify(identity)) await writeRecord(recordPath, identity, compact);
  }
  return { ...compact, source: 'file' };
}

/** Where the record of the tokenizer.json at `path` is kept. */
export function tokenizerRecordPath(path: string, cacheRoot: string): string {
  const key = createHash('sha256').update(resolve(path)).digest('hex').slice(0, 32);
  return join(resolve(cacheRoot), 'tokenizers', `${key}.json`);
}

/**
 * Puts `vocabulary` (tokens in id order) into a tokenizer built from a definition whose model.vocab
 * was left empty: the token → id Map, the id → token array and the unknown token's id that the
 * library's WordPiece model builds from the JSON object, then the added tokens, as its Tokenizer
 * constructor adds them. The result tokenizes exactly as one built from tokenizer.json itself (tested).
 */
export function installVocabulary(
  tokenizer: Tokenizer,
  vocabulary: readonly string[],
  addedTokens: TokenizerJson['added_tokens'],
): void {
  const model = tokenizer.model;
  if (model === null) throw new Error('the tokenizer has no model to put a vocabulary into');
  const ids = new Map<string, number>();
  for (let id = 0; id < vocabulary.length; id++) ids.set(vocabulary[id]!, id);
  model.tokens_to_ids = ids;
  model.vocab = vocabulary.slice();
  model.unk_token_id = model.unk_token === undefined ? undefined : ids.get(model.unk_token);
  for (const token of addedTokens ?? []) {
    ids.set(token.content, token.id);
    model.vocab[token.id] = token.content;
  }
}

/** The compact form of a WordPiece tokenizer.json; undefined when it has none. */
function compactDefinition(json: TokenizerJson): Omit<TokenizerDefinition, 'source'> | undefined {
  const vocab = json.model.vocab;
  if (json.model.type !== 'WordPiece' || typeof vocab !== 'object' || vocab === null || Array.isArray(vocab))
    return undefined;
  const entries = Object.entries(vocab as Record<string, unknown>);
  const vocabulary: string[] = new Array<string>(entries.length);
  for (const [token, id] of entries) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= entries.length) return undefined;
    if (vocabulary[id] !== undefined) return undefined; // two tokens share an id
    vocabulary[id] = token;
  }
  return { json: { ...json, model: { ...json.model, vocab: {} } }, vocabulary };
}

async function readTokenizerJson(path: string): Promise<TokenizerJson> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new InputError({ file: path }, `cannot be read: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InputError({ file: path }, `is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new InputError({ file: path }, 'must hold a JSON object');
  const model = (json as { model?: unknown }).model;
  if (typeof model !== 'object' || model === null || Array.isArray(model))
    throw new InputError({ file: path, field: 'model' }, 'must be an object (the tokenizer model)');
  return json as TokenizerJson;
}

/** The record's definition when it is intact and was made from exactly this file; otherwise undefined. */
async function readRecord(
  recordPath: string,
  identity: FileIdentity,
): Promise<Omit<TokenizerDefinition, 'source'> | undefined> {
  try {
    const text = await readFile(recordPath, 'utf8');
    const newline = text.indexOf('\n');
    if (newline < 0) return undefined;
    const header = JSON.parse(text.slice(0, newline)) as RecordHeader;
    if (header.format !== RECORD_FORMAT || JSON.stringify(header.file) !== JSON.stringify(identity)) return undefined;
    const body = text.slice(newline + 1);
    if (createHash('sha256').update(body).digest('hex') !== header.bodySha256) return undefined;
    const parsed = JSON.parse(body) as { json?: TokenizerJson; vocabulary?: unknown };
    if (typeof parsed.json?.model !== 'object' || typeof parsed.vocabulary !== 'string') return undefined;
    return { json: parsed.json, vocabulary: parsed.vocabulary.split('\n') };
  } catch {
    return undefined; // absent, unreadable or damaged: tokenizer.json is read instead
  }
}

async function writeRecord(
  recordPath: string,
  identity: FileIdentity,
  compact: Omit<TokenizerDefinition, 'source'>,
): Promise<void> {
  const tokens = compact.vocabulary ?? [];
  // One token a line: a token holding a newline (or no token at all) cannot be written so.
  if (tokens.length === 0 || tokens.some((t) => t.includes('\n'))) return;
  const body = JSON.stringify({ json: compact.json, vocabulary: tokens.join('\n') });
  const header: RecordHeader = {
    format: RECORD_FORMAT,
    file: identity,
    bodySha256: createHash('sha256').update(body).digest('hex'),
  };
  try {
    await writeFileAtomic(recordPath, `${JSON.stringify(header)}\n${body}`);
  } catch {
    // A read-only cache folder: the next start-up reads tokenizer.json again.
  }
}
