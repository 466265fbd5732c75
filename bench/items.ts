// IntentionQA item assembly at scale: n products and n assertions with given (synthetic, seeded,
// clustered) 384-d embeddings → Task 1 and Task 2 items, against a brute-force all-pairs
// implementation measured in the same run; the default exact window search (matrix products) against
// the HNSW index and the exact scan; all at several sizes for the scaling chart (10k and 100k; 1M
// with --large; 2k and 10k with --quick).
//
//   npx tsc -p . && node dist/bench/items.js [--quick | --large] [--validity-only]
//
// What is timed: normalising the vectors; the default window search (--exactness auto: exact ranges
// around every anchor by matrix products; the HNSW index at 1M); assembling both tasks' items
// (windows, draws, options, prompts) in a pool and in one thread (same output, checked); then the
// HNSW alternative: its build, its items, its range queries and their recall. The window ranges are
// also recomputed by the serial path (pipelined: false) and the pipelined one, interleaved in rounds.
// The validity filters (issue 26) are timed on and off over the same search, in alternated rounds
// (prepare + items in the pool; target: under 10% of the items stage); --validity-only times only
// the window search and that, at the largest size.
// The baseline of the items is the obvious exact method: per assertion, score every product against
// both of its products (2n dot products) and every other assertion by Sim_i from those scores. It is
// O(n²) overall, so it is run on a sample of assertions and extrapolated linearly (per-query cost
// does not depend on which query).
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { IntentionQaRun } from '../engine/items/intentionqa/build-items.js';
import { TASK1_WINDOW_UNIFORM, TASK2_WINDOW } from '../engine/items/intentionqa/run-context.js';
import { MatrixRanges, PIPELINE_LANES, PIPELINE_MIN_PAIRS } from '../engine/search/matrix-ranges.js';
import { ExactScanRange, type RangeSearch } from '../engine/search/range-search.js';
import { intentionKey } from '../engine/items/intentionqa/validity-filters.js';
import { VALIDITY_RULE_FIELDS } from '../engine/items/intentionqa/intentionqa-options.js';
import { Rng } from '../core/rng.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { DEFAULT_HNSW_PARAMS, HnswRange, VectorIndex } from '../engine/search/vector-index.js';
import { inWindow } from '../engine/search/windows.js';
import { intentionQaWorld } from './support/intentionqa-world.js';
import { draftInParallel } from '../engine/items/intentionqa/draft-pool.js';
import { DRAFT_BLOCK } from '../engine/items/intentionqa/pivot-blocks.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { runAlone } from './support/run-alone.js';

const DIM = 384;
const PER_CLUSTER = 100;

function seconds(from: bigint): number {
  return Number(process.hrtime.bigint() - from) / 1e9;
}

/**
 * Brute force for one assertion i: Sim_p of a and b to every product (2n dot products), then Sim_i
 * to every other assertion from those, Task-1 members in [0.6, 0.9] and Task-2 members in
 * [0.7, 0.9) around p_B. Returns the member counts (so the work cannot be optimised away).
 */
function bruteForceQuery(
  vectors: UnitVectors,
  rowA: Int32Array,
  rowB: Int32Array,
  i: number,
  simA: Float64Array,
  simB: Float64Array,
): number {
  const a = rowA[i]!;
  const b = rowB[i]!;
  for (let r = 0; r < vectors.size; r++) {
    simA[r] = vectors.cosine(a, r);
    simB[r] = vectors.cosine(b, r);
  }
  let members = 0;
  for (let j = 0; j < rowA.length; j++) {
    if (j === i) continue;
    const c = rowA[j]!;
    const d = rowB[j]!;
    const s = Math.min(simA[c]!, simA[d]!, simB[c]!, simB[d]!);
    if (inWindow(s, TASK1_WINDOW_UNIFORM)) members += 1;
  }
  for (let r = 0; r < vectors.size; r++) if (inWindow(simB[r]!, TASK2_WINDOW)) members += 1;
  return members;
}

/**
 * `validityOnly` (stand-alone `--validity-only`): at the largest size only, the window search and the
 * validity filters' cost (the whole module takes long at 100k on a small machine).
 */
