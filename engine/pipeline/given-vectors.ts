// Product vectors the user already has (`pipeline --product-vectors PATH`): a `catalog index` folder
// (its chunks, checked against their sidecars) or an `.npy` matrix (rows × dim, float32) with an ids
// file (one id a line, in row order; default ids.txt beside the matrix). The ids file is read as
// editors and other tools write it (issue 45): a UTF-8 BOM and CRLF line ends are no part of an id,
// and spaces around an id are trimmed (ids do not start or end with spaces); a blank line is an
// error, except at the end. Every row must be finite, and small enough that its squared length is
// a float32 number: a row of 3e38 made every centered cosine 1, and a NaN row was counted as a
// product without a vector in one place and with one in another.
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError, InputError, UserError } from '../../core/errors.js';
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
    // The index lists its own ids: an ids file given too would be ignored (issue 45: silently).
    if (o.productIds !== undefined) {
      throw new ConfigError(
        'productIds',
        `is for an .npy matrix; ${o.productVectors} is a catalog index folder, which lists its own product ids ` +
          `(give no ids file with it)`,
      );
    }
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
  const ids = parseIdsFile(await readFile(idsFile, 'utf8'), idsFile);
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
  checkRowsFinite(matrix.data, dim, ids, o.productVectors);
  return { set: { ids, dim, data: matrix.data }, kind: 'npy', model: null, ids: idsFile };
}

/**
 * The ids of an ids file, one a line in row order: a BOM and `\r` line ends dropped, spaces around
 * each id trimmed; blank lines at the end ignored, a blank line before the last id an InputError
 * (it would shift every later id onto the wrong row).
 */
export function parseIdsFile(text: string, file: string): string[] {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  const ids = lines.map((l) => l.trim());
  while (ids.length > 0 && ids[ids.length - 1] === '') ids.pop();
  const blank = ids.indexOf('');
  if (blank >= 0) {
    throw new InputError(
      { file, line: blank + 1 },
      'a blank line between ids: every line is the id of the row of its number (remove the line)',
    );
  }
  return ids;
}

/** The largest float32. */
const FLOAT32_MAX = 3.4028234663852886e38;

/** How many bad rows a message lists before it says "and N more". */
const LISTED_ROWS = 3;

/**
 * Refuses rows that hold NaN or ±Infinity, or whose squared length is past the largest float32 (the
 * search computes in float32: such a row's length overflows, and one of them outweighs every other
 * row in the mean that `center` subtracts). The message names the rows (0-based, as numpy counts
 * them) and their ids.
 */
export function checkRowsFinite(data: Float32Array, dim: number, ids: readonly string[], file: string): void {
  const bad: string[] = [];
  let count = 0;
  for (let r = 0; r < ids.length; r++) {
    let squares = 0;
    let nonFinite = false;
    for (let k = r * dim; k < (r + 1) * dim; k++) {
      const v = data[k]!;
      if (!Number.isFinite(v)) nonFinite = true;
      squares += v * v;
    }
    if (!nonFinite && squares <= FLOAT32_MAX) continue;
    count++;
    if (bad.length < LISTED_ROWS) {
      bad.push(
        `row ${r} (id "${ids[r]!}") ${nonFinite ? 'holds NaN or Infinity' : `has length ${Math.sqrt(squares).toExponential(2)}`}`,
      );
    }
  }
  if (count === 0) return;
  throw new UserError(
    `${file}: ${count} of ${ids.length} rows cannot be used: ${bad.join('; ')}${count > bad.length ? `; and ${count - bad.length} more` : ''}. ` +
      'A row must be finite, and its squared length a float32 number (≤ 3.4e38): fix or remove those rows and their ids',
  );
}

/** How many example ids a message shows of each side. */
const EXAMPLE_IDS = 3;

/**
 * Refuses given vectors of which no product has a row (issue 45: CRLF ids gave "3042 of 3042
 * products without a vector", 0 items and exit 0): the ids of the vectors and of the products file
 * do not match; the message shows some of each.
 */
export function checkVectorsCoverProducts(
  vectorIds: readonly string[],
  idsSource: string,
  productIds: Iterable<string>,
  productsFile: string,
): void {
  const have = new Set(vectorIds);
  const examples: string[] = [];
  let products = 0;
  for (const id of productIds) {
    if (have.has(id)) return;
    products++;
    if (examples.length < EXAMPLE_IDS) examples.push(id);
  }
  if (products === 0) return;
  const show = (ids: readonly string[]) => ids.map((id) => JSON.stringify(id)).join(', ');
  throw new UserError(
    `none of the ${products} products of ${productsFile} has a vector in ${idsSource}: their ids do not match ` +
      `(products: ${show(examples)}; vectors: ${show(vectorIds.slice(0, EXAMPLE_IDS))}). ` +
      "The ids file must list the products' ids, one a line in row order",
  );
}
