// `catalog index`: streams a catalogue, embeds each chunk of products (title, optionally with
// attributes) and stores it as a finished chunk; then builds one HNSW index over all rows.
//
// Resumable: a rerun skips every finished chunk whose products are still the same (the chunk's
// .jsonl is compared with the products just read), so a crash costs at most the chunks in flight.
// Parallel: the encoder may be the Piscina pool (workers/pooled-encoder.ts), which spreads each
// chunk's batches over its workers. One index rather than shards merged at query time: hnswlib-node
// inserts single-threaded either way, one graph answers a query with one search instead of one per
// shard, and the build (minutes for millions) is small next to the embedding (hours on CPU).
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FingerprintedEncoder, SentenceEncoder } from '../../embeddings/sentence-encoder.js';
import { writeFileAtomic } from '../../core/atomic.js';
import { InputError, UserError, type OnError } from '../../core/errors.js';
import { readJsonFile } from '../../core/file-errors.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { readJsonl, type InputLimits } from '../../core/jsonl.js';
import { createProgress } from '../../core/progress.js';
import { RejectsSink } from '../../core/rejects.js';
import { UnitVectors } from '../search/unit-vectors.js';
import { DEFAULT_HNSW_PARAMS, openOrBuildIndex } from '../search/vector-index.js';
import type { HnswParams } from '../search/range-search.js';
import {
  MANIFEST_FORMAT,
  chunkProductsPath,
  chunkVectorsPath,
  indexPath,
  manifestPath,
  type CatalogManifest,
} from './catalog-layout.js';
import { readNpyFloat32, writeNpyMatrix, type StorageDtype } from '../../core/npy.js';
import { embeddingText, parseCatalogProduct, type CatalogProduct } from '../products/catalog-products.js';

export interface CatalogIndexOptions {
  products: string;
  out: string;
  encoder: SentenceEncoder & Pick<FingerprintedEncoder, 'fingerprint'>;
  notMeaningfulBecause?: string;
  dtype?: StorageDtype;
  attributes?: boolean;
  /** Products per chunk (the unit of resumption). */
  chunkSize?: number;
  batchSize?: number;
  onError?: OnError;
  /** Limits on the catalogue's lines and texts (core/jsonl-batches.ts). */
  limits?: InputLimits;
  hnsw?: HnswParams;
  progress?: boolean;
}

export interface CatalogIndexResult {
  manifest: CatalogManifest;
  chunks: number;
  chunksReused: number;
  chunksEncoded: number;
  rows: number;
  rejected: number;
  /** Why the HNSW index was (re)built, or undefined when the saved one matched. */
  indexRebuilt?: string;
}

export const DEFAULT_CHUNK_SIZE = 8192;

function sameParameters(a: CatalogManifest, b: CatalogManifest): string | undefined {
  for (const key of ['format', 'fingerprint', 'dim', 'dtype', 'attributes', 'chunkSize'] as const) {
    if (a[key] !== b[key]) return `${key} was ${JSON.stringify(a[key])}, now ${JSON.stringify(b[key])}`;
  }
  return undefined;
}

/** What buildCatalogIndex reads and writes, checked before any work (the CLI checks them before it opens the model). */
export function catalogIndexPaths(o: Pick<CatalogIndexOptions, 'products' | 'out'>): PathChecks {
  return { inputFiles: { products: o.products }, outputDirs: { out: o.out } };
}

