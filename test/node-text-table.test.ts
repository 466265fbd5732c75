import { describe, expect, it } from 'vitest';
import { NodeTextTable } from '../graph/sqlite/node-text-table.js';
import { Rng } from '../core/rng.js';

// The bulk load's text → id table (off the V8 heap) must answer exactly as a Map would: through
// growth, long probe runs, deletes in any order (backward shift), wide and narrow texts, and texts
// that straddle or exceed a chunk.
describe('NodeTextTable', () => {
  const alphabet = ['a', 'b', 'é', 'ÿ', 'ā', '中', '😀', ' ', 'X'];
  function randomText(rng: Rng): string {
    const n = rng.int(5) === 0 ? rng.int(200) : rng.int(12);
    let text = '';
    for (let i = 0; i < n; i++) text += alphabet[rng.int(alphabet.length)]!;
    return text;
  }

  it('agrees with a Map over random adds, deletes and lookups', () => {
    const rng = new Rng(11);
    // 64-byte chunks: most texts start a new chunk, and the longer ones get one of their own.
    const table = new NodeTextTable(64);
    const reference = new Map<string, number>();
    const texts = Array.from({ length: 4_000 }, () => randomText(rng));
    let nextId = 1;
    for (let step = 0; step < 40_000; step++) {
      const text = texts[rng.int(texts.length)]!;
      const op = rng.int(10);
      if (op < 5) {
        if (reference.has(text)) {
          expect(() => table.add(text, nextId)).toThrow(/already holds/);
        } else {
          table.add(text, nextId);
          reference.set(text, nextId);
          nextId += 1;
        }
      } else if (op < 7) {
        expect(table.delete(text)).toBe(reference.delete(text));
      } else {
        expect(table.get(text)).toBe(reference.get(text));
      }
      expect(table.size).toBe(reference.size);
    }
    for (const text of texts) expect(table.get(text)).toBe(reference.get(text));
    expect(reference.size).toBeGreaterThan(1_000); // the table grew several times
  });

  it('keeps every text reachable after deleting from the middle of long probe runs', () => {
    // 3,000 texts in a table that never holds more than half its slots, then every third deleted:
    // each delete must move later entries of its run up, or lookups behind the hole would miss.
    const table = new NodeTextTable();
    const texts = Array.from({ length: 3_000 }, (_, i) => `PersonX buy item ${i}`);
    texts.forEach((text, i) => table.add(text, i + 1));
    texts.forEach((text, i) => {
      if (i % 3 === 0) expect(table.delete(text)).toBe(true);
    });
    texts.forEach((text, i) => expect(table.get(text)).toBe(i % 3 === 0 ? undefined : i + 1));
    expect(table.size).toBe(2_000);
  });

  it('tells apart texts that differ only past the first byte of a wide unit, and the empty text', () => {
    const table = new NodeTextTable();
    table.add('\u0101', 1); // ā: low byte 0x01
    table.add('\u0001', 2);
    table.add('', 3);
    table.add('\u0201', 4);
    expect([table.get('\u0101'), table.get('\u0001'), table.get(''), table.get('\u0201')]).toEqual([1, 2, 3, 4]);
    expect(table.get('\u0301')).toBeUndefined();
  });

  it('getOrAdd asks for a new id only for a text it does not hold', () => {
    const table = new NodeTextTable();
    let asked = 0;
    const next = () => ++asked;
    expect(['x', 'y', 'x', 'z', 'y'].map((t) => table.getOrAdd(t, next))).toEqual([1, 2, 1, 3, 2]);
    expect(asked).toBe(3);
    expect(table.size).toBe(3);
  });

  it('finds every record across thousands of chunks, records that fill a chunk exactly, and larger ones', () => {
    // 16-byte chunks hold one record of up to 8 narrow units: a text of 8 fills its chunk, longer
    // ones get a chunk of their own at offset 0, and the first chunk keeps its 4 reserved bytes.
    const table = new NodeTextTable(16);
    const texts = Array.from({ length: 5_000 }, (_, i) => 'x'.repeat(i % 23) + String(i));
    texts.forEach((text, i) => table.add(text, 5_000 - i));
    texts.forEach((text, i) => expect(table.get(text)).toBe(5_000 - i));
    expect(table.get('x'.repeat(30))).toBeUndefined();
    expect(() => new NodeTextTable(48)).toThrow(RangeError);
    expect(() => new NodeTextTable(8)).toThrow(RangeError);
  });

  it('refuses ids it cannot store', () => {
    const table = new NodeTextTable();
    expect(() => table.add('a', 0)).toThrow(RangeError);
    expect(() => table.add('a', 2 ** 32)).toThrow(RangeError);
    expect(() => table.add('a', 1.5)).toThrow(RangeError);
    table.add('a', 2 ** 32 - 1);
    expect(table.get('a')).toBe(2 ** 32 - 1);
  });
});
