// Product vectors the user already has (`pipeline --product-vectors PATH`): a `catalog index` folder
// (its chunks, checked against their sidecars) or an `.npy` matrix (rows × dim, float32) with an ids
// file (one id a line, in row order; default ids.txt beside the matrix).
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { readJsonFile } from '../../core/file-errors.js';
import { readNpyFloat32 } from '../../core/npy.js';
import type { VectorSet } from '../../embeddings/sentence-encoder.js';
import { loadCatalogVectors } from '../catalog/build-catalog-index.js';
import { manifestPath, type CatalogManifest } from '../catalog/catalog-layout.js';

/** Where given product vectors are, as the options name them. */
export interface GivenVectorsSource {
  /** A `catalog index` folder, or an `.npy` matrix (rows × dim, float32) of product vectors. */
  productVectors: string;
  /** With an `.npy`: the ids of its rows, one a line (default: ids.txt beside it). */
  productIds?: string;
}

/** Given vectors as loaded: the rows, what kind of source they came from, its model and the ids file. */
export interface GivenVectors {
  set: VectorSet;
  kind: 'catalog-index' | 'npy';
  /** The catalog index's encoder (its manifest's model); null for an `.npy`. */
  model: string | null;
  /** The ids file of an `.npy`; null for a catalog index. */
  ids: string | null;
}

/** Whether the source is a `catalog index` folder (else an `.npy` file). */
export function isCatalogIndex(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** The ids file of an `.npy` source. */
export function idsFileOf(o: GivenVectorsSource): string {
  return o.productIds ?? join(dirname(o.productVectors), 'ids.txt');
}

/** The files a source reads, for the overlap check (core/check-paths.ts). */
export function givenVectorsInputs(o: GivenVectorsSource): Record<string, string> {
  return isCatalogIndex(o.productVectors)
    ? { productVectors: manifestPath(o.productVectors) }
    : { productVectors: o.productVectors, productIds: idsFileOf(o) };
}

/** The encoder a catalog index names (its manifest's model); null for an `.npy`, which names none. */
export async function givenVectorsModel(o: GivenVectorsSource): Promise<string | null> {
  if (!isCatalogIndex(o.productVectors)) return null;
  return (await readCatalogManifest(o.productVectors)).model;
}

async function readCatalogManifest(dir: string): Promise<CatalogManifest> {
  return (await readJsonFile(manifestPath(dir), {
    what: 'catalogue index manifest',
    ifDamaged: 'run catalog index again into this folder to rebuild it (finished chunks are reused)',
  })) as CatalogManifest;
}

/** The vectors and, for a catalog index, its model. */
export async function loadGivenVectors(o: GivenVectorsSource): Promise<GivenVectors> {
  if (isCatalogIndex(o.productVectors)) {
    const manifest = await readCatalogManifest(o.productVectors);
    if (manifest.chunks === undefined)
      throw new UserError(`${o.productVectors}: the index is not finished (rerun catalog index to resume it)`);
    const { unit } = await loadCatalogVectors(o.productVectors, manifest);
    return {
      set: { ids: [...unit.ids], dim: unit.dim, data: unit.data },
      kind: 'catalog-index',
      model: manifest.model,
      ids: null,
    };
  }
  const idsFile = idsFileOf(o);
  const matrix = await readNpyFloat32(o.productVectors);
  const ids = (await readFile(idsFile, 'utf8')).split('\n').filter((l) => l !== '');
  const [rows, dim] = matrix.shape;
  if (matrix.shape.length !== 2 || dim === undefined)
    throw new UserError(`${o.productVectors}: expected a rows × dim matrix, got shape (${matrix.shape.join(', ')})`);
  if (rows !== ids.length)
    throw new UserError(`${o.productVectors} has ${rows} rows but ${idsFile} lists ${ids.length} ids: one id per row`);
  const seen = new Set<string>();
  ids.forEach((id, k) => {
    if (seen.has(id)) throw new UserError(`${idsFile}:${k + 1}: the id "${id}" is listed twice`);
    seen.add(id);
  });
  return { set: { ids, dim, data: matrix.data }, kind: 'npy', model: null, ids: idsFile };
}
