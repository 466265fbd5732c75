// The benchmark report's own logic (not the speeds it measures): the analytic FLOP count of the BERT
// encoder, the CPU peak estimates, the generated MatMul model, the GPU probe and section 6's text,
// the log-log slope fit and the scaling section, and the context benchmark's graph sizes.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { ExecutionProviderName, SessionFactory } from '../embeddings/execution-providers.js';
import { MINILM_L6_SHAPE } from '../embeddings/bert-onnx.js';
import { planBatches } from '../embeddings/length-batching.js';
import { Rng } from '../core/rng.js';
import { batchFlops, multiplyAddsPerTokenLayer, planFlops, type EncoderShape } from '../bench/support/bert-flops.js';
import { GemmPeakMeter, theoreticalPeakFromCpuinfo } from '../bench/support/cpu-peak.js';
import { buildMatMulOnnx, matMulFlops, seededMatrix } from '../bench/support/matmul-model.js';
import { gpuCandidates, probeGpuProvider } from '../bench/support/gpu-provider.js';
import { logLogChart, logLogFit } from '../bench/svg-chart.js';
import { benchCommand, errorMessage, gpuNotMeasuredLines, main, markdownTable, scalingLines } from '../bench/run.js';
import { contextGraphSizes } from '../bench/context.js';
import { compareRows } from '../bench/provider-tolerance.js';
import { cpuLine, describeCpuinfo, thisMachineCpu } from '../bench/support/cpu-info.js';
import { rowCosines } from '../bench/transformers-js.js';
import { clusteredUnitVectors, comparePairs, findFaissPython } from '../bench/range-faiss.js';

describe('BERT FLOP count', () => {
  const tiny: EncoderShape = { hiddenSize: 4, intermediateSize: 8, numLayers: 1 };

  it('counts 4h² + 2hI + 2Lh multiply-adds per token and layer (hand-checked)', () => {
    // 4·16 + 2·4·8 + 2·2·4 = 64 + 64 + 16
    expect(multiplyAddsPerTokenLayer(tiny, 2)).toBe(144);
    // 2 FLOPs × 3 rows × 2 tokens × 1 layer × 144
    expect(batchFlops(tiny, 3, 2)).toBe(1728);
    expect(batchFlops({ ...tiny, numLayers: 2 }, 3, 2)).toBe(3456);
  });

  it('gives MiniLM-L6 2.87 GFLOP for one 128-token sentence', () => {
    // per token and layer: 4·384² + 2·384·1536 + 2·128·384 = 589,824 + 1,179,648 + 98,304 = 1,867,776
    expect(batchFlops(MINILM_L6_SHAPE, 1, 128)).toBe(2 * 128 * 6 * 1_867_776);
  });

  it('equals the sum over every matrix product of the layer, head by head (random shapes)', () => {
    const rng = new Rng('bench-flops');
    for (let trial = 0; trial < 50; trial++) {
      const heads = 1 + rng.int(6);
      const headDim = 1 + rng.int(16);
      const shape: EncoderShape = {
        hiddenSize: heads * headDim,
        intermediateSize: 1 + rng.int(64),
        numLayers: 1 + rng.int(4),
      };
      const rows = 1 + rng.int(8);
      const L = 1 + rng.int(40);
      const h = shape.hiddenSize;
      // Each product (m×k)·(k×n) is m·k·n multiply-adds.
      const products: Array<[number, number, number, number]> = [
        [4, rows * L, h, h], // Q, K, V, attention output
        [1, rows * L, h, shape.intermediateSize], // FFN up
        [1, rows * L, shape.intermediateSize, h], // FFN down
        [rows * heads, L, headDim, L], // scores Q·Kᵀ per sequence and head
        [rows * heads, L, L, headDim], // probabilities · V per sequence and head
      ];
      const perLayer = products.reduce((a, [count, m, k, n]) => a + count * m * k * n, 0);
      expect(batchFlops(shape, rows, L)).toBe(2 * shape.numLayers * perLayer);
    }
  });

  it('sums a batch plan with padding counted', () => {
    // Sorted longest first: [3, 2 | 2, 1] → batches padded to 3 and to 2.
    const plan = planBatches([3, 1, 2, 2], 2, true);
    expect(plan.batches.map((b) => b.paddedLength)).toEqual([3, 2]);
    expect(planFlops(tiny, plan)).toBe(batchFlops(tiny, 2, 3) + batchFlops(tiny, 2, 2));
  });
});

