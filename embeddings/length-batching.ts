// Batches of sentences for the model. Every batch is padded to its longest sentence, so grouping
// sentences of similar token length wastes less compute on padding; `paddingWasted` measures it.
import { ConfigError } from '../core/errors.js';

export interface PlannedBatch {
  /** Positions in the input (rows of the output) of this batch's sentences, in batch order. */
  indices: number[];
  /** Token length every row of the batch is padded to. */
  paddedLength: number;
}

export interface BatchPlan {
  batches: PlannedBatch[];
  /** Tokens that carry a sentence ([CLS] and [SEP] included). */
  realTokens: number;
  /** Tokens fed to the model, padding included (Σ batch size × padded length). */
  paddedTokens: number;
}

/**
 * Splits sentences of the given token lengths into batches of at most `batchSize`. With
 * `sortByLength`, sentences are ordered longest first (ties by input position, so the plan is
 * deterministic) — as sentence-transformers does — and the longest batch runs first, so an
 * out-of-memory batch size fails at once rather than at the end. Otherwise batches follow arrival order.
 */
export function planBatches(lengths: readonly number[], batchSize: number, sortByLength: boolean): BatchPlan {
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new ConfigError('batchSize', `must be a positive integer, got ${batchSize}`);
  const order = lengths.map((_, i) => i);
  if (sortByLength) order.sort((a, b) => lengths[b]! - lengths[a]! || a - b);
  const batches: PlannedBatch[] = [];
  let realTokens = 0;
  let paddedTokens = 0;
  for (let start = 0; start < order.length; start += batchSize) {
    const indices = order.slice(start, start + batchSize);
    let paddedLength = 0;
    for (const i of indices) {
      paddedLength = Math.max(paddedLength, lengths[i]!);
      realTokens += lengths[i]!;
    }
    paddedTokens += paddedLength * indices.length;
    batches.push({ indices, paddedLength });
  }
  return { batches, realTokens, paddedTokens };
}

/** Fraction of the tokens fed to the model that were padding (0 when nothing ran). */
export function paddingWasted(realTokens: number, paddedTokens: number): number {
  return paddedTokens === 0 ? 0 : 1 - realTokens / paddedTokens;
}

/**
 * The windows a pipelined encoder plans its batches in, as [start, end) positions of the input:
 * sentences are tokenized, length-sorted and batched one window at a time, so the next window can be
 * tokenized while this one runs. The first window holds one batch, and each next one twice as many up
 * to `windowBatches`, so the device starts after one batch's tokenization. Sorting within a window
 * pads a little more than sorting the whole input; an encode() of each window alone plans the same
 * batches.
 */
export function pipelineWindows(count: number, batchSize: number, windowBatches: number): Array<[number, number]> {
  if (!Number.isInteger(windowBatches) || windowBatches < 1)
    throw new ConfigError('pipelineWindowBatches', `must be a positive integer, got ${windowBatches}`);
  const windows: Array<[number, number]> = [];
  let batches = 1;
  for (let start = 0; start < count;) {
    const end = Math.min(count, start + batches * batchSize);
    windows.push([start, end]);
    start = end;
    batches = Math.min(windowBatches, batches * 2);
  }
  return windows;
}
