// Piscina worker of the pipelined MatrixRanges (matrix-ranges.ts): owns one ThresholdProducts (its
// own ONNX session and its own copy of the rows in position order, made on the first task from the
// shared rows in workerData) and answers blocks of positions with their candidate pairs. The pairs
// go back transferred, not copied.
import { move, workerData } from 'piscina';
import { ThresholdProducts, type CandidatePairs, type ThresholdProductsInput } from './threshold-products.js';

/** One block of query positions [p0, p1). */
export interface ProductTask {
  p0: number;
  p1: number;
}

let opening: Promise<ThresholdProducts> | undefined;

export default async function run(task: ProductTask): Promise<CandidatePairs> {
  opening ??= ThresholdProducts.open(workerData as ThresholdProductsInput);
  const products = await opening;
  return move(await products.pairs(task.p0, task.p1)) as CandidatePairs;
}
