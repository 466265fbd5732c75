// The three steps of encoding a batch — prepare (tokenize, pad), run (the ONNX session) and finish
// (pool, normalise) — in a loop that can overlap them. onnxruntime-node's session.run works on a
// native thread and returns a promise, so while batch k runs, the JavaScript thread can finish batch
// k−1 and prepare batch k+1: the device then waits only when those take longer than a run.
// The order of every step's own calls is the same in both modes, so the results are too.

export interface PipelineSteps<Prepared, Result> {
  /** The next batch's inputs, or undefined when there is none. Synchronous: it runs between awaits. */
  prepare(): Prepared | undefined;
  /** Runs one batch (asynchronously, off the JavaScript thread for a real session). */
  run(batch: Prepared): Promise<Result>;
  /** Consumes a batch's result (synchronous). */
  finish(batch: Prepared, result: Result): void;
}

/** Where the time went, in milliseconds, added to by runPipeline. */
export interface PipelineTimings {
  prepareMs: number;
  /** From each run() call to its result being seen on the JavaScript thread. */
  runMs: number;
  finishMs: number;
  /** Time the JavaScript thread spent waiting for a run with nothing else to do. */
  waitMs: number;
  batches: number;
}

export function emptyPipelineTimings(): PipelineTimings {
  return { prepareMs: 0, runMs: 0, finishMs: 0, waitMs: 0, batches: 0 };
}

/**
 * Runs every batch through the three steps. With `overlap`, run(k) is started before finish(k−1)
 * and prepare(k+1) are called, and awaited after them; without, each batch goes prepare → run →
 * finish before the next is prepared. Runs never overlap one another (one session, one device).
 */
export async function runPipeline<P, R>(
  steps: PipelineSteps<P, R>,
  overlap: boolean,
  timings: PipelineTimings,
): Promise<void> {
  const timed = <T>(key: 'prepareMs' | 'finishMs', work: () => T): T => {
    const started = performance.now();
    try {
      return work();
    } finally {
      timings[key] += performance.now() - started;
    }
  };
  const start = (batch: P): Promise<R> => {
    const started = performance.now();
    return steps.run(batch).then((result) => {
      timings.runMs += performance.now() - started;
      return result;
    });
  };

  let next = timed('prepareMs', () => steps.prepare());
  let done: { batch: P; result: R } | undefined;
  while (next !== undefined) {
    const batch = next;
    const running = start(batch);
    if (overlap) {
      // A failing run must not become an unhandled rejection while finish/prepare work.
      running.catch(() => undefined);
      if (done) timed('finishMs', () => steps.finish(done!.batch, done!.result));
      done = undefined;
      next = timed('prepareMs', () => steps.prepare());
    }
    const waited = performance.now();
    const result = await running;
    timings.waitMs += performance.now() - waited;
    timings.batches += 1;
    if (overlap) done = { batch, result };
    else {
      timed('finishMs', () => steps.finish(batch, result));
      next = timed('prepareMs', () => steps.prepare());
    }
  }
  if (done) timed('finishMs', () => steps.finish(done!.batch, done!.result));
}