describe('CPU peak estimates', () => {
  const cpuinfo = (flags: string, extra = 'cpu MHz\t\t: 2300.000\n') =>
    `processor\t: 0\nmodel name\t: Some CPU @ 2.50GHz\n${extra}flags\t\t: fpu sse sse2 ${flags}\n\nprocessor\t: 1\nflags\t\t: fpu\n`;

  it('multiplies CPUs × lanes × 2 × FMA units × clock', () => {
    const avx512 = theoreticalPeakFromCpuinfo(cpuinfo('avx avx2 fma avx512f'), 2)!;
    expect(avx512.gflops).toBeCloseTo(2 * 16 * 2 * 2 * 2.3, 9);
    expect([avx512.lanes, avx512.fmaUnits, avx512.mhz, avx512.simd]).toEqual([16, 2, 2300, 'AVX-512']);
    expect(avx512.basis).toMatch(/assumed/);
    expect(theoreticalPeakFromCpuinfo(cpuinfo('avx avx2 fma', 'cpu MHz : 3000\n'), 4)!.gflops).toBeCloseTo(
      4 * 8 * 2 * 2 * 3,
      9,
    );
    // AVX without FMA: one unit assumed; an explicit override wins.
    expect(theoreticalPeakFromCpuinfo(cpuinfo('avx'), 1)!.gflops).toBeCloseTo(8 * 2 * 1 * 2.3, 9);
    expect(theoreticalPeakFromCpuinfo(cpuinfo('avx avx2 fma avx512f'), 2, 1)!.gflops).toBeCloseTo(
      2 * 16 * 2 * 1 * 2.3,
      9,
    );
  });

  it('falls back to the model name clock, and gives up without flags', () => {
    expect(theoreticalPeakFromCpuinfo(cpuinfo('sse', ''), 1)!.gflops).toBeCloseTo(4 * 2 * 1 * 2.5, 9);
    expect(theoreticalPeakFromCpuinfo('processor : 0\ncpu MHz : 2000\n', 2)).toBeUndefined();
  });
});

describe('generated MatMul model', () => {
  it('computes X · W through ONNX Runtime', async () => {
    const shape = { m: 3, k: 4, n: 5 };
    const w = seededMatrix(shape.k, shape.n, 'w');
    const x = seededMatrix(shape.m, shape.k, 'x');
    const session = await ort.InferenceSession.create(buildMatMulOnnx(shape, w), { executionProviders: ['cpu'] });
    try {
      const y = (await session.run({ x: new ort.Tensor('float32', x, [shape.m, shape.k]) })).y!;
      expect(y.dims).toEqual([3, 5]);
      const data = y.data as Float32Array;
      for (let i = 0; i < shape.m; i++) {
        for (let j = 0; j < shape.n; j++) {
          let dot = 0;
          for (let k = 0; k < shape.k; k++) dot += x[i * shape.k + k]! * w[k * shape.n + j]!;
          expect(data[i * shape.n + j]).toBeCloseTo(dot, 5);
        }
      }
    } finally {
      await session.release();
    }
    expect(matMulFlops({ m: 2, k: 3, n: 4 })).toBe(48);
    expect(() => buildMatMulOnnx(shape, new Float32Array(3))).toThrow(/expected 4 × 5/);
  });

  it('meters only the timed products, not the warm-up', async () => {
    const meter = await GemmPeakMeter.open({ threads: 1, shape: { m: 16, k: 16, n: 16 } });
    try {
      expect(() => meter.result).toThrow(/no product timed/);
      await meter.sample(3);
      const r = meter.result;
      expect(r.runs).toBe(3);
      expect(r.gflops).toBeCloseTo(matMulFlops(r.shape) / r.bestSeconds / 1e9, 9);
    } finally {
      await meter.close();
    }
  });
});

