// A catalogue index knows its encoder: `catalog query` without --encoder uses it (glove-100d here,
// never a Sentence-BERT model search), --encoder only repeats it, and a mismatch is refused naming
// both. `catalog items` takes the encoder's calibration: for glove-100d, the Task-2 window [0.4, 0.9)
// on centered vectors (the raw averaged vectors are all alike), checked against a brute-force
// reference on hand-made vectors.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EncodeOptions } from '../embeddings/sentence-encoder.js';
import { buildCatalogIndex } from '../engine/catalog/build-catalog-index.js';
import { CatalogIndex, indexEncoder } from '../engine/catalog/catalog-query.js';
import { buildProductItems, type ProductItem } from '../engine/items/catalog/product-items.js';
import { GLOVE_TEST_CACHE, realGlovePackage } from './support/glove.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');

/** Fixed 3-d vectors by title, under a chosen encoder name. */
class FixedEncoder {
  readonly dim = 3;
  readonly provider = 'none';
  constructor(
    readonly name: string,
    private readonly vectors: Map<string, number[]>,
  ) {}
  get fingerprint(): string {
    return `${this.name}-fixed`;
  }
  async encode(sentences: readonly string[], _o?: EncodeOptions): Promise<Float32Array> {
    return Float32Array.from(sentences.flatMap((s) => this.vectors.get(s)!));
  }
  async close(): Promise<void> {}
}

// A large common component (3 on the first axis) and a direction θ on the other two: raw cosines are
// all above 0.8, as averaged word vectors are; centered, they spread out.
const ANGLES = [0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 260, 280, 300, 320, 340];
const PRODUCTS = ANGLES.map((deg, k) => ({
  id: `p${k}`,
  title: `product ${deg}`,
  vector: [3, Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)],
}));

/** Centered unit vectors by the obvious route: the mean of the unit rows subtracted, renormalised. */
function referenceCentered(): number[][] {
  const unit = PRODUCTS.map(({ vector }) => vector.map((x) => x / Math.hypot(...vector)));
  const mean = [0, 1, 2].map((d) => unit.reduce((s, v) => s + v[d]!, 0) / unit.length);
  return unit.map((v) => {
    const c = v.map((x, d) => x - mean[d]!);
    return c.map((x) => x / Math.hypot(...c));
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-cat-encoder-'));
  writeFileSync(
    join(dir, 'catalog.jsonl'),
    PRODUCTS.map(({ id, title }) => JSON.stringify({ id, title }) + '\n').join(''),
  );
  writeFileSync(
    join(dir, 'questions.jsonl'),
    PRODUCTS.map(({ id }) => JSON.stringify({ id: `q-${id}`, context: 'a customer', product_id: id }) + '\n').join(''),
  );
});

async function itemsFor(name: string, out: string): Promise<{ items: ProductItem[]; report: Record<string, unknown> }> {
  const encoder = new FixedEncoder(name, new Map(PRODUCTS.map((p) => [p.title, p.vector])));
  await buildCatalogIndex({
    products: join(dir, 'catalog.jsonl'),
    out: join(dir, `idx-${out}`),
    encoder,
    progress: false,
  });
  const index = await CatalogIndex.open(join(dir, `idx-${out}`));
  await buildProductItems({ index, questions: join(dir, 'questions.jsonl'), out: join(dir, out), seed: 3 });
  const items = readFileSync(join(dir, out, 'items.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ProductItem);
  return { items, report: JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as Record<string, unknown> };
}

describe('catalog items: the encoder calibration', () => {
  it('glove-100d: [0.4, 0.9) on centered vectors, every distractor in the brute-force window', async () => {
    const { items, report } = await itemsFor('glove-100d', 'glove');
    expect(report).toMatchObject({ window: [0.4, 0.9], centered: true, items: PRODUCTS.length });
    const centered = referenceCentered();
    const cos = (a: number, b: number) => centered[a]!.reduce((s, x, d) => s + x * centered[b]![d]!, 0);
    for (const item of items) {
      expect(item.window).toEqual({ lo: 0.4, hi: 0.9, centered: true });
      const gold = Number(item.gold.id.slice(1));
      for (const d of item.distractors) {
        const expected = cos(gold, Number(d.id.slice(1)));
        expect(d.cosine).toBeCloseTo(expected, 5);
        expect(expected).toBeGreaterThanOrEqual(0.4 - 1e-6);
        expect(expected).toBeLessThan(0.9 + 1e-6);
      }
    }
    // Centered, neighbours at 40° to 60° are the window (cos 0.77, 0.5); 20° is too close (0.94).
    const neighbours = new Set(items[0]!.distractors.map((d) => d.id));
    expect([...neighbours].every((id) => ['p2', 'p3', 'p15', 'p16'].includes(id))).toBe(true);
  });

  it('Sentence-BERT: the paper window [0.7, 0.9) on the stored vectors, as before (no `centered`)', async () => {
    const { items, report } = await itemsFor('Xenova/all-MiniLM-L6-v2', 'sbert');
    expect(report.window).toEqual([0.7, 0.9]);
    expect(report).not.toHaveProperty('centered');
    // Raw cosines of these vectors are all ≥ 0.8: members are those below 0.9.
    for (const item of items) {
      expect(item.window).toEqual({ lo: 0.7, hi: 0.9 });
      for (const d of item.distractors) expect(d.cosine).toBeLessThan(0.9);
    }
  });

  it("the index's encoder is read from its manifest", () => {
    expect(indexEncoder({ model: 'glove-100d' })).toBe('glove-100d');
    expect(indexEncoder({ model: 'offline-hashing-v1' })).toBe('offline-hashing-v1');
    expect(indexEncoder({ model: 'Xenova/all-MiniLM-L6-v2' })).toBe('sentence-bert');
  });
});

describe('catalog query: the index encoder', () => {
  const glove = realGlovePackage('catalog query on a glove-100d index');
  it.runIf(glove !== undefined)(
    'without --encoder it uses glove-100d; --encoder glove-100d agrees; --encoder sentence-bert is refused naming both',
    async () => {
      const run = (...args: string[]) =>
        promisify(execFile)(process.execPath, [CLI, ...args, '--model-cache', GLOVE_TEST_CACHE, '--offline'], {
          cwd: ROOT,
        });
      const products = join(dir, 'words.jsonl');
      const titles = ['red phone case', 'blue phone case', 'running shoes', 'coffee mug', 'tea cup'];
      writeFileSync(products, titles.map((title, i) => JSON.stringify({ id: `w${i}`, title }) + '\n').join(''));
      const index = join(dir, 'glove-index');
      await run('catalog', 'index', '--products', products, '--out', index, '--encoder', 'glove-100d');
      const query = ['catalog', 'query', '--index', index, '--text', 'phone case', '--k', '2'];
      const plain = await run(...query);
      const hits = plain.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id);
      expect(hits.sort()).toEqual(['w0', 'w1']);
      expect(plain.stderr).not.toMatch(/MiniLM|Hugging Face|looked for/i);
      expect((await run(...query, '--encoder', 'glove-100d')).stdout).toBe(plain.stdout);
      const refused = await run(...query, '--encoder', 'sentence-bert').then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(refused?.code).toBe(1);
      expect(refused?.stderr).toContain(
        "intentsim: --encoder sentence-bert does not match the index, which was built with glove-100d; leave --encoder out to use the index's encoder",
      );
    },
  );
});
