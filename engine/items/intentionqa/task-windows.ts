// The cosine windows of the two tasks, with their bounds' inclusiveness. Apart from run-context.ts
// (which builds the range search and loads the HNSW add-on) so that the command line can print a
// run's windows without loading it (issue 50).
import type { CosineWindow } from '../../search/windows.js';
import { PAPER_TASK1_WINDOW, PAPER_TASK2_WINDOW, type IntentionQaOptions } from './intentionqa-options.js';

/** Task 1, paper (uniform): Sim_i ∈ [0.6, 0.9]. */
export const TASK1_WINDOW_UNIFORM: CosineWindow = { ...PAPER_TASK1_WINDOW, loInclusive: true, hiInclusive: true };
/** Task 1, released code (lowest): candidates with Sim_i ≥ 0.6, pool rule "m-th < 0.9". */
export const TASK1_WINDOW_LOWEST: CosineWindow = { ...PAPER_TASK1_WINDOW, loInclusive: true, hiInclusive: false };
/** Task 2: Sim_p ∈ [0.7, 0.9). */
export const TASK2_WINDOW: CosineWindow = { ...PAPER_TASK2_WINDOW, loInclusive: true, hiInclusive: false };

/** Task 1's window: the bounds of `task1Window`, the upper one inclusive for uniform sampling (the paper's "[0.6, 0.9]"). */
export function task1Window(options: Pick<IntentionQaOptions, 'sampling' | 'task1Window'>): CosineWindow {
  return { ...options.task1Window, loInclusive: true, hiInclusive: options.sampling !== 'lowest' };
}

/** Task 2's window: [lo, hi) of `task2Window`. */
export function task2Window(options: Pick<IntentionQaOptions, 'task2Window'>): CosineWindow {
  return { ...options.task2Window, loInclusive: true, hiInclusive: false };
}