export async function run(opts: BenchOptions, validityOnly = false): Promise<BenchResult> {
  const allSizes = opts.quick ? [2_000, 10_000] : opts.large ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
  const sizes = validityOnly ? allSizes.slice(-1) : allSizes;
  const seed = opts.seed ?? 1;
  const workers = Math.max(2, availableParallelism());
  const notes: string[] = [];
  const rows: BenchRow[] = [];
  const scaling: NonNullable<BenchResult['scaling']> = [];
  const largest = sizes[sizes.length - 1]!;
  // The one-thread run (the parallel run's baseline and output check) at the sizes where it is affordable.
  const oneThreadUpTo = 100_000;

  for (const n of sizes) {
    const world = intentionQaWorld({ products: n, assertions: n, dim: DIM, clusters: n / PER_CLUSTER, seed });
    const common = { products: n, assertions: n, dim: DIM };
    let t = process.hrtime.bigint();
    const vectors = UnitVectors.fromVectorSet(world.embeddings);
    const normalizeS = seconds(t);
    rows.push({ measure: 'normalise vectors', ...common, seconds: round(normalizeS) });

    // 1. The pipeline's default (--exactness auto): the window search, then items from a Piscina pool
    //    of `workers` threads drafting while this thread finishes and serialises.
    t = process.hrtime.bigint();
    const searchCpu0 = process.cpuUsage();
    const run = await IntentionQaRun.prepare({ ...world, embeddings: vectors, options: { seed } });
    const searchS = seconds(t);
    const searchCpu = process.cpuUsage(searchCpu0);
    const searchCpuS = (searchCpu.user + searchCpu.system) / 1e6;
    const search = run.context.search;
    const viaMatrix = search instanceof MatrixRanges ? search : undefined;

    // The validity rules (issues 26 and 34): the same items with every rule on and off, over the
    // same window search, in alternated rounds; their cost against the items stage (search + items).
    const filters = await validityFilterCost(world, vectors, search, seed, workers, n >= 100_000 ? 3 : 5);
    // CPU seconds (this process and its worker threads) as well as wall: on a loaded machine the wall
    // difference is noise. The cost is the median of the rounds' differences (on − off of one round),
    // against the items stage (window search + items, the target) and against the items alone.
    const wallShare = filters.wallCost / (searchS + filters.off);
    const cpuShare = filters.cpuCost / (searchCpuS + filters.cpuOff);
    const cpuShareOfItems = filters.cpuCost / filters.cpuOff;
    rows.push({
      measure: `validity rules on (all six; second-answer over ${filters.keys} intention vectors; 32 kinds of product a line) vs off: prepare + items with the default search + ${workers} workers, medians of ${filters.rounds} alternated rounds`,
      ...common,
      seconds: round(filters.on),
      cpu_seconds: round(filters.cpuOn),
      items: filters.items,
      baseline: 'filters off',
      baseline_seconds: round(filters.off),
      baseline_cpu_seconds: round(filters.cpuOff),
      share_of_items_stage: round(wallShare, 3),
      cpu_share_of_items_stage: round(cpuShare, 3),
      cpu_share_of_items: round(cpuShareOfItems, 3),
      target: '< 10% of the items stage (CPU: window search + items)',
      meets: cpuShare < 0.1 ? 'yes' : 'NO',
    });
    notes.push(
      `Validity filters at ${n} products, ${filters.rounds} rounds (off then on, then on then off, …): wall seconds off ${filters.walls.off.map((x) => round(x, 2)).join(', ')}; ` +
        `on ${filters.walls.on.map((x) => round(x, 2)).join(', ')}; CPU seconds off ${filters.cpus.off.map((x) => round(x, 2)).join(', ')}; on ${filters.cpus.on.map((x) => round(x, 2)).join(', ')}. ` +
        `Cost = the median over rounds of (on − off): wall ${round(filters.wallCost, 2)} s, CPU ${round(filters.cpuCost, 2)} s. share_of_items_stage = wall cost ÷ (window search ${round(searchS, 2)} s + off median); ` +
        `cpu_share_of_items_stage = CPU cost ÷ (window search ${round(searchCpuS, 2)} CPU s + off median); cpu_share_of_items = CPU cost ÷ off median (the items alone).`,
    );
    if (validityOnly) {
      rows.push({
        measure: `window search (default, --exactness auto): ${run.settings().search}`,
        ...common,
        seconds: round(searchS),
      });
      continue;
    }
    const pool = await itemsInParallel(run, workers);
    scaling.push({
      series: `items from given embeddings (default search + ${workers} workers)`,
      size: n,
      seconds: searchS + pool.seconds,
    });
    if (viaMatrix) {
      const st = viaMatrix.stats!;
      scaling.push({ series: 'exact window ranges by matrix products (all anchors)', size: n, seconds: searchS });
      rows.push({
        measure: `window search (default): exact ranges around all ${st.anchors} anchors by matrix products, ONNX Runtime ${availableParallelism()} threads`,
        ...common,
        seconds: round(searchS),
        rate_per_s: Math.round(st.anchors / searchS),
        members_per_query: round(st.entries / Math.max(1, st.stored), 1),
        recall: 1,
      });
    } else {
      rows.push({
        measure: `window search (default, --exactness auto): ${run.settings().search}`,
        ...common,
        seconds: round(searchS),
      });
    }

    // The serial and the pipelined window-range paths, interleaved, on the same anchors and floor.
    if (viaMatrix && viaMatrix.stats!.stored === viaMatrix.stats!.anchors) {
      const paths = await compareRangePaths(vectors, viaMatrix, n >= 100_000 ? 3 : 5);
      const utilisation = (p: PathTimes) => round(p.cpu / p.wall, 2);
      rows.push({
        measure: 'window ranges, serial path (pipelined: false): products and re-scoring in turn on the main thread',
        ...common,
        seconds: round(paths.serial.median),
        cpu_seconds: round(paths.serial.cpu / paths.rounds),
        cpu_utilisation: utilisation(paths.serial),
      });
      rows.push({
        measure: `window ranges, pipelined (pipelined: true; the default from ${PIPELINE_MIN_PAIRS.toExponential()} anchor × row pairs): products in ${PIPELINE_LANES} worker threads, re-scoring on the main thread`,
        ...common,
        seconds: round(paths.pipelined.median),
        cpu_seconds: round(paths.pipelined.cpu / paths.rounds),
        cpu_utilisation: utilisation(paths.pipelined),
        baseline: 'serial path',
        baseline_seconds: round(paths.serial.median),
        speedup: round(paths.serial.median / paths.pipelined.median),
        identical_output: paths.identical ? 'yes' : 'NO',
        ...(n === 100_000
          ? { target: '≥ 1.25×', meets: paths.serial.median / paths.pipelined.median >= 1.25 ? 'yes' : 'NO' }
          : {}),
      });
      notes.push(
        `Window ranges at ${n} products (${viaMatrix.stats!.anchors} anchors, floor ${viaMatrix.data.floor}), ${paths.rounds} interleaved rounds, wall seconds: ` +
          `serial ${paths.serial.walls.map((x) => round(x, 2)).join(', ')}; pipelined ${paths.pipelined.walls.map((x) => round(x, 2)).join(', ')} ` +
          `(medians in the table; cpu_utilisation = CPU seconds of the process, worker threads included, ÷ wall seconds, over all rounds).`,
      );
    }

    // Brute force on a sample of assertions, extrapolated to all of them (O(n²) overall).
    const ctx = run.context;
    const sample = Math.min(n >= 1_000_000 ? 5 : 20, ctx.validAssertions.length);
    const rng = new Rng(`bench-items/${seed}`);
    const picks = rng.sample(Array.from(ctx.validAssertions), sample);
    const simA = new Float64Array(vectors.size);
    const simB = new Float64Array(vectors.size);
    let sink = 0;
    t = process.hrtime.bigint();
    for (const i of picks) sink += bruteForceQuery(vectors, ctx.rowA, ctx.rowB, i, simA, simB);
    const brutePerQuery = seconds(t) / sample;
    const bruteS = brutePerQuery * ctx.validAssertions.length;
    const brute = { baseline: 'brute force all-pairs, 1 thread (extrapolated)', baseline_seconds: round(bruteS) };

    rows.push({
      measure: `items, both tasks, ${workers} Piscina workers (pipeline default)`,
      ...common,
      seconds: round(pool.seconds),
      items: pool.items,
      rate_per_s: Math.round(pool.items / pool.seconds),
      ...brute,
      speedup: round(bruteS / pool.seconds),
    });

    // 2. One thread over the same search: the same records (SHA-256).
    let oneThread: { seconds: number; cpu: number; run: IntentionQaRun } | undefined;
    if (n <= oneThreadUpTo) {
      const fresh = await IntentionQaRun.prepare({ ...world, embeddings: vectors, options: { seed, search } });
      t = process.hrtime.bigint();
      const cpu0 = process.cpuUsage();
      const digest = createHash('sha256');
      for await (const r of fresh.records()) digest.update(JSON.stringify(r) + '\n');
      const cpu = process.cpuUsage(cpu0);
      oneThread = { seconds: seconds(t), cpu: (cpu.user + cpu.system) / 1e6, run: fresh };
      rows.push({
        measure: 'items, both tasks, 1 thread (main thread only)',
        ...common,
        seconds: round(oneThread.seconds),
        cpu_seconds: round(oneThread.cpu),
        items: pool.items,
        rate_per_s: Math.round(pool.items / oneThread.seconds),
        baseline: `items, ${workers} workers`,
        baseline_seconds: round(pool.seconds),
        speedup: round(pool.seconds / oneThread.seconds),
        identical_output: digest.digest('hex') === pool.sha256 ? 'yes' : 'NO',
      });
    }
    const total = searchS + pool.seconds;
    rows.push({
      measure: `items from given embeddings: default search + items (${workers} workers)`,
      ...common,
      seconds: round(total),
      items: pool.items,
      ...brute,
      speedup: round(bruteS / total),
      ...(n === 100_000 ? { target: '≤ 60 s', meets: total <= 60 ? 'yes' : 'NO' } : {}),
    });

    // 3. The HNSW index: its build, its range queries against the exact scan (recall), and — where the
    //    default search is not the index already — the whole items run through it.
    t = process.hrtime.bigint();
    const buildCpu0 = process.cpuUsage();
    const index = VectorIndex.build(vectors, DEFAULT_HNSW_PARAMS, { progress: false });
    const buildS = seconds(t);
    const buildCpu = process.cpuUsage(buildCpu0);
    const dir = await mkdtemp(join(tmpdir(), 'bench-items-'));
    t = process.hrtime.bigint();
    await index.save(join(dir, 'products.hnsw'));
    const saveS = seconds(t);
    scaling.push({ series: 'HNSW build', size: n, seconds: buildS });
    rows.push({
      measure: `HNSW build (--exactness index; persisted next to the embeddings) M=${DEFAULT_HNSW_PARAMS.m} efC=${DEFAULT_HNSW_PARAMS.efConstruction}, single-threaded`,
      ...common,
      seconds: round(buildS),
      cpu_seconds: round((buildCpu.user + buildCpu.system) / 1e6),
      rate_per_s: Math.round(n / buildS),
    });
    rows.push({ measure: 'HNSW save', ...common, seconds: round(saveS) });
    let indexRun: { seconds: number; items: number; run: IntentionQaRun } | undefined;
    if (viaMatrix) {
      const r = await IntentionQaRun.prepare({
        ...world,
        embeddings: vectors,
        options: { seed, search: new HnswRange(index) },
      });
      const p = await itemsInParallel(r, workers);
      indexRun = { seconds: p.seconds, items: p.items, run: r };
      rows.push({
        measure: `items from given embeddings via the HNSW index (--exactness index): build + items (${workers} workers)`,
        ...common,
        seconds: round(buildS + saveS + p.seconds),
        items: p.items,
        baseline: 'default: exact matrix ranges + items',
        baseline_seconds: round(total),
        speedup: round(total / (buildS + saveS + p.seconds)),
      });
    }
    await rm(dir, { recursive: true, force: true });

    // Window range queries (Sim_p ≥ 0.6 around a product, what the windows enumerate): through the
    // index (kNN with growing k, exact re-scoring) vs the exact scan; recall of the index's answer.
    const queries = rng.sample(Array.from(vectors.validRows), Math.min(500, vectors.validRows.length));
    const viaIndex = new HnswRange(index);
    t = process.hrtime.bigint();
    const answers = queries.map((r) => viaIndex.range(vectors.vector(r), 0.6, true).rows);
    const indexPerQuery = seconds(t) / queries.length;
    const scan = new ExactScanRange(vectors);
    const scanned = queries.slice(0, sample);
    let truth = 0;
    let found = 0;
    t = process.hrtime.bigint();
    const exact = scanned.map((r) => scan.range(vectors.vector(r), 0.6, true).rows);
    const scanPerQuery = seconds(t) / scanned.length;
    exact.forEach((rowsExact, q) => {
      const got = new Set(answers[q]);
      truth += rowsExact.length;
      for (const r of rowsExact) if (got.has(r)) found += 1;
    });
    scaling.push({
      series: 'window range queries via the index (1,000 queries)',
      size: n,
      seconds: indexPerQuery * 1000,
    });
    scaling.push({
      series: 'window range queries by exact scan (1,000 queries)',
      size: n,
      seconds: scanPerQuery * 1000,
    });
    // Seconds per range query against the exact scan's, as one row's columns.
    const vsExactScan = (perQuery: number) => ({
      seconds: round(perQuery, 6),
      rate_per_s: Math.round(1 / perQuery),
      baseline: 'exact scan of every product',
      baseline_seconds: round(scanPerQuery, 6),
      speedup: round(scanPerQuery / perQuery),
    });
    rows.push({
      measure: 'window range query (Sim_p ≥ 0.6): HNSW index vs exact scan',
      ...common,
      ...vsExactScan(indexPerQuery),
      recall: round(truth === 0 ? 1 : found / truth, 4),
      members_per_query: round(truth / scanned.length, 1),
    });
    if (viaMatrix) {
      rows.push({
        measure: 'window range query (Sim_p ≥ 0.6): matrix products (all anchors at once, per anchor) vs exact scan',
        ...common,
        ...vsExactScan(searchS / viaMatrix.stats!.anchors),
        recall: 1,
      });
    }

    if (n === largest || n === 100_000) {
      // The pool's drafting happened in the workers: the search statistics are the one-thread run's.
      const cache = oneThread?.run.context.ranges;
      const cacheStats = cache
        ? `range lookups (one-thread run): ${cache.precomputed} precomputed, ${cache.misses} computed, ${cache.hits} reused`
        : 'search statistics are kept by the workers (no one-thread run at this size)';
      const matrix = viaMatrix
        ? `; matrix ranges: ${viaMatrix.stats!.anchors} anchors, ${viaMatrix.stats!.entries} stored members, ${viaMatrix.stats!.candidates} float32 candidates, ${viaMatrix.stats!.calls} ONNX Runtime calls`
        : '';
      const viaHnsw = indexRun
        ? `; through the index instead: ${indexRun.items} items (exact: ${pool.items}), ${round(buildS + saveS + indexRun.seconds, 1)} s`
        : '';
      notes.push(
        `At ${n} products: ${pool.items} items, dropped records ${pool.dropped}; distractors by method ${JSON.stringify(pool.methods)}; ${cacheStats}${matrix}${viaHnsw}.`,
        `Brute force measured on ${sample} assertions (${round(brutePerQuery * 1000, 1)} ms each: 2n dot products + one pass over all assertions; ` +
          `${sink} Task-1 + Task-2 window members found) and extrapolated linearly to ${ctx.validAssertions.length}; ` +
          `it is exact, as are the matrix ranges; the index path is complete up to the recall shown (${queries.length} index queries timed, ${scanned.length} scans).`,
      );
    }
  }
  notes.unshift(
    `Synthetic worlds (seed ${seed}; sizes ${sizes.join(', ')}${opts.large ? '' : '; 1,000,000 with --large'}): n products in n/${PER_CLUSTER} clusters of ${PER_CLUSTER}, ${DIM}-d clustered Gaussian vectors ` +
      `(within-cluster cosine ≈ 0.5–0.95, across ≈ 0), n assertions (90% within a cluster). Similarities are synthetic and mean nothing.`,
    `Default search (--exactness auto): exact ranges around every anchor by blocked float32 matrix products in ONNX Runtime, each candidate re-scored with the exact float64 cosine ` +
      `(engine/search/matrix-ranges.ts), up to 1e11 anchor × product pairs; the HNSW index above (so at 1,000,000 products).`,
    `Workers: ${workers} Piscina threads (engine/items/intentionqa/draft-pool.ts) draft blocks of ${DRAFT_BLOCK} assertions over the shared vectors and ranges (or the saved index); ` +
      `the main thread finishes the drafts in order and serialises them (here: hashed). The one-thread run's output is compared by SHA-256.`,
    `Wall seconds depend on what else runs on the machine; cpu_seconds (this process's user+system time) much less so. hnswlib-node builds single-threaded. ` +
      `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} logical CPUs, Node ${process.version}, load average at the end ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}.`,
  );
  return { name: 'items', rows, notes, scaling };
}

