// The IntentionQA report's count of products without a context vector comes from the same test as
// the dropped file's `product-without-vector`: a product of the products file that was never embedded
// (absent from the embeddings) counts, as does one whose vector is all zeros.
import { describe, expect, it } from 'vitest';
import { IntentionQaRun, buildIntentionQaItems } from '../engine/items/intentionqa/build-items.js';
import { renderMarkdown, StatsAccumulator } from '../engine/items/intentionqa/intentionqa-report.js';
import { collectRecords } from './support/intentionqa-records.js';

describe('IntentionQA report: products without a context vector', () => {
  // p0, p1: vectors; p2: an all-zero row (embedded, no direction); p3: never embedded.
  const world = {
    products: new Map([
      ['p0', 'zero'],
      ['p1', 'one'],
      ['p2', 'two'],
      ['p3', 'three'],
    ]),
    embeddings: { ids: ['p0', 'p1', 'p2'], dim: 2, data: Float32Array.from([1, 0, 0.6, 0.8, 0, 0]) },
    phrases: new Map<string, string[]>(),
    assertions: [
      ['a1', 'p0', 'p1'],
      ['a2', 'p0', 'p3'],
      ['a3', 'p2', 'p1'],
    ].map(([id, itemA, itemB]) => ({
      id: id!,
      itemA: itemA!,
      itemB: itemB!,
      relation: 'r',
      assertion: `x because ${id}`,
      intention: `because ${id}`,
      typicality: 1,
    })),
  };

  it('counts the never-embedded product as well as the zero row, as the dropped file does', async () => {
    const { dropped } = await collectRecords(buildIntentionQaItems(world));
    const withoutVector = dropped.filter((d) => d.reason === 'product-without-vector');
    expect(withoutVector.map((d) => d.id)).toEqual(['a2', 'a3']);
    expect(withoutVector.map((d) => d.detail)).toEqual([
      'no context vector for p3 (no similarity, so no window and no difficulty)',
      'no context vector for p2 (no similarity, so no window and no difficulty)',
    ]);

    const run = await IntentionQaRun.prepare(world);
    const settings = run.settings();
    expect(settings.productsWithoutVector).toBe(2);
    expect(renderMarkdown(new StatsAccumulator().stats, settings, 'x.svg')).toContain(
      'Products without a context vector (no similarity; never a distractor): 2.',
    );
  });
});
