import { describe, expect, it } from 'vitest';
import { NodeIdCache, WRITER_CACHE_LIMIT } from '../graph/sqlite/sqlite-id-cache.js';
import { Rng } from '../core/rng.js';

// The writer's text → id cache is sharded over several Maps (one V8 Map stops at 2^24 entries): it
// must behave exactly as one Map would, whatever shard a text falls in.
describe('NodeIdCache (sharded text → id map)', () => {
  it('agrees with a plain Map over random sets, overwrites and deletes', () => {
    const rng = new Rng(5);
    const cache = new NodeIdCache();
    const reference = new Map<string, number>();
    const texts = Array.from({ length: 3_000 }, (_, i) =>
      i % 7 === 0 ? '' : `PersonX ${['buys', 'eats', 'is'][i % 3]} item ${rng.int(5_000)}${'!'.repeat(i % 4)}`,
    );
    for (let step = 0; step < 20_000; step++) {
      const text = texts[rng.int(texts.length)]!;
      const op = rng.int(10);
      if (op < 6) {
        cache.set(text, step);
        reference.set(text, step);
      } else if (op < 9) expect(cache.delete(text)).toBe(reference.delete(text));
      else expect(cache.get(text)).toBe(reference.get(text));
      expect(cache.size).toBe(reference.size);
    }
    for (const text of texts) expect(cache.get(text)).toBe(reference.get(text));
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get(texts[1]!)).toBeUndefined();
  });

  it('trim empties it only at WRITER_CACHE_LIMIT texts', () => {
    const cache = new NodeIdCache();
    for (let i = 0; i < WRITER_CACHE_LIMIT - 1; i++) cache.set(`t${i}`, i);
    cache.trim();
    expect(cache.size).toBe(WRITER_CACHE_LIMIT - 1);
    cache.set('one more', -1);
    cache.trim();
    expect(cache.size).toBe(0);
  });
});
