// MatrixRanges must return exactly what an exact scan returns — the same rows, the same float64
// scores, bit for bit — for every anchor, whatever the dimension, the floor, the block sizes the
// density leads to, and the entry budget. The float32 products only propose candidates.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusteredVectors } from '../bench/support/clustered-vectors.js';
import { MatrixRanges, loadRanges, openOrComputeRanges } from '../engine/search/matrix-ranges.js';
import { candidateThreshold } from '../engine/search/threshold-products.js';
import { ExactScanRange, RowRangeCache } from '../engine/search/range-search.js';
import { Rng } from '../core/rng.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { sidecarPath } from '../engine/search/vector-index.js';

function world(count: number, dim: number, clusters: number, seed: number, zeroRows = new Set<number>()): UnitVectors {
  return UnitVectors.fromVectorSet(clusteredVectors({ count, dim, clusters, seed, zeroRows }));
}

/** A random subset of the valid rows, with some rows listed twice (the pipeline passes distinct rows; duplicates must not matter). */
function someAnchors(vectors: UnitVectors, share: number, seed: string): number[] {
  const rng = new Rng(seed);
  const rows = Array.from(vectors.validRows).filter(() => rng.next() < share);
  return rows.concat(rows.slice(0, 5));
}

function expectSameAsScan(
  vectors: UnitVectors,
  ranges: MatrixRanges,
  anchors: readonly number[],
  floor: number,
): number {
  const scan = new ExactScanRange(vectors);
  let members = 0;
  for (const r of new Set(anchors)) {
    const got = ranges.rowRange(r, floor);
    expect(got, `anchor ${r}`).toBeDefined();
    const want = scan.range(vectors.vector(r), floor, true);
    expect(Array.from(got!.rows)).toEqual(Array.from(want.rows));
    expect(Array.from(got!.scores)).toEqual(Array.from(want.scores));
    expect(got!.exact).toBe(true);
    members += want.rows.length;
  }
  return members;
}

describe('MatrixRanges', () => {
  it('equals the exact scan for every anchor: several dimensions, floors, rows without vectors', async () => {
    for (const [dim, floor, seed] of [
      [24, 0.6, 1],
      [7, 0.3, 2],
      [61, 0.75, 3],
      [384, 0.6, 4],
    ] as const) {
      const vectors = world(700, dim, 9, seed, new Set([0, 13, 699]));
      const anchors = someAnchors(vectors, 0.4, `anchors/${seed}`);
      const ranges = await MatrixRanges.compute(vectors, anchors, floor, { threads: 1 });
      const members = expectSameAsScan(vectors, ranges, anchors, floor);
      expect(members).toBeGreaterThan(anchors.length * 5); // the ranges are not trivially small
      expect(ranges.stats).toMatchObject({
        anchors: new Set(anchors).size,
        stored: new Set(anchors).size,
        entries: ranges.data.rows.length,
      });
      // Rows that are not anchors (and rows without vectors) have no stored range.
      const anchorSet = new Set(anchors);
      const other = Array.from(vectors.validRows).find((r) => !anchorSet.has(r))!;
      expect(ranges.rowRange(other)).toBeUndefined();
      expect(ranges.rowRange(0)).toBeUndefined();
    }
  });

  it('keeps a pair whose exact cosine is the floor itself (the bound is inclusive)', async () => {
    const vectors = world(300, 16, 5, 7);
    const scan = new ExactScanRange(vectors);
    const a = vectors.validRows[10]!;
    const near = scan.range(vectors.vector(a), 0.5, true);
    const k = near.rows.findIndex((r) => r !== a);
    const floor = near.scores[k]!; // exactly the cosine of (a, near.rows[k])
    const ranges = await MatrixRanges.compute(vectors, [a], floor, { threads: 1 });
    expect(Array.from(ranges.rowRange(a)!.rows)).toContain(near.rows[k]);
    expectSameAsScan(vectors, ranges, [a], floor);
  });

  it('answers a higher floor by filtering the stored range, and no lower floor', async () => {
    const vectors = world(400, 12, 6, 8);
    const anchors = someAnchors(vectors, 0.5, 'higher');
    const ranges = await MatrixRanges.compute(vectors, anchors, 0.5, { threads: 1 });
    expectSameAsScan(vectors, ranges, anchors, 0.7);
    expect(ranges.rowRange(anchors[0]!, 0.4)).toBeUndefined();
  });

  it('stores anchors up to the entry budget; the rest fall back to exact scans with the same answers', async () => {
    const vectors = world(500, 16, 5, 9);
    const anchors = someAnchors(vectors, 0.6, 'budget');
    const full = await MatrixRanges.compute(vectors, anchors, 0.5, { threads: 1 });
    const capped = await MatrixRanges.compute(vectors, anchors, 0.5, {
      threads: 1,
      maxEntries: Math.floor(full.data.rows.length / 3),
    });
    expect(capped.stats!.stored).toBeGreaterThan(0);
    expect(capped.stats!.stored).toBeLessThan(capped.stats!.anchors);
    expect(capped.data.rows.length).toBeLessThanOrEqual(Math.floor(full.data.rows.length / 3));
    const distinct = [...new Set(anchors)].sort((x, y) => x - y);
    const storedRows = distinct.filter((r) => capped.rowRange(r) !== undefined);
    expect(storedRows).toEqual(distinct.slice(0, capped.stats!.stored)); // a prefix, in row order
    expectSameAsScan(vectors, capped, storedRows, 0.5);
    // Through the range cache every anchor gets the exact answer, stored or scanned.
    const cache = new RowRangeCache(capped, 0.5);
    const scan = new ExactScanRange(vectors);
    for (const r of distinct) {
      const got = cache.aroundRow(r, 0.6, true);
      const want = scan.range(vectors.vector(r), 0.6, true);
      expect(Array.from(got.rows)).toEqual(Array.from(want.rows));
      expect(Array.from(got.scores)).toEqual(Array.from(want.scores));
    }
    expect(cache.precomputed).toBe(storedRows.length);
    expect(cache.misses).toBe(distinct.length - storedRows.length);
  });

  it('copes with a collapsed space (every cosine close to 1): small blocks, exact lists', async () => {
    const vectors = UnitVectors.fromVectorSet(
      clusteredVectors({ count: 300, dim: 20, clusters: 1, seed: 5, noise: [0.0001, 0.001] }),
    );
    const anchors = Array.from(vectors.validRows);
    const ranges = await MatrixRanges.compute(vectors, anchors, 0.6, { threads: 1 });
    expect(expectSameAsScan(vectors, ranges, anchors, 0.6)).toBe(300 * 300);
  });

  it('takes no anchors, and refuses an anchor without a vector', async () => {
    const vectors = world(50, 8, 2, 6, new Set([4]));
    const none = await MatrixRanges.compute(vectors, [], 0.6, { threads: 1 });
    expect(none.data.rows.length).toBe(0);
    expect(none.rowRange(1)).toBeUndefined();
    await expect(MatrixRanges.compute(vectors, [4], 0.6)).rejects.toThrow(/anchor row 4 \("p4"\) has no vector/);
  });

  it('proposes candidates from float32 products at least 2·γ_d below the floor, as a float32', () => {
    for (const [floor, dim] of [
      [0.6, 384],
      [0.7, 24],
      [-0.2, 1024],
      [0.9, 7],
    ] as const) {
      const t = candidateThreshold(floor, dim);
      const gamma = (dim * 2 ** -24) / (1 - dim * 2 ** -24);
      expect(Math.fround(t)).toBe(t);
      expect(t).toBeLessThanOrEqual(floor - 2 * gamma);
      expect(t).toBeGreaterThan(floor - 2 * gamma - 1e-6);
    }
  });
});

