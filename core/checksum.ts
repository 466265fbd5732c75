// Content checksums of derived files (saved window ranges, HNSW indexes, catalog chunks): recorded
// when a file is written, verified before it is reused, so that a damaged file (garbled, zeroed,
// truncated, overwritten) is recomputed or reported and never silently changes a result or crashes
// a native reader. SHA-256 by node:crypto (OpenSSL, SHA-NI): checksumOfFile streamed ~500 MB/s on
// the shared 2-core development machine under a load average of 6 (a 512 MB file from the page
// cache), i.e. seconds for the 3.8 GB of a 2.5M-product float32 catalog, against hours of
// embedding it; a faster non-cryptographic hash (xxhash) would not pay for a dependency.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';

/** The size and SHA-256 (hex) of a file's content. */
export interface ContentChecksum {
  bytes: number;
  sha256: string;
}

export function checksumOf(bytes: Uint8Array): ContentChecksum {
  return { bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * The SHA-256 (hex) of a value's JSON text: a key for settings, jobs or requests. JSON.stringify keeps
 * the order fields were set in, so equal values built the same way get equal keys.
 */
export function sha256OfJson(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/** A JSON record's fields with the SHA-256 of their JSON text added as `checksum` (readChecksummedJson checks it). */
export function withJsonChecksum<T extends object>(fields: T): T & { checksum: string } {
  return { ...fields, checksum: sha256OfJson(fields) };
}

/**
 * A record written by withJsonChecksum, read back: the record; 'missing' when there is no file;
 * 'damaged' when it cannot be read or parsed, is not an object, or its checksum does not match.
 */
export async function readChecksummedJson<T extends { checksum: string }>(
  path: string,
): Promise<T | 'missing' | 'damaged'> {
  let record: T;
  try {
    record = JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (err) {
    // ENOTDIR: a level of the path is a file, so there is no record either.
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'damaged';
  }
  if (typeof record !== 'object' || record === null) return 'damaged';
  const { checksum, ...fields } = record;
  return checksum === sha256OfJson(fields) ? record : 'damaged';
}

/** The checksum of a file, read as a stream (a file may be larger than memory allows twice). */
export async function checksumOfFile(path: string): Promise<ContentChecksum> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Why `actual` is not the recorded checksum `want`, or undefined when it is (sizes first: a truncation says so). */
export function checksumMismatch(want: ContentChecksum | undefined, actual: ContentChecksum): string | undefined {
  if (!isContentChecksum(want)) return 'no content checksum recorded (written by an older intentsim)';
  if (actual.bytes !== want.bytes)
    return `${actual.bytes} bytes, the checksum was recorded for ${want.bytes} (damaged file)`;
  if (actual.sha256 !== want.sha256) return 'content does not match its recorded SHA-256 (damaged file)';
  return undefined;
}

/** Why the file at `path` does not match `want`, or undefined when it does; the size is checked before reading. */
export async function fileChecksumMismatch(
  path: string,
  want: ContentChecksum | undefined,
): Promise<string | undefined> {
  if (!isContentChecksum(want)) return checksumMismatch(want, { bytes: 0, sha256: '' });
  const { size } = await stat(path);
  if (size !== want.bytes) return checksumMismatch(want, { bytes: size, sha256: '' });
  return checksumMismatch(want, await checksumOfFile(path));
}

function isContentChecksum(value: unknown): value is ContentChecksum {
  const c = value as Partial<ContentChecksum> | undefined;
  return typeof c?.bytes === 'number' && typeof c.sha256 === 'string';
}