export async function buildCatalogIndex(o: CatalogIndexOptions): Promise<CatalogIndexResult> {
  checkPaths(catalogIndexPaths(o));
  const chunkSize = o.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const manifest: CatalogManifest = {
    format: MANIFEST_FORMAT,
    products: o.products,
    model: o.encoder.name,
    fingerprint: o.encoder.fingerprint,
    notMeaningfulBecause: o.notMeaningfulBecause ?? null,
    dim: o.encoder.dim,
    dtype: o.dtype ?? 'float32',
    attributes: o.attributes ?? false,
    chunkSize,
  };
  await mkdir(join(o.out, 'chunks'), { recursive: true });
  if (existsSync(manifestPath(o.out))) {
    const previous = (await readJsonFile(manifestPath(o.out), {
      what: 'catalogue index manifest',
      ifDamaged: 'delete it and run again (finished chunks are reused)',
    })) as CatalogManifest;
    const differs = sameParameters(previous, manifest);
    if (differs)
      throw new UserError(
        `${o.out} holds an index built with other parameters (${differs}); use another output folder or delete it`,
      );
  }
  await writeFileAtomic(manifestPath(o.out), JSON.stringify(manifest, null, 2) + '\n');

  const rejects = new RejectsSink(join(o.out, 'rejects.jsonl'));
  const onError = o.onError ?? 'fail';
  const progress = createProgress({ label: 'catalog index', unit: 'products', enabled: o.progress });
  let chunk: CatalogProduct[] = [];
  let chunkIndex = 0;
  let reused = 0;
  let encoded = 0;
  let rows = 0;

  const finishChunk = async () => {
    const i = chunkIndex++;
    const products = chunk;
    chunk = [];
    rows += products.length;
    const listing = products.map((p) => JSON.stringify({ id: p.id, title: p.title })).join('\n') + '\n';
    if (
      existsSync(chunkVectorsPath(o.out, i)) &&
      existsSync(chunkProductsPath(o.out, i)) &&
      (await readFile(chunkProductsPath(o.out, i), 'utf8')) === listing
    ) {
      reused += 1;
      progress.increment(products.length, { detail: `${reused} chunks reused` });
      return;
    }
    const vectors = await o.encoder.encode(
      products.map((p) => embeddingText(p, manifest.attributes)),
      { batchSize: o.batchSize, normalize: true },
    );
    await writeFileAtomic(chunkProductsPath(o.out, i), listing);
    await writeNpyMatrix(chunkVectorsPath(o.out, i), vectors, products.length, manifest.dim, manifest.dtype);
    encoded += 1;
    progress.increment(products.length, { detail: `${reused} chunks reused` });
  };

  try {
    const unique = { of: (p: CatalogProduct) => p.id, field: 'id', what: 'product id' };
    for await (const { value } of readJsonl(o.products, parseCatalogProduct, {
      ...o.limits,
      onError,
      rejects,
      unique,
    })) {
      chunk.push(value);
      if (chunk.length === chunkSize) await finishChunk();
    }
    if (chunk.length > 0) await finishChunk();
  } finally {
    progress.stop();
    await rejects.close();
  }

  if (rows === 0) throw new InputError({ file: o.products }, 'no products to index');
  const vectors = await loadCatalogVectors(o.out, chunkIndex);
  const opened = await openOrBuildIndex(indexPath(o.out), vectors.unit, o.hnsw ?? DEFAULT_HNSW_PARAMS, {
    progress: o.progress,
  });
  const done: CatalogManifest = { ...manifest, chunks: chunkIndex, rows, rejected: rejects.count };
  await writeFileAtomic(manifestPath(o.out), JSON.stringify(done, null, 2) + '\n');
  return {
    manifest: done,
    chunks: chunkIndex,
    chunksReused: reused,
    chunksEncoded: encoded,
    rows,
    rejected: rejects.count,
    indexRebuilt: opened.rebuilt,
  };
}

export interface CatalogVectors {
  unit: UnitVectors;
  titles: string[];
}

/** All chunks' rows, in chunk order, as unit vectors (decoded to float32) with their titles. */
export async function loadCatalogVectors(dir: string, chunks: number): Promise<CatalogVectors> {
  const ids: string[] = [];
  const titles: string[] = [];
  const parts: Float32Array[] = [];
  let dim = 0;
  for (let i = 0; i < chunks; i++) {
    const m = await readNpyFloat32(chunkVectorsPath(dir, i));
    const [rows, width] = m.shape;
    if (m.shape.length !== 2)
      throw new UserError(`${chunkVectorsPath(dir, i)}: expected a 2-d matrix, got (${m.shape})`);
    const listing = (await readFile(chunkProductsPath(dir, i), 'utf8')).split('\n').filter((l) => l !== '');
    if (listing.length !== rows)
      throw new UserError(`${chunkProductsPath(dir, i)}: ${listing.length} products but ${rows} vectors`);
    for (const l of listing) {
      const p = JSON.parse(l) as { id: string; title: string };
      ids.push(p.id);
      titles.push(p.title);
    }
    parts.push(m.data);
    dim = width!;
  }
  const data = new Float32Array(ids.length * dim);
  let off = 0;
  for (const p of parts) {
    data.set(p, off);
    off += p.length;
  }
  // Float16 rows are renormalised here, so that a stored cosine is a cosine of unit vectors.
  return { unit: UnitVectors.fromVectorSet({ ids, dim, data }), titles };
}