describe('GPU probe', () => {
  /** Providers that fail as told; the CPU is never asked for. */
  function factory(failures: Partial<Record<ExecutionProviderName, string>>): {
    factory: SessionFactory;
    created: string[];
  } {
    const created: string[] = [];
    return {
      created,
      factory: {
        supported: () => [
          { name: 'cpu', bundled: true },
          { name: 'webgpu', bundled: true },
          { name: 'cuda', bundled: true },
        ],
        precheck: () => undefined,
        async create(_path, opts) {
          const ep = opts.executionProviders![0]!;
          const name = (typeof ep === 'string' ? ep : ep.name) as ExecutionProviderName;
          created.push(name);
          if (failures[name]) throw new Error(failures[name]);
          return { run: async () => ({}), release: async () => undefined } as unknown as ort.InferenceSession;
        },
      },
    };
  }

  it('tries cuda then webgpu for auto, one for a forced device, none for cpu', async () => {
    expect(gpuCandidates('auto')).toEqual(['cuda', 'webgpu']);
    expect(gpuCandidates('cuda')).toEqual(['cuda']);
    expect(gpuCandidates('cpu')).toEqual([]);
    const f = factory({ cuda: 'CUDA failure 100: no CUDA-capable device is detected' });
    const probe = await probeGpuProvider('auto', f.factory);
    expect(probe.provider).toBe('webgpu');
    expect(probe.attempts.map((a) => [a.provider, a.ok])).toEqual([
      ['cuda', false],
      ['webgpu', true],
    ]);
    expect(f.created).toEqual(['cuda', 'webgpu']);
    const none = await probeGpuProvider('cpu', f.factory);
    expect(none.provider).toBeUndefined();
    expect(none.attempts).toEqual([]);
  });

  it('reports why a forced cuda cannot run, with the install hint, and section 6 says so', async () => {
    const probe = await probeGpuProvider(
      'cuda',
      factory({ cuda: 'CUDA failure 100: no CUDA-capable device is detected' }).factory,
    );
    expect(probe.provider).toBeUndefined();
    expect(probe.attempts).toHaveLength(1);
    expect(probe.attempts[0]!.reason).toMatch(/no CUDA-capable device/);
    expect(probe.hints.join('\n')).toMatch(/ONNXRUNTIME_NODE_INSTALL=cuda12/);
    const text = gpuNotMeasuredLines(probe).join('\n');
    expect(text).toMatch(
      /^_Not measured: no GPU provider available on this machine \(cuda: CUDA failure 100: no CUDA-capable device is detected\)\._/,
    );
    expect(text).toContain('npm run bench -- --only embeddings --device cuda');
    expect(text).toContain('docs/embeddings-gpu.md#gpu');
    expect(gpuNotMeasuredLines({ device: 'cpu', attempts: [], hints: [] })[0]).toMatch(/`--device cpu` was given/);
  });
});

