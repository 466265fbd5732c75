// The ONNX encoder's fingerprint: SHA-256 over the model file, tokenizer.json, the dtype and the token
// limit (first 16 hex digits). Caches of embeddings are keyed by it, so it must change whenever the
// vectors could. Hashing the model on every open cost 0.24 s for the 90 MB fp32 MiniLM (issue 19), on
// every CLI start and in every worker, so the result is kept in CACHE/fingerprints/, one small JSON
// record per (model file, tokenizer file, dtype, token limit), together with each file's identity:
// path, size, modification time (nanoseconds) and inode. The record is used only while both files
// still have that identity; an edit, a touch, a copy or a replacement by rename changes at least one
// of them and the fingerprint is recomputed. A record that cannot be read, does not parse or fails
// its own checksum (a damaged file) is recomputed too, never trusted.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.js';
import { fingerprintCacheDir } from './cache-paths.js';
import type { ModelDtype } from './model-files.js';

/** Bumped when the record's layout or the fingerprint's definition changes (old records are then ignored). */
const RECORD_FORMAT = 1;

export interface ModelFingerprintInput {
  onnxPath: string;
  tokenizerPath: string;
  dtype: ModelDtype;
  maxTokens: number;
}

export interface ModelFingerprint {
  /** 16 hex digits. */
  fingerprint: string;
  /** Whether it came from a valid cache record (`cached`) or was computed by hashing the files. */
  source: 'cached' | 'computed';
}

/** What identifies one version of a file without reading it. */
interface FileIdentity {
  path: string;
  size: string;
  mtimeNs: string;
  inode: string;
}

interface FingerprintRecord {
  format: number;
  files: FileIdentity[];
  dtype: ModelDtype;
  maxTokens: number;
  fingerprint: string;
  /** SHA-256 of the record's other fields (see recordChecksum): a damaged record fails it. */
  checksum: string;
}

/** The fingerprint computed from the files themselves (what a cache record must agree with). */
export async function hashModelFingerprint(input: ModelFingerprintInput): Promise<string> {
  const hash = createHash('sha256');
  for (const path of [input.onnxPath, input.tokenizerPath]) {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  }
  hash.update(`\u0000${input.dtype}\u0000${input.maxTokens}`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The fingerprint, from the record in `cacheRoot`/fingerprints when both files still have the identity
 * it recorded, else hashed and recorded (atomically). Without a `cacheRoot` nothing is cached. A cache
 * folder that cannot be written only costs the hashing next time: the fingerprint is returned anyway.
 */
export async function modelFingerprint(
  input: ModelFingerprintInput,
  cacheRoot: string | undefined,
): Promise<ModelFingerprint> {
  if (cacheRoot === undefined) return { fingerprint: await hashModelFingerprint(input), source: 'computed' };
  const recordPath = fingerprintRecordPath(cacheRoot, input);
  const before = await fileIdentities(input);
  const cached = await readRecord(recordPath);
  if (cached && recordMatches(cached, input, before)) return { fingerprint: cached.fingerprint, source: 'cached' };

  const fingerprint = await hashModelFingerprint(input);
  // A file replaced while it was being hashed: the fingerprint may mix two versions, so it is not
  // recorded (the next open hashes again).
  const after = await fileIdentities(input);
  if (sameIdentities(before, after)) {
    const fields = { format: RECORD_FORMAT, files: after, dtype: input.dtype, maxTokens: input.maxTokens, fingerprint };
    const record: FingerprintRecord = { ...fields, checksum: recordChecksum(fields) };
    await writeFileAtomic(recordPath, JSON.stringify(record, null, 2) + '\n').catch(() => {
      // Read-only or full cache folder: the cache is an optimisation, the fingerprint above is right.
    });
  }
  return { fingerprint, source: 'computed' };
}

/** CACHE/fingerprints/<hash of the two paths, dtype and token limit>.json */
export function fingerprintRecordPath(cacheRoot: string, input: ModelFingerprintInput): string {
  const key = createHash('sha256')
    .update(JSON.stringify([input.onnxPath, input.tokenizerPath, input.dtype, input.maxTokens]))
    .digest('hex')
    .slice(0, 32);
  return join(fingerprintCacheDir(cacheRoot), `${key}.json`);
}

async function fileIdentities(input: ModelFingerprintInput): Promise<FileIdentity[]> {
  return Promise.all(
    [input.onnxPath, input.tokenizerPath].map(async (path) => {
      const s = await stat(path, { bigint: true });
      return { path, size: String(s.size), mtimeNs: String(s.mtimeNs), inode: String(s.ino) };
    }),
  );
}

function sameIdentities(a: readonly FileIdentity[], b: readonly FileIdentity[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (f, i) =>
        f.path === b[i]!.path && f.size === b[i]!.size && f.mtimeNs === b[i]!.mtimeNs && f.inode === b[i]!.inode,
    )
  );
}

/** The record's content, damaged or not, or undefined when there is none or it is not JSON. */
async function readRecord(path: string): Promise<Partial<FingerprintRecord> | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<FingerprintRecord>) : undefined;
  } catch {
    return undefined; // absent, unreadable or not JSON: hash the files
  }
}

function recordMatches(
  record: Partial<FingerprintRecord>,
  input: ModelFingerprintInput,
  current: readonly FileIdentity[],
): record is FingerprintRecord {
  const { checksum, ...fields } = record;
  return (
    record.format === RECORD_FORMAT &&
    typeof record.fingerprint === 'string' &&
    /^[0-9a-f]{16}$/.test(record.fingerprint) &&
    record.dtype === input.dtype &&
    record.maxTokens === input.maxTokens &&
    Array.isArray(record.files) &&
    record.files.every(isFileIdentity) &&
    sameIdentities(record.files, current) &&
    checksum === recordChecksum(fields)
  );
}

function isFileIdentity(value: unknown): value is FileIdentity {
  if (typeof value !== 'object' || value === null) return false;
  const f = value as Record<string, unknown>;
  return ['path', 'size', 'mtimeNs', 'inode'].every((k) => typeof f[k] === 'string');
}

/** SHA-256 of the record without its checksum, its fields in a fixed order. */
function recordChecksum(fields: Partial<Omit<FingerprintRecord, 'checksum'>>): string {
  const files = (fields.files ?? []).map((f) => [f.path, f.size, f.mtimeNs, f.inode]);
  return createHash('sha256')
    .update(JSON.stringify([fields.format, files, fields.dtype, fields.maxTokens, fields.fingerprint]))
    .digest('hex');
}
