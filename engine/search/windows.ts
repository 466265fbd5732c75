// Cosine-window sampling: k distractors whose EXACT similarity to a query lies in a window.
//
// USAGE (product windows, e.g. SIB "which product comes next" distractors):
//
//   import { UnitVectors } from './unit-vectors.js';
//   import { ExactScanRange } from './range-search.js';          // or HnswRange (vector-index.ts)
//   import { sampleWindow } from './windows.js';
//   const vectors = UnitVectors.fromVectorSet(productEmbeddings);  // zero rows = no vector, never drawn
//   const search = new ExactScanRange(vectors);
//   const s = sampleWindow({ vector: queryVec } /* or { row } */, search, {
//     lo: 0.7, hi: 0.9, loInclusive: true, hiInclusive: false, k: 3,
//     sampling: 'uniform', rng: Rng.derive(seed, itemId),
//     exclude: (row) => row === gold,                 // static: never a candidate
//     accept: (row, score) => sameTitleAsGold(row) ? 'false-negative' : true,  // dynamic: drop + backfill
//   });
//   s.ids, s.scores (exact cosines, draw order), s.via[i] ('rejection' | 'scan' | 'index'),
//   s.method, s.exact, s.dropped (what `accept` refused, with reasons)
//
// Window semantics. `uniform`: each eligible member of the window is equally likely; the k are a
// uniform random k-subset in random order (members refused by `accept` are replaced — backfill —
// so the result is uniform over accepted members). `lowest` (the released IntentionQA code): sort
// the eligible candidates with score passing `lo` ascending, find the largest m in
// 128, 64, 32, 16, 8, 4 such that candidate[m] (0-based) is still below `hi`, draw uniformly from
// the first m+1; with no such m, take the in-window candidates in ascending order (first 3, 2, 1).
// Backfill in `lowest` continues with the next in-window candidates in ascending order.
//
// How a window is searched (recorded per distractor in `via`): a pilot of up to 64 uniform draws
// estimates the window's mass. If the pilot found at least 2 members and rejection sampling (uniform
// draws without replacement, exact score test) is expected to be cheaper than enumerating the
// window, rejection continues; otherwise the window is enumerated with the RangeSearch (exact scan,
// or HNSW candidates with growing k verified exactly) and sampled from the enumerated members. When
// enumerating is estimated to cost no more than the pilot itself, the pilot is skipped. Rejection
// sampling is always exact and uniform. `lowest` always enumerates (it needs the sorted pool). The
// choice depends only on the universe and the item's own generator, never on what earlier items
// did, so sharding items across workers changes nothing.
import type { Rng } from '../../core/rng.js';
import type { RangeSearch, RangeMethod } from './range-search.js';
import { passesLo } from './range-search.js';
import { toUnitVector } from './unit-vectors.js';
import { ConfigError } from '../../core/errors.js';

/** A similarity window; each bound is inclusive or exclusive exactly as the task defines it. */
export interface CosineWindow {
  lo: number;
  hi: number;
  loInclusive: boolean;
  hiInclusive: boolean;
}

export const SAMPLINGS = ['uniform', 'lowest'] as const;
export type Sampling = (typeof SAMPLINGS)[number];
export type WindowMethod = 'rejection' | RangeMethod;

export function parseSampling(value: string): Sampling {
  if (value === 'uniform' || value === 'lowest') return value;
  throw new ConfigError('sampling', `must be "uniform" or "lowest", got "${value}"`);
}

export function belowHi(score: number, w: CosineWindow): boolean {
  return w.hiInclusive ? score <= w.hi : score < w.hi;
}

export function inWindow(score: number, w: CosineWindow): boolean {
  return passesLo(score, w.lo, w.loInclusive) && belowHi(score, w);
}

/** `[0.6, 0.9]`-style notation, for reports and item records. */
export function formatWindow(w: CosineWindow): string {
  return `${w.loInclusive ? '[' : '('}${w.lo}, ${w.hi}${w.hiInclusive ? ']' : ')'}`;
}

/** Pool sizes of the released code, largest first. */
export const LOWEST_POOL_SIZES: readonly number[] = [128, 64, 32, 16, 8, 4];

/**
 * The released code's pool rule on candidates sorted ascending (all passing lo): the largest m in
 * LOWEST_POOL_SIZES with sorted.length > m and sorted[m] below hi; the pool is sorted[0..m]. Returns
 * undefined when no m qualifies (then the caller takes the in-window candidates in order).
 */
