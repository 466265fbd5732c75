import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { undoAllForInterrupt } from '../core/interrupt.js';
import { clusteredVectors } from '../bench/support/clustered-vectors.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import {
  HnswRange,
  VectorIndex,
  openOrBuildIndex,
  sidecarPath,
  vectorsChecksum,
} from '../engine/search/vector-index.js';

const params = { m: 12, efConstruction: 100, seed: 3 };

describe('HNSW vector index persistence', () => {
  const raw = clusteredVectors({ count: 300, dim: 16, clusters: 6, seed: 2, zeroRows: new Set([4]) });
  const vectors = UnitVectors.fromVectorSet(raw);

  it('the temporary copy of an index built in memory is removed by release() or by an interrupt', async () => {
    const inMemory = VectorIndex.build(vectors, params);
    const first = await inMemory.file();
    expect(existsSync(first.path) && existsSync(sidecarPath(first.path))).toBe(true);
    await first.release();
    expect(existsSync(first.path) || existsSync(sidecarPath(first.path))).toBe(false);
    expect(undoAllForInterrupt()).toBe(0); // release() also forgot them
    const second = await inMemory.file();
    expect(undoAllForInterrupt()).toBe(2); // the index and its sidecar, as Ctrl-C would
    expect(existsSync(second.path) || existsSync(sidecarPath(second.path))).toBe(false);
    await second.release();
  });

  it('saves, reloads the same index, and answers identically', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hnsw-'));
    const path = join(dir, 'products.hnsw');
    const first = await openOrBuildIndex(path, vectors, params);
    expect(first.rebuilt).toBe('no saved index');
    expect(existsSync(path) && existsSync(sidecarPath(path))).toBe(true);
    const side = JSON.parse(await readFile(sidecarPath(path), 'utf8'));
    expect(side).toMatchObject({
      format: 'intentsim-hnsw/1',
      space: 'ip',
      dim: 16,
      rows: 300,
      indexed: 299,
      m: 12,
      efConstruction: 100,
      seed: 3,
    });
    expect(side.checksum).toBe(vectorsChecksum(vectors));
    const again = await openOrBuildIndex(path, vectors, params);
    expect(again.rebuilt).toBeUndefined();
    for (const q of [0, 10, 299]) {
      expect(again.index.knn(vectors.vector(q), 20, 50)).toEqual(first.index.knn(vectors.vector(q), 20, 50));
      const a = new HnswRange(again.index).range(vectors.vector(q), 0.6, true);
      const b = new HnswRange(first.index).range(vectors.vector(q), 0.6, true);
      expect(Array.from(a.rows)).toEqual(Array.from(b.rows));
    }
    // the row without a vector was never indexed
    expect(first.index.knn(vectors.vector(0), 299, 400)).not.toContain(4);
  });

  it('rebuilds when the vectors, an id or the parameters change, or the files are damaged', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hnsw-'));
    const path = join(dir, 'products.hnsw');
    await openOrBuildIndex(path, vectors, params);
    const changed = { ...raw, data: raw.data.slice() };
    changed.data[5] = changed.data[5]! + 0.5;
    expect((await openOrBuildIndex(path, UnitVectors.fromVectorSet(changed), params)).rebuilt).toMatch(/checksum/);
    expect((await openOrBuildIndex(path, vectors, params)).rebuilt).toMatch(/checksum/); // back to the original
    const renamed = { ...raw, ids: raw.ids.map((id, i) => (i === 7 ? 'other' : id)) };
    expect((await openOrBuildIndex(path, UnitVectors.fromVectorSet(renamed), params)).rebuilt).toMatch(/checksum/);
    await openOrBuildIndex(path, vectors, params);
    expect((await openOrBuildIndex(path, vectors, { ...params, m: 16 })).rebuilt).toMatch(/sidecar m/);
    await writeFile(sidecarPath(path), '{ not json');
    expect((await openOrBuildIndex(path, vectors, params)).rebuilt).toMatch(/unreadable sidecar/);
    expect((await openOrBuildIndex(path, vectors, params)).rebuilt).toBeUndefined();
    await writeFile(path, 'garbage');
    const res = await openOrBuildIndex(path, vectors, params);
    expect(res.rebuilt).toMatch(/^7 bytes, the checksum was recorded for \d+ \(damaged file\)$/);
    expect(res.index.indexed).toBe(299);
  });

  it('is deterministic: the same vectors and params build the same graph', () => {
    const a = VectorIndex.build(vectors, params, { progress: false });
    const b = VectorIndex.build(vectors, params, { progress: false });
    for (let q = 0; q < 300; q += 13)
      expect(a.knn(vectors.vector(q), 30, 30)).toEqual(b.knn(vectors.vector(q), 30, 30));
  });
});
