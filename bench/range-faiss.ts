// Range search against FAISS, what a Python user would reach for: every row within cosine ≥ floor
// of each query row, over the same unit vectors. Ours: MatrixRanges (engine/search/matrix-ranges.ts:
// blocked float32 matrix products in ONNX Runtime, every candidate re-scored with the exact float64
// cosine), the window search's default. Theirs: FAISS IndexFlatIP + range_search (exact, BLAS), run
// by bench/support/faiss_range.py in python3 with the same thread count. Both are timed from the
// vectors in memory to the pairs found (FAISS: index build included, it is a copy), with CPU
// seconds ÷ wall seconds as each side's utilisation of the cores. The pairs are compared: any pair
// found by one side only must lie within float32 rounding of the floor.
// Vectors: clustered unit vectors (random centres plus noise, seeded), so that each range holds a
// cluster (about a hundred rows) rather than nothing or everything.
// Skipped, saying why, when no python3 on the PATH (or /usr/bin/python3) imports faiss and numpy
// (Debian: apt-get install python3-faiss; else pip install faiss-cpu numpy).
//
// Run: npx tsc -p . && node dist/bench/range-faiss.js [--quick] [--seed N]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../core/rng.js';
import { writeNpyMatrix } from '../core/npy.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { MatrixRanges } from '../engine/search/matrix-ranges.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { runAlone } from './support/run-alone.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FAISS_PEER = join(ROOT, 'bench', 'support', 'faiss_range.py');
const DIM = 384;
const FLOOR = 0.6;
/** Pairs found by one side only are accepted within this distance of the floor (float32 rounding). */
const BORDER = 1e-5;

/** The first python3 that imports faiss and numpy, or why none does. */
export function findFaissPython(candidates = ['python3', '/usr/bin/python3']): { python?: string; missing: string[] } {
  const missing: string[] = [];
  for (const python of candidates) {
    const probe = spawnSync(python, ['-c', 'import faiss, numpy'], { encoding: 'utf8' });
    if (probe.error) missing.push(`${python}: not found`);
    else if (probe.status !== 0) missing.push(`${python}: ${probe.stderr.trim().split('\n').pop()}`);
    else return { python, missing };
  }
  return { missing };
}

/** `n` clustered unit vectors: `clusters` random centres, each row a centre plus Gaussian noise of `sigma` per dimension. */
export function clusteredUnitVectors(
  n: number,
  dim: number,
  clusters: number,
  sigma: number,
  seed: number,
): Float32Array {
  const rng = Rng.derive(seed, 'bench-range-faiss');
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const centres = Array.from({ length: clusters }, () => unit(Float64Array.from({ length: dim }, gauss)));
  const data = new Float32Array(n * dim);
  for (let r = 0; r < n; r++) {
    const c = centres[rng.int(clusters)]!;
    const row = unit(Float64Array.from({ length: dim }, (_, d) => c[d]! + sigma * gauss()));
    for (let d = 0; d < dim; d++) data[r * dim + d] = row[d]!;
  }
  return data;
}

function unit(v: Float64Array): Float64Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  return v.map((x) => x / norm);
}

/**
 * Pairs (query, row) found by both, by ours only and by theirs only; `theirs` is FAISS's layout (query q's
 * rows are ids[lims[q]..lims[q+1]], in any order), `ours` a sorted row list per query.
 */
export function comparePairs(
  ours: ReadonlyArray<ArrayLike<number>>,
  lims: ArrayLike<number>,
  ids: ArrayLike<number>,
): { both: number; oursOnly: Array<[number, number]>; theirsOnly: Array<[number, number]> } {
  let both = 0;
  const oursOnly: Array<[number, number]> = [];
  const theirsOnly: Array<[number, number]> = [];
  ours.forEach((rows, q) => {
    const theirs = new Set<number>();
    for (let k = lims[q]!; k < lims[q + 1]!; k++) theirs.add(ids[k]!);
    for (let k = 0; k < rows.length; k++) {
      if (theirs.delete(rows[k]!)) both += 1;
      else oursOnly.push([q, rows[k]!]);
    }
    for (const row of theirs) theirsOnly.push([q, row]);
  });
  return { both, oursOnly, theirsOnly };
}

