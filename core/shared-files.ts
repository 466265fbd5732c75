// Optional read-only files next to the project (docs/models-and-data.md): the real all-MiniLM-L6-v2 tokenizer and
// ASER-style eventuality texts in ../shared. They are used when present (benchmarks, the bench model's
// tokenizer) and never copied into the project; INTENTSIM_SHARED_DIR points elsewhere.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the nearest folder above this module whose package.json is intentsim's. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'intentsim') return dir;
      } catch {
        // not ours; keep walking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export function sharedDir(): string {
  return process.env.INTENTSIM_SHARED_DIR
    ? resolve(process.env.INTENTSIM_SHARED_DIR)
    : resolve(projectRoot(), '..', 'shared');
}

/** all-MiniLM-L6-v2's tokenizer folder in ../shared, when present. */
export function sharedMiniLmTokenizerDir(): string | undefined {
  const dir = join(sharedDir(), 'models', 'all-MiniLM-L6-v2-tokenizer');
  return existsSync(join(dir, 'tokenizer.json')) ? dir : undefined;
}

/** ../shared/data/aser-style/eventualities.txt (real ASER node texts), when present. */
export function sharedEventualitiesFile(): string | undefined {
  const file = join(sharedDir(), 'data', 'aser-style', 'eventualities.txt');
  return existsSync(file) ? file : undefined;
}
