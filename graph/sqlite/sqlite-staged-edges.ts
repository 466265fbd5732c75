// The edges of a bulk load between their write and their merge into the store's `edges` table
// (sqlite-bulk-load.ts). A batch is staged as packed binary runs, one per bucket of head ids
// (a 2^18-id range), instead of one SQLite row per edge: appending rows cost ~0.7 µs an edge in
// parameter binding alone, and merging them cost SQLite's sorter ~1.3 µs a row. Here staging is a
// copy into typed arrays, and the merge sorts a bucket at a time with a radix sort (a few linear
// passes) and writes each edge once, in key order. A bucket at a time bounds the merge's memory by
// the edges of 2^18 heads, not of the whole load.
//
// Run layout (little-endian): u32 count n, u32 weight count m, then heads u32[n], tails u32[n],
// masks u16[n] padded to a multiple of 8 bytes, then weights f64[m]. Bit c of an edge's mask says
// that sense column c is set; its weights follow those of the previous edge, in column order.

/** Edges in write order, column-compressed (see the run layout above for masks and weights). */
export interface EdgeRows {
  heads: number[];
  tails: number[];
  masks: number[];
  weights: number[];
}

export const BUCKET_BITS = 18;

/** The bucket of a head id: runs and merges go bucket by bucket. */
export function bucketOf(head: number): number {
  return Math.floor(head / 2 ** BUCKET_BITS);
}

function bitCount(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
}

/** Packs a batch into one run per bucket of its heads; each run keeps the batch's write order. */
export function packRuns(rows: EdgeRows): Map<number, Buffer> {
  const n = rows.heads.length;
  // Where each edge's weights start, and which edges go to which bucket.
  const members = new Map<number, number[]>();
  const weightAt = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const head = rows.heads[i]!;
    const tail = rows.tails[i]!;
    if (!(head >= 0 && head <= 0xffffffff && tail >= 0 && tail <= 0xffffffff)) {
      throw new RangeError(`staged edge ${head} → ${tail}: node ids must fit in 32 bits`);
    }
    weightAt[i + 1] = weightAt[i]! + bitCount(rows.masks[i]!);
    const bucket = bucketOf(head);
    let list = members.get(bucket);
    if (list === undefined) members.set(bucket, (list = []));
    list.push(i);
  }
  const runs = new Map<number, Buffer>();
  for (const [bucket, list] of members) {
    let m = 0;
    for (const i of list) m += weightAt[i + 1]! - weightAt[i]!;
    const k = list.length;
    const masksBytes = Math.ceil((2 * k) / 8) * 8;
    const buffer = new ArrayBuffer(8 + 8 * k + masksBytes + 8 * m);
    const header = new Uint32Array(buffer, 0, 2);
    const heads = new Uint32Array(buffer, 8, k);
    const tails = new Uint32Array(buffer, 8 + 4 * k, k);
    const masks = new Uint16Array(buffer, 8 + 8 * k, k);
    const weights = new Float64Array(buffer, 8 + 8 * k + masksBytes, m);
    header[0] = k;
    header[1] = m;
    let w = 0;
    for (let j = 0; j < k; j++) {
      const i = list[j]!;
      heads[j] = rows.heads[i]!;
      tails[j] = rows.tails[i]!;
      masks[j] = rows.masks[i]!;
      for (let at = weightAt[i]!; at < weightAt[i + 1]!; at++) weights[w++] = rows.weights[at]!;
    }
    runs.set(bucket, Buffer.from(buffer));
  }
  return runs;
}

/** The edges of one bucket, sorted by (head, tail), each edge once with its last write. */
export interface MergedEdges {
  count: number;
  heads: Uint32Array;
  tails: Uint32Array;
  masks: Uint16Array;
  /** Edge j's weights are weights[weightStart[j] …] (bitCount(masks[j]) of them). */
  weightStart: Uint32Array;
  weights: Float64Array;
}

