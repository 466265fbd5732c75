// NumPy .npy files (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html): magic
// "\x93NUMPY", version bytes, a little-endian header length, then an ASCII Python dict literal padded
// with spaces and ended by "\n" so that the data starts at a multiple of 64 bytes (what numpy itself
// writes), then the raw data, little-endian and row-major. Written as format 1.0; read in formats
// 1.0–3.0. Values are float32 in memory and stored as float32 ('<f4', embeddings) or float16 ('<f2',
// halving catalog vector storage: see float16.ts for the rounding).
import type { Hash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { openTemporaryOutput, type TemporaryOutput } from './atomic.js';
import { UserError } from './errors.js';
import { decodeFloat16, encodeFloat16 } from './float16.js';

const MAGIC = Uint8Array.of(0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59); // \x93NUMPY
const PREAMBLE = MAGIC.length + 2 + 2; // magic, version, header length (format 1.0)
const ALIGN = 64;

/** How values are stored on disk; in memory they are always float32. */
export type StorageDtype = 'float32' | 'float16';

const DESCR: Record<StorageDtype, string> = { float32: '<f4', float16: '<f2' };
const BYTES: Record<StorageDtype, number> = { float32: 4, float16: 2 };

const LITTLE_ENDIAN_HOST = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * The full preamble + header of a C-order array of the given shape and storage; `length` pads it to
 * that many bytes (a multiple of 64), so that a header written before the row count is known can be
 * overwritten in place by the final one.
 */
export function npyHeader(shape: readonly number[], length?: number, dtype: StorageDtype = 'float32'): Uint8Array {
  for (const d of shape) if (!Number.isInteger(d) || d < 0) throw new Error(`invalid .npy dimension ${d}`);
  // Python's tuple syntax: a 1-tuple needs its trailing comma.
  const tuple = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  const dict = `{'descr': '${DESCR[dtype]}', 'fortran_order': False, 'shape': ${tuple}, }`;
  const unpadded = PREAMBLE + dict.length + 1;
  const total = Math.max(Math.ceil(unpadded / ALIGN) * ALIGN, length ?? 0);
  if (total % ALIGN !== 0) throw new Error(`.npy header length ${total} is not a multiple of ${ALIGN}`);
  const headerText = dict + ' '.repeat(total - unpadded) + '\n';
  if (headerText.length > 0xffff) throw new Error('.npy header too long for format 1.0');
  const out = new Uint8Array(total);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  new DataView(out.buffer).setUint16(8, headerText.length, true);
  for (let i = 0; i < headerText.length; i++) out[PREAMBLE + i] = headerText.charCodeAt(i);
  return out;
}

/** Float32 values as little-endian bytes (a view on little-endian hosts, a copy otherwise). */
export function float32LittleEndian(values: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN_HOST) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const out = new Uint8Array(values.byteLength);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return out;
}

/** Values as stored: float32 or float16 little-endian bytes. */
function storedBytes(values: Float32Array, dtype: StorageDtype): Uint8Array {
  if (dtype === 'float32') return float32LittleEndian(values);
  const half = encodeFloat16(values);
  if (LITTLE_ENDIAN_HOST) return new Uint8Array(half.buffer, half.byteOffset, half.byteLength);
  const out = new Uint8Array(half.byteLength);
  const view = new DataView(out.buffer);
  half.forEach((h, i) => view.setUint16(i * 2, h, true));
  return out;
}

/** Writes a rows × dim matrix as .npy (stored as `dtype`), atomically (a temporary file renamed into place). */
export async function writeNpyMatrix(
  path: string,
  data: Float32Array,
  rows: number,
  dim: number,
  dtype: StorageDtype = 'float32',
): Promise<void> {
  if (data.length !== rows * dim) throw new Error(`writeNpyMatrix: ${data.length} values is not ${rows} × ${dim}`);
  const writer = await NpyRowWriter.open(path, dim, dtype);
  try {
    // In slices: one huge write would double the peak memory (float16, or float32 on big-endian hosts).
    const step = Math.max(1, Math.floor((1 << 22) / Math.max(1, dim)));
    for (let r = 0; r < rows; r += step) await writer.append(data.subarray(r * dim, Math.min(rows, r + step) * dim));
    await writer.commit();
  } catch (err) {
    await writer.abort();
    throw err;
  }
}

/**
 * Streams a matrix of known width and unknown height into `path`: rows are appended to a temporary
 * file after a header reserved for any row count; `commit()` writes the real header in place and
 * renames the file into place. Memory holds one write at a time, whatever the height.
 */
export class NpyRowWriter {
  rows = 0;
  private readonly headerLength: number;

  private constructor(
    readonly path: string,
    readonly dim: number,
    readonly dtype: StorageDtype,
    private readonly output: TemporaryOutput,
    private readonly file: FileHandle,
  ) {
    this.headerLength = npyHeader([Number.MAX_SAFE_INTEGER, dim], undefined, dtype).length;
  }

