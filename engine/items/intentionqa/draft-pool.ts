// IntentionQA items drafted in a Piscina pool: the CPU-heavy part of the items stage (window
// enumeration, exact re-scoring, distractor draws) runs in worker threads, and
// the main thread only finishes the drafts in assertion order (gold placement is sequential) and
// writes them.
//
// Why the output equals the one-thread output byte for byte: a draft is a pure function of
// (inputs, seed, assertion index) — IntentionQaRun.draftAssertion — and every worker sees the same
// inputs: the unit vectors and precomputed matrix ranges are shared memory (no renormalisation, no
// copy), the index is the very file the main thread saved (hnswlib searches deterministically), the
// options are the resolved ones.
// Blocks are submitted a bounded number ahead of the one being finished, so memory stays bounded
// whatever the number of assertions.
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import type { Assertion } from './assertions.js';
import type { AssertionDraft, IntentionQaRun } from './build-items.js';
import { MIN_ASSERTIONS_FOR_WORKERS, type IntentionQaOptions } from './intentionqa-options.js';
import type { IntentionQaRecord } from './item-types.js';
import type { ValidityIndexData } from './validity-filters.js';
import { createProgress } from '../../../core/progress.js';
import type { RangeSearchSpec } from '../../search/range-search.js';
import type { UnitVectors } from '../../search/unit-vectors.js';
import { compiledWorkerFile } from '../../../workers/worker-file.js';
import { DRAFT_BLOCK, pivotBlockTasks, recordsInPivotBlocks, type DraftTask } from './pivot-blocks.js';
import { keepOrtTelemetryOff } from '../../../embeddings/ort-telemetry.js';

/** Unit rows as a worker receives them (UnitVectors' fields; the data is shared memory). */
export interface UnitRows {
  ids: readonly string[];
  dim: number;
  data: Float32Array;
  valid: Uint8Array;
}

/** What every worker receives once (structured clone; the vectors are shared, not copied). */
export interface IntentionQaWorkerData {
  products: Array<[string, string]>;
  assertions: readonly Assertion[];
  phrases: Array<[string, readonly string[]]>;
  vectors: UnitRows;
  /** The intention vectors of the second-answer filter, when given (same layout as `vectors`). */
  intentionVectors?: UnitRows;
  /** The intention and title vectors of the fit rules, when given. */
  fitVectors?: { intentions: UnitRows; titles: UnitRows };
  /** The main thread's validity index, when a validity filter is on (the workers do not rebuild it). */
  validityIndexData?: ValidityIndexData;
  options: Omit<IntentionQaOptions, 'search' | 'indexPath' | 'rangesPath' | 'progress'>;
  search: RangeSearchSpec;
}

export { MIN_ASSERTIONS_FOR_WORKERS };

/**
 * `auto`: every available core (at most 8: each worker holds its own copy of titles and assertions),
 * or none for small runs. The measurement behind it is bench/items.ts (2 workers vs the main thread
 * on 2 cores) and bench/scale.ts (1 thread vs 2 workers at 10k and 100k assertions; 1M in docs/scale.md).
 */
export function resolveItemWorkers(requested: number | 'auto', assertions: number): number {
  if (requested !== 'auto') return requested;
  return assertions < MIN_ASSERTIONS_FOR_WORKERS ? 0 : Math.min(availableParallelism(), 8);
}

export interface ParallelDraftOptions {
  workers: number;
  /** Blocks in flight per worker (default 4): the bound on drafts held in memory. */
  blocksAhead?: number;
  /**
   * Runs with fewer assertions than this are drafted on the main thread, no pool started (default
   * MIN_ASSERTIONS_FOR_WORKERS; 0: always the pool).
   */
  minAssertions?: number;
  progress?: boolean;
}

/**
 * The records of `run` (the same, in the same order, as run.records()), drafted by `workers`
 * threads, or on this thread below `minAssertions`. An index built in memory only is saved to a
 * temporary file first, for the workers.
 */
