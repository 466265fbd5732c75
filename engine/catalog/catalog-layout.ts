// The files of a catalogue index folder:
//   manifest.json                 parameters (model fingerprint, storage dtype, attributes, chunk size)
//   chunks/chunk-000000.jsonl     {"id", "title"} of the chunk's products, in input order
//   chunks/chunk-000000.npy       their vectors (rows × dim, float32 or float16), L2-normalised
//   index.hnsw (+ index.hnsw.json) one HNSW index over all rows (cosine), see build-index.ts
// A chunk is finished when its .npy exists: the .jsonl is written first and the .npy last, each
// atomically, so a crash leaves either a finished chunk or one that is recomputed.
import { join } from 'node:path';
import type { StorageDtype } from '../../core/npy.js';

export const MANIFEST_FORMAT = 'intentsim-catalog/1';

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
  /** Filled when the index is complete. */
  chunks?: number;
  rows?: number;
  /** Rows the encoder gave no vector (no word glove-100d knows): never returned or drawn. */
  rowsWithoutVector?: number;
  rejected?: number;
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