export function lowestPoolEnd(sortedScores: ArrayLike<number>, w: CosineWindow): number | undefined {
  for (const m of LOWEST_POOL_SIZES) {
    if (sortedScores.length > m && belowHi(sortedScores[m]!, w)) return m;
  }
  return undefined;
}

/** `true` to take a member, or a reason (e.g. 'false-negative', 'duplicate-text') to drop it and backfill. */
export type Verdict = true | string;

/**
 * What a window draws from: `size` slots, each holding a candidate key with an exact score, plus a
 * way to enumerate every key whose score passes `lo`. Product windows and intention windows (Task 1)
 * are both universes.
 */
export interface WindowUniverse {
  readonly size: number;
  keyAt(slot: number): number;
  /**
   * The exact score, or -Infinity as soon as it is known to fail the window's lo (lets a Sim_i draw
   * stop after the first of its four dot products). -Infinity is never reported: it fails every lo.
   */
  score(key: number, w: CosineWindow): number;
  /** Every key whose score passes the window's lo (eligible or not, in any order), with scores. */
  enumerate(): { keys: ArrayLike<number>; scores: ArrayLike<number>; method: RangeMethod; exact: boolean };
  /** Dot products per `score` call. */
  readonly drawCost: number;
  /** Dot-product units one `enumerate` call costs (estimate). */
  enumerationCost(): number;
}

export interface DrawOptions extends CosineWindow {
  k: number;
  sampling: Sampling;
  rng: Rng;
  /** Static eligibility: false = never a candidate (does not count as a drop). */
  eligible?: (key: number, score: number) => boolean;
  /** Dynamic validity, asked in draw order: a string drops the member (recorded) and the draw goes on. */
  accept?: (key: number, score: number) => Verdict;
  /** `uniform` only: force rejection sampling or enumeration instead of the cost-based choice. */
  strategy?: WindowStrategy;
}

/** How `uniform` finds members: by estimated cost (default), or forced. */
export type WindowStrategy = 'auto' | 'rejection' | 'enumerate';

export interface Drawn {
  key: number;
  score: number;
  via: WindowMethod;
}

export interface DrawResult {
  /** Accepted members in draw order (at most k). */
  chosen: Drawn[];
  /** Members refused by `accept`, in draw order, with the reason. */
  dropped: Array<Drawn & { reason: string }>;
  /** The method that produced the last distractor (rejection unless the window was enumerated). */
  method: WindowMethod;
  /** False when an enumeration came from the approximate index (a member may have been missed). */
  exact: boolean;
  /** Eligible window members, when the window was enumerated (undefined after pure rejection). */
  members?: number;
  /** `lowest` only: the chosen m (undefined = fallback to the first in-window candidates). */
  lowestPoolEnd?: number;
  /** Candidates scored by rejection draws. */
  draws: number;
}

const PILOT_DRAWS = 64;
const MIN_PILOT_HITS = 2;

/** A lazily materialised uniform random permutation of 0..n-1 (Fisher–Yates, O(draws) memory). */
class LazyPermutation {
  private readonly swapped = new Map<number, number>();
  private next = 0;
  constructor(
    private readonly n: number,
    private readonly rng: Rng,
  ) {}
  get remaining(): number {
    return this.n - this.next;
  }
  draw(): number {
    const i = this.next++;
    const j = i + this.rng.int(this.n - i);
    const vi = this.swapped.get(i) ?? i;
    const vj = this.swapped.get(j) ?? j;
    this.swapped.set(j, vi);
    this.swapped.delete(i);
    return vj;
  }
}

