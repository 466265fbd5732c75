// The pipelined MatrixRanges (products in a worker thread, grouped candidate model) must give the
// serial path's ranges exactly: the same CSR arrays, byte for byte, whatever the block sizes, the
// floor (ties at the candidate threshold included), the entry budget, and when nothing passes.
// Both are checked against the exact scan in matrix-ranges.test.ts; here they are checked against
// each other, which also covers rows that are not anchors (slotOfRow) and the order of every list.
import { describe, expect, it } from 'vitest';
import { clusteredVectors } from '../bench/support/clustered-vectors.js';
import { MatrixRanges, type MatrixRangesOptions } from '../engine/search/matrix-ranges.js';
import { ExactScanRange } from '../engine/search/range-search.js';
import {
  COLUMN_GROUP,
  ThresholdProducts,
  candidateThreshold,
  type CandidatePairs,
} from '../engine/search/threshold-products.js';
import { Rng } from '../core/rng.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';

function world(count: number, dim: number, clusters: number, seed: number): UnitVectors {
  return UnitVectors.fromVectorSet(clusteredVectors({ count, dim, clusters, seed, zeroRows: new Set([3]) }));
}

function randomAnchors(vectors: UnitVectors, share: number, seed: string): number[] {
  const rng = new Rng(seed);
  return Array.from(vectors.validRows).filter(() => rng.next() < share);
}

async function bothPaths(
  vectors: UnitVectors,
  anchors: readonly number[],
  floor: number,
  opts: MatrixRangesOptions = {},
): Promise<{ serial: MatrixRanges; pipelined: MatrixRanges }> {
  const serial = await MatrixRanges.compute(vectors, anchors, floor, { ...opts, threads: 1, pipelined: false });
  const pipelined = await MatrixRanges.compute(vectors, anchors, floor, { ...opts, threads: 1, pipelined: true });
  return { serial, pipelined };
}

function expectSameCsr(a: MatrixRanges, b: MatrixRanges): void {
  for (const key of ['slotOfRow', 'offsets', 'rows', 'scores'] as const) {
    const x = a.data[key];
    const y = b.data[key];
    expect(y.length, key).toBe(x.length);
    expect(
      Buffer.from(y.buffer, y.byteOffset, y.byteLength).equals(Buffer.from(x.buffer, x.byteOffset, x.byteLength)),
      key,
    ).toBe(true);
  }
  expect(b.data.floor).toBe(a.data.floor);
  expect(b.stats!.stored).toBe(a.stats!.stored);
}