interface PathTimes {
  walls: number[];
  median: number;
  /** CPU seconds over all rounds (process.cpuUsage: every thread of the process). */
  cpu: number;
  wall: number;
}

/**
 * The window ranges of `computed` (its anchors and floor) recomputed by the serial and the pipelined
 * path, `rounds` times each, alternating which goes first; whether every result equals `computed`
 * byte for byte (SHA-256 of its four arrays).
 */
async function compareRangePaths(
  vectors: UnitVectors,
  computed: MatrixRanges,
  rounds: number,
): Promise<{ serial: PathTimes; pipelined: PathTimes; rounds: number; identical: boolean }> {
  const anchors = Array.from(vectors.validRows).filter((r) => computed.data.slotOfRow[r]! >= 0);
  const digest = (ranges: MatrixRanges) => {
    const hash = createHash('sha256');
    for (const a of [ranges.data.slotOfRow, ranges.data.offsets, ranges.data.rows, ranges.data.scores])
      hash.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    return hash.digest('hex');
  };
  const want = digest(computed);
  let identical = true;
  const times = {
    serial: [] as Array<{ wall: number; cpu: number }>,
    pipelined: [] as Array<{ wall: number; cpu: number }>,
  };
  for (let k = 0; k < rounds; k++) {
    for (const pipelined of k % 2 === 0 ? [false, true] : [true, false]) {
      const cpu0 = process.cpuUsage();
      const t = process.hrtime.bigint();
      const ranges = await MatrixRanges.compute(vectors, anchors, computed.data.floor, { pipelined, progress: false });
      const wall = seconds(t);
      const cpu = process.cpuUsage(cpu0);
      times[pipelined ? 'pipelined' : 'serial'].push({ wall, cpu: (cpu.user + cpu.system) / 1e6 });
      if (digest(ranges) !== want) identical = false;
    }
  }
  const summary = (ts: Array<{ wall: number; cpu: number }>): PathTimes => {
    const walls = ts.map((x) => x.wall);
    const sorted = [...walls].sort((a, b) => a - b);
    return {
      walls,
      median: sorted[Math.floor(sorted.length / 2)]!,
      cpu: ts.reduce((sum, x) => sum + x.cpu, 0),
      wall: ts.reduce((sum, x) => sum + x.wall, 0),
    };
  };
  return { serial: summary(times.serial), pipelined: summary(times.pipelined), rounds, identical };
}