/** Draws up to k members of a window from a universe (see the file comment for the semantics). */
export function drawFromWindow(universe: WindowUniverse, opts: DrawOptions): DrawResult {
  if (!(Number.isInteger(opts.k) && opts.k >= 0))
    throw new RangeError(`window draw: k must be a non-negative integer, got ${opts.k}`);
  if (!(opts.lo <= opts.hi)) throw new RangeError(`window draw: lo (${opts.lo}) must not exceed hi (${opts.hi})`);
  const eligible = opts.eligible ?? (() => true);
  const accept = opts.accept ?? (() => true);
  const chosen: Drawn[] = [];
  const dropped: Array<Drawn & { reason: string }> = [];
  const handled = new Set<number>();
  const handle = (key: number, score: number, via: WindowMethod): void => {
    handled.add(key);
    const verdict = accept(key, score);
    if (verdict === true) chosen.push({ key, score, via });
    else dropped.push({ key, score, via, reason: verdict });
  };

  if (opts.sampling === 'lowest') return drawLowest(universe, opts, eligible, handle, chosen, dropped);

  // Uniform: pilot draws (the first draws of one uniform permutation of the universe).
  const perm = new LazyPermutation(universe.size, opts.rng);
  let draws = 0;
  let hits = 0;
  const drawOne = (): void => {
    const key = universe.keyAt(perm.draw());
    draws += 1;
    const s = universe.score(key, opts);
    if (inWindow(s, opts) && eligible(key, s)) {
      hits += 1;
      handle(key, s, 'rejection');
    }
  };
  const strategy = opts.strategy ?? 'auto';
  const done = (): DrawResult => ({ chosen, dropped, method: 'rejection', exact: true, draws });
  if (strategy === 'rejection') {
    while (chosen.length < opts.k && perm.remaining > 0) drawOne();
    return done();
  }
  // When enumerating costs no more than the pilot itself, skip the pilot and enumerate.
  const enumerateNow =
    strategy === 'enumerate' || (strategy === 'auto' && universe.enumerationCost() <= PILOT_DRAWS * universe.drawCost);
  if (!enumerateNow) {
    while (chosen.length < opts.k && perm.remaining > 0 && draws < PILOT_DRAWS) drawOne();
    if (chosen.length >= opts.k || perm.remaining === 0) return done();
  }

  // Estimated mass f from the pilot. Fewer than MIN_PILOT_HITS members in the pilot says little more
  // than "thin", and a thin window's rejection cost is unbounded: enumerate then.
  const f = hits / Math.max(draws, 1);
  const expectedDraws = hits > 0 ? (opts.k - chosen.length) / f : Infinity;
  const rejectionCost = Math.min(expectedDraws, perm.remaining) * universe.drawCost;
  if (!enumerateNow && hits >= MIN_PILOT_HITS && rejectionCost <= universe.enumerationCost()) {
    // Continue rejection; give up (and enumerate the rest) only far beyond the expected cost.
    const cap = draws + Math.ceil(4 * expectedDraws) + PILOT_DRAWS;
    while (chosen.length < opts.k && perm.remaining > 0 && draws < cap) drawOne();
    if (chosen.length >= opts.k || perm.remaining === 0) return done();
  }

  // Enumerate the window; members already handled were drawn uniformly, the rest are drawn
  // uniformly from the remaining members (sequential sampling without replacement stays uniform).
  const listing = universe.enumerate();
  // Members as parallel arrays (a window holds thousands at scale: no Map per member). Shuffling the
  // positions 0..m-1 gives the permutation that shuffling the members themselves would.
  const keys: number[] = [];
  const scores: number[] = [];
  let eligibleMembers = 0;
  let ascending = true;
  for (let i = 0; i < listing.keys.length; i++) {
    const key = listing.keys[i]!;
    const s = listing.scores[i]!;
    if (!inWindow(s, opts) || !eligible(key, s)) continue;
    eligibleMembers += 1;
    if (handled.size > 0 && handled.has(key)) continue;
    if (keys.length > 0 && key < keys[keys.length - 1]!) ascending = false;
    keys.push(key);
    scores.push(s);
  }
  const order = Array.from({ length: keys.length }, (_, k) => k);
  if (!ascending) order.sort((a, b) => keys[a]! - keys[b]!); // deterministic order before the seeded shuffle
  opts.rng.shuffle(order);
  for (const k of order) {
    if (chosen.length >= opts.k) break;
    handle(keys[k]!, scores[k]!, listing.method);
  }
  return { chosen, dropped, method: listing.method, exact: listing.exact, members: eligibleMembers, draws };
}

function drawLowest(
  universe: WindowUniverse,
  opts: DrawOptions,
  eligible: (key: number, score: number) => boolean,
  handle: (key: number, score: number, via: WindowMethod) => void,
  chosen: Drawn[],
  dropped: Array<Drawn & { reason: string }>,
): DrawResult {
  const listing = universe.enumerate();
  const cands: Array<{ key: number; score: number }> = [];
  for (let i = 0; i < listing.keys.length; i++) {
    const key = listing.keys[i]!;
    const s = listing.scores[i]!;
    if (passesLo(s, opts.lo, opts.loInclusive) && eligible(key, s)) cands.push({ key, score: s });
  }
  cands.sort((a, b) => a.score - b.score || a.key - b.key);
  const m = lowestPoolEnd(
    cands.map((c) => c.score),
    opts,
  );
  let order: Array<{ key: number; score: number }>;
  if (m !== undefined) {
    const pool = opts.rng.shuffle(cands.slice(0, m + 1));
    order = pool.concat(cands.slice(m + 1).filter((c) => inWindow(c.score, opts)));
  } else {
    order = cands.filter((c) => inWindow(c.score, opts));
  }
  for (const c of order) {
    if (chosen.length >= opts.k) break;
    handle(c.key, c.score, listing.method);
  }
  const members = cands.filter((c) => inWindow(c.score, opts)).length;
  return { chosen, dropped, method: listing.method, exact: listing.exact, members, lowestPoolEnd: m, draws: 0 };
}

