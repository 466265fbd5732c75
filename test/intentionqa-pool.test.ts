import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { intentionQaWorld } from '../bench/support/intentionqa-world.js';
import { IntentionQaRun } from '../engine/items/intentionqa/build-items.js';
import type { IntentionQaRecord } from '../engine/items/intentionqa/item-types.js';
import { MatrixRanges } from '../engine/search/matrix-ranges.js';
import { ExactScanRange } from '../engine/search/range-search.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { HnswRange, VectorIndex } from '../engine/search/vector-index.js';
import {
  MIN_ASSERTIONS_FOR_WORKERS,
  draftInParallel,
  resolveItemWorkers,
} from '../engine/items/intentionqa/draft-pool.js';
import { DRAFT_BLOCK, pivotBlockTasks } from '../engine/items/intentionqa/pivot-blocks.js';
import { RangeBlocks } from '../engine/search/range-blocks.js';
import { rangeFloor } from '../engine/items/intentionqa/run-context.js';
import { checkItemInvariants } from './support/intentionqa-invariants.js';

async function serialise(records: AsyncIterable<IntentionQaRecord>): Promise<string[]> {
  const out: string[] = [];
  for await (const r of records) out.push(JSON.stringify(r));
  return out;
}

// The pool must be a drop-in for run.records(): the same records, in the same order, byte for
// byte — with the exact scan and with the HNSW index (saved or in memory), across several blocks.
describe('draftInParallel (IntentionQA items in a Piscina pool)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-items-pool-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // More assertions than two blocks, some below the typicality threshold, some without vectors.
  const world = intentionQaWorld({
    products: 900,
    assertions: 2 * DRAFT_BLOCK + 77,
    dim: 24,
    clusters: 12,
    seed: 11,
    zeroRows: new Set([3, 50, 400]),
  });

  it('gives byte-identical records to the main thread with MatrixRanges (shared with the workers)', async () => {
    const options = { seed: 6, exactness: 'exact' as const };
    const run = await IntentionQaRun.prepare({ ...world, options });
    expect(run.context.search).toBeInstanceOf(MatrixRanges);
    const expected = await serialise(run.records());
    expect(expected.filter((line) => line.startsWith('{"kind":"item"')).length).toBeGreaterThan(100);
    const again = await IntentionQaRun.prepare({ ...world, options });
    expect(await serialise(draftInParallel(again, { workers: 2, blocksAhead: 1, minAssertions: 0 }))).toEqual(expected);
  });

  it('lets the event loop turn every DRAFT_BLOCK assertions on this thread, so that Ctrl-C is handled', async () => {
    const run = await IntentionQaRun.prepare({ ...world, options: { seed: 6, exactness: 'exact' as const } });
    expect(run.context.rangeBlocks).toBeUndefined(); // the path without pivot blocks
    let seen = 0;
    let seenAtTurn = -1;
    setImmediate(() => (seenAtTurn = seen)); // as a signal's handler waits for a turn
    for await (const _record of run.records()) seen++;
    expect(seenAtTurn).toBeGreaterThan(0);
    expect(seenAtTurn).toBeLessThan(seen);
  });

  it('gives byte-identical records in pivot blocks, on this thread and in workers (issue 38: ranges past the entry budget)', async () => {
    const vectors = UnitVectors.fromVectorSet(world.embeddings);
    const options = { seed: 6, exactness: 'exact' as const };
    const reference = await IntentionQaRun.prepare({ ...world, embeddings: vectors, options });
    expect(reference.context.search).toBeInstanceOf(MatrixRanges); // every anchor stored
    const expected = await serialise(reference.records());
    const anchors = reference.context.anchorRows(reference.options.anchor);
    const floor = rangeFloor(reference.options);
    // Budgets small enough that most anchors are left to blocks, and blocks hold a few dozen anchors.
    const blocked = async () => {
      const base = await MatrixRanges.compute(vectors, anchors, floor, { maxEntries: 2_000 });
      expect(base.stats!.stored).toBeGreaterThan(0);
      expect(base.stats!.stored).toBeLessThan(anchors.length / 4);
      return { ...options, search: new RangeBlocks(base, { maxEntries: 3_000 }) };
    };
    const run = await IntentionQaRun.prepare({ ...world, embeddings: vectors, options: await blocked() });
    const blocks = run.context.rangeBlocks!;
    expect(blocks).toBeInstanceOf(RangeBlocks);
    const tasks = pivotBlockTasks(run, blocks, DRAFT_BLOCK);
    expect(tasks.filter((t) => t.anchors).length).toBeGreaterThan(3);
    // Every assertion in exactly one task.
    const all = tasks.flatMap((t) => [...t.indices]).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: run.size }, (_, i) => i));
    expect(await serialise(run.records())).toEqual(expected);
    expect(blocks.totals.anchors).toBe(anchors.length - blocks.base.stats!.stored);
    const inWorkers = await IntentionQaRun.prepare({ ...world, embeddings: vectors, options: await blocked() });
    expect(await serialise(draftInParallel(inWorkers, { workers: 2, minAssertions: 0 }))).toEqual(expected);
  });

  it('gives byte-identical records to the main thread with the exact scan', async () => {
    const vectors = UnitVectors.fromVectorSet(world.embeddings);
    const scan = () => ({ seed: 4, search: new ExactScanRange(vectors) });
    const run = await IntentionQaRun.prepare({ ...world, embeddings: vectors, options: scan() });
    const expected = await serialise(run.records());
    const items = expected.filter((line) => line.startsWith('{"kind":"item"'));
    expect(items.length).toBeGreaterThan(100);
    expect(expected.some((line) => line.includes('typicality-below-min'))).toBe(true);
    expect(expected.some((line) => line.includes('product-without-vector'))).toBe(true);
    const again = await IntentionQaRun.prepare({ ...world, embeddings: vectors, options: scan() });
    expect(await serialise(draftInParallel(again, { workers: 2, blocksAhead: 1, minAssertions: 0 }))).toEqual(expected);
    for (const line of items) {
      const record = JSON.parse(line) as IntentionQaRecord;
      if (record.kind === 'item') checkItemInvariants(record.item, world, vectors);
    }
  });

  it('gives byte-identical records with an index saved next to the embeddings, and with one built in memory', async () => {
    const vectors = UnitVectors.fromVectorSet(world.embeddings);
    const index = VectorIndex.build(vectors, { m: 8, efConstruction: 40, seed: 3 });
    const path = join(dir, 'products.hnsw');
    await index.save(path);
    expect(index.path).toBe(path);
    const options = { seed: 'pool', sampling: 'lowest' as const, anchor: 'given' as const };
    const run = await IntentionQaRun.prepare({
      ...world,
      embeddings: vectors,
      options: { ...options, search: new HnswRange(index) },
    });
    const expected = await serialise(run.records());
    expect(await serialise(draftInParallel(run, { workers: 3, minAssertions: 0 }))).toEqual(expected);

    // In memory only: the pool saves it to a temporary file for the workers and removes it after.
    const inMemory = VectorIndex.build(vectors, { m: 8, efConstruction: 40, seed: 3 });
    expect(inMemory.path).toBeUndefined();
    const run2 = await IntentionQaRun.prepare({
      ...world,
      embeddings: vectors,
      options: { ...options, search: new HnswRange(inMemory) },
    });
    expect(await serialise(draftInParallel(run2, { workers: 2, minAssertions: 0 }))).toEqual(expected);
    expect(inMemory.path).toBeUndefined();
    const temporary = (f: string) => f.startsWith(`intentsim-hnsw-${process.pid}-`);
    expect(readdirSync(tmpdir()).filter(temporary)).toEqual([]);
    // What the pool did, step by step: a temporary copy named as above, removed by release().
    const file = await inMemory.file();
    expect(temporary(basename(file.path)) && existsSync(file.path) && existsSync(`${file.path}.json`)).toBe(true);
    await file.release();
    expect(readdirSync(tmpdir()).filter(temporary)).toEqual([]);
    expect(inMemory.path).toBeUndefined();
    // A saved index is its own file: nothing to remove.
    expect((await index.file()).path).toBe(path);
  });

  it('gives byte-identical records with the released preset (relation scope and Task-2 universe in the workers)', async () => {
    const options = {
      seed: 8,
      preset: 'released' as const,
      excludeRelations: ['capableOf'],
      exactness: 'exact' as const,
    };
    const run = await IntentionQaRun.prepare({ ...world, options });
    const expected = await serialise(run.records());
    expect(expected.some((line) => line.includes('relation-excluded'))).toBe(true);
    expect(expected.filter((line) => line.startsWith('{"kind":"item"')).length).toBeGreaterThan(100);
    const again = await IntentionQaRun.prepare({ ...world, options });
    expect(again.options.relationScope).toBe('same');
    expect(await serialise(draftInParallel(again, { workers: 2, blocksAhead: 1, minAssertions: 0 }))).toEqual(expected);
  });

  it('differs when the seed differs (so the equality above is not vacuous)', async () => {
    const a = await IntentionQaRun.prepare({ ...world, options: { seed: 1, exactness: 'exact' } });
    const b = await IntentionQaRun.prepare({ ...world, options: { seed: 2, exactness: 'exact' } });
    expect(await serialise(draftInParallel(b, { workers: 2, minAssertions: 0 }))).not.toEqual(
      await serialise(a.records()),
    );
  });

  it('drafts on this thread below minAssertions (issue 38: no pool start-up for small runs), with the same records', async () => {
    const run = await IntentionQaRun.prepare({ ...world, options: { seed: 1, exactness: 'exact' } });
    const expected = await serialise(run.records());
    const again = await IntentionQaRun.prepare({ ...world, options: { seed: 1, exactness: 'exact' } });
    // A search that cannot go to a worker would throw in the pool path: below the threshold it is never asked.
    Object.defineProperty(again.context.search, 'toWorkerSpec', { value: undefined });
    expect(await serialise(draftInParallel(again, { workers: 2, minAssertions: again.size + 1 }))).toEqual(expected);
    expect(MIN_ASSERTIONS_FOR_WORKERS).toBeGreaterThan(10_000);
  });

  it('rejects a worker count below 1 and resolves auto by run size', async () => {
    const run = await IntentionQaRun.prepare({ ...world, options: { seed: 1, exactness: 'exact' } });
    await expect(serialise(draftInParallel(run, { workers: 0, minAssertions: 0 }))).rejects.toThrow(
      /workers must be an integer ≥ 1/,
    );
    expect(resolveItemWorkers(3, 10)).toBe(3);
    expect(resolveItemWorkers(0, 1_000_000)).toBe(0);
    expect(resolveItemWorkers('auto', MIN_ASSERTIONS_FOR_WORKERS - 1)).toBe(0);
    expect(resolveItemWorkers('auto', MIN_ASSERTIONS_FOR_WORKERS)).toBeGreaterThanOrEqual(1);
  });
});
