// Two estimates of the CPU's fp32 peak, so that the embedding benchmark can say what share of the
// machine its sentences/s represents:
//   - measured: an fp32 MatMul large enough to be compute-bound, run through onnxruntime-node on the
//     CPU with the benchmark's thread count (best of several runs). This is the ACHIEVABLE GEMM peak
//     of this ORT build on this machine, not the silicon's limit;
//   - theoretical (an assumption, labelled as such): logical CPUs × fp32 SIMD lanes (from the
//     /proc/cpuinfo flags) × 2 (a fused multiply-add is 2 FLOPs) × FMA units per core × clock (the
//     "cpu MHz" field, which on a VM is usually the nominal clock, not the turbo one). FMA units per
//     core are not in /proc/cpuinfo: 2 is assumed on CPUs with FMA (Intel since Haswell, AMD since
//     Zen 2, and the AVX-512 Xeons; some low-end Xeons have one 512-bit unit), 1 otherwise.
import { readFileSync } from 'node:fs';
import type * as Ort from 'onnxruntime-node';
import { ort } from '../../embeddings/onnxruntime.js';
import { buildMatMulOnnx, matMulFlops, seededMatrix, type MatMulShape } from './matmul-model.js';

export interface TheoreticalPeak {
  gflops: number;
  cpus: number;
  lanes: number;
  simd: string;
  fmaUnits: number;
  mhz: number;
  /** The formula with its numbers, for the report. */
  basis: string;
}

/**
 * The theoretical fp32 peak from /proc/cpuinfo's text (first processor's flags and clock), or
 * undefined when the text lacks them (not Linux, or an unusual kernel). `fmaUnits` overrides the
 * assumed FMA units per core (2 with the fma flag, else 1).
 */
export function theoreticalPeakFromCpuinfo(
  cpuinfo: string,
  cpus: number,
  fmaUnits?: number,
): TheoreticalPeak | undefined {
  const flagsLine = /^flags\s*:\s*(.*)$/m.exec(cpuinfo);
  if (!flagsLine) return undefined;
  const flags = new Set(flagsLine[1]!.trim().split(/\s+/));
  let mhz = Number(/^cpu MHz\s*:\s*([\d.]+)/m.exec(cpuinfo)?.[1]);
  if (!(mhz > 0)) {
    const ghz = Number(/^model name\s*:.*@\s*([\d.]+)\s*GHz/m.exec(cpuinfo)?.[1]);
    mhz = ghz > 0 ? ghz * 1000 : NaN;
  }
  if (!(mhz > 0) || cpus < 1) return undefined;
  const units = fmaUnits ?? (flags.has('fma') ? 2 : 1);
  const [lanes, simd] = flags.has('avx512f')
    ? [16, 'AVX-512']
    : flags.has('avx')
      ? [8, flags.has('fma') ? 'AVX2+FMA' : 'AVX']
      : flags.has('sse')
        ? [4, 'SSE']
        : [1, 'scalar'];
  const gflops = (cpus * lanes * 2 * units * mhz) / 1000;
  const basis = `${cpus} logical CPUs × ${lanes} fp32 lanes (${simd}) × 2 FLOPs per FMA × ${units} FMA unit${units > 1 ? 's' : ''} per core (assumed) × ${(mhz / 1000).toFixed(2)} GHz ("cpu MHz" in /proc/cpuinfo)`;
  return { gflops, cpus, lanes, simd, fmaUnits: units, mhz, basis };
}

/** The theoretical peak of this machine, or undefined off Linux. */
export function theoreticalPeakOfThisMachine(cpus: number, fmaUnits?: number): TheoreticalPeak | undefined {
  try {
    return theoreticalPeakFromCpuinfo(readFileSync('/proc/cpuinfo', 'utf8'), cpus, fmaUnits);
  } catch {
    return undefined;
  }
}

export interface MeasuredPeak {
  gflops: number;
  shape: MatMulShape;
  threads: number;
  runs: number;
  /** Seconds of the best run. */
  bestSeconds: number;
}

/**
 * The achievable fp32 GEMM rate: the best of timed products of a one-node MatMul model on the CPU
 * provider with `threads` intra-op threads. `sample()` times one product; a benchmark calls it
 * between its own measurements so that the peak's best-of sees the same machine load they see.
 */
export class GemmPeakMeter {
  private best = Infinity;
  private runs = 0;

  private constructor(
    private readonly session: Ort.InferenceSession,
    private readonly x: Ort.Tensor,
    readonly shape: MatMulShape,
    readonly threads: number,
  ) {}

  static async open({
    threads,
    shape = { m: 1024, k: 1024, n: 1024 },
    seed = 1,
  }: {
    threads: number;
    shape?: MatMulShape;
    seed?: number;
  }): Promise<GemmPeakMeter> {
    const model = buildMatMulOnnx(shape, seededMatrix(shape.k, shape.n, `matmul-peak/w/${seed}`));
    const session = await ort.InferenceSession.create(model, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
      executionMode: 'sequential',
      interOpNumThreads: 1,
      intraOpNumThreads: threads,
    });
    const meter = new GemmPeakMeter(
      session,
      new ort.Tensor('float32', seededMatrix(shape.m, shape.k, `matmul-peak/x/${seed}`), [shape.m, shape.k]),
      shape,
      threads,
    );
    await meter.product(); // warm-up: first-run allocations and thread start, not timed
    return meter;
  }

  private async product(): Promise<number> {
    const t = performance.now();
    const out = await this.session.run({ x: this.x });
    const seconds = (performance.now() - t) / 1000;
    for (const v of Object.values(out)) v.dispose();
    return seconds;
  }

  /** Times `times` products and keeps the fastest seen so far. */
  async sample(times = 1): Promise<void> {
    for (let i = 0; i < times; i++) {
      this.best = Math.min(this.best, await this.product());
      this.runs += 1;
    }
  }

  get result(): MeasuredPeak {
    if (this.runs === 0) throw new Error('GemmPeakMeter: no product timed yet');
    return {
      gflops: matMulFlops(this.shape) / this.best / 1e9,
      shape: this.shape,
      threads: this.threads,
      runs: this.runs,
      bestSeconds: this.best,
    };
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

/** The achievable fp32 GEMM rate, best of `runs` products after one warm-up. */
export async function measureMatMulPeak({
  threads,
  shape,
  runs = 8,
  seed = 1,
}: {
  threads: number;
  shape?: MatMulShape;
  runs?: number;
  seed?: number;
}): Promise<MeasuredPeak> {
  const meter = await GemmPeakMeter.open({ threads, shape, seed });
  try {
    await meter.sample(runs);
    return meter.result;
  } finally {
    await meter.close();
  }
}
