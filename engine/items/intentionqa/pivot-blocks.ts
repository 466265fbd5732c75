// The items stage in pivot blocks: when the window ranges computed up front could not hold every
// anchor (range-blocks.ts), the assertions are drafted grouped by pivot, one block of pivots at a
// time, each block's ranges computed together; the drafts wait in a spill (draft-spill.ts) and are
// finished in assertion order at the end. Drafts are pure functions of (inputs, seed, index) and
// the ranges are exact either way, so the records are the same as in assertion order, byte for byte.
import { setImmediate as eventLoopTurn } from 'node:timers/promises';
import type { AssertionDraft } from './draft.js';
import type { IntentionQaContext } from './run-context.js';
import type { IntentionQaOptions } from './intentionqa-options.js';
import type { IntentionQaRecord } from './item-types.js';
import type { RangeBlocks } from '../../search/range-blocks.js';
import { DraftSpill } from './draft-spill.js';
import type { Progress } from '../../../core/progress.js';

/** What drafting in pivot blocks needs of a run (an IntentionQaRun, which uses this file). */
export interface DraftingRun {
  readonly size: number;
  readonly context: IntentionQaContext;
  readonly options: IntentionQaOptions;
  draftAssertion(i: number): AssertionDraft;
  filterDrops(): Iterable<IntentionQaRecord>;
  finisher(): (draft: AssertionDraft) => IntentionQaRecord[];
}

/**
 * Assertions drafted together. With `anchors`, the ranges of those pivots are computed first
 * (RangeBlocks.load) and `indices` are the assertions whose pivot they are.
 */
export interface DraftTask {
  indices: Int32Array;
  anchors?: Int32Array;
}

/** Assertions per task outside the pivot blocks: large enough to amortise messaging, small enough to balance. */
export const DRAFT_BLOCK = 256;

/** Share of the entry budget a block is sized to fill, from the entries per anchor seen so far. */
const BLOCK_FILL = 0.8;

/**
 * The tasks of a run in pivot blocks: first the assertions whose pivot's range is stored up front
 * (or that need no range: a product without a vector), `chunk` at a time, in assertion order; then
 * the others, grouped by pivot (ascending), in blocks of pivots sized to fill BLOCK_FILL of the
 * budget at the up-front ranges' mean entries per anchor.
 */
export function pivotBlockTasks(run: DraftingRun, blocks: RangeBlocks, chunk: number): DraftTask[] {
  const ctx = run.context;
  const byAnswer = run.options.anchor === 'answer';
  const valid = new Uint8Array(run.size);
  for (const i of ctx.validAssertions) valid[i] = 1;
  const slotOfRow = blocks.base.data.slotOfRow;
  const upfront: number[] = [];
  const ofPivot = new Map<number, number[]>();
  for (let i = 0; i < run.size; i++) {
    const pivot = byAnswer ? ctx.rowB[i]! : ctx.rowA[i]!;
    if (!valid[i] || slotOfRow[pivot]! >= 0) upfront.push(i);
    else {
      let list = ofPivot.get(pivot);
      if (!list) ofPivot.set(pivot, (list = []));
      list.push(i);
    }
  }
  const tasks: DraftTask[] = [];
  for (let k = 0; k < upfront.length; k += chunk) tasks.push({ indices: Int32Array.from(upfront.slice(k, k + chunk)) });
  const storedAnchors = blocks.base.data.offsets.length - 1;
  const perAnchor = storedAnchors > 0 ? blocks.base.data.rows.length / storedAnchors : ctx.vectors.validRows.length;
  const pivotsPerBlock = Math.max(1, Math.floor((BLOCK_FILL * blocks.maxEntries) / Math.max(1, perAnchor)));
  const pivots = Int32Array.from(ofPivot.keys()).sort();
  for (let k = 0; k < pivots.length; k += pivotsPerBlock) {
    const anchors = pivots.subarray(k, k + pivotsPerBlock);
    const indices: number[] = [];
    for (const p of anchors) indices.push(...ofPivot.get(p)!);
    tasks.push({ anchors: Int32Array.from(anchors), indices: Int32Array.from(indices) });
  }
  return tasks;
}

/** One task's drafts on this thread: the block's ranges first, when it has pivots. */
export async function draftTask(run: DraftingRun, task: DraftTask): Promise<AssertionDraft[]> {
  if (task.anchors) {
    const blocks = run.context.rangeBlocks;
    if (!blocks) throw new Error('internal: a pivot block for a run whose ranges are not in blocks');
    await blocks.load(task.anchors);
  }
  // Drafting is synchronous: on the main thread, without a turn of the event loop now and then, a
  // block of thousands of assertions (45 s at 1M) would keep Ctrl-C and SIGTERM waiting to the end.
  const drafts: AssertionDraft[] = [];
  for (let k = 0; k < task.indices.length; k++) {
    drafts.push(run.draftAssertion(task.indices[k]!));
    if (k % DRAFT_BLOCK === DRAFT_BLOCK - 1) await eventLoopTurn();
  }
  return drafts;
}

/**
 * The run's records from its tasks: `draft` runs them (at most `concurrency` at once, in any order),
 * every draft is spilled, then all are finished in assertion order.
 */
export async function* recordsInPivotBlocks(
  run: DraftingRun,
  tasks: readonly DraftTask[],
  draft: (task: DraftTask) => Promise<AssertionDraft[]>,
  concurrency: number,
  progress: Progress,
): AsyncGenerator<IntentionQaRecord> {
  yield* run.filterDrops();
  const spill = new DraftSpill(run.size);
  try {
    const running: Array<Promise<AssertionDraft[]>> = [];
    let next = 0;
    while (next < tasks.length || running.length > 0) {
      while (running.length < concurrency && next < tasks.length) {
        const task = draft(tasks[next++]!);
        task.catch(() => undefined); // observed when its turn comes; this only stops an "unhandled" report meanwhile
        running.push(task);
      }
      const drafts = await running.shift()!;
      for (const d of drafts) spill.put(d);
      progress.increment(drafts.length);
    }
    if (spill.count !== run.size) throw new Error(`internal: ${spill.count} drafts for ${run.size} assertions`);
    const finish = run.finisher();
    for (let i = 0; i < run.size; i++) yield* finish(spill.get(i));
  } finally {
    spill.close();
  }
}