describe('report text', () => {
  it('fits the log-log slope exactly on a power law', () => {
    const pts = [10, 100, 1000].map((x) => ({ x, y: 3 * x ** 1.5 }));
    const fit = logLogFit(pts)!;
    expect(fit.slope).toBeCloseTo(1.5, 12);
    expect(fit.intercept).toBeCloseTo(Math.log10(3), 12);
    expect(
      logLogFit([
        { x: 10, y: 1 },
        { x: 1000, y: 10 },
      ])!.slope,
    ).toBeCloseTo(0.5, 12);
    expect(logLogFit([{ x: 10, y: 1 }])).toBeUndefined();
    expect(
      logLogFit([
        { x: 0, y: 1 },
        { x: 10, y: 1 },
      ]),
    ).toBeUndefined();
  });

  it('writes the scaling table with sizes, seconds, slopes and how to read them', () => {
    const series = new Map([
      [
        'a: linear (items)',
        [
          { x: 1000, y: 2 },
          { x: 100, y: 0.2 },
        ],
      ],
      ['b: one size', [{ x: 5, y: 1 }]],
    ]);
    const text = scalingLines(series).join('\n');
    expect(text).toContain('| a: linear (items) | 100, 1000 | 0.200, 2.00 | 1.00 |');
    expect(text).toContain('| b: one size | 5 | 1.00 | n/a (one size) |');
    expect(text).toMatch(/b ≈ 1: time grows linearly/);
    expect(text).toMatch(/b > 1: superlinearly/);
    expect(scalingLines(new Map()).join('\n')).toContain('No module reported a scaling series');
  });

  it('keeps ten series apart in the chart and fits its legend', () => {
    const series = new Map(
      Array.from({ length: 10 }, (_, i) => [
        `series number ${i} with a long name (items)`,
        [
          { x: 1, y: 1 },
          { x: 10, y: 10 ** (1 + i / 10) },
        ],
      ]),
    );
    const svg = logLogChart('t', series, { x: 'x', y: 'y' });
    expect(svg.match(/<polyline /g)).toHaveLength(10);
    expect(svg.match(/<polyline [^>]*stroke-dasharray/g)).toHaveLength(2);
    expect(svg).toContain('(slope 1.90)');
    const width = Number(/width="(\d+)"/.exec(svg)![1]);
    expect(width).toBeGreaterThan(490 + 6.6 * 'series number 0 with a long name (items) (slope 1.00)'.length);
  });

  it('reports a failed module by its message, every line of it, without the stack', () => {
    const err = new Error(
      '--device cuda: no execution provider could run the model.\n  - cuda: library missing\n  Use --device auto',
    );
    expect(errorMessage(err.stack!)).toBe(
      'Error: --device cuda: no execution provider could run the model. - cuda: library missing Use --device auto',
    );
    expect(errorMessage('not present')).toBe('not present');
  });

  it('names the command that reproduces a run', () => {
    expect(benchCommand({ quick: true, large: false, only: 'context', seed: 1 })).toBe(
      'npm run bench -- --quick --only context --seed 1',
    );
    expect(benchCommand({ quick: false, large: true, seed: 7, device: 'cuda' })).toBe(
      'npm run bench -- --large --seed 7 --device cuda',
    );
    expect(benchCommand({ quick: false, large: false, seed: 1, device: 'auto' })).toBe('npm run bench -- --seed 1');
    expect(markdownTable([{ a: 'x|y', b: 1.23456 }, { c: 2 }])).toBe(
      '| a | b | c |\n| --- | --- | --- |\n| x\\|y | 1.235 |  |\n|  |  | 2 |\n',
    );
  });

  it('measures context embeddings at 100k and 1M edges, 10M only with --large', () => {
    const edges = (o: { quick: boolean; large?: boolean }) => contextGraphSizes(o).map((s) => s.edges);
    expect(edges({ quick: false })).toEqual([100_000, 300_000, 1_000_000]);
    expect(edges({ quick: false, large: true })).toEqual([100_000, 1_000_000, 10_000_000]);
    expect(Math.max(...edges({ quick: true }))).toBeLessThanOrEqual(100_000);
    for (const s of contextGraphSizes({ quick: false }))
      expect([s.nodes, s.products]).toEqual([Math.round(s.edges / 3), Math.round(s.edges / 30)]);
  });
});

describe('the transformers.js comparison', () => {
  it('compares aligned rows by cosine (hand-checked), whatever their lengths', () => {
    // Row 0: the same direction at another length (cosine 1); row 1: (1,0) against (1,1)/√2 … scaled (cosine 1/√2).
    const a = Float32Array.of(3, 4, 1, 0);
    const b = Float32Array.of(0.6, 0.8, 2, 2);
    const { min, mean } = rowCosines(a, b, 2);
    expect(min).toBeCloseTo(Math.SQRT1_2, 6);
    expect(mean).toBeCloseTo((1 + Math.SQRT1_2) / 2, 6);
    expect(() => rowCosines(a, b.subarray(0, 2), 2)).toThrow(/4 values against 2/);
  });
});

describe('the FAISS range-search comparison', () => {
  it("compares per-query pairs with FAISS's lims/ids layout, its rows in any order (hand-checked)", () => {
    // Query 0: ours {1, 2}, FAISS {2, 1}; query 1: ours {0, 3}, FAISS {3, 4}.
    const cmp = comparePairs([Int32Array.of(1, 2), Int32Array.of(0, 3)], [0, 2, 4], [2, 1, 3, 4]);
    expect(cmp).toEqual({ both: 3, oursOnly: [[1, 0]], theirsOnly: [[1, 4]] });
  });

  it('generates unit rows, the same for the same seed', () => {
    const a = clusteredUnitVectors(50, 8, 3, 0.1, 7);
    expect(Buffer.from(a.buffer).equals(Buffer.from(clusteredUnitVectors(50, 8, 3, 0.1, 7).buffer))).toBe(true);
    for (let r = 0; r < 50; r++) {
      let norm = 0;
      for (let d = 0; d < 8; d++) norm += a[r * 8 + d]! ** 2;
      expect(norm).toBeCloseTo(1, 5);
    }
  });

  it('says why FAISS is skipped when no candidate python has it', () => {
    expect(findFaissPython(['/nonexistent/python3'])).toEqual({ missing: ['/nonexistent/python3: not found'] });
  });
});

