// The model fingerprint's cache: a record is used only while both files keep the (path, size, mtime,
// inode) it recorded, and its fingerprint always equals the one hashed from the files. The "cached"
// source is the observable sign that nothing was hashed; the in-place edit that keeps size, mtime and
// inode proves it (the cached, now stale, value comes back: hashing would have noticed).
import { describe, expect, it, beforeEach, afterAll } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fingerprintRecordPath,
  hashModelFingerprint,
  modelFingerprint,
  type ModelFingerprintInput,
} from '../embeddings/model-fingerprint.js';
import { makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';

const root = mkdtempSync(join(tmpdir(), 'intentsim-fingerprint-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let cache: string;
let input: ModelFingerprintInput;
let run = 0;

beforeEach(() => {
  run += 1;
  const dir = join(root, `model-${run}`);
  cache = join(root, `cache-${run}`);
  mkdirSync(dir, { recursive: true });
  input = {
    onnxPath: join(dir, 'model.onnx'),
    tokenizerPath: join(dir, 'tokenizer.json'),
    dtype: 'q8',
    maxTokens: 256,
  };
  writeFileSync(input.onnxPath, randomBytes(300_000));
  writeFileSync(input.tokenizerPath, '{"model":"wordpiece"}');
  for (const path of [input.onnxPath, input.tokenizerPath]) setMtime(path, T0);
});

/** Whole seconds: utimes keeps them exactly (a Date from stat would lose the sub-millisecond part). */
const T0 = 1_700_000_000;
function setMtime(path: string, seconds: number): void {
  utimesSync(path, seconds, seconds);
}

/** The definition, written out independently: SHA-256 of model bytes, tokenizer bytes, NUL dtype NUL limit. */
function expectedFingerprint(i: ModelFingerprintInput): string {
  return createHash('sha256')
    .update(readFileSync(i.onnxPath))
    .update(readFileSync(i.tokenizerPath))
    .update(`\u0000${i.dtype}\u0000${i.maxTokens}`)
    .digest('hex')
    .slice(0, 16);
}

/** Rewrites the file's bytes in place and puts its modification time back: size, mtime and inode kept. */
function editKeepingIdentity(path: string): void {
  const before = statSync(path);
  const bytes = readFileSync(path);
  bytes[0] = bytes[0]! ^ 0xff;
  writeFileSync(path, bytes);
  setMtime(path, T0);
  const after = statSync(path);
  expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
}

describe('model fingerprint cache', () => {
  it('hashes once, then answers from the record with the same fingerprint as the uncached hash', async () => {
    const first = await modelFingerprint(input, cache);
    expect(first).toEqual({ fingerprint: expectedFingerprint(input), source: 'computed' });
    expect(await hashModelFingerprint(input)).toBe(first.fingerprint);
    expect(await modelFingerprint(input, cache)).toEqual({ fingerprint: first.fingerprint, source: 'cached' });
    // Without a cache folder nothing is recorded or read.
    expect(await modelFingerprint(input, undefined)).toEqual({ fingerprint: first.fingerprint, source: 'computed' });
  });

  it('a hit does not read the files: an edit that keeps size, mtime and inode goes unnoticed', async () => {
    const first = await modelFingerprint(input, cache);
    editKeepingIdentity(input.onnxPath);
    expect(await modelFingerprint(input, cache)).toEqual({ fingerprint: first.fingerprint, source: 'cached' });
    expect(expectedFingerprint(input)).not.toBe(first.fingerprint);
  });

  it('recomputes when the model file is touched (mtime), grows (size) or is replaced by a rename (inode)', async () => {
    await modelFingerprint(input, cache);

    setMtime(input.onnxPath, T0 + 5);
    expect(await modelFingerprint(input, cache)).toEqual({
      fingerprint: expectedFingerprint(input),
      source: 'computed',
    });
    expect((await modelFingerprint(input, cache)).source).toBe('cached');

    writeFileSync(input.onnxPath, Buffer.concat([readFileSync(input.onnxPath), Buffer.from([7])]));
    const grown = await modelFingerprint(input, cache);
    expect(grown).toEqual({ fingerprint: expectedFingerprint(input), source: 'computed' });

    // Same size and same mtime, other content, new inode: only the inode tells them apart.
    setMtime(input.onnxPath, T0 + 10);
    expect(await modelFingerprint(input, cache)).toEqual({
      fingerprint: expectedFingerprint(input),
      source: 'computed',
    });
    expect((await modelFingerprint(input, cache)).source).toBe('cached');
    const current = statSync(input.onnxPath);
    const replacement = `${input.onnxPath}.new`;
    writeFileSync(replacement, randomBytes(current.size));
    setMtime(replacement, T0 + 10);
    renameSync(replacement, input.onnxPath);
    const after = statSync(input.onnxPath);
    expect([after.size, after.mtimeMs]).toEqual([current.size, current.mtimeMs]);
    expect(after.ino).not.toBe(current.ino);
    const replaced = await modelFingerprint(input, cache);
    expect(replaced).toEqual({ fingerprint: expectedFingerprint(input), source: 'computed' });
    expect(replaced.fingerprint).not.toBe(grown.fingerprint);
    expect((await modelFingerprint(input, cache)).source).toBe('cached');
  });

  it('recomputes when tokenizer.json changes, and keeps dtype and token limit apart', async () => {
    const first = await modelFingerprint(input, cache);
    writeFileSync(input.tokenizerPath, '{"model":"wordpiece","lowercase":true}');
    const changed = await modelFingerprint(input, cache);
    expect(changed).toEqual({ fingerprint: expectedFingerprint(input), source: 'computed' });
    expect(changed.fingerprint).not.toBe(first.fingerprint);

    const shorter = { ...input, maxTokens: 128 };
    expect(await modelFingerprint(shorter, cache)).toEqual({
      fingerprint: expectedFingerprint(shorter),
      source: 'computed',
    });
    const fp32 = { ...input, dtype: 'fp32' as const };
    expect(await modelFingerprint(fp32, cache)).toEqual({ fingerprint: expectedFingerprint(fp32), source: 'computed' });
    expect((await modelFingerprint(input, cache)).source).toBe('cached');
  });

  it('a damaged record is recomputed, never trusted', async () => {
    const right = (await modelFingerprint(input, cache)).fingerprint;
    const recordPath = fingerprintRecordPath(cache, input);
    const good = readFileSync(recordPath, 'utf8');
    const record = JSON.parse(good) as { fingerprint: string; files: unknown[] };
    const wrong = right.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const damaged = [
      'not json {',
      good.slice(0, good.length >> 1), // truncated
      '\u0000'.repeat(good.length), // zeroed
      'null',
      JSON.stringify({ ...record, fingerprint: wrong }), // a plausible fingerprint, checksum no longer agrees
      JSON.stringify({ ...record, files: [null, 3] }),
      JSON.stringify({ ...record, format: 999 }),
    ];
    for (const content of damaged) {
      writeFileSync(recordPath, content);
      expect(await modelFingerprint(input, cache), content.slice(0, 40)).toEqual({
        fingerprint: right,
        source: 'computed',
      });
      // …and the recomputation wrote a good record again.
      expect(await modelFingerprint(input, cache)).toEqual({ fingerprint: right, source: 'cached' });
    }
  });

  it('a cache folder that cannot be written still yields the right fingerprint', async () => {
    const blocked = join(root, `blocked-${run}`);
    writeFileSync(blocked, 'a file where the cache folder should be');
    for (let i = 0; i < 2; i++)
      expect(await modelFingerprint(input, blocked)).toEqual({
        fingerprint: expectedFingerprint(input),
        source: 'computed',
      });
  });
});

describe('the encoder uses the cache', () => {
  it('opening twice gives the uncached fingerprint, the second time from the record', async () => {
    const modelDir = join(root, `tiny-${run}`);
    await makeTestModel(modelDir);
    const files: ModelFingerprintInput = {
      onnxPath: join(modelDir, 'onnx', 'model.onnx'),
      tokenizerPath: join(modelDir, 'tokenizer.json'),
      dtype: 'fp32',
      maxTokens: 256,
    };
    const uncached = await hashModelFingerprint(files);
    for (let i = 0; i < 2; i++) {
      const encoder = await OnnxSentenceEncoder.open({ modelDir, cacheDir: cache, device: 'cpu', maxTokens: 256 });
      try {
        expect(encoder.fingerprint).toBe(uncached);
      } finally {
        await encoder.close();
      }
    }
    expect((await modelFingerprint(files, cache)).source).toBe('cached');
  });
});