  static async open(path: string, dim: number, dtype: StorageDtype = 'float32'): Promise<NpyRowWriter> {
    const output = await openTemporaryOutput(path);
    const writer = new NpyRowWriter(path, dim, dtype, output, await open(output.tmp, 'w'));
    await writer.file.write(npyHeader([0, dim], writer.headerLength, dtype));
    return writer;
  }

  /** Appends whole rows (values.length must be a multiple of dim). */
  async append(values: Float32Array): Promise<void> {
    if (values.length % this.dim !== 0)
      throw new Error(`NpyRowWriter: ${values.length} values is not a whole number of ${this.dim}-wide rows`);
    await this.file.write(storedBytes(values, this.dtype));
    this.rows += values.length / this.dim;
  }

  async commit(): Promise<void> {
    await this.file.write(npyHeader([this.rows, this.dim], this.headerLength, this.dtype), 0, this.headerLength, 0);
    await this.file.close();
    await this.output.commit();
  }

  async abort(): Promise<void> {
    await this.file.close().catch(() => undefined);
    await this.output.abort();
  }
}

export interface NpyMatrix {
  shape: number[];
  /** How the file stored the values (`data` is float32 either way). */
  dtype: StorageDtype;
  data: Float32Array;
}

interface NpyLayout {
  shape: number[];
  dtype: StorageDtype;
  /** Where the data starts: the preamble and header's length. */
  dataStart: number;
  dataBytes: number;
}

/** What a file holds and what is read, for the messages of a file that is not read (issue 45). */
const ACCEPTED =
  "accepted: a .npy file of little-endian float32 ('<f4') or float16 ('<f2'), C order, " +
  "not pickled (numpy: np.save(path, np.ascontiguousarray(a, dtype='<f4')))";

/** A dtype's description in words: `'>f4'` → big-endian float32. */
function describeDtype(descr: string): string {
  const m = /^([<>|=])([a-zA-Z])(\d*)$/.exec(descr);
  if (!m) return descr.startsWith('[') || descr.startsWith('(') ? 'structured records' : `dtype '${descr}'`;
  const [, order, kind, size] = m as unknown as [string, string, string, string];
  const kinds: Record<string, string> = {
    f: 'float',
    i: 'int',
    u: 'uint',
    b: 'bool',
    c: 'complex',
    O: 'Python objects (a pickled array)',
    U: 'unicode strings',
    S: 'byte strings',
    V: 'raw bytes',
    M: 'datetimes',
    m: 'timedeltas',
  };
  const name = kinds[kind] ?? `kind '${kind}'`;
  const bits = size !== '' && 'fiuc'.includes(kind) ? String(Number(size) * 8) : '';
  const endian = order === '>' ? 'big-endian ' : order === '<' && bits !== '' && size !== '1' ? 'little-endian ' : '';
  return `${endian}${name}${bits}`;
}

/**
 * The layout that a .npy file's first bytes declare; `prefix` must hold the preamble and, once its
 * header length is known (`headerEnd`), the whole header. `path` names the file in errors. What is
 * not read (another dtype, Fortran order, a pickled array, a damaged header) is a UserError saying
 * what was found and what is accepted, not an internal error (issue 45).
 */
function parseNpyLayout(prefix: Uint8Array, path: string): NpyLayout {
  const fail = (why: string): never => {
    throw new UserError(`${path}: ${why}; ${ACCEPTED}`);
  };
  const end = headerEnd(prefix, path);
  if (prefix.length < end) fail(`the file ends inside its header (${prefix.length} of ${end} bytes): truncated`);
  const header = Buffer.from(prefix.subarray(prefix[6] === 1 ? PREAMBLE : PREAMBLE + 2, end)).toString('latin1');
  const descr = /'descr':\s*('([^']*)'|\[)/.exec(header);
  if (!descr) return fail(`its header names no dtype (${JSON.stringify(header.trim().slice(0, 200))})`);
  const dtype = descr[2] === '<f4' ? 'float32' : descr[2] === '<f2' ? 'float16' : undefined;
  if (!dtype) return fail(`it holds ${describeDtype(descr[2] ?? '[')} (descr ${descr[1]!})`);
  if (!/'fortran_order':\s*False/.test(header)) fail('it is stored in Fortran (column-major) order');
  const shapeMatch = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!shapeMatch) return fail(`its header has no shape (${JSON.stringify(header.trim().slice(0, 200))})`);
  const shape = shapeMatch[1]!
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
  if (!shape.every((d) => Number.isSafeInteger(d))) return fail(`its shape (${shapeMatch[1]!}) is not whole numbers`);
  const count = shape.reduce((a, b) => a * b, 1);
  return { shape, dtype, dataStart: end, dataBytes: count * BYTES[dtype] };
}

