// .npy output: header bytes exactly as the NPY 1.0 spec (and numpy.save) lay them out, data
// little-endian row-major, a round trip, and — where python3 with numpy is installed — numpy.load.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NpyRowWriter, npyHeader, readNpyFloat32, writeNpyMatrix } from '../core/npy.js';
import { toFloat16Bits } from '../core/float16.js';
import { UserError } from '../core/errors.js';

/** The header numpy.save writes: magic, version 1.0, uint16 LE length, dict, spaces, "\n"; 64-byte aligned. */
function expectedHeader(dict: string): Buffer {
  const total = 128;
  const text = dict + ' '.repeat(total - 10 - dict.length - 1) + '\n';
  return Buffer.concat([
    Buffer.from([0x93]),
    Buffer.from('NUMPY', 'latin1'),
    Buffer.from([1, 0, text.length & 0xff, text.length >> 8]),
    Buffer.from(text, 'latin1'),
  ]);
}

const havePython = spawnSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0;
if (!havePython) console.warn('SKIPPED: numpy.load check (python3 with numpy is not installed)');

describe('npy', () => {
  it('header bytes for (2, 3), (0, 384) and the 1-tuple (5,)', () => {
    expect(Buffer.from(npyHeader([2, 3]))).toEqual(
      expectedHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"),
    );
    expect(Buffer.from(npyHeader([0, 384]))).toEqual(
      expectedHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 384), }"),
    );
    expect(Buffer.from(npyHeader([5]))).toEqual(
      expectedHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }"),
    );
    // 118 = 0x76 = 'v': the header length field as numpy writes it for these shapes.
    expect(npyHeader([2, 3])[8]).toBe(0x76);
  });

  it('writes little-endian float32 rows after the header and reads them back', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'intentsim-npy-')), 'm.npy');
    const data = Float32Array.of(1, -2, 0.5, 3.25, 1e-30, -0);
    await writeNpyMatrix(path, data, 2, 3);
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(128 + 6 * 4);
    expect(bytes.readFloatLE(128)).toBe(1);
    expect(bytes.readFloatLE(128 + 4 * 3)).toBe(3.25); // row 1, column 0
    const back = await readNpyFloat32(path);
    expect(back.shape).toEqual([2, 3]);
    expect(Array.from(back.data)).toEqual(Array.from(data));
  });

  it('streams rows of unknown count: the header written last says the real shape; abort leaves nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-npy-'));
    const data = Float32Array.from({ length: 7 * 3 }, (_, i) => i * 0.25 - 2);
    const writer = await NpyRowWriter.open(join(dir, 'streamed.npy'), 3);
    await writer.append(data.subarray(0, 6));
    await writer.append(data.subarray(6, 6));
    await writer.append(data.subarray(6));
    expect(existsSync(join(dir, 'streamed.npy'))).toBe(false); // not before commit
    await expect(writer.append(new Float32Array(4))).rejects.toThrow(/not a whole number of 3-wide rows/);
    await writer.commit();
    const back = await readNpyFloat32(join(dir, 'streamed.npy'));
    expect(back.shape).toEqual([7, 3]);
    expect(Array.from(back.data)).toEqual(Array.from(data));
    expect(readFileSync(join(dir, 'streamed.npy')).subarray(0, 128)).toEqual(Buffer.from(npyHeader([7, 3])));

    const aborted = await NpyRowWriter.open(join(dir, 'aborted.npy'), 3);
    await aborted.append(data);
    await aborted.abort();
    expect(readdirSync(dir)).toEqual(['streamed.npy']);
  });

  it('float16 storage: a <f2 header, the half-precision bits little-endian, read back as float32', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'intentsim-npy-')), 'h.npy');
    // Exact in half precision, then one value that rounds (1/3 → 0x3555 = 0.333251953125).
    const data = Float32Array.of(1, -2, 0.5, 65504, 2 ** -24, 1 / 3);
    await writeNpyMatrix(path, data, 3, 2, 'float16');
    const bytes = readFileSync(path);
    expect(bytes.subarray(0, 128)).toEqual(
      expectedHeader("{'descr': '<f2', 'fortran_order': False, 'shape': (3, 2), }"),
    );
    expect(bytes.length).toBe(128 + 6 * 2);
    expect(Array.from({ length: 6 }, (_, i) => bytes.readUInt16LE(128 + 2 * i))).toEqual([
      0x3c00, 0xc000, 0x3800, 0x7bff, 0x0001, 0x3555,
    ]);
    expect(toFloat16Bits(1 / 3)).toBe(0x3555);
    const back = await readNpyFloat32(path);
    expect([back.dtype, ...back.shape]).toEqual(['float16', 3, 2]);
    expect(Array.from(back.data)).toEqual([1, -2, 0.5, 65504, 2 ** -24, 0.333251953125]);
  });

  it('refuses a matrix whose size does not match its shape', async () => {
    await expect(writeNpyMatrix(join(tmpdir(), 'never.npy'), new Float32Array(5), 2, 3)).rejects.toThrow(
      /5 values is not 2 × 3/,
    );
  });

  it.skipIf(!havePython)('numpy.load reads it: shape, dtype and values', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'intentsim-npy-')), 'm.npy');
    const data = Float32Array.from({ length: 4 * 5 }, (_, i) => i / 7 - 1);
    await writeNpyMatrix(path, data, 4, 5);
    const out = execFileSync(
      'python3',
      [
        '-c',
        `import numpy, json; a = numpy.load(${JSON.stringify(path)}); print(json.dumps([list(a.shape), str(a.dtype), [float(x) for x in a.ravel()]]))`,
      ],
      { encoding: 'utf8' },
    );
    const [shape, dtype, values] = JSON.parse(out) as [number[], string, number[]];
    expect(shape).toEqual([4, 5]);
    expect(dtype).toBe('float32');
    expect(values).toEqual(Array.from(data));
  });
});

