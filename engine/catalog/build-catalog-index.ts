// `catalog index`: streams a catalogue, embeds each chunk of products (title, optionally with
// attributes) and stores it as a finished chunk; then builds one HNSW index over all rows.
//
// Resumable: a rerun skips every finished chunk whose products are still the same (the chunk's
// .jsonl is compared with the products just read) and whose files match the checksums in its
// sidecar, so a crash costs at most the chunks in flight, and a damaged chunk is encoded again.
// The output folder is claimed first (core/output-claim.ts): locked, temporary files of killed runs
// removed, and the manifest removed until the index is complete again.
// Parallel: the encoder may be the Piscina pool (workers/pooled-encoder.ts), which spreads each
// chunk's batches over its workers. One index rather than shards merged at query time: hnswlib-node
// inserts single-threaded either way, one graph answers a query with one search instead of one per
// shard, and the build (minutes for millions) is small next to the embedding (hours on CPU).
import { existsSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FingerprintedEncoder, SentenceEncoder } from '../../embeddings/sentence-encoder.js';
import { writeFileAtomic } from '../../core/atomic.js';
import { checksumMismatch, checksumOf } from '../../core/checksum.js';
import { InputError, UserError, type OnError } from '../../core/errors.js';
import { readJsonFile } from '../../core/file-errors.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { notice } from '../../core/notice.js';
import { claimOutput } from '../../core/output-claim.js';
import {
  nothingSaved,
  readMatchingSidecar,
  readSidecarFields,
  removeSidecar,
  writeSidecar,
} from '../../core/sidecar.js';
import { readJsonl, type InputLimits } from '../../core/jsonl.js';
import { createProgress } from '../../core/progress.js';
import { RejectsSink } from '../../core/rejects.js';
import { UnitVectors } from '../search/unit-vectors.js';
import { DEFAULT_HNSW_PARAMS, openOrBuildIndex } from '../search/vector-index.js';
import type { HnswParams } from '../search/range-search.js';
import {
  DEFAULT_CHUNK_SIZE,
  CHUNK_FORMAT,
  MANIFEST_FORMAT,
  chunkName,
  chunkProductsPath,
  chunkVectorsPath,
  indexPath,
  manifestPath,
  type CatalogManifest,
  type CatalogReuse,
  type ChunkSidecar,
} from './catalog-layout.js';
import { decodeNpyFloat32, writeNpyMatrix, type StorageDtype } from '../../core/npy.js';
import { embeddingText, parseCatalogProduct, type CatalogProduct } from '../products/catalog-products.js';
import { makeDirs } from '../../core/make-dirs.js';

export interface CatalogIndexOptions {
  products: string;
  out: string;
  encoder: SentenceEncoder & Pick<FingerprintedEncoder, 'fingerprint'>;
  notMeaningfulBecause?: string;
  /** What to keep in mind about meaningful similarities from another model than Sentence-BERT (glove-100d). */
  similarityNote?: string;
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
  /** Rows without a vector (all zeros): kept in their chunk, never indexed, returned or drawn. */
  rowsWithoutVector: number;
  rejected: number;
  /** Why the HNSW index was (re)built, or undefined when the saved one matched. */
  indexRebuilt?: string;
}

export { DEFAULT_CHUNK_SIZE };

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
  const claim = claimOutput(o.out, 'folder');
  try {
    return await buildClaimed(o);
  } finally {
    claim.release();
  }
}

