import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { PooledSentenceEncoder } from '../workers/pooled-encoder.js';
import { HashingSentenceEncoder, HASHING_ENCODER_NOTICE } from '../embeddings/hashing-encoder.js';

// The pooled encoder must be a drop-in for the direct one: same rows, same order, whatever the
// chunking across workers.
describe('PooledSentenceEncoder (Piscina workers)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'intentsim-pool-'));
    await makeTestModel(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const sentences = Array.from({ length: 37 }, (_, i) =>
    i % 3 === 0
      ? `PersonX buy a phone ${i}`
      : i % 3 === 1
        ? `PersonX need a charger and a case number ${i}`
        : `it rain`,
  );

  it('returns exactly the direct encoder rows, in input order, across several chunks and workers', async () => {
    const direct = await OnnxSentenceEncoder.open({ modelDir: dir, offline: true, intraOpThreads: 1 });
    const expected = await direct.encode(sentences, { batchSize: 4 });
    await direct.close();

    const pooled = await PooledSentenceEncoder.open(
      { modelDir: dir, offline: true },
      { workers: 2, threadsPerWorker: 1, chunkSize: 5 },
    );
    try {
      expect(pooled.dim).toBe(direct.dim);
      expect(pooled.fingerprint).toBe(direct.fingerprint);
      expect(pooled.provider).toBe('cpu');
      const got = await pooled.encode(sentences, { batchSize: 4 });
      expect(got.length).toBe(sentences.length * pooled.dim);
      // Batches are padded differently per chunk; BERT with attention masks is invariant to that up
      // to float rounding.
      let maxDiff = 0;
      for (let i = 0; i < got.length; i++) maxDiff = Math.max(maxDiff, Math.abs(got[i]! - expected[i]!));
      expect(maxDiff).toBeLessThan(1e-5);
      // Rows really differ from each other, so an order mix-up could not pass.
      const row = (v: Float32Array, r: number) => v.subarray(r * pooled.dim, (r + 1) * pooled.dim);
      expect(Array.from(row(got, 0))).not.toEqual(Array.from(row(got, 3)));
    } finally {
      await pooled.close();
    }
  });

  it('each encoder describes itself for manifests, with the keys in the order manifests have always had', async () => {
    const infoKeys = [
      'encoder',
      'sentenceBert',
      'model',
      'source',
      'dir',
      'dtype',
      'onnxFile',
      'fingerprint',
      'dim',
      'maxTokens',
      'provider',
      'providerAttempts',
      'resolutionAttempts',
      'intraOpThreads',
    ];
    const direct = await OnnxSentenceEncoder.open({ modelDir: dir, offline: true, intraOpThreads: 1 });
    const pooled = await PooledSentenceEncoder.open(
      { modelDir: dir, offline: true },
      { workers: 2, threadsPerWorker: 1 },
    );
    try {
      await direct.encode(sentences, { batchSize: 4 });
      const d = direct.describe();
      expect(Object.keys(d)).toEqual([
        ...infoKeys,
        'paddingWasted',
        'pipeline',
        'pooling',
        'batchSize',
        'tokenizerThreads',
        'ortFormatModel', // the CPU session's ORT-format copy (issue 50), after the optional derivedModel
        'sessionBusyShare',
        'stats',
      ]);
      expect([d.pooling, d.batchSize, d.tokenizerThreads]).toEqual(['js', 64, 0]);
      expect(d.paddingWasted).toBe(Math.round(direct.paddingWasted * 1e4) / 1e4);
      expect(d.stats.sentences).toBe(sentences.length);
      expect(direct.dtype).toBe(d.dtype);
      const p = pooled.describe();
      expect(Object.keys(p)).toEqual([...infoKeys, 'workers']);
      expect([p.workers, p.fingerprint, pooled.dtype]).toEqual([2, d.fingerprint, d.dtype]);
    } finally {
      await direct.close();
      await pooled.close();
    }
    const hashing = new HashingSentenceEncoder(8);
    expect(JSON.stringify(hashing.describe())).toBe(
      JSON.stringify({
        encoder: 'offline-hashing-v1',
        sentenceBert: false,
        notice: HASHING_ENCODER_NOTICE,
        model: 'offline-hashing-v1',
        dtype: 'none',
        fingerprint: 'offline-hashing-v1',
        dim: 8,
        provider: 'none',
      }),
    );
    expect(hashing.dtype).toBe('none');
  });

  it('rejects a pool with no workers', async () => {
    await expect(
      PooledSentenceEncoder.open({ modelDir: dir, offline: true }, { workers: 0, threadsPerWorker: 1 }),
    ).rejects.toThrow(/≥ 1/);
  });

  it('passes a model-loading failure through to the caller', async () => {
    await expect(
      PooledSentenceEncoder.open(
        { modelDir: join(dir, 'missing'), offline: true },
        { workers: 1, threadsPerWorker: 1 },
      ),
    ).rejects.toThrow(/missing/);
  });
});