describe('saved MatrixRanges (next to the embeddings, reused by a rerun)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-ranges-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const vectors = world(400, 12, 6, 21, new Set([5]));
  const anchors = someAnchors(vectors, 0.5, 'saved');

  it('round-trips: the reloaded ranges are the computed ones, in shared memory', async () => {
    const path = join(dir, 'a.bin');
    const first = await openOrComputeRanges(path, vectors, anchors, 0.6, { threads: 1 });
    expect(first.recomputed).toBe('no saved ranges');
    const again = await openOrComputeRanges(path, vectors, anchors, 0.6, { threads: 1 });
    expect(again.recomputed).toBeUndefined();
    expect(again.ranges.stats).toBeUndefined(); // loaded, not computed
    for (const key of ['slotOfRow', 'offsets', 'rows', 'scores'] as const) {
      expect(Array.from(again.ranges.data[key])).toEqual(Array.from(first.ranges.data[key]));
      expect(again.ranges.data[key].buffer).toBeInstanceOf(SharedArrayBuffer);
    }
    expectSameAsScan(vectors, again.ranges, anchors, 0.6);
  });

  it('recomputes, saying why, when the vectors, the anchors, the floor or the file changed', async () => {
    const path = join(dir, 'b.bin');
    await openOrComputeRanges(path, vectors, anchors, 0.6, { threads: 1 });
    const moved = world(400, 12, 6, 22, new Set([5]));
    expect(await loadRanges(path, moved, anchors, 0.6)).toEqual({
      stale: expect.stringMatching(/^sidecar vectors is/),
    });
    expect(
      await loadRanges(
        path,
        vectors,
        anchors.filter((r) => r !== anchors[0]),
        0.6,
      ),
    ).toEqual({ stale: expect.stringMatching(/^sidecar anchors is/) });
    expect(await loadRanges(path, vectors, [...anchors].reverse(), 0.6)).toBeInstanceOf(MatrixRanges); // the set matters, not the order
    expect(await loadRanges(path, vectors, anchors, 0.5)).toEqual({ stale: 'sidecar floor is 0.6, expected 0.5' });
    expect(await loadRanges(path, vectors, anchors, 0.6, 1000)).toEqual({
      stale: expect.stringMatching(/^sidecar maxEntries is/),
    });
    truncateSync(path, 100);
    expect(await loadRanges(path, vectors, anchors, 0.6)).toEqual({
      stale: expect.stringMatching(/^100 bytes, the checksum was recorded for \d+ \(damaged file\)$/),
    });
    writeFileSync(sidecarPath(path), '{ not json');
    expect(await loadRanges(path, vectors, anchors, 0.6)).toEqual({
      stale: expect.stringMatching(/^unreadable sidecar/),
    });
    const redone = await openOrComputeRanges(path, vectors, anchors, 0.6, { threads: 1 });
    expect(redone.recomputed).toMatch(/^unreadable sidecar/);
    expect(await loadRanges(path, vectors, anchors, 0.6)).toBeInstanceOf(MatrixRanges);
  });
});