/** A .npy file with the header dict given (padded as numpy pads it) and `data` after it. */
function npyWith(dict: string, data: Buffer, version = 1): Buffer {
  const pre = version === 1 ? 10 : 12;
  const total = Math.ceil((pre + dict.length + 1) / 64) * 64;
  const text = dict + ' '.repeat(total - pre - dict.length - 1) + '\n';
  const length = version === 1 ? Buffer.from([text.length & 0xff, text.length >> 8]) : Buffer.alloc(4);
  if (version !== 1) length.writeUInt32LE(text.length);
  return Buffer.concat([
    Buffer.from([0x93]),
    Buffer.from('NUMPY', 'latin1'),
    Buffer.from([version, 0]),
    length,
    Buffer.from(text, 'latin1'),
    data,
  ]);
}

describe('npy files this does not read (issue 45, fault 15)', () => {
  const dict = (descr: string, fortran = 'False', shape = '(2, 3)') =>
    `{'descr': '${descr}', 'fortran_order': ${fortran}, 'shape': ${shape}, }`;
  const cases: Array<[string, Buffer, string]> = [
    ['float64', npyWith(dict('<f8'), Buffer.alloc(48)), "it holds little-endian float64 (descr '<f8')"],
    ['int32', npyWith(dict('<i4'), Buffer.alloc(24)), "it holds little-endian int32 (descr '<i4')"],
    ['big-endian', npyWith(dict('>f4'), Buffer.alloc(24)), "it holds big-endian float32 (descr '>f4')"],
    [
      'pickled',
      npyWith(dict('|O'), Buffer.from('\x80\x04garbage')),
      "it holds Python objects (a pickled array) (descr '|O')",
    ],
    [
      'structured',
      npyWith("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", Buffer.alloc(8)),
      'it holds structured records',
    ],
    ['Fortran order', npyWith(dict('<f4', 'True'), Buffer.alloc(24)), 'it is stored in Fortran (column-major) order'],
    [
      'truncated data',
      npyWith(dict('<f4'), Buffer.alloc(20)),
      'holds 20 data bytes, but its shape (2, 3) of float32 needs 24: truncated',
    ],
    [
      'truncated header',
      npyWith(dict('<f4'), Buffer.alloc(24)).subarray(0, 40),
      'the file ends inside its header (40 of 128 bytes): truncated',
    ],
    [
      'truncated preamble',
      npyWith(dict('<f4'), Buffer.alloc(24)).subarray(0, 4),
      'not a .npy file: it ends after 4 bytes, inside the .npy preamble: truncated',
    ],
    ['empty', Buffer.alloc(0), 'not a .npy file: it is empty'],
    [
      'text',
      Buffer.from('id,v0,v1\na,0.1,0.2\n'),
      'not a .npy file: it does not start with the .npy magic "\\x93NUMPY" (first bytes: 69642c76302c7631)',
    ],
    ['npz', Buffer.from('PK\x03\x04rest-of-a-zip'), 'not a .npy file: it is a zip archive (an .npz?'],
    [
      'version 9',
      Buffer.concat([Buffer.from([0x93]), Buffer.from('NUMPY'), Buffer.from([9, 0, 0, 0, 0, 0])]),
      '.npy format version 9.0 is not one this reads',
    ],
    [
      'shape not numbers',
      npyWith(dict('<f4', 'False', '(2, x)'), Buffer.alloc(24)),
      'its shape (2, x) is not whole numbers',
    ],
  ];
  for (const [name, bytes, message] of cases) {
    it(`${name}: a UserError naming the file, what it holds and what is accepted`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'intentsim-npy-bad-'));
      const path = join(dir, `${name.replace(/ /g, '-')}.npy`);
      writeFileSync(path, bytes);
      const err = await readNpyFloat32(path).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(UserError);
      expect((err as Error).message).toContain(`${path}: `);
      expect((err as Error).message).toContain(message);
      if (!name.startsWith('truncated data'))
        expect((err as Error).message).toContain("accepted: a .npy file of little-endian float32 ('<f4')");
    });
  }
  it('a version 2.0 float32 file is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-npy-v2-'));
    const path = join(dir, 'v2.npy');
    writeFileSync(
      path,
      npyWith(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }",
        Buffer.from(Float32Array.of(1.5, -2).buffer),
        2,
      ),
    );
    const m = await readNpyFloat32(path);
    expect(m.shape).toEqual([1, 2]);
    expect([...m.data]).toEqual([1.5, -2]);
  });
});