describe('pipelined MatrixRanges equals the serial path', () => {
  it('on random inputs, at several block sizes and floors (many blocks in flight, and a single block)', async () => {
    const cases = [
      { count: 900, dim: 24, floor: 0.6, share: 0.5, maxBlockRows: 7 },
      { count: 900, dim: 24, floor: 0.45, share: 0.8, maxBlockRows: 64 },
      { count: 700, dim: 61, floor: 0.75, share: 0.9, maxBlockRows: 1 },
      { count: 1200, dim: 384, floor: 0.6, share: 0.6, maxBlockRows: 512 },
      { count: 500, dim: 9, floor: 0.3, share: 0.1, maxBlockRows: 512 }, // ~50 anchors: one block
    ];
    for (const [k, c] of cases.entries()) {
      const vectors = world(c.count, c.dim, Math.ceil(c.count / 60), 100 + k);
      const anchors = randomAnchors(vectors, c.share, `pipelined/${k}`);
      const { serial, pipelined } = await bothPaths(vectors, anchors, c.floor, { maxBlockRows: c.maxBlockRows });
      expectSameCsr(serial, pipelined);
      expect(serial.data.rows.length).toBeGreaterThan(anchors.length * 3); // not trivially small
      if (c.share === 0.1) expect(pipelined.stats!.calls).toBe(1);
      else expect(pipelined.stats!.calls).toBeGreaterThan(3);
    }
  });

  it('proposes the very same candidate pairs as the serial model, padding columns included', async () => {
    // A floor below 0 puts the candidate threshold below 0, where the grouped model's zero padding
    // rows would pass: they must be dropped. 37 positions: no block is a whole number of groups.
    const vectors = world(40, 16, 3, 7);
    const order = Int32Array.from(vectors.validRows);
    for (const floor of [-0.2, 0.5]) {
      const input = { dim: vectors.dim, data: vectors.data, order, floor, threads: 1 };
      const plain = await ThresholdProducts.open(input);
      const grouped = await ThresholdProducts.open({ ...input, grouped: true });
      for (const [p0, p1] of [
        [0, 5],
        [5, 39],
        [30, 39],
        [38, 39],
      ] as const) {
        const want: CandidatePairs = await plain.pairs(p0, p1);
        const got: CandidatePairs = await grouped.pairs(p0, p1);
        expect(Array.from(got)).toEqual(Array.from(want));
        expect(Math.max(...got.subarray(got.length / 2))).toBeLessThan(order.length - p0);
        expect((order.length - p0) % COLUMN_GROUP).not.toBe(0);
      }
      await plain.release();
      await grouped.release();
    }
  });

  it('keeps and drops the same pairs when float32 products tie with the candidate threshold', async () => {
    // Rows (1, 0, 0, 0) and (½, ½, ½, ½): their products are exactly ½ in float32 and in float64.
    // The floor is chosen so that the candidate threshold is exactly ½: the tie is a candidate (≥),
    // and the exact re-scoring drops it (½ < floor). At floor ½ itself, the tie is kept.
    const dim = 4;
    const rows: number[][] = [];
    for (let k = 0; k < 40; k++) rows.push(k % 2 === 0 ? [1, 0, 0, 0] : [0.5, 0.5, 0.5, 0.5]);
    rows.push([0, 1, 0, 0], [0, 0, 0.6, 0.8]);
    const vectors = UnitVectors.fromVectorSet({
      ids: rows.map((_, k) => `r${k}`),
      dim,
      data: Float32Array.from(rows.flat()),
    });
    const gamma2 = (2 * dim * 2 ** -24) / (1 - dim * 2 ** -24);
    const above = 0.5 + gamma2;
    expect(candidateThreshold(above, dim)).toBe(0.5);
    const anchors = Array.from(vectors.validRows).filter((r) => r % 3 !== 0);
    for (const floor of [above, 0.5]) {
      const { serial, pipelined } = await bothPaths(vectors, anchors, floor, { maxBlockRows: 5 });
      expectSameCsr(serial, pipelined);
      const scan = new ExactScanRange(vectors);
      for (const a of anchors) {
        const want = scan.range(vectors.vector(a), floor, true);
        expect(Array.from(pipelined.rowRange(a)!.rows)).toEqual(Array.from(want.rows));
      }
      // Each (1,0,0,0) anchor: at floor ½ the ½-rows are members; just above, only its own kind.
      const first = anchors.find((r) => r % 2 === 0)!;
      expect(pipelined.rowRange(first)!.rows.length).toBe(floor === 0.5 ? 40 : 20);
    }
  });

  it('gives empty ranges alike when nothing passes, and the same prefix under an entry budget', async () => {
    const vectors = world(600, 12, 8, 31);
    const anchors = randomAnchors(vectors, 0.5, 'empty');
    const none = await bothPaths(vectors, anchors, 1.01, { maxBlockRows: 16 });
    expectSameCsr(none.serial, none.pipelined);
    expect(none.pipelined.data.rows.length).toBe(0);
    expect(none.pipelined.stats!.stored).toBe(anchors.length);

    const full = await MatrixRanges.compute(vectors, anchors, 0.5, { threads: 1 });
    const budget = { maxEntries: Math.floor(full.data.rows.length / 3), maxBlockRows: 16 };
    const capped = await bothPaths(vectors, anchors, 0.5, budget);
    expectSameCsr(capped.serial, capped.pipelined);
    expect(capped.pipelined.stats!.stored).toBeLessThan(anchors.length);

    const noAnchors = await bothPaths(vectors, [], 0.5);
    expectSameCsr(noAnchors.serial, noAnchors.pipelined);
    expect(noAnchors.pipelined.stats!.calls).toBe(0);
  });
});
