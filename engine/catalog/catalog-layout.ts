// The files of a catalogue index folder:
//   manifest.json                 parameters (model fingerprint, storage dtype, attributes, chunk size),
//                                 counts and what was reused; written last, so present = complete
//   chunks/chunk-000000.jsonl     {"id", "title"} of the chunk's products, in input order
//   chunks/chunk-000000.npy       their vectors (rows × dim, float32 or float16), L2-normalised
//   chunks/chunk-000000.npy.json  the chunk's sidecar: model fingerprint, storage, and the checksums
//                                 of the .jsonl and the .npy
//   index.hnsw (+ index.hnsw.json) one HNSW index over all rows (cosine), engine/search/vector-index.ts
// A chunk is finished when its sidecar exists and both files match its checksums: the .jsonl and
// the .npy are written first and the sidecar last, each atomically, so a crash leaves either a
// finished chunk or one that is recomputed, and a damaged chunk file is re-encoded, never used.
import { join } from 'node:path';
import type { StorageDtype } from '../../core/npy.js';

export const MANIFEST_FORMAT = 'intentsim-catalog/1';
export const CHUNK_FORMAT = 'intentsim-catalog-chunk/1';

export interface CatalogManifest {
  format: typeof MANIFEST_FORMAT;
  products: string;
  model: string;
  /** The encoder's fingerprint: vectors from another model must never be mixed in. */
  fingerprint: string;
  /** Why similarities in this index mean nothing (stand-in or random weights), or null. */
  notMeaningfulBecause: string | null;
  /** What to keep in mind about meaningful similarities from another model than Sentence-BERT (glove-100d), or null. */
  similarityNote: string | null;
  dim: number;
  dtype: StorageDtype;
  attributes: boolean;
  chunkSize: number;
  /** Filled when the index is complete (a manifest without them was left by an older intentsim's unfinished run). */
  chunks?: number;
  rows?: number;
  /** Rows the encoder gave no vector (no word glove-100d knows): never returned or drawn. */
  rowsWithoutVector?: number;
  rejected?: number;
  /** What the run that finished the index reused and why it recomputed the rest. */
  reuse?: CatalogReuse;
}

export interface CatalogReuse {
  chunksReused: number;
  chunksEncoded: number;
  /** Chunk name → why a chunk that was there was encoded again (changed products, damaged file, …). */
  chunksReencoded: Record<string, string>;
  /** Why the HNSW index was built, or null when the saved one was reused. */
  indexBuiltBecause: string | null;
}

/** `chunks/chunk-NNNNNN.npy.json`: what the chunk was computed from, and the checksum of its listing. */
export interface ChunkSidecar {
  format: typeof CHUNK_FORMAT;
  fingerprint: string;
  dim: number;
  dtype: StorageDtype;
  attributes: boolean;
  rows: number;
  /** SHA-256 of the chunk's .jsonl listing (the .npy's own checksum is the sidecar's `content`: core/sidecar.ts). */
  products: string;
}

export function manifestPath(dir: string): string {
  return join(dir, 'manifest.json');
}

export function chunkName(i: number): string {
  return `chunk-${String(i).padStart(6, '0')}`;
}

export function chunkVectorsPath(dir: string, i: number): string {
  return join(dir, 'chunks', `${chunkName(i)}.npy`);
}

export function chunkProductsPath(dir: string, i: number): string {
  return join(dir, 'chunks', `${chunkName(i)}.jsonl`);
}

export function indexPath(dir: string): string {
  return join(dir, 'index.hnsw');
}

/** Products per chunk (the unit of resumption) unless a run sets its own. */
export const DEFAULT_CHUNK_SIZE = 8192;