async function buildClaimed(o: CatalogIndexOptions): Promise<CatalogIndexResult> {
  const chunkSize = o.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const manifest: CatalogManifest = {
    format: MANIFEST_FORMAT,
    products: o.products,
    model: o.encoder.name,
    fingerprint: o.encoder.fingerprint,
    notMeaningfulBecause: o.notMeaningfulBecause ?? null,
    similarityNote: o.similarityNote ?? null,
    dim: o.encoder.dim,
    dtype: o.dtype ?? 'float32',
    attributes: o.attributes ?? false,
    chunkSize,
  };
  await makeDirs(join(o.out, 'chunks'));
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
  // From here until the index is complete, the folder has no manifest (present = complete).
  rmSync(manifestPath(o.out), { force: true });

  const rejects = new RejectsSink(join(o.out, 'rejects.jsonl'));
  const onError = o.onError ?? 'fail';
  const progress = createProgress({ label: 'catalog index', unit: 'products', enabled: o.progress });
  let chunk: CatalogProduct[] = [];
  let chunkIndex = 0;
  let rows = 0;
  const reuse: CatalogReuse = { chunksReused: 0, chunksEncoded: 0, chunksReencoded: {}, indexBuiltBecause: null };

  const finishChunk = async () => {
    const i = chunkIndex++;
    const products = chunk;
    chunk = [];
    rows += products.length;
    const listing = products.map((p) => JSON.stringify({ id: p.id, title: p.title })).join('\n') + '\n';
    const identity: ChunkSidecar = {
      format: CHUNK_FORMAT,
      fingerprint: manifest.fingerprint,
      dim: manifest.dim,
      dtype: manifest.dtype,
      attributes: manifest.attributes,
      rows: products.length,
      products: checksumOf(Buffer.from(listing)).sha256,
    };
    const stale = await finishedChunkMismatch(o.out, i, identity, listing);
    if (stale === undefined) {
      reuse.chunksReused += 1;
      progress.increment(products.length, { detail: `${reuse.chunksReused} chunks reused` });
      return;
    }
    if (stale !== nothingSaved('chunk')) {
      reuse.chunksReencoded[chunkName(i)] = stale;
      notice(`${chunkVectorsPath(o.out, i)}: ${stale}; encoding the chunk again`);
    }
    const vectors = await o.encoder.encode(
      products.map((p) => embeddingText(p, manifest.attributes)),
      { batchSize: o.batchSize, normalize: true },
    );
    await removeSidecar(chunkVectorsPath(o.out, i));
    await writeFileAtomic(chunkProductsPath(o.out, i), listing);
    await writeNpyMatrix(chunkVectorsPath(o.out, i), vectors, products.length, manifest.dim, manifest.dtype);
    await writeSidecar(chunkVectorsPath(o.out, i), identity);
    reuse.chunksEncoded += 1;
    progress.increment(products.length, { detail: `${reuse.chunksReused} chunks reused` });
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
  const counted: CatalogManifest = { ...manifest, chunks: chunkIndex, rows, rejected: rejects.count };
  const vectors = await loadCatalogVectors(o.out, counted);
  const opened = await openOrBuildIndex(indexPath(o.out), vectors.unit, o.hnsw ?? DEFAULT_HNSW_PARAMS, {
    progress: o.progress,
  });
  reuse.indexBuiltBecause = opened.rebuilt ?? null;
  const rowsWithoutVector = vectors.unit.size - vectors.unit.validRows.length;
  const done: CatalogManifest = { ...counted, rowsWithoutVector, reuse };
  await writeFileAtomic(manifestPath(o.out), JSON.stringify(done, null, 2) + '\n');
  return {
    manifest: done,
    chunks: chunkIndex,
    chunksReused: reuse.chunksReused,
    chunksEncoded: reuse.chunksEncoded,
    rows,
    rowsWithoutVector,
    rejected: rejects.count,
    indexRebuilt: opened.rebuilt,
  };
}

/** Undefined when chunk `i` is finished for exactly these products and model, else why not. */
async function finishedChunkMismatch(
  dir: string,
  i: number,
  identity: ChunkSidecar,
  listing: string,
): Promise<string | undefined> {
  const side = await readMatchingSidecar<ChunkSidecar>(chunkVectorsPath(dir, i), identity, 'chunk');
  if ('stale' in side) return side.stale;
  const listed = existsSync(chunkProductsPath(dir, i)) ? await readFile(chunkProductsPath(dir, i), 'utf8') : undefined;
  if (listed !== listing)
    return `${basename(chunkProductsPath(dir, i))} does not list the products its sidecar records`;
  return undefined;
}

export interface CatalogVectors {
  unit: UnitVectors;
  titles: string[];
}

/**
 * All chunks' rows, in chunk order, as unit vectors (decoded to float32) with their titles. Every
 * chunk is checked against its sidecar first (model, storage and both checksums): a chunk that does
 * not match is an error naming it, never a silently different vector.
 */
export async function loadCatalogVectors(dir: string, manifest: CatalogManifest): Promise<CatalogVectors> {
  const ids: string[] = [];
  const titles: string[] = [];
  const parts: Float32Array[] = [];
  const want: Partial<ChunkSidecar> = {
    format: CHUNK_FORMAT,
    fingerprint: manifest.fingerprint,
    dim: manifest.dim,
    dtype: manifest.dtype,
    attributes: manifest.attributes,
  };
  const damaged = (file: string, why: string) =>
    new UserError(`${file}: ${why}; rerun \`intentsim catalog index\` with the same options to encode it again`);
  for (let i = 0; i < (manifest.chunks ?? 0); i++) {
    const npyPath = chunkVectorsPath(dir, i);
    const side = await readSidecarFields<ChunkSidecar>(npyPath, want, 'chunk');
    if ('stale' in side) throw damaged(npyPath, side.stale);
    const bytes = await readFile(npyPath);
    const npyMismatch = checksumMismatch(side.content, checksumOf(bytes));
    if (npyMismatch) throw damaged(npyPath, npyMismatch);
    const listingBytes = await readFile(chunkProductsPath(dir, i));
    if (checksumOf(listingBytes).sha256 !== side.products)
      throw damaged(chunkProductsPath(dir, i), "does not match the checksum in its chunk's sidecar (damaged file)");
    const m = decodeNpyFloat32(bytes, npyPath);
    const listing = listingBytes
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '');
    if (m.shape.length !== 2 || m.shape[0] !== side.rows || listing.length !== side.rows || m.shape[1] !== manifest.dim)
      throw damaged(npyPath, `shape (${m.shape}) and ${listing.length} products do not match its sidecar`);
    for (const l of listing) {
      const p = JSON.parse(l) as { id: string; title: string };
      ids.push(p.id);
      titles.push(p.title);
    }
    parts.push(m.data);
  }
  const dim = manifest.dim;
  const data = new Float32Array(ids.length * dim);
  let off = 0;
  for (const p of parts) {
    data.set(p, off);
    off += p.length;
  }
  // Float16 rows are renormalised here, so that a stored cosine is a cosine of unit vectors.
  return { unit: UnitVectors.fromVectorSet({ ids, dim, data }), titles };
}