function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const seed = opts.seed ?? 1;
  const n = opts.quick ? 3_000 : 20_000;
  const threads = Math.max(1, availableParallelism());
  const rounds = opts.quick ? 1 : 3;
  // Noise of 0.0375 per dimension puts two rows of a cluster at cosine ≈ 1 / (1 + 384 · 0.0375²) ≈ 0.65.
  const clusters = Math.max(2, Math.round(n / 100));
  const data = clusteredUnitVectors(n, DIM, clusters, 0.0375, seed);
  const ids = Array.from({ length: n }, (_, i) => `v${i}`);
  const vectors = UnitVectors.fromUnitRows(ids, DIM, data, new Uint8Array(n).fill(1));
  const anchors = Int32Array.from({ length: n }, (_, i) => i);
  const notes = [
    `${n} clustered unit vectors of ${DIM} dimensions (${clusters} seeded random centres + Gaussian noise 0.0375 per dimension; seed ${seed}); ` +
      `every row is a query; floor: cosine ≥ ${FLOOR}; ${threads} threads on both sides; best of ${rounds} round(s), sides alternated`,
    'ours: MatrixRanges.compute (the window search default: float32 products in ONNX Runtime, candidates re-scored in float64); ' +
      'FAISS: IndexFlatIP built from the vectors + range_search of every row (bench/support/faiss_range.py), timed inside python3 (its start-up and the .npy read not counted)',
    'cpu_utilisation = CPU seconds of the process ÷ wall seconds over the search (1 = one busy core)',
  ];

  const faiss = findFaissPython();
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-faiss-'));
  try {
    const npy = join(dir, 'vectors.npy');
    await writeNpyMatrix(npy, data, n, DIM);
    const ours = { wall: Infinity, cpu: 0 };
    const theirs = { wall: Infinity, cpu: 0, version: '', blas: '' };
    let ranges: MatrixRanges | undefined;
    for (let round = 0; round < rounds; round++) {
      const sides: Array<() => Promise<void>> = [
        async () => {
          const cpu = process.cpuUsage();
          const started = performance.now();
          ranges = await MatrixRanges.compute(vectors, anchors, FLOOR, { threads });
          const wall = (performance.now() - started) / 1000;
          const used = process.cpuUsage(cpu);
          if (wall < ours.wall) Object.assign(ours, { wall, cpu: (used.user + used.system) / 1e6 });
        },
        ...(faiss.python === undefined
          ? []
          : [
              async () => {
                const result = spawnSync(
                  faiss.python!,
                  [FAISS_PEER, npy, String(n), String(FLOOR), String(threads), join(dir, 'faiss')],
                  { encoding: 'utf8' },
                );
                if (result.status !== 0) throw new Error(`faiss_range.py failed: ${result.stderr || result.error}`);
                const t = JSON.parse(result.stdout.trim().split('\n').pop()!) as {
                  seconds: number;
                  cpu_seconds: number;
                  faiss: string;
                  blas: string[];
                };
                if (t.seconds < theirs.wall) Object.assign(theirs, { wall: t.seconds, cpu: t.cpu_seconds });
                theirs.version = t.faiss;
                theirs.blas = t.blas.join(', ') || 'not found in its memory map';
              },
            ]),
      ];
      for (let i = 0; i < sides.length; i++) await sides[(i + round) % sides.length]!();
    }
    const perQuery = Array.from({ length: n }, (_, q) => ranges!.rowRange(q)!.rows);
    const pairs = perQuery.reduce((s, r) => s + r.length, 0);
    const row: BenchRow = {
      case: `range search, all ${n} rows as queries, cosine ≥ ${FLOOR}: engine MatrixRanges vs FAISS IndexFlatIP range_search`,
      pairs,
      engine_seconds: round(ours.wall),
      engine_cpu_utilisation: round(ours.cpu / ours.wall, 2),
    };
    if (faiss.python === undefined) {
      notes.push(
        `FAISS not run: no python3 imports faiss and numpy (${faiss.missing.join('; ')}); Debian: apt-get install python3-faiss, else pip install faiss-cpu numpy`,
      );
      return { name: 'Range search against FAISS', rows: [{ ...row, baseline: 'FAISS not run' }], notes };
    }
    const lims = new BigInt64Array(readFileSync(join(dir, 'faiss.lims')).buffer.slice(0));
    const found = new BigInt64Array(readFileSync(join(dir, 'faiss.ids')).buffer.slice(0));
    const cmp = comparePairs(
      perQuery,
      Array.from(lims, (v) => Number(v)),
      Array.from(found, (v) => Number(v)),
    );
    const cosine = ([q, r]: [number, number]) => {
      let dot = 0;
      for (let d = 0; d < DIM; d++) dot += data[q * DIM + d]! * data[r * DIM + d]!;
      return dot;
    };
    const offBorder = [...cmp.oursOnly, ...cmp.theirsOnly].filter((p) => Math.abs(cosine(p) - FLOOR) > BORDER);
    if (offBorder.length > 0)
      throw new Error(
        `range-faiss: ${offBorder.length} pair(s) found by one side only lie farther than ${BORDER} from the floor, e.g. ${JSON.stringify(offBorder[0])} at cosine ${cosine(offBorder[0]!)}`,
      );
    notes.push(
      `FAISS ${theirs.version} (${faiss.python}; BLAS: ${theirs.blas}; Debian's reference libblas makes it many times slower than OpenBLAS, apt-get install libopenblas0-pthread); the same pairs: ${cmp.both} found by both, ${cmp.oursOnly.length} by the engine only, ` +
        `${cmp.theirsOnly.length} by FAISS only (each within ${BORDER} of the floor: float32 against float64 scores, and FAISS keeps > the floor where the engine keeps ≥)`,
    );
    return {
      name: 'Range search against FAISS',
      rows: [
        {
          ...row,
          baseline_seconds: round(theirs.wall),
          baseline_cpu_utilisation: round(theirs.cpu / theirs.wall, 2),
          ratio: round(theirs.wall / ours.wall),
        },
      ],
      notes,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, 'range-faiss', run);