describe('the CPU line of the report', () => {
  const cpuinfo = (model: string, flags: string) =>
    `processor\t: 0\nvendor_id\t: x\nmodel name\t: ${model}\nflags\t\t: ${flags}\n\nprocessor\t: 1\nmodel name\t: other\nflags\t\t: sse\n`;

  it('names the first processor and its widest SIMD set, with or without VNNI', () => {
    const epyc = describeCpuinfo(cpuinfo('AMD EPYC 9B14', 'fpu sse avx avx2 fma avx512f avx512_vnni'));
    expect(epyc).toEqual({ model: 'AMD EPYC 9B14', simd: 'AVX-512', vnni: true });
    expect(cpuLine(epyc)).toBe('AMD EPYC 9B14 (AVX-512, VNNI)');
    // Alder Lake style: AVX2 with AVX-VNNI (no AVX-512).
    expect(cpuLine(describeCpuinfo(cpuinfo('Intel Core i7-12700', 'sse avx avx2 avx_vnni')))).toBe(
      'Intel Core i7-12700 (AVX2, VNNI)',
    );
    expect(cpuLine(describeCpuinfo(cpuinfo('Intel Xeon E5-2680 v4', 'sse avx avx2 fma')))).toBe(
      'Intel Xeon E5-2680 v4 (AVX2, no VNNI)',
    );
    expect(cpuLine(describeCpuinfo(cpuinfo('Skylake-SP', 'sse avx avx2 avx512f')))).toBe(
      'Skylake-SP (AVX-512, no VNNI)',
    );
  });

  it('falls back to the given model name and says when the flags are unknown', () => {
    expect(cpuLine(describeCpuinfo('processor : 0\n', 'Apple M2'))).toBe('Apple M2 (instruction sets unknown)');
  });
});

describe('npm run bench with an unavailable GPU', () => {
  it('writes section 6 with the reason and exits 1 when --device cuda cannot run, without running anything else', async () => {
    const real = await probeGpuProvider('cuda');
    if (real.provider) {
      console.warn(
        'bench-report.test: SKIPPED the unavailable-CUDA report test: this machine has a working CUDA provider',
      );
      return;
    }
    const out = mkdtempSync(join(tmpdir(), 'intentsim-bench-report-'));
    const before = process.exitCode;
    try {
      await main(['node', 'run.js', '--only', 'gpu', '--device', 'cuda', '--out', out]);
      expect(process.exitCode).toBe(1);
      const report = readFileSync(join(out, 'report.md'), 'utf8');
      // The first line names this machine's CPU and its instruction sets.
      expect(report.split('\n')[0]).toBe(`# intentsim benchmark report: ${cpuLine(thisMachineCpu())}`);
      expect(report.split('\n')[0]).toMatch(/\((AVX-512|AVX2|AVX|SSE), (VNNI|no VNNI)\)$|instruction sets unknown/);
      expect(report).toContain('## 6. GPU');
      expect(report).toMatch(/_Not measured: no GPU provider available on this machine \(cuda: .+\)\._/);
      expect(report).toContain('npm run bench -- --only embeddings --device cuda');
      expect(report).not.toContain('## 1. Sentence embeddings');
      const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
        gpu: { probe: { device: string; provider?: string } };
      };
      expect(json.gpu.probe).toMatchObject({ device: 'cuda' });
      expect(json.gpu.probe.provider).toBeUndefined();
    } finally {
      process.exitCode = before;
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('provider tolerance', () => {
  it('compares rows: how many differ, the largest difference, the lowest cosine', () => {
    const a = new Float32Array([1, 0, 0, 1, 0.6, 0.8]);
    const b = new Float32Array([1, 0, 1, 0, 0.6, 0.75]);
    const c = compareRows(a, b, 2);
    expect(c.differing).toBe(2);
    expect(c.maxAbs).toBe(1);
    expect(c.minCosine).toBe(0); // rows 1: (0,1) against (1,0)
    expect(compareRows(a, a, 2)).toEqual({ differing: 0, maxAbs: 0, minCosine: 1 });
  });
});
