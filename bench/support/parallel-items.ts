// Drafting IntentionQA items in worker threads, for the benchmark's "2 cores" figure. Each worker
// rebuilds the run from the same inputs (vectors shared through a SharedArrayBuffer, the HNSW index
// loaded from the file saved next to them) and drafts blocks of assertions; the main thread finishes
// the drafts in index order (gold placement is sequential). Because a draft depends only on the
// inputs, the seed and its own index, the records equal the single-thread ones exactly (checked by
// the benchmark). The pipeline's Piscina pool does the same with the same two calls
// (IntentionQaRun.draftAssertion, IntentionQaRun.finisher).
import { Worker } from 'node:worker_threads';
import type { VectorSet } from '../../embeddings/types.js';
import type { AssertionDraft, IntentionQaRun } from '../../engine/intentionqa/build-items.js';
import type { IntentionQaInput, IntentionQaOptions } from '../../engine/intentionqa/context.js';
import type { IntentionQaRecord } from '../../engine/intentionqa/item-types.js';
import type { HnswParams } from '../../engine/vector-index.js';

export const BLOCK = 256;

export interface WorkerInput {
  products: Array<[string, string]>;
  assertions: IntentionQaInput['assertions'];
  phrases: Array<[string, readonly string[]]>;
  ids: string[];
  dim: number;
  data: Float32Array;
  options: Omit<Partial<IntentionQaOptions>, 'search'>;
  indexPath: string;
  hnsw: HnswParams;
  shard: number;
  shards: number;
}

export type WorkerMessage = { block: number; drafts: AssertionDraft[] } | { done: true } | { error: string };

/** Records of `run` (which must use the index saved at indexPath), drafted by `workers` threads. */
export async function* parallelRecords(
  run: IntentionQaRun,
  input: { products: ReadonlyMap<string, string>; assertions: IntentionQaInput['assertions']; phrases: ReadonlyMap<string, readonly string[]>; embeddings: VectorSet },
  indexPath: string,
  workers: number,
): AsyncGenerator<IntentionQaRecord> {
  const shared = new Float32Array(new SharedArrayBuffer(input.embeddings.data.byteLength));
  shared.set(input.embeddings.data);
  const { search: _search, ...options } = run.options;
  void _search;
  const blocks = Math.ceil(run.size / BLOCK);
  const ready = new Map<number, AssertionDraft[]>();
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const threads: Worker[] = [];
  for (let w = 0; w < workers; w++) {
    const data: WorkerInput = {
      products: [...input.products],
      assertions: input.assertions,
      phrases: [...input.phrases],
      ids: input.embeddings.ids,
      dim: input.embeddings.dim,
      data: shared,
      options,
      indexPath,
      hnsw: run.options.hnsw,
      shard: w,
      shards: workers,
    };
    const t = new Worker(new URL('./items-worker.js', import.meta.url), { workerData: data });
    t.on('message', (m: WorkerMessage) => {
      if ('block' in m) ready.set(m.block, m.drafts);
      else if ('error' in m) failure = new Error(m.error);
      wake?.();
    });
    t.on('error', (err) => {
      failure = err;
      wake?.();
    });
    threads.push(t);
  }
  try {
    yield* run.typicalityDrops();
    const finish = run.finisher();
    for (let b = 0; b < blocks; b++) {
      while (!ready.has(b)) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      for (const d of ready.get(b)!) yield* finish(d);
      ready.delete(b);
    }
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
  }
}
