// The model fingerprint: what node caches, manifests and queue jobs use to say "the same model". It
// hashes the whole ONNX file, which costs a full read on every open (0.24 s for the 90 MB fp32
// MiniLM), so the result is kept in the cache folder under fingerprints/, keyed by each file's
// (path, size, mtime, inode), and recomputed when any of these changes. A record that cannot be read,
// does not parse or fails its own checksum is recomputed too: a cache never yields a wrong value.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic.js';
import { readChecksummedJson, sha256OfJson, withJsonChecksum } from '../core/checksum.js';
import type { ModelDtype } from './model-files.js';
import { makeDirs } from '../core/make-dirs.js';

/** What identifies a model for the fingerprint: its two files and the settings that change vectors. */
export interface ModelFingerprintInput {
  onnxPath: string;
  tokenizerPath: string;
  dtype: ModelDtype;
  maxTokens: number;
}

export interface ModelFingerprint {
  /** 16 hex digits of SHA-256 over the ONNX file, tokenizer.json, the dtype and the token limit. */
  fingerprint: string;
  /** 'cache' when the record was reused; otherwise why the files were hashed. */
  source: 'cache' | 'computed';
  reason?: string;
}

/** One file as the record saw it: any change of these means the content may have changed. */
export interface FileIdentity {
  path: string;
  size: string;
  mtimeNs: string;
  inode: string;
  device: string;
}

interface FingerprintRecord {
  format: 1;
  files: FileIdentity[];
  dtype: ModelDtype;
  maxTokens: number;
  fingerprint: string;
  /** SHA-256 of the fields above, so a damaged record is noticed. */
  checksum: string;
}

/** Hashes the files themselves (the uncached computation). */
export async function hashModelFiles(input: ModelFingerprintInput): Promise<string> {
  const hash = createHash('sha256');
  for (const path of [input.onnxPath, input.tokenizerPath]) {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  }
  hash.update(`\u0000${input.dtype}\u0000${input.maxTokens}`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The fingerprint, from the record under `cacheRoot`/fingerprints/ when every file is unchanged,
 * otherwise hashed and recorded. A cache folder that cannot be written costs speed, never the result.
 */
export async function modelFingerprint(input: ModelFingerprintInput, cacheRoot: string): Promise<ModelFingerprint> {
  const paths = [resolve(input.onnxPath), resolve(input.tokenizerPath)];
  const recordPath = join(
    cacheRoot,
    'fingerprints',
    `${sha256OfJson([paths, input.dtype, input.maxTokens]).slice(0, 32)}.json`,
  );
  const files = await Promise.all(paths.map(fileIdentity));
  const reason = await reusableRecord(recordPath, files, input);
  if (typeof reason !== 'string') return { fingerprint: reason.fingerprint, source: 'cache' };

  const fingerprint = await hashModelFiles(input);
  // The files may have changed while they were hashed: record only what was seen before and after.
  const after = await Promise.all(paths.map(fileIdentity));
  if (JSON.stringify(after) === JSON.stringify(files)) {
    const fields = { format: 1 as const, files, dtype: input.dtype, maxTokens: input.maxTokens, fingerprint };
    const record: FingerprintRecord = withJsonChecksum(fields);
    try {
      await makeDirs(join(cacheRoot, 'fingerprints'));
      await writeFileAtomic(recordPath, JSON.stringify(record) + '\n');
    } catch {
      // A read-only cache folder: the next open hashes again.
    }
  }
  return { fingerprint, source: 'computed', reason };
}

/** What a cache record keeps of a file to notice that it changed. */
export async function fileIdentity(path: string): Promise<FileIdentity> {
  const s = await stat(path, { bigint: true });
  return { path, size: String(s.size), mtimeNs: String(s.mtimeNs), inode: String(s.ino), device: String(s.dev) };
}

/** The record when it is intact and describes exactly these files; otherwise why not. */
async function reusableRecord(
  recordPath: string,
  files: FileIdentity[],
  input: ModelFingerprintInput,
): Promise<FingerprintRecord | string> {
  const record = await readChecksummedJson<FingerprintRecord>(recordPath);
  if (record === 'missing') return 'no record yet';
  if (record === 'damaged') return 'the record is damaged';
  if (record.dtype !== input.dtype || record.maxTokens !== input.maxTokens) return 'the settings differ';
  if (JSON.stringify(record.files) !== JSON.stringify(files)) return 'a model file changed (size, mtime or inode)';
  return record;
}