/** Where a .npy file's header ends, from its preamble (which `prefix` must hold). */
function headerEnd(prefix: Uint8Array, path: string): number {
  if (prefix.length < PREAMBLE || !MAGIC.every((b, i) => prefix[i] === b)) {
    const zip = prefix[0] === 0x50 && prefix[1] === 0x4b; // "PK": numpy's .npz is a zip archive
    const found =
      prefix.length === 0
        ? 'it is empty'
        : zip
          ? 'it is a zip archive (an .npz? take the array out with np.load(path)[name] and np.save it)'
          : prefix.length < PREAMBLE && MAGIC.subarray(0, prefix.length).every((b, i) => prefix[i] === b)
            ? `it ends after ${prefix.length} bytes, inside the .npy preamble: truncated`
            : `it does not start with the .npy magic "\\x93NUMPY" (first bytes: ${Buffer.from(prefix.subarray(0, 8)).toString('hex')})`;
    throw new UserError(`${path}: not a .npy file: ${found}; ${ACCEPTED}`);
  }
  const version = prefix[6]!;
  if (version < 1 || version > 3 || prefix.length < PREAMBLE + (version === 1 ? 0 : 2))
    throw new UserError(
      `${path}: .npy format version ${version}.${prefix[7]} is not one this reads (1.0–3.0); ${ACCEPTED}`,
    );
  const lengths = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength);
  return version === 1 ? PREAMBLE + lengths.getUint16(8, true) : PREAMBLE + 2 + lengths.getUint32(8, true);
}

/** The data bytes a file holds against those its shape needs: a UserError when they differ. */
function checkDataBytes(path: string, held: number, layout: NpyLayout): void {
  if (held === layout.dataBytes) return;
  const { shape, dtype, dataBytes } = layout;
  const why = held < dataBytes ? 'truncated' : 'more bytes than its shape needs';
  throw new UserError(
    `${path}: holds ${held} data bytes, but its shape (${shape.join(', ')}) of ${dtype} needs ${dataBytes}: ${why}`,
  );
}

/** float32 values from the data bytes of a layout (little-endian on disk). */
function decodeValues(bytes: Uint8Array, layout: NpyLayout): Float32Array {
  const count = layout.dataBytes / BYTES[layout.dtype];
  const view = new DataView(bytes.buffer, bytes.byteOffset, layout.dataBytes);
  if (layout.dtype === 'float32') {
    const values = new Float32Array(count);
    for (let i = 0; i < count; i++) values[i] = view.getFloat32(i * 4, true);
    return values;
  }
  const bits = new Uint16Array(count);
  for (let i = 0; i < count; i++) bits[i] = view.getUint16(i * 2, true);
  return decodeFloat16(bits);
}

/** Reads a little-endian float32 or float16 C-order .npy file, as float32; anything else is an error. */
export async function readNpyFloat32(path: string, options: { hash?: Hash } = {}): Promise<NpyMatrix> {
  const file = await open(path, 'r');
  try {
    const { size: fileSize } = await file.stat();
    const preamble = new Uint8Array(PREAMBLE + 2);
    const { bytesRead } = await file.read(preamble, 0, preamble.length, 0);
    // A damaged length could ask for gigabytes: no more is read than the file holds.
    const headerBytes = new Uint8Array(Math.min(headerEnd(preamble.subarray(0, bytesRead), path), fileSize));
    await file.read(headerBytes, 0, headerBytes.length, 0);
    const layout = parseNpyLayout(headerBytes, path);
    options.hash?.update(headerBytes.subarray(0, layout.dataStart));
    const { shape, dtype, dataStart, dataBytes } = layout;
    checkDataBytes(path, fileSize - dataStart, layout);
    // Read straight into the result where the layout allows it: one pass over the bytes and no
    // second buffer (the 136 MB of GloVe vectors: 0.5 s instead of 1.1 s through readFile and a
    // copy, on the loaded 2-core development VM, where touching fresh memory is most of the cost).
    const direct = dtype === 'float32' && LITTLE_ENDIAN_HOST;
    const data = direct ? new Float32Array(dataBytes / 4) : undefined;
    const bytes = data ? new Uint8Array(data.buffer) : new Uint8Array(dataBytes);
    for (let at = 0; at < dataBytes;) {
      const { bytesRead: n } = await file.read(bytes, at, Math.min(dataBytes - at, 1 << 26), dataStart + at);
      if (n === 0) throw new UserError(`${path}: the file ended early (changed while read?)`);
      at += n;
    }
    options.hash?.update(bytes);
    return { shape, dtype, data: data ?? decodeValues(bytes, layout) };
  } finally {
    await file.close();
  }
}

/** The matrix in the bytes of a .npy file (`path` names it in errors): for bytes already read and checked. */
export function decodeNpyFloat32(bytes: Buffer, path: string): NpyMatrix {
  const layout = parseNpyLayout(bytes, path);
  const { shape, dtype, dataStart } = layout;
  checkDataBytes(path, bytes.length - dataStart, layout);
  return { shape, dtype, data: decodeValues(bytes.subarray(dataStart), layout) };
}
