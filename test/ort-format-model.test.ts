// The CPU session's ORT-format copy (embeddings/ort-format-model.ts, issue 50): noted on a model's
// first open, saved on the second, opened from memory after; the same vectors bit for bit every time;
// a damaged, stale or foreign copy is never used; a cache that cannot be written costs only speed.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { withJsonChecksum } from '../core/checksum.js';
import { fileIdentity } from '../embeddings/model-fingerprint.js';
import { join } from 'node:path';
import { makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import type { ModelDtype } from '../embeddings/model-files.js';
import { KERNEL_CLASS_ENV } from '../embeddings/kernel-class.js';
import { openSessionWithFallback, type SessionFactory } from '../embeddings/execution-providers.js';
import { ort } from '../embeddings/onnxruntime.js';
import { deadPid } from './support/faults.js';

const SENTENCES = [
  'PersonX buys a phone.',
  'PersonX buys a phone. Then, PersonX calls PersonY.',
  '',
  'If it rains, then the street is wet and everyone happens to stay at home.',
];

let work: string;
let modelDir: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'intentsim-ort-format-'));
  modelDir = join(work, 'model');
  await makeTestModel(modelDir);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => {
  delete process.env[KERNEL_CLASS_ENV];
});

/** Opens the encoder on the CPU, encodes SENTENCES, closes; returns the vectors and what the copy was. */
async function encodeOnce(cacheDir: string, dtype: ModelDtype = 'fp32') {
  const encoder = await OnnxSentenceEncoder.open({ modelDir, dtype, device: 'cpu', cacheDir });
  try {
    const vectors = await encoder.encode(SENTENCES);
    const copy = encoder.describe().ortFormatModel;
    return { vectors: Buffer.from(vectors.buffer), source: copy?.source ?? 'absent', copy };
  } finally {
    await encoder.close();
  }
}

/** The one derived-models/ folder of a cache: its record and the copy. */
function copyFolder(cacheDir: string): { dir: string; record: Record<string, unknown>; file: string } {
  const root = join(cacheDir, 'derived-models');
  const [name, ...more] = readdirSync(root);
  expect(more).toEqual([]);
  const dir = join(root, name!);
  return { dir, record: JSON.parse(readFileSync(join(dir, 'record.json'), 'utf8')), file: join(dir, 'model.ort') };
}

describe.each(['fp32', 'q8'] as const)('the ORT-format copy of the %s model', (dtype) => {
  it('is noted on the first open, saved on the second, opened from memory on the third: same bytes each time', async () => {
    const cacheDir = join(work, `cache-tiers-${dtype}`);
    const first = await encodeOnce(cacheDir, dtype);
    expect(first.source).toBe('not used (first open of this model: noted, the next open saves it)');
    const noted = copyFolder(cacheDir);
    expect(noted.record.output).toBeUndefined();
    expect(() => statSync(noted.file)).toThrow();

    // A build killed with SIGKILL left its temporary file: the next build removes it.
    writeFileSync(join(noted.dir, `.model.ort.${deadPid()}.${Date.now()}.tmp`), 'partial');
    const second = await encodeOnce(cacheDir, dtype);
    expect(second.source).toBe('built (opened before)');
    const saved = copyFolder(cacheDir);
    expect(saved.record.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(saved.file).size).toBeGreaterThan(0);
    expect(readdirSync(saved.dir).sort()).toEqual(['model.ort', 'record.json']); // no temporary file left

    const third = await encodeOnce(cacheDir, dtype);
    expect(third.source).toBe('cache');
    expect(third.copy?.file).toBe(saved.file);
    expect(third.copy?.bytesInMemory).toBe(statSync(saved.file).size);

    expect(second.vectors.equals(first.vectors)).toBe(true);
    expect(third.vectors.equals(first.vectors)).toBe(true);
  });
});

