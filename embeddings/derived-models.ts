// Models this engine derives from a model file rather than downloads: the float16 conversion
// (float16-conversion.ts) and the graph with pooling appended (graph-pooling.ts). They are written
// once into the cache folder, under derived-models/, beside a record of what they were made from
// (the source file's path, size, mtime and inode, the recipe) and their own SHA-256, and reused while
// the source is unchanged and the derived file is the one recorded; a record that is damaged or does
// not match is rebuilt, so the cache never yields a model made from another file.
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic.js';
import { checksumOf, readChecksummedJson, sha256OfJson, withJsonChecksum } from '../core/checksum.js';
import { fileIdentity, type FileIdentity } from './model-fingerprint.js';
import { convertModelToFloat16 } from './float16-conversion.js';
import { appendMeanPooling } from './graph-pooling.js';
import { UserError } from '../core/errors.js';
import { makeDirs } from '../core/make-dirs.js';

/** What to derive: float16 weights, pooling in the graph, or both (float16 first, pooling in float32). */
export interface DerivedModelRecipe {
  float16: boolean;
  graphPooling: boolean;
}

/** Bumped when a transform's output changes, so that older derived files are not reused. */
const TRANSFORM_VERSION = 1;

export interface DerivedModel {
  path: string;
  /** SHA-256 of the derived file. */
  sha256: string;
  /** 'cache' when an earlier derivation was reused, else why it was (re)built. */
  source: 'cache' | 'built';
  reason?: string;
  ms: number;
}

interface DerivedRecord {
  format: 1;
  version: number;
  recipe: DerivedModelRecipe;
  source: FileIdentity;
  output: FileIdentity;
  sha256: string;
  checksum: string;
}

/** A recipe as a file-name-safe word: fp16, pooled, fp16-pooled. */
export function recipeName(recipe: DerivedModelRecipe): string {
  return [recipe.float16 ? 'fp16' : '', recipe.graphPooling ? 'pooled' : ''].filter(Boolean).join('-') || 'plain';
}

/** The bytes of `model` after the recipe's transforms (no cache). */
export function deriveModelBytes(model: Uint8Array, recipe: DerivedModelRecipe, source: string): Uint8Array {
  let bytes = model;
  if (recipe.float16) bytes = convertModelToFloat16(bytes, source).model;
  if (recipe.graphPooling) bytes = appendMeanPooling(bytes, source);
  return bytes;
}

/**
 * The derived model of `sourcePath` under `cacheRoot`/derived-models/, built when absent or stale.
 * A recipe with nothing to do returns the source itself.
 */
export async function derivedModel(
  sourcePath: string,
  recipe: DerivedModelRecipe,
  cacheRoot: string,
): Promise<DerivedModel> {
  const started = performance.now();
  const source = resolve(sourcePath);
  if (!recipe.float16 && !recipe.graphPooling)
    return { path: source, sha256: '', source: 'cache', reason: 'nothing to derive', ms: 0 };
  const key = sha256OfJson([source, recipe, TRANSFORM_VERSION]).slice(0, 32);
  const dir = join(cacheRoot, 'derived-models', key);
  const path = join(dir, `model-${recipeName(recipe)}.onnx`);
  const recordPath = join(dir, 'record.json');
  const sourceIdentity = await fileIdentity(source);

  const reason = await reusableRecord(recordPath, path, sourceIdentity, recipe);
  if (typeof reason !== 'string')
    return { path, sha256: reason.sha256, source: 'cache', ms: performance.now() - started };
  const bytes = deriveModelBytes(await readFile(source), recipe, source);
  if (JSON.stringify(await fileIdentity(source)) !== JSON.stringify(sourceIdentity))
    throw new UserError(`${source} changed while a ${recipeName(recipe)} model was derived from it; try again`);
  const { sha256 } = checksumOf(bytes);
  try {
    await makeDirs(dir);
    await writeFileAtomic(path, bytes);
    const fields = {
      format: 1 as const,
      version: TRANSFORM_VERSION,
      recipe,
      source: sourceIdentity,
      output: await fileIdentity(path),
      sha256,
    };
    await writeFileAtomic(recordPath, JSON.stringify(withJsonChecksum(fields)) + '\n');
  } catch (err) {
    throw new UserError(
      `cannot write the ${recipeName(recipe)} model derived from ${source} under ${dir}: ${(err as Error).message} (choose a writable cache folder)`,
      { cause: err },
    );
  }
  return { path, sha256, source: 'built', reason, ms: performance.now() - started };
}

/** The record when the recorded derivation can be reused; otherwise why not. */
async function reusableRecord(
  recordPath: string,
  path: string,
  source: FileIdentity,
  recipe: DerivedModelRecipe,
): Promise<DerivedRecord | string> {
  const record = await readChecksummedJson<DerivedRecord>(recordPath);
  if (record === 'missing') return 'not derived yet';
  if (record === 'damaged') return 'the record is damaged';
  if (record.version !== TRANSFORM_VERSION || JSON.stringify(record.recipe) !== JSON.stringify(recipe))
    return 'made by another transform';
  if (JSON.stringify(record.source) !== JSON.stringify(source)) return 'the source model changed';
  try {
    await stat(path);
  } catch {
    return 'the derived file is missing';
  }
  if (JSON.stringify(await fileIdentity(path)) !== JSON.stringify(record.output)) return 'the derived file changed';
  return record;
}
