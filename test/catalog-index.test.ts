// Catalogue index: float16 storage (bit-exact conversion, error bound), round trip, resumption after a
// simulated crash (counting encoder calls), and queries equal to a brute-force exact scan.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashingSentenceEncoder } from '../embeddings/hashing-encoder.js';
import type { EncodeOptions } from '../embeddings/sentence-encoder.js';
import { buildCatalogIndex, loadCatalogVectors } from '../engine/catalog/build-catalog-index.js';
import { fromFloat16Bits, toFloat16Bits } from '../core/float16.js';
import { readNpyFloat32 } from '../core/npy.js';
import { CatalogIndex } from '../engine/catalog/catalog-query.js';
import type { CatalogManifest } from '../engine/catalog/catalog-layout.js';
import { Rng } from '../core/rng.js';
import { InputError } from '../core/errors.js';
import { embeddingText, parseCatalogProduct } from '../engine/products/catalog-products.js';
import { sibProduct } from '../engine/items/sib/sib-catalog.js';
import { cli } from './support/cli.js';
import { fileHashes } from './support/faults.js';

/** The hashing stand-in (deterministic, word-based), counting what it encodes; optionally crashing. */
class CountingEncoder extends HashingSentenceEncoder {
  sentences = 0;
  calls = 0;
  constructor(
    dim: number,
    private readonly crashOnCall?: number,
  ) {
    super(dim);
  }
  override async encode(sentences: readonly string[], options?: EncodeOptions): Promise<Float32Array> {
    this.calls += 1;
    if (this.calls === this.crashOnCall) throw new Error('simulated crash');
    this.sentences += sentences.length;
    return super.encode(sentences, options);
  }
}

const WORDS = [
  'red',
  'blue',
  'cotton',
  'linen',
  'shirt',
  'jacket',
  'wireless',
  'mouse',
  'pad',
  'lamp',
  'desk',
  'led',
  'boots',
  'hiking',
  'rain',
  'steel',
  'bottle',
  'kids',
  'large',
  'mini',
];

function sampleCatalog(
  n: number,
  seed: number,
): Array<{ id: string; title: string; attributes?: Record<string, string[]> }> {
  const rng = new Rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const words = Array.from({ length: 2 + rng.int(4) }, () => WORDS[rng.int(WORDS.length)]!);
    return {
      id: `p${i}`,
      title: words.join(' '),
      ...(i % 3 === 0 ? { attributes: { color: [WORDS[rng.int(2)]!] } } : {}),
    };
  });
}

/** The manifest of a finished index folder. */
function manifestOf(dir: string): CatalogManifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as CatalogManifest;
}

