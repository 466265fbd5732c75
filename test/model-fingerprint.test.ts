// The model fingerprint cache: reused only while every file keeps its (path, size, mtime, inode),
// recomputed on any change or damage, and always equal to hashing the files.
import { describe, expect, it, beforeEach } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { hashModelFiles, modelFingerprint, type ModelFingerprintInput } from '../embeddings/model-fingerprint.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { makeTestModel } from '../embeddings/model-generator.js';

let dir: string;
let cache: string;
let input: ModelFingerprintInput;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-fp-'));
  cache = join(dir, 'cache');
  writeFileSync(join(dir, 'model.onnx'), 'weights-1');
  writeFileSync(join(dir, 'tokenizer.json'), '{"t":1}');
  input = {
    onnxPath: join(dir, 'model.onnx'),
    tokenizerPath: join(dir, 'tokenizer.json'),
    dtype: 'fp32',
    maxTokens: 256,
  };
});

const recordFile = () => join(cache, 'fingerprints', readdirSync(join(cache, 'fingerprints'))[0]!);

describe('modelFingerprint', () => {
  it('is the first 16 hex digits of SHA-256 over both files, the dtype and the token limit', async () => {
    const expected = createHash('sha256').update('weights-1{"t":1}\u0000fp32\u0000256').digest('hex').slice(0, 16);
    expect(await hashModelFiles(input)).toBe(expected);
    expect(await modelFingerprint(input, cache)).toEqual({
      fingerprint: expected,
      source: 'computed',
      reason: 'no record yet',
    });
    expect(await modelFingerprint(input, cache)).toEqual({ fingerprint: expected, source: 'cache' });
  });

  it('a hit reads neither file: an edit that keeps size, mtime and inode still gets the recorded value', async () => {
    const when = new Date(2020, 0, 1); // whole seconds: utimes sets them exactly
    utimesSync(input.onnxPath, when, when);
    const recorded = await modelFingerprint(input, cache);
    const before = statSync(input.onnxPath, { bigint: true });
    writeFileSync(input.onnxPath, 'weights-9'); // same length, same inode (written in place)
    utimesSync(input.onnxPath, when, when);
    const after = statSync(input.onnxPath, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    // Hashing would have seen the new bytes; the record answered without reading them.
    expect(await hashModelFiles(input)).not.toBe(recorded.fingerprint);
    expect(await modelFingerprint(input, cache)).toEqual({ fingerprint: recorded.fingerprint, source: 'cache' });
  });

  it('recomputes when the content changes (size or mtime), and gives the new value', async () => {
    await modelFingerprint(input, cache);
    writeFileSync(input.onnxPath, 'weights-22');
    const changed = await modelFingerprint(input, cache);
    expect(changed.source).toBe('computed');
    expect(changed.reason).toBe('a model file changed (size, mtime or inode)');
    expect(changed.fingerprint).toBe(await hashModelFiles(input));
    // Same size, only the mtime moves.
    writeFileSync(input.tokenizerPath, '{"t":2}');
    utimesSync(input.tokenizerPath, new Date(2001, 1, 1), new Date(2001, 1, 1));
    const touched = await modelFingerprint(input, cache);
    expect(touched.source).toBe('computed');
    expect(touched.fingerprint).toBe(await hashModelFiles(input));
  });

  it('recomputes when the file is replaced by another inode with the same size and mtime', async () => {
    await modelFingerprint(input, cache);
    const other = join(dir, 'other.onnx');
    writeFileSync(other, 'weights-2');
    const when = new Date(2020, 0, 1);
    utimesSync(other, when, when);
    utimesSync(input.onnxPath, when, when);
    await modelFingerprint(input, cache); // records the old file with the new mtime
    renameSync(other, input.onnxPath);
    const replaced = await modelFingerprint(input, cache);
    expect(replaced.source).toBe('computed');
    expect(replaced.fingerprint).toBe(await hashModelFiles(input));
  });

  it('a damaged record (bad JSON, edited value, null) is recomputed, never trusted', async () => {
    const first = await modelFingerprint(input, cache);
    const path = recordFile();
    const record = JSON.parse(readFileSync(path, 'utf8')) as { fingerprint: string };
    writeFileSync(path, JSON.stringify({ ...record, fingerprint: '0000000000000000' }));
    expect(await modelFingerprint(input, cache)).toEqual({ ...first, reason: 'the record is damaged' });
    writeFileSync(path, '{"format":1,');
    expect(await modelFingerprint(input, cache)).toEqual({ ...first, reason: 'the record is damaged' });
    writeFileSync(path, 'null');
    expect(await modelFingerprint(input, cache)).toEqual({ ...first, reason: 'the record is damaged' });
    expect((await modelFingerprint(input, cache)).source).toBe('cache');
  });

  it('keys the record by dtype and token limit too', async () => {
    const a = await modelFingerprint(input, cache);
    const b = await modelFingerprint({ ...input, maxTokens: 128 }, cache);
    expect(b.source).toBe('computed');
    expect(b.fingerprint).not.toBe(a.fingerprint);
    expect((await modelFingerprint(input, cache)).source).toBe('cache');
  });

  it('an unwritable cache folder costs only speed', async () => {
    writeFileSync(join(dir, 'not-a-folder'), '');
    const result = await modelFingerprint(input, join(dir, 'not-a-folder'));
    expect(result.fingerprint).toBe(await hashModelFiles(input));
  });
});

describe('the encoder uses the cached fingerprint', () => {
  it('a second open reuses the record and reports the same fingerprint as a cold open', async () => {
    const modelDir = join(dir, 'model');
    await makeTestModel(modelDir);
    const cold = await OnnxSentenceEncoder.open({ modelDir, device: 'cpu', cacheDir: cache });
    expect(readdirSync(join(cache, 'fingerprints'))).toHaveLength(1);
    const warm = await OnnxSentenceEncoder.open({ modelDir, device: 'cpu', cacheDir: cache });
    const onnxPath = join(modelDir, 'onnx', 'model.onnx');
    const direct = await hashModelFiles({
      onnxPath,
      tokenizerPath: join(modelDir, 'tokenizer.json'),
      dtype: 'fp32',
      maxTokens: cold.info.maxTokens,
    });
    expect(cold.fingerprint).toBe(direct);
    expect(warm.fingerprint).toBe(direct);
    await cold.close();
    await warm.close();
  });
});
