// NumPy .npy files (format version 1.0, https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
// magic "\x93NUMPY", version bytes 1 0, a little-endian uint16 header length, then an ASCII Python
// dict literal padded with spaces and ended by "\n" so that the data starts at a multiple of 64 bytes
// (what numpy itself writes), then the raw data: here float32, little-endian, row-major.
import { readFile } from 'node:fs/promises';
import { openAtomicWriter } from '../engine/io/atomic.js';

const MAGIC = Uint8Array.of(0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59); // \x93NUMPY
const PREAMBLE = MAGIC.length + 2 + 2; // magic, version, header length
const ALIGN = 64;

/** The full preamble + header of a C-order '<f4' array of the given shape. */
export function npyHeader(shape: readonly number[]): Uint8Array {
  for (const d of shape) if (!Number.isInteger(d) || d < 0) throw new Error(`invalid .npy dimension ${d}`);
  // Python's tuple syntax: a 1-tuple needs its trailing comma.
  const tuple = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': ${tuple}, }`;
  const unpadded = PREAMBLE + dict.length + 1;
  const total = Math.ceil(unpadded / ALIGN) * ALIGN;
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
  if (new Uint8Array(Uint16Array.of(1).buffer)[0] === 1) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const out = new Uint8Array(values.byteLength);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return out;
}

/** Writes a rows × dim float32 matrix as .npy, atomically (a temporary file renamed into place). */
export async function writeNpyMatrix(path: string, data: Float32Array, rows: number, dim: number): Promise<void> {
  if (data.length !== rows * dim) throw new Error(`writeNpyMatrix: ${data.length} values is not ${rows} × ${dim}`);
  const writer = await openAtomicWriter(path);
  try {
    await writer.write(npyHeader([rows, dim]));
    // In slices: one huge write would double the peak memory on big-endian hosts and stall the stream.
    const step = Math.max(1, Math.floor((1 << 22) / Math.max(1, dim)));
    for (let r = 0; r < rows; r += step) {
      const end = Math.min(rows, r + step);
      await writer.write(float32LittleEndian(data.subarray(r * dim, end * dim)));
    }
    await writer.commit();
  } catch (err) {
    await writer.abort();
    throw err;
  }
}

export interface NpyMatrix {
  shape: number[];
  data: Float32Array;
}

/** Reads a '<f4' C-order .npy file (what writeNpyMatrix writes); anything else is an error. */
export async function readNpyFloat32(path: string): Promise<NpyMatrix> {
  const bytes = await readFile(path);
  if (bytes.length < PREAMBLE || !MAGIC.every((b, i) => bytes[i] === b)) throw new Error(`${path}: not a .npy file`);
  const major = bytes[6]!;
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? PREAMBLE : PREAMBLE + 2;
  const header = bytes.subarray(start, start + headerLength).toString('latin1');
  if (!/'descr':\s*'<f4'/.test(header)) throw new Error(`${path}: only little-endian float32 ('<f4') is supported, header ${header.trim()}`);
  if (!/'fortran_order':\s*False/.test(header)) throw new Error(`${path}: Fortran-order arrays are not supported`);
  const shapeMatch = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!shapeMatch) throw new Error(`${path}: header has no shape`);
  const shape = shapeMatch[1]!
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const dataStart = start + headerLength;
  if (bytes.length - dataStart !== count * 4) throw new Error(`${path}: ${bytes.length - dataStart} data bytes for shape (${shape.join(', ')})`);
  const data = new Float32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset + dataStart, count * 4);
  for (let i = 0; i < count; i++) data[i] = view.getFloat32(i * 4, true);
  return { shape, data };
}
