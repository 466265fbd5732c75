import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRODUCT_KINDS, kindOfNoun } from '../graph/generate/product-kinds.js';
import { scaleAssertions, type AssertionCatalog } from '../graph/generate/scale-assertions.js';
import { writeScaleGraph } from '../graph/generate/generate-scale.js';
import { PRODUCT_NOUNS } from '../graph/generate/scale-vocab.js';
import { parseAssertion } from '../engine/items/intentionqa/assertions.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-scale-assertions-'));

/** A catalogue whose product i has noun PRODUCT_NOUNS[nouns[i]]. */
function catalog(nouns: readonly number[]): AssertionCatalog {
  return {
    size: nouns.length,
    idOf: (i) => `P${i}`,
    kindOf: (i) => kindOfNoun(PRODUCT_NOUNS[nouns[i]!]!),
    nounOf: (i) => PRODUCT_NOUNS[nouns[i]!]!,
  };
}

describe('product kinds', () => {
  it('put every product noun in exactly one kind', () => {
    const all = PRODUCT_KINDS.flatMap((k) => k.nouns);
    expect([...all].sort((a, b) => a - b)).toEqual(PRODUCT_NOUNS.map((_, i) => i));
    expect(PRODUCT_NOUNS[PRODUCT_KINDS[0]!.nouns[0]!]).toBe('phone');
    expect(PRODUCT_KINDS[kindOfNoun('dog food')]!.name).toBe('pets');
    expect(PRODUCT_KINDS[kindOfNoun('blender')]!.name).toBe('kitchen appliances');
    expect(() => kindOfNoun('spaceship')).toThrow(/not a product noun/);
  });
});

describe('scaleAssertions', () => {
  const phone = PRODUCT_NOUNS.indexOf('phone');
  const cable = PRODUCT_NOUNS.indexOf('cable');
  const dogFood = PRODUCT_NOUNS.indexOf('dog food');
  const leash = PRODUCT_NOUNS.indexOf('leash');
  const guitar = PRODUCT_NOUNS.indexOf('guitar');

  it('pairs two different products of the same kind, with a reason of that kind', () => {
    // Products 0–1 electronics, 2–3 pets, 4 the only music product.
    const cat = catalog([phone, cable, dogFood, leash, guitar]);
    const out = [...scaleAssertions(cat, 500, 3)];
    expect(out).toHaveLength(500);
    expect(out.map((a) => a.id)).toEqual(out.map((_, i) => `FS_${i + 1}`));
    const index = (id: string) => Number(id.slice(1));
    for (const a of out) {
      const i = index(a.item_a_id);
      const j = index(a.item_b_id);
      expect(j).not.toBe(i);
      if (i < 4) expect(cat.kindOf(j)).toBe(cat.kindOf(i)); // a kind with two products pairs them
      expect(a.assertion).toMatch(/^PersonX bought a product of Item A and a product of Item B because .+\.$/);
      expect(a.typicality).toBeGreaterThanOrEqual(0.5);
      expect(a.typicality).toBeLessThanOrEqual(1);
      const kind = PRODUCT_KINDS[cat.kindOf(i)]!;
      const reason = a.assertion.slice(a.assertion.indexOf('because ') + 8, -1);
      const fromKind =
        kind.purposes.some((p) => reason.includes(p)) ||
        reason.includes(kind.name) ||
        reason.includes(cat.nounOf(i)) ||
        reason.includes(cat.nounOf(j));
      expect(fromKind, reason).toBe(true);
    }
    // Within a two-product kind the partner is forced: 0 ↔ 1 and 2 ↔ 3.
    for (const a of out.filter((x) => index(x.item_a_id) < 4)) expect(index(a.item_b_id)).toBe(index(a.item_a_id) ^ 1);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const cat = catalog([phone, cable, dogFood, leash, guitar, phone]);
    expect([...scaleAssertions(cat, 50, 1)]).toEqual([...scaleAssertions(cat, 50, 1)]);
    expect([...scaleAssertions(cat, 50, 1)]).not.toEqual([...scaleAssertions(cat, 50, 2)]);
    expect([...scaleAssertions(catalog([phone]), 10, 1)]).toEqual([]);
  });

  it('are written by writeScaleGraph, readable by the pipeline’s parser, byte-identical for a seed', async () => {
    const opts = { nodes: 4000, edges: 8000, seed: 5, products: 300, assertions: 1000, progress: false };
    const a = await writeScaleGraph(join(dir, 'a.jsonl'), opts);
    const b = await writeScaleGraph(join(dir, 'b.jsonl'), opts);
    expect(a.assertions).toBe(1000);
    const text = readFileSync(a.assertionsOut!, 'utf8');
    expect(text).toBe(readFileSync(b.assertionsOut!, 'utf8'));
    const products = new Set(
      readFileSync(a.productsOut!, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id: string }).id),
    );
    const parsed = text
      .split('\n')
      .filter(Boolean)
      .map((l, i) => parseAssertion(JSON.parse(l), { file: 'a.assertions.jsonl', line: i + 1 }));
    expect(parsed).toHaveLength(1000);
    for (const x of parsed) {
      expect(x.intention).not.toBe('');
      expect(products.has(x.itemA)).toBe(true);
      expect(products.has(x.itemB)).toBe(true);
    }
    await expect(writeScaleGraph(join(dir, 'c.jsonl'), { ...opts, products: 1 })).rejects.toThrow(
      /at least 2 products/,
    );
  });
});