/**
 * Items with the validity filters off and on (one random unit vector per intention text for the
 * second-answer filter), over the same search, in `rounds` rounds that alternate which goes first;
 * the median wall and CPU seconds of each, and every round's.
 */
async function validityFilterCost(
  world: ReturnType<typeof intentionQaWorld>,
  vectors: UnitVectors,
  search: RangeSearch,
  seed: number,
  workers: number,
  rounds: number,
): Promise<{
  on: number;
  off: number;
  cpuOn: number;
  cpuOff: number;
  walls: { on: number[]; off: number[] };
  cpus: { on: number[]; off: number[] };
  /** Median over rounds of (on − off), wall and CPU seconds. */
  wallCost: number;
  cpuCost: number;
  items: number;
  keys: number;
  rounds: number;
}> {
  const keys = [...new Set(world.assertions.map((a) => intentionKey(a.intention)))];
  const rng = new Rng(`bench-items/intentions/${seed}`);
  const data = Float32Array.from({ length: keys.length * DIM }, () => rng.next() - 0.5);
  const intentionVectors = UnitVectors.fromVectorSet({ ids: keys, dim: DIM, data });
  const fields = {
    off: Object.fromEntries(VALIDITY_RULE_FIELDS.map((f) => [f, false])),
    on: Object.fromEntries(VALIDITY_RULE_FIELDS.map((f) => [f, true])),
  };
  // The synthetic world's products hold one phrase a line, so they have no kind and the rules by kind
  // would never fire: here each product also gets one of 32 kinds of its line (a phrase of its own,
  // drawn by a multiplicative hash of its number), in both modes, so that the cost counts the kind
  // index and its checks at work. With fewer kinds a line, the line's six intentions are asserted for
  // every kind pair and the rules refuse nearly every candidate (4 kinds: 521 of 12,476 items left at
  // 10k), which measures another workload; with 32 they refuse what a few second answers would (12,409).
  const kindOf = (id: string) => Math.imul(Number(id.slice(1)), 2654435761) >>> 27;
  const phrases = new Map([...world.phrases].map(([id, list]) => [id, [...list, `${list[0]} kind${kindOf(id)}`]]));
  const walls = { on: [] as number[], off: [] as number[] };
  const cpus = { on: [] as number[], off: [] as number[] };
  let items = 0;
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const t = process.hrtime.bigint();
      const cpu0 = process.cpuUsage();
      const run = await IntentionQaRun.prepare({
        ...world,
        phrases,
        embeddings: vectors,
        intentionVectors,
        options: { seed, search, ...fields[mode] },
      });
      const r = await itemsInParallel(run, workers);
      walls[mode].push(seconds(t));
      const cpu = process.cpuUsage(cpu0);
      cpus[mode].push((cpu.user + cpu.system) / 1e6);
      if (mode === 'on') items = r.items;
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const differences = (xs: { on: number[]; off: number[] }) => xs.on.map((x, k) => x - xs.off[k]!);
  return {
    wallCost: median(differences(walls)),
    cpuCost: median(differences(cpus)),
    on: median(walls.on),
    off: median(walls.off),
    cpuOn: median(cpus.on),
    cpuOff: median(cpus.off),
    walls,
    cpus,
    items,
    keys: keys.length,
    rounds,
  };
}

/** Every record of `run` drafted by a pool of `workers`, hashed (SHA-256 of the JSONL) and counted. */
async function itemsInParallel(
  run: IntentionQaRun,
  workers: number,
): Promise<{ seconds: number; items: number; dropped: number; methods: Record<string, number>; sha256: string }> {
  const t = process.hrtime.bigint();
  const digest = createHash('sha256');
  let items = 0;
  let dropped = 0;
  const methods: Record<string, number> = {};
  for await (const r of draftInParallel(run, { workers })) {
    digest.update(JSON.stringify(r) + '\n');
    if (r.kind === 'dropped') {
      dropped += 1;
      continue;
    }
    items += 1;
    for (const d of r.item.distractors) methods[d.method] = (methods[d.method] ?? 0) + 1;
  }
  return { seconds: seconds(t), items, dropped, methods, sha256: digest.digest('hex') };
}

function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

await runAlone(import.meta.url, 'items', (o) => run(o, process.argv.includes('--validity-only')));