/**
 * Merges runs given in write order (runs of earlier batches first): sorts all their edges by
 * (head, tail) with a stable radix sort, so that equal keys stay in write order, and keeps the last
 * of each key: the same outcome as applying every write in order, each replacing the edge's senses.
 */
export function mergeRuns(runs: readonly Uint8Array[]): MergedEdges {
  let n = 0;
  let m = 0;
  const views = runs.map((blob) => {
    // Copied to a fresh buffer: the typed-array views need aligned offsets.
    const buffer = new Uint8Array(blob).buffer;
    const [k, mk] = new Uint32Array(buffer, 0, 2) as unknown as [number, number];
    const masksBytes = Math.ceil((2 * k) / 8) * 8;
    if (buffer.byteLength !== 8 + 8 * k + masksBytes + 8 * mk)
      throw new Error(`staged edge run of ${buffer.byteLength} bytes does not hold ${k} edges and ${mk} weights`);
    n += k;
    m += mk;
    return {
      heads: new Uint32Array(buffer, 8, k),
      tails: new Uint32Array(buffer, 8 + 4 * k, k),
      masks: new Uint16Array(buffer, 8 + 8 * k, k),
      weights: new Float64Array(buffer, 8 + 8 * k + masksBytes, mk),
    };
  });
  const heads = new Uint32Array(n);
  const tails = new Uint32Array(n);
  const masks = new Uint16Array(n);
  const weightAt = new Uint32Array(n);
  const weights = new Float64Array(m);
  let at = 0;
  let w = 0;
  for (const v of views) {
    heads.set(v.heads, at);
    tails.set(v.tails, at);
    masks.set(v.masks, at);
    weights.set(v.weights, w);
    for (let j = 0; j < v.heads.length; j++) {
      weightAt[at + j] = w;
      w += bitCount(v.masks[j]!);
    }
    at += v.heads.length;
  }

  const order = stableRadixOrder(heads, tails);
  // Keep the last write of each (head, tail): the last index of each run of equal keys.
  const keep: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    const next = k + 1 < n ? order[k + 1]! : -1;
    if (next === -1 || heads[next] !== heads[i] || tails[next] !== tails[i]) keep.push(i);
  }
  const out: MergedEdges = {
    count: keep.length,
    heads: new Uint32Array(keep.length),
    tails: new Uint32Array(keep.length),
    masks: new Uint16Array(keep.length),
    weightStart: new Uint32Array(keep.length),
    weights,
  };
  keep.forEach((i, j) => {
    out.heads[j] = heads[i]!;
    out.tails[j] = tails[i]!;
    out.masks[j] = masks[i]!;
    out.weightStart[j] = weightAt[i]!;
  });
  return out;
}

/** Below this many edges a comparison sort beats the radix sort's four passes over 65,536 counters. */
const RADIX_MIN = 4096;

/**
 * Indexes 0 … n-1 ordered by (head, tail), equal keys in index order: an LSD radix sort over 16-bit
 * digits (tail low, tail high, head low, head high), skipping digits that are the same everywhere.
 */
export function stableRadixOrder(heads: Uint32Array, tails: Uint32Array): Uint32Array {
  const n = heads.length;
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < RADIX_MIN) return order.sort((a, b) => heads[a]! - heads[b]! || tails[a]! - tails[b]! || a - b);
  let spare = new Uint32Array(n);
  const counts = new Uint32Array(65_537);
  const digits: Array<(i: number) => number> = [
    (i) => tails[i]! & 0xffff,
    (i) => tails[i]! >>> 16,
    (i) => heads[i]! & 0xffff,
    (i) => heads[i]! >>> 16,
  ];
  for (const digit of digits) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[digit(i) + 1]!++;
    if (n === 0 || counts[digit(0) + 1] === n) continue; // one digit value everywhere: this pass changes nothing
    for (let d = 1; d < counts.length; d++) counts[d]! += counts[d - 1]!;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      spare[counts[digit(i)]!++] = i;
    }
    [order, spare] = [spare, order];
  }
  return order;
}
