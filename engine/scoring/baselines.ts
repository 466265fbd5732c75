// The two baselines the papers print next to every model: RANDOM, an answerer that picks one of an
// item's answer letters uniformly (reported as its expected score, plus one seeded draw), and
// MAJORITY, an answerer that always gives the most frequent gold answer of the set.
import { Rng } from '../../core/rng.js';
import type { BinaryLabel } from '../items/sib/labels.js';

/** The letter RANDOM answers for one item: uniform over `letters`, from a stream of the seed and the item's key. */
export function randomLetter(seed: number | string, key: string, letters: readonly string[]): string {
  if (letters.length === 0) throw new RangeError(`randomLetter: item ${key} has no letters`);
  return letters[Rng.derive(seed, `random-baseline\u0000${key}`).int(letters.length)]!;
}

/** RANDOM's expected accuracy on multiple-choice items: the mean of 1 / (number of options). */
export function expectedRandomAccuracy(optionCounts: readonly number[]): number | null {
  if (optionCounts.length === 0) return null;
  return optionCounts.reduce((s, k) => s + 1 / k, 0) / optionCounts.length;
}

/** MAJORITY's answer: the most frequent gold letter; a tie goes to the letter first in A–Z order. */
export function majorityLetter(golds: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const g of golds) counts.set(g, (counts.get(g) ?? 0) + 1);
  let best: string | null = null;
  for (const [letter, n] of counts) {
    const bestN = best === null ? -1 : counts.get(best)!;
    if (n > bestN || (n === bestN && letter < best!)) best = letter;
  }
  return best;
}

/** MAJORITY's answer on binary labels: the more frequent class; a tie goes to positive. */
export function majorityClass(golds: readonly BinaryLabel[]): BinaryLabel | null {
  if (golds.length === 0) return null;
  const positives = golds.filter((g) => g === 'positive').length;
  return positives * 2 >= golds.length ? 'positive' : 'negative';
}