function writeCatalog(dir: string, rows: unknown[]): string {
  const path = join(dir, 'catalog.jsonl');
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

describe('catalog product lines (one parser for catalog index and SIB catalogs)', () => {
  const at = { file: 'c.jsonl', line: 3 };
  const parse = (json: unknown) => parseCatalogProduct(json, at);
  const errorOf = (json: unknown) => {
    try {
      parse(json);
    } catch (err) {
      return err instanceof InputError ? `${err.location.field}: ${err.reason}` : String(err);
    }
    return 'no error';
  };

  it('attributes: an object or a list of objects; a value or a list of values; numbers and booleans as text', () => {
    expect(parse({ id: '7', title: 'Lamp' })).toEqual({ id: '7', title: 'Lamp', attributes: [] });
    expect(parse({ id: 'a', title: 'T', attributes: null }).attributes).toEqual([]);
    const p = parse({
      id: 'a',
      title: 'Shirt',
      attributes: [
        { color: ['red', 'blue'], size: 'M' },
        { 'in stock': true, weight: 0.25 },
      ],
    });
    expect(p.attributes).toEqual([
      ['color', ['red', 'blue']],
      ['size', ['M']],
      ['in stock', ['true']],
      ['weight', ['0.25']],
    ]);
    expect(embeddingText(p, true)).toBe('Shirt. color: red, blue; size: M; in stock: true; weight: 0.25');
    expect(embeddingText(p, false)).toBe('Shirt');
    // SIB shows one value per attribute: several are joined the way the embedding text writes them.
    expect(sibProduct(p).attributes).toEqual([
      ['color', 'red, blue'],
      ['size', 'M'],
      ['in stock', 'true'],
      ['weight', '0.25'],
    ]);
  });

  it('names the field of a bad attribute', () => {
    expect(errorOf({ id: 'a', title: 'T', attributes: 'red' })).toBe(
      'attributes: expected {name: [values]}, got the string "red"',
    );
    expect(errorOf({ id: 'a', title: 'T', attributes: [{ c: 'x' }, 5] })).toBe(
      'attributes[1]: expected {name: [values]}, got number 5',
    );
    expect(errorOf({ id: 'a', title: 'T', attributes: { c: ['x', null] } })).toBe(
      'attributes.c[1]: expected a string, number or boolean, got null',
    );
    expect(errorOf({ id: 'a', title: '' })).toBe('title: must not be empty');
  });
});

describe('float16 storage', () => {
  it('converts known values exactly and every half-precision value round-trips', () => {
    expect(toFloat16Bits(1)).toBe(0x3c00);
    expect(toFloat16Bits(-2)).toBe(0xc000);
    expect(toFloat16Bits(65504)).toBe(0x7bff);
    expect(toFloat16Bits(1e6)).toBe(0x7c00);
    expect(toFloat16Bits(2 ** -24)).toBe(0x0001);
    expect(toFloat16Bits(1 / 3)).toBe(0x3555);
    expect(toFloat16Bits(1 + 2 ** -11)).toBe(0x3c00); // tie → even
    expect(toFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie → even (up)
    const mismatches: number[] = [];
    for (let h = 0; h < 0x10000; h++) {
      const x = fromFloat16Bits(h);
      if (!Number.isNaN(x) && toFloat16Bits(x) !== h) mismatches.push(h);
    }
    expect(mismatches).toEqual([]);
  });

  it('stores unit-vector components within 2^-11 relative (2^-25 absolute near zero), and cosines within 1e-3', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-f16-'));
    const products = writeCatalog(dir, sampleCatalog(120, 3));
    const encoder = new HashingSentenceEncoder(64);
    await buildCatalogIndex({
      products,
      out: join(dir, 'f32'),
      encoder,
      dtype: 'float32',
      chunkSize: 50,
      progress: false,
    });
    await buildCatalogIndex({
      products,
      out: join(dir, 'f16'),
      encoder,
      dtype: 'float16',
      chunkSize: 50,
      progress: false,
    });
    const a = await readNpyFloat32(join(dir, 'f32', 'chunks', 'chunk-000000.npy'));
    const b = await readNpyFloat32(join(dir, 'f16', 'chunks', 'chunk-000000.npy'));
    expect([a.dtype, b.dtype, ...b.shape]).toEqual(['float32', 'float16', 50, 64]);
    expect(readFileSync(join(dir, 'f16', 'chunks', 'chunk-000000.npy')).length).toBe(128 + 50 * 64 * 2);
    for (let i = 0; i < a.data.length; i++) {
      const x = a.data[i]!;
      const err = Math.abs(b.data[i]! - x);
      expect(err).toBeLessThanOrEqual(Math.abs(x) >= 2 ** -14 ? Math.abs(x) * 2 ** -11 : 2 ** -25);
    }
    const u32 = (await loadCatalogVectors(join(dir, 'f32'), manifestOf(join(dir, 'f32')))).unit;
    const u16 = (await loadCatalogVectors(join(dir, 'f16'), manifestOf(join(dir, 'f16')))).unit;
    for (let r = 0; r < 119; r++) expect(Math.abs(u16.cosine(r, r + 1) - u32.cosine(r, r + 1))).toBeLessThan(1e-3);
  });
});

describe('catalog index', () => {
  it('round-trips ids, titles and vectors (float32 storage equals the encoder output)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-cat-'));
    const rows = sampleCatalog(23, 1);
    const products = writeCatalog(dir, rows);
    const encoder = new HashingSentenceEncoder(32);
    const r = await buildCatalogIndex({
      products,
      out: join(dir, 'idx'),
      encoder,
      chunkSize: 10,
      attributes: true,
      progress: false,
    });
    expect([r.rows, r.chunks, r.chunksEncoded, r.chunksReused]).toEqual([23, 3, 3, 0]);
    const loaded = await loadCatalogVectors(join(dir, 'idx'), r.manifest);
    expect(loaded.unit.ids).toEqual(rows.map((p) => p.id));
    expect(loaded.titles).toEqual(rows.map((p) => p.title));
    const texts = rows.map((p) => (p.attributes ? `${p.title}. color: ${p.attributes.color![0]}` : p.title));
    const expected = await encoder.encode(texts);
    expect(Array.from(loaded.unit.data).map((x) => Math.fround(x))).toEqual(Array.from(expected));
    const manifest = JSON.parse(readFileSync(join(dir, 'idx', 'manifest.json'), 'utf8')) as {
      chunks: number;
      dtype: string;
      attributes: boolean;
    };
    expect(manifest).toMatchObject({ chunks: 3, rows: 23, dtype: 'float32', attributes: true });
  });

  it('resumes after a crash without recomputing finished chunks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-cat-resume-'));
    const products = writeCatalog(dir, sampleCatalog(45, 2));
    const out = join(dir, 'idx');
    const crashing = new CountingEncoder(32, 3);
    await expect(
      buildCatalogIndex({ products, out, encoder: crashing, chunkSize: 10, progress: false }),
    ).rejects.toThrow('simulated crash');
    expect(crashing.sentences).toBe(20); // chunks 0 and 1 finished
    const resumed = new CountingEncoder(32);
    const r = await buildCatalogIndex({ products, out, encoder: resumed, chunkSize: 10, progress: false });
    expect(resumed.sentences).toBe(25); // chunks 2, 3 (10 each) and 4 (5)
    expect([r.chunksReused, r.chunksEncoded, r.rows]).toEqual([2, 3, 45]);
    const again = new CountingEncoder(32);
    const r2 = await buildCatalogIndex({ products, out, encoder: again, chunkSize: 10, progress: false });
    expect([again.calls, r2.chunksReused, r2.indexRebuilt]).toEqual([0, 5, undefined]);
    // A product changed in chunk 1: only that chunk is encoded again.
    const changed = sampleCatalog(45, 2);
    changed[13]!.title = 'entirely new title';
    writeCatalog(dir, changed);
    const partial = new CountingEncoder(32);
    const r3 = await buildCatalogIndex({ products, out, encoder: partial, chunkSize: 10, progress: false });
    expect([partial.sentences, r3.chunksEncoded]).toEqual([10, 1]);
    expect(r3.indexRebuilt).toMatch(/checksum/);
    await expect(
      buildCatalogIndex({ products, out, encoder: partial, chunkSize: 10, dtype: 'float16', progress: false }),
    ).rejects.toThrow(/dtype was "float32", now "float16"/);
  });

  it('--workers 2 with a real ONNX model writes exactly what --workers 1 writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-cat-workers-'));
    const products = writeCatalog(dir, sampleCatalog(90, 4));
    const model = join(dir, 'model');
    await cli(['model', 'make-test', '--out', model]);
    const run = (workers: number) =>
      cli([
        'catalog',
        'index',
        '--products',
        products,
        '--out',
        join(dir, `w${workers}`),
        '--model-dir',
        model,
        '--device',
        'cpu',
        '--chunk-products',
        '16',
        '--batch-size',
        '8',
        '--workers',
        String(workers),
      ]);
    expect(await run(2)).toMatch(/^90 products in 6 chunks \(6 encoded, 0 reused\)/);
    await run(1);
    const one = fileHashes(join(dir, 'w1'));
    expect(one.size).toBe(1 + 6 * 3 + 2); // manifest, chunks (.jsonl, .npy, sidecar), index + sidecar
    expect(fileHashes(join(dir, 'w2'))).toEqual(one);
  });

  it('rejects bad lines naming file, line and field, or skips them into rejects.jsonl', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-cat-bad-'));
    const products = writeCatalog(dir, [
      { id: 'a', title: 'red shirt' },
      { id: 'b', title: '' },
      { id: 'a', title: 'again' },
      { id: 'c', title: 'lamp' },
    ]);
    const encoder = new HashingSentenceEncoder(16);
    await expect(buildCatalogIndex({ products, out: join(dir, 'x'), encoder, progress: false })).rejects.toThrow(
      `${products}:2 (field "title")`,
    );
    const r = await buildCatalogIndex({ products, out: join(dir, 'y'), encoder, onError: 'skip', progress: false });
    expect([r.rows, r.rejected]).toEqual([2, 2]);
    expect(readFileSync(join(dir, 'y', 'rejects.jsonl'), 'utf8')).toContain('duplicate product id');
  });

  it('query returns the brute-force exact top k, with exact cosines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-cat-query-'));
    const rows = sampleCatalog(300, 5);
    const products = writeCatalog(dir, rows);
    const encoder = new HashingSentenceEncoder(48);
    await buildCatalogIndex({ products, out: join(dir, 'idx'), encoder, chunkSize: 64, progress: false });
    const index = await CatalogIndex.open(join(dir, 'idx'));
    const vectors = await encoder.encode(rows.map((p) => p.title));
    for (const text of ['red cotton shirt', 'wireless mouse pad', 'kids hiking boots', 'steel bottle']) {
      const q = await index.embed(text, encoder);
      // Brute force, independent of the engine: float64 dot over every product, ties by input order.
      const brute = rows
        .map((p, i) => {
          let s = 0;
          for (let k = 0; k < 48; k++) s += q[k]! * vectors[i * 48 + k]!;
          return { id: p.id, i, cosine: s };
        })
        .sort((a, b) => b.cosine - a.cosine || a.i - b.i)
        .slice(0, 10);
      const hits = index.nearest(q, 10);
      expect(hits.map((h) => h.id)).toEqual(brute.map((b) => b.id));
      hits.forEach((h, i) => expect(h.cosine).toBeCloseTo(brute[i]!.cosine, 6));
      expect(index.nearest(q, 10, { exhaustive: true })).toEqual(hits);
    }
    await expect(
      index.embed('x', new HashingSentenceEncoder(48) as HashingSentenceEncoder & { fingerprint: string }),
    ).resolves.toBeInstanceOf(Float32Array);
    const other = Object.assign(new HashingSentenceEncoder(48), { fingerprint: 'other-model' });
    await expect(index.embed('x', other)).rejects.toThrow(/built with offline-hashing-v1/);
  });
});