export async function* draftInParallel(
  run: IntentionQaRun,
  opts: ParallelDraftOptions,
): AsyncGenerator<IntentionQaRecord> {
  if (!(Number.isInteger(opts.workers) && opts.workers >= 1))
    throw new RangeError(`workers must be an integer ≥ 1, got ${opts.workers}`);
  if (run.size < (opts.minAssertions ?? MIN_ASSERTIONS_FOR_WORKERS)) {
    yield* run.records();
    return;
  }
  const searchToShare = run.context.search;
  if (!searchToShare.toWorkerSpec)
    throw new Error(
      `items workers: cannot reproduce a custom range search (${searchToShare.method}) in a worker thread`,
    );
  const { spec: search, release } = await searchToShare.toWorkerSpec();
  const { search: _s, indexPath: _p, rangesPath: _r, progress: _g, ...options } = run.options;
  const vectors = run.context.vectors;
  const rows = (v: UnitVectors): UnitRows => ({ ids: v.ids, dim: v.dim, data: v.data, valid: v.valid });
  const iv = run.input.intentionVectors;
  const intentions = iv ? rows(iv) : undefined;
  const fits = run.input.fitVectors;
  const data: IntentionQaWorkerData = {
    products: [...run.input.products],
    assertions: run.input.assertions,
    phrases: [...run.input.phrases],
    vectors: { ids: vectors.ids, dim: vectors.dim, data: vectors.data, valid: vectors.valid },
    ...(intentions ? { intentionVectors: intentions } : {}),
    ...(fits ? { fitVectors: { intentions: rows(fits.intentions), titles: rows(fits.titles) } } : {}),
    ...(run.context.validity ? { validityIndexData: run.context.validity.data } : {}),
    options,
    search,
  };
  // Loaded here, not at the top: `pipeline --help` and a run on the main thread need no worker pool.
  const { Piscina: Pool } = await import('piscina');
  keepOrtTelemetryOff(); // the workers may compute range blocks with ORT; only this thread can set the variable
  const pool: Piscina<DraftTask, AssertionDraft[]> = new Pool<DraftTask, AssertionDraft[]>({
    filename: compiledWorkerFile(new URL('./draft-worker.js', import.meta.url)),
    minThreads: opts.workers,
    maxThreads: opts.workers,
    workerData: data,
  });
  const progress = createProgress({
    label: 'intentionqa items',
    total: run.size,
    unit: 'assertions',
    enabled: opts.progress ?? false,
  });
  try {
    const blocks = run.context.rangeBlocks;
    if (blocks) {
      // Pivot blocks are large (thousands of assertions): one in flight per worker, one waiting.
      const tasks = pivotBlockTasks(run, blocks, DRAFT_BLOCK);
      yield* recordsInPivotBlocks(run, tasks, (task) => pool.run(task), opts.workers + 1, progress);
      return;
    }
    yield* run.filterDrops();
    const finish = run.finisher();
    const blockCount = Math.ceil(run.size / DRAFT_BLOCK);
    const ahead = opts.workers * (opts.blocksAhead ?? 4);
    const pending: Array<Promise<AssertionDraft[]>> = [];
    let submitted = 0;
    const submit = () => {
      const from = submitted * DRAFT_BLOCK;
      const to = Math.min(run.size, from + DRAFT_BLOCK);
      const task = pool.run({ indices: Int32Array.from({ length: to - from }, (_, k) => from + k) });
      task.catch(() => undefined); // observed when its turn comes; this only stops an "unhandled" report meanwhile
      pending.push(task);
      submitted += 1;
    };
    while (submitted < blockCount && pending.length < ahead) submit();
    while (pending.length > 0) {
      const drafts = await pending.shift()!;
      if (submitted < blockCount) submit();
      for (const d of drafts) yield* finish(d);
      progress.increment(drafts.length);
    }
  } finally {
    progress.stop();
    await pool.destroy();
    await release();
  }
}
