// Which items a review shows: all of them, or a seeded sample of N, stratified by task, difficulty
// and/or relation so that each stratum gets its share (proportional allocation, the remainder going
// to the largest fractional parts). Same items, N, strata and seed → the same sample in the same order.
import { ConfigError } from '../../core/errors.js';
import { Rng } from '../../core/rng.js';
import type { ReviewItem } from './review-items.js';

export const STRATUM_FIELDS = ['task', 'difficulty', 'relation'] as const;
export type StratumField = (typeof STRATUM_FIELDS)[number];

export interface SampleSettings {
  /** How many items; undefined = all. */
  sample?: number;
  /** The fields whose combinations are the strata (none: one stratum). */
  stratify: readonly StratumField[];
  seed: number;
}

/** The stratum of an item: its values of the stratum fields, joined by ` / `. */
export function stratumOf(item: ReviewItem, fields: readonly StratumField[]): string {
  return fields.map((f) => item[f]).join(' / ');
}

/** Positions (into `items`) of the sample, in the order the page shows them (a seeded shuffle). */
export function sampleItems(items: readonly ReviewItem[], settings: SampleSettings): number[] {
  const { sample, stratify, seed } = settings;
  if (sample !== undefined && !(Number.isInteger(sample) && sample > 0)) {
    throw new ConfigError('sample', `must be a positive integer, got ${sample}`);
  }
  const rng = new Rng(`review-sample/${seed}`);
  const strata = new Map<string, number[]>();
  items.forEach((item, i) => {
    const key = stratumOf(item, stratify);
    const members = strata.get(key);
    if (members) members.push(i);
    else strata.set(key, [i]);
  });
  const n = Math.min(sample ?? items.length, items.length);
  const keys = [...strata.keys()].sort();
  const quotas = keys.map((k) => (n * strata.get(k)!.length) / items.length);
  const take = quotas.map(Math.floor);
  let left = n - take.reduce((a, b) => a + b, 0);
  const byRemainder = keys.map((_, i) => i).sort((a, b) => quotas[b]! - take[b]! - (quotas[a]! - take[a]!) || a - b);
  for (const i of byRemainder) {
    if (left === 0) break;
    take[i]!++;
    left--;
  }
  const chosen: number[] = [];
  keys.forEach((k, i) => chosen.push(...rng.shuffle([...strata.get(k)!]).slice(0, take[i])));
  return rng.shuffle(chosen);
}