describe('a copy that cannot be trusted is not used', () => {
  /** A cache whose copy is saved: two opens. */
  async function savedCache(name: string): Promise<{ cacheDir: string; expected: Buffer }> {
    const cacheDir = join(work, name);
    const { vectors } = await encodeOnce(cacheDir);
    expect((await encodeOnce(cacheDir)).source).toBe('built (opened before)');
    return { cacheDir, expected: vectors };
  }

  it('a byte changed where the identity does not show it fails the checksum: rebuilt, same vectors', async () => {
    const { cacheDir, expected } = await savedCache('cache-damaged');
    const { dir, file, record } = copyFolder(cacheDir);
    const fd = openSync(file, 'r+');
    const middle = Math.floor(statSync(file).size / 2);
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, middle);
    writeSync(fd, Buffer.from([byte[0]! ^ 0xff]), 0, 1, middle);
    closeSync(fd);
    // Damage the disk would not date (bit rot, a torn page): the record still matches the file's identity.
    const { checksum: _old, ...fields } = record;
    const forged = withJsonChecksum({ ...fields, output: await fileIdentity(file) });
    writeFileSync(join(dir, 'record.json'), JSON.stringify(forged) + '\n');

    const damaged = await encodeOnce(cacheDir);
    expect(damaged.source).toBe('built (the ORT-format file is damaged (checksum))');
    expect(damaged.vectors.equals(expected)).toBe(true);
    expect((await encodeOnce(cacheDir)).source).toBe('cache');
  });

  it('a copy replaced by another file (its identity changed) is rebuilt', async () => {
    const { cacheDir, expected } = await savedCache('cache-replaced');
    const { file } = copyFolder(cacheDir);
    writeFileSync(file, readFileSync(file)); // same bytes, another inode and mtime
    const replaced = await encodeOnce(cacheDir);
    expect(replaced.source).toBe('built (the ORT-format file changed)');
    expect(replaced.vectors.equals(expected)).toBe(true);
  });

  it('a changed source model starts over (noted again), and the record that says so is not trusted blindly', async () => {
    const { cacheDir, expected } = await savedCache('cache-source-changed');
    const onnx = join(modelDir, 'onnx', 'model.onnx');
    const later = new Date(statSync(onnx).mtimeMs + 5000);
    utimesSync(onnx, later, later);
    const changed = await encodeOnce(cacheDir);
    expect(changed.source).toBe('not used (the source model changed: noted, the next open saves it)');
    expect(changed.vectors.equals(expected)).toBe(true);
    expect((await encodeOnce(cacheDir)).source).toBe('built (opened before)');
  });

  it('a damaged record is a first open again', async () => {
    const { cacheDir } = await savedCache('cache-record-damaged');
    const { dir } = copyFolder(cacheDir);
    const recordPath = join(dir, 'record.json');
    writeFileSync(recordPath, readFileSync(recordPath, 'utf8').replace('"format":1', '"format":2'));
    expect((await encodeOnce(cacheDir)).source).toBe('not used (the record is damaged: noted, the next open saves it)');
  });

  it('a copy saved on another CPU class lies under another key and is never opened here', async () => {
    const { cacheDir } = await savedCache('cache-cpu-class');
    process.env[KERNEL_CLASS_ENV] = 'avx2-elsewhere';
    expect((await encodeOnce(cacheDir)).source).toBe(
      'not used (first open of this model: noted, the next open saves it)',
    );
    expect(readdirSync(join(cacheDir, 'derived-models'))).toHaveLength(2);
  });
});

it('a cache folder that cannot be written costs the copy, not the vectors', async () => {
  const blocker = join(work, 'a-file');
  writeFileSync(blocker, 'not a folder');
  const good = await encodeOnce(join(work, 'cache-good'));
  const unwritable = await encodeOnce(join(blocker, 'cache'));
  expect(unwritable.source).toMatch(/^not used \(first open of this model: cannot be noted in the cache: /);
  expect(unwritable.vectors.equals(good.vectors)).toBe(true);
});

describe('openSessionWithFallback with a model whose ORT format is to be saved', () => {
  const onnxPath = () => join(modelDir, 'onnx', 'model.onnx');

  it('reports the save, and ORT wrote the file', async () => {
    const target = join(work, 'saved-by-ort.ort');
    const opened = await openSessionWithFallback(
      async () => ({ path: onnxPath(), saveOrtFormatTo: target }),
      'cpu',
      {},
    );
    await opened.session.release();
    expect(opened.savedOrtFormat).toBe(true);
    expect(statSync(target).size).toBeGreaterThan(0);
  });

  it('opens the file without saving when saving fails, and says why', async () => {
    const refusesToSave: SessionFactory = {
      create: (model, options) =>
        options.optimizedModelFilePath
          ? Promise.reject(new Error('disk full'))
          : typeof model === 'string'
            ? ort.InferenceSession.create(model, options)
            : ort.InferenceSession.create(model, options),
      supported: () => [{ name: 'cpu', bundled: true }],
      precheck: () => undefined,
    };
    const opened = await openSessionWithFallback(
      async () => ({ path: onnxPath(), saveOrtFormatTo: join(work, 'never.ort') }),
      'cpu',
      {},
      undefined,
      refusesToSave,
    );
    await opened.session.release();
    expect(opened.provider).toBe('cpu');
    expect(opened.savedOrtFormat).toBe('disk full');
  });
});
