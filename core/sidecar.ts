// Sidecars: `<path>.json` next to a derived file (the HNSW index, saved window ranges, a catalog
// chunk) recording what it was computed from and the checksum of its content. A saved file is reused
// only when every recorded field equals the current value and its content matches the checksum
// (verified before anything reads the file: hnswlib crashes the process on a garbled index);
// otherwise the caller recomputes and says why.
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from './atomic.js';
import { checksumOfFile, fileChecksumMismatch, type ContentChecksum } from './checksum.js';

export function sidecarPath(path: string): string {
  return path + '.json';
}

/** The reason given when neither the file nor its sidecar is there (a first run: nothing to report). */
export function nothingSaved(what: string): string {
  return `no saved ${what}`;
}

/** What every sidecar holds besides its own fields: the size and SHA-256 of the file it describes. */
export interface SidecarContent {
  content: ContentChecksum;
}

/**
 * The sidecar of `path` when both files exist, every field of `want` matches and the file's content
 * matches the recorded checksum; else why not (`what` names the artefact in the "no saved …" reason).
 */
export async function readMatchingSidecar<T extends object>(
  path: string,
  want: Partial<T>,
  what: string,
): Promise<(T & SidecarContent) | { stale: string }> {
  const side = await readSidecarFields(path, want, what);
  if ('stale' in side) return side;
  const damaged = await fileChecksumMismatch(path, side.content);
  if (damaged) return { stale: damaged };
  return side;
}

/**
 * The sidecar of `path` when both files exist and every field of `want` matches, without reading
 * `path`: for a caller that reads the file whole anyway and checks `content` on the bytes it read.
 */
export async function readSidecarFields<T extends object>(
  path: string,
  want: Partial<T>,
  what: string,
): Promise<(T & SidecarContent) | { stale: string }> {
  if (!existsSync(path) || !existsSync(sidecarPath(path))) return { stale: nothingSaved(what) };
  let side: T & SidecarContent;
  try {
    side = JSON.parse(await readFile(sidecarPath(path), 'utf8')) as T & SidecarContent;
  } catch (err) {
    return { stale: `unreadable sidecar: ${(err as Error).message}` };
  }
  if (typeof side !== 'object' || side === null) return { stale: 'unreadable sidecar: not a JSON object' };
  for (const key of Object.keys(want) as Array<keyof T>) {
    if (side[key] !== want[key])
      return { stale: `sidecar ${String(key)} is ${JSON.stringify(side[key])}, expected ${JSON.stringify(want[key])}` };
  }
  return side;
}

/**
 * Writes `<path>.json` for the file now at `path`: `fields` and the checksum of its content (given,
 * or read from the file). Called after the file is renamed into place, so that no sidecar ever
 * vouches for a partial file.
 */
export async function writeSidecar(path: string, fields: object, content?: ContentChecksum): Promise<void> {
  const side = { ...fields, content: content ?? (await checksumOfFile(path)) };
  await writeFileAtomic(sidecarPath(path), JSON.stringify(side, null, 2) + '\n');
}

/** Removes the sidecar of a file about to be replaced: until the new one is written, the file is not vouched for. */
export async function removeSidecar(path: string): Promise<void> {
  await rm(sidecarPath(path), { force: true });
}
