// Given product vectors (engine/pipeline/given-vectors.ts), issue 45: ids files as editors write
// them (BOM, CRLF, spaces around ids) are read right; a blank line inside is refused; rows that are
// not finite or whose length overflows float32 are refused naming row and id; an ids file given with
// a catalog index folder is refused; vectors whose ids match no product are refused with examples.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, InputError, UserError } from '../core/errors.js';
import { writeNpyMatrix } from '../core/npy.js';
import { checkVectorsCoverProducts, loadGivenVectors, parseIdsFile } from '../engine/pipeline/given-vectors.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intentsim-given-'));

/** Three rows of dim 2 in DIR/v.npy, `rows` replacing the defaults; the ids file's text as given. */
async function npyWithIds(
  idsText: string,
  rows: number[][] = [
    [1, 0],
    [0, 1],
    [0.6, 0.8],
  ],
) {
  const dir = tmp();
  await writeNpyMatrix(join(dir, 'v.npy'), Float32Array.from(rows.flat()), rows.length, 2);
  writeFileSync(join(dir, 'ids.txt'), idsText);
  return { productVectors: join(dir, 'v.npy'), productIds: join(dir, 'ids.txt') };
}

describe('the ids file of an .npy (issue 45, fault 6)', () => {
  it('drops a BOM and CRLF line ends, and trims spaces around ids', async () => {
    for (const text of ['\ufeffp1\r\np2\r\np3\r\n', ' p1 \n\tp2\np3  \n\n', '\ufeff p1\r\np2\r\np3']) {
      const given = await loadGivenVectors(await npyWithIds(text));
      expect(given.set.ids, JSON.stringify(text)).toEqual(['p1', 'p2', 'p3']);
    }
  });

  it('refuses a blank line between ids, naming its line', async () => {
    const source = await npyWithIds('p1\n\np2\np3\n');
    const err = await loadGivenVectors(source).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe(
      `${source.productIds}:2: a blank line between ids: every line is the id of the row of its number (remove the line)`,
    );
    expect(parseIdsFile('a\r\n\r\n', 'f')).toEqual(['a']);
  });

  it('refuses vectors whose ids match no product, showing ids of each', () => {
    const run = () =>
      checkVectorsCoverProducts(['p1\r', 'p2\r'], 'ids.txt', ['p1', 'p2', 'p3', 'p4'], 'products.jsonl');
    expect(run).toThrow(UserError);
    expect(run).toThrow(
      'none of the 4 products of products.jsonl has a vector in ids.txt: their ids do not match ' +
        '(products: "p1", "p2", "p3"; vectors: "p1\\r", "p2\\r")',
    );
    expect(() => checkVectorsCoverProducts(['p9', 'p2'], 'ids.txt', ['p1', 'p2'], 'products.jsonl')).not.toThrow();
    expect(() => checkVectorsCoverProducts(['p9'], 'ids.txt', [], 'products.jsonl')).not.toThrow();
  });
});

describe('rows that cannot be used (issue 45, fault 10)', () => {
  it('refuses NaN, Infinity and a row whose length overflows float32, naming row and id', async () => {
    const cases: Array<[number[][], string]> = [
      [
        [
          [1, 0],
          [NaN, 1],
          [0.6, 0.8],
        ],
        '1 of 3 rows cannot be used: row 1 (id "p2") holds NaN or Infinity',
      ],
      [
        [
          [1, 0],
          [0, 1],
          [0.6, -Infinity],
        ],
        '1 of 3 rows cannot be used: row 2 (id "p3") holds NaN or Infinity',
      ],
      [
        [
          [3e38, 0],
          [0, 1],
          [0.6, 0.8],
        ],
        '1 of 3 rows cannot be used: row 0 (id "p1") has length 3.00e+38',
      ],
      [
        [
          [1e20, 1e20],
          [Infinity, 0],
          [0.6, 0.8],
        ],
        '2 of 3 rows cannot be used: row 0 (id "p1") has length 1.41e+20; row 1 (id "p2") holds NaN or Infinity',
      ],
    ];
    for (const [rows, message] of cases) {
      const source = await npyWithIds('p1\np2\np3\n', rows);
      const err = await loadGivenVectors(source).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toContain(`${source.productVectors}: ${message}. A row must be finite`);
    }
    // 1.8e19 per value: a squared length of 6.5e38 overflows; 1e18 (2e36) does not.
    await expect(
      loadGivenVectors(
        await npyWithIds('a\nb\nc\n', [
          [1e18, 1e18],
          [0, 1],
          [1, 0],
        ]),
      ),
    ).resolves.toBeDefined();
  });

  it('an .npy of float64 is a UserError naming what it holds (fault 15)', async () => {
    const dir = tmp();
    const dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }";
    const text = dict + ' '.repeat(128 - 10 - dict.length - 1) + '\n';
    const header = Buffer.concat([Buffer.from([0x93]), Buffer.from('NUMPY'), Buffer.from([1, 0, text.length, 0])]);
    writeFileSync(join(dir, 'v.npy'), Buffer.concat([header, Buffer.from(text, 'latin1'), Buffer.alloc(16)]));
    writeFileSync(join(dir, 'ids.txt'), 'p1\n');
    const err = await loadGivenVectors({ productVectors: join(dir, 'v.npy') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain("it holds little-endian float64 (descr '<f8')");
  });
});

describe('an ids file with a catalog index folder (issue 45, fault 21)', () => {
  it('is refused: the index lists its own ids', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'index'));
    const err = await loadGivenVectors({ productVectors: join(dir, 'index'), productIds: join(dir, 'ids.txt') }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).field).toBe('productIds');
    expect((err as Error).message).toContain('is a catalog index folder, which lists its own product ids');
  });
});