// ---- Product windows -------------------------------------------------------------------------

export interface SampleWindowOptions extends CosineWindow {
  k: number;
  sampling?: Sampling;
  rng: Rng;
  /** Rows that are never candidates (the query's own row is always excluded when the query is a row). */
  exclude?: (row: number) => boolean;
  /** Dynamic validity in draw order; a string drops the member with that reason and the draw backfills. */
  accept?: (row: number, score: number) => Verdict;
  strategy?: WindowStrategy;
}

export interface WindowSample {
  ids: string[];
  rows: number[];
  /** Exact cosines, aligned with ids. */
  scores: number[];
  /** How each distractor was found. */
  via: WindowMethod[];
  method: WindowMethod;
  exact: boolean;
  dropped: Array<{ id: string; row: number; score: number; reason: string; via: WindowMethod }>;
  members?: number;
  lowestPoolEnd?: number;
  draws: number;
}

/** A query: a corpus row (its own row is excluded) or any vector (normalised here). */
export type WindowQuery = { row: number } | { vector: Float32Array };

/**
 * Samples k products whose exact cosine with the query lies in the window. The universe is the
 * valid rows of `search.vectors` (rows without a vector are never drawn). Throws if the query
 * vector is zero (a query with no vector has no window: callers report it instead).
 */
export function sampleWindow(query: WindowQuery, search: RangeSearch, opts: SampleWindowOptions): WindowSample {
  const vectors = search.vectors;
  let q: Float32Array;
  let self = -1;
  if ('row' in query) {
    if (!vectors.isValid(query.row))
      throw new Error(`sampleWindow: query row ${query.row} ("${vectors.ids[query.row]}") has no vector`);
    q = vectors.vector(query.row);
    self = query.row;
  } else {
    const unit = toUnitVector(query.vector);
    if (!unit) throw new Error('sampleWindow: query vector is zero or not finite');
    if (unit.length !== vectors.dim)
      throw new Error(`sampleWindow: query has dim ${unit.length}, corpus ${vectors.dim}`);
    q = unit;
  }
  const exclude = opts.exclude;
  const universe = productUniverse(q, search, opts);
  const r = drawFromWindow(universe, {
    ...opts,
    sampling: opts.sampling ?? 'uniform',
    eligible: (row) => row !== self && !(exclude?.(row) ?? false),
    accept: opts.accept,
  });
  return {
    ids: r.chosen.map((c) => vectors.ids[c.key]!),
    rows: r.chosen.map((c) => c.key),
    scores: r.chosen.map((c) => c.score),
    via: r.chosen.map((c) => c.via),
    method: r.method,
    exact: r.exact,
    dropped: r.dropped.map((d) => ({
      id: vectors.ids[d.key]!,
      row: d.key,
      score: d.score,
      reason: d.reason,
      via: d.via,
    })),
    members: r.members,
    lowestPoolEnd: r.lowestPoolEnd,
    draws: r.draws,
  };
}

/**
 * The universe of a product window: valid rows scored against a unit query. `rows` (ascending valid
 * rows, default all) narrows what draws are made from; enumeration lists every row in range, so the
 * caller's `eligible` must hold the same restriction.
 */
export function productUniverse(
  unitQuery: Float32Array,
  search: RangeSearch,
  w: CosineWindow,
  enumerate?: () => { keys: ArrayLike<number>; scores: ArrayLike<number>; method: RangeMethod; exact: boolean },
  rows: Int32Array = search.vectors.validRows,
): WindowUniverse {
  const vectors = search.vectors;
  return {
    size: rows.length,
    keyAt: (slot) => rows[slot]!,
    score: (row) => vectors.cosineTo(unitQuery, row),
    enumerate:
      enumerate ??
      (() => {
        const res = search.range(unitQuery, w.lo, w.loInclusive);
        return { keys: res.rows, scores: res.scores, method: res.method, exact: res.exact };
      }),
    drawCost: 1,
    enumerationCost: () => search.estimatedCost(),
  };
}
