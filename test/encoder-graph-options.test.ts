// The ONNX encoder's GPU-path options, run on the CPU provider: pooling in the graph (against the
// JavaScript pooling), fp16 weights (against fp32), the derived models' cache (reused, rebuilt when
// damaged or stale), and the per-provider defaults recorded in describe().
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { derivedModel } from '../embeddings/derived-models.js';
import { DEFAULT_BATCH_SIZE, DEVICE_BATCH_SIZE, defaultBatchSizeFor } from '../embeddings/model-files.js';
import * as ort from 'onnxruntime-node';
import type { SessionFactory } from '../embeddings/execution-providers.js';

/**
 * A "webgpu" that is ORT's CPU provider under that name: the GPU defaults' code path (pooled graph,
 * pipeline, batch 256) runs here. `opened` records which file each provider was given.
 */
function cpuAsWebgpu(opened: Array<[string, string]>, webgpuFails = false): SessionFactory {
  return {
    create: (path, options) => {
      // An injected factory is given files only (the ORT-format copy is onnxruntime-node's own).
      if (typeof path !== 'string') return Promise.reject(new Error('expected a model file'));
      const ep = options.executionProviders?.[0];
      const provider = typeof ep === 'string' ? ep : (ep?.name ?? 'cpu');
      opened.push([provider, path]);
      if (provider === 'webgpu' && webgpuFails) return Promise.reject(new Error('no adapter'));
      return ort.InferenceSession.create(path, { ...options, executionProviders: ['cpu'] });
    },
    supported: () => [
      { name: 'cpu', bundled: true },
      { name: 'webgpu', bundled: true },
    ],
    precheck: () => undefined,
  };
}

let dir: string;
let cacheDir: string;
const SENTENCES = [
  'PersonX buy a phone.',
  'PersonX buy a phone. Then, PersonX call PersonY.',
  '',
  'If it rains, then the street is wet and everyone happens to stay at home.',
  'Zebra!',
  'PersonY and PersonX happen at the same time.',
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-graph-options-'));
  cacheDir = mkdtempSync(join(tmpdir(), 'intentsim-graph-options-cache-'));
  await makeTestModel(dir);
});

function compare(a: Float32Array, b: Float32Array, dim: number): { maxDiff: number; minCosine: number } {
  let maxDiff = 0;
  let minCosine = 1;
  for (let r = 0; r < a.length / dim; r++) {
    let [dot, a2, b2] = [0, 0, 0];
    for (let d = r * dim; d < (r + 1) * dim; d++) {
      maxDiff = Math.max(maxDiff, Math.abs(a[d]! - b[d]!));
      [dot, a2, b2] = [dot + a[d]! * b[d]!, a2 + a[d]! ** 2, b2 + b[d]! ** 2];
    }
    minCosine = Math.min(minCosine, dot / Math.sqrt(a2 * b2));
  }
  return { maxDiff, minCosine };
}

describe('encoder options for the GPU path, on the CPU provider', () => {
  let js: OnnxSentenceEncoder;
  beforeAll(async () => {
    js = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', cacheDir });
  });
  afterAll(async () => js?.close());

  it('defaults on the CPU: JavaScript pooling, batch 64, no derived model', () => {
    const d = js.describe();
    expect([d.pooling, d.batchSize, d.derivedModel]).toEqual(['js', DEFAULT_BATCH_SIZE, undefined]);
    expect(js.defaultBatchSize).toBe(64);
    expect([defaultBatchSizeFor('cpu'), defaultBatchSizeFor('webgpu'), defaultBatchSizeFor('cuda')]).toEqual([
      64,
      DEVICE_BATCH_SIZE,
      256,
    ]);
  });

  it('pooling in the graph gives the JavaScript vectors within 1e-6, normalised or not', async () => {
    const graph = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', cacheDir, pooling: 'graph' });
    try {
      expect(graph.describe().pooling).toBe('graph');
      expect(graph.describe().derivedModel?.file).toMatch(/derived-models/);
      expect(graph.fingerprint).not.toBe(js.fingerprint);
      for (const normalize of [true, false]) {
        const a = await js.encode(SENTENCES, { batchSize: 4, normalize });
        const b = await graph.encode(SENTENCES, { batchSize: 4, normalize });
        const { maxDiff, minCosine } = compare(a, b, js.dim);
        console.log(
          `encoder, graph vs js pooling (normalize ${normalize}): max |diff| ${maxDiff.toExponential(2)}, min cosine ${minCosine}`,
        );
        expect(maxDiff).toBeLessThan(1e-6);
        expect(minCosine).toBeGreaterThan(1 - 1e-9);
      }
      // Batch size and order do not change a row beyond float32 sums (each row is pooled on its own).
      const one = await graph.encode(SENTENCES, { batchSize: 1 });
      expect(compare(one, await graph.encode(SENTENCES, { batchSize: 6 }), js.dim).maxDiff).toBeLessThan(1e-6);
    } finally {
      await graph.close();
    }
  });

  it('fp16 converts model.onnx once into the cache and stays close to fp32', async () => {
    const first = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', cacheDir, dtype: 'fp16' });
    const again = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', cacheDir, dtype: 'fp16' });
    try {
      expect(first.describe().derivedModel?.source).toBe('built (not derived yet)');
      expect(again.describe().derivedModel?.source).toBe('cache');
      expect(again.fingerprint).toBe(first.fingerprint);
      expect(first.fingerprint).not.toBe(js.fingerprint);
      expect(first.dtype).toBe('fp16');
      const { minCosine } = compare(await js.encode(SENTENCES), await first.encode(SENTENCES), js.dim);
      console.log(`encoder, fp16 vs fp32 on ORT's CPU provider (tiny BERT): min cosine ${minCosine}`);
      expect(minCosine).toBeGreaterThan(0.999);
    } finally {
      await first.close();
      await again.close();
    }
  });
});

describe("the GPU defaults, with ORT's CPU provider standing in for webgpu", () => {
  it('open the pooled graph, pipeline, batch 256, and give the CPU vectors within 1e-6', async () => {
    const opened: Array<[string, string]> = [];
    const cache = mkdtempSync(join(tmpdir(), 'intentsim-gpu-defaults-'));
    const gpu = await OnnxSentenceEncoder.open({
      modelDir: dir,
      device: 'webgpu',
      cacheDir: cache,
      sessionFactory: cpuAsWebgpu(opened),
    });
    const cpu = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', cacheDir: cache });
    try {
      const d = gpu.describe();
      expect([d.provider, d.pooling, d.batchSize, d.pipeline]).toEqual(['webgpu', 'graph', 256, true]);
      expect(opened).toEqual([['webgpu', d.derivedModel!.file]]);
      const sentences = Array.from({ length: 700 }, (_, i) => SENTENCES[i % SENTENCES.length]! + ` ${i % 13}`);
      const { maxDiff } = compare(await cpu.encode(sentences), await gpu.encode(sentences), gpu.dim);
      expect(maxDiff).toBeLessThan(1e-6);
      expect(gpu.stats.batches).toBe(3);
    } finally {
      await gpu.close();
      await cpu.close();
    }
  });

  it('a run that falls back to the CPU opens the model as it is, with the CPU defaults', async () => {
    const opened: Array<[string, string]> = [];
    const cache = mkdtempSync(join(tmpdir(), 'intentsim-gpu-fallback-'));
    const encoder = await OnnxSentenceEncoder.open({
      modelDir: dir,
      device: 'auto',
      cacheDir: cache,
      sessionFactory: cpuAsWebgpu(opened, true),
    });
    try {
      const d = encoder.describe();
      expect([d.provider, d.pooling, d.batchSize, d.pipeline]).toEqual(['cpu', 'js', 64, false]);
      expect(opened.map(([p]) => p)).toEqual(['webgpu', 'cpu']);
      expect(opened[1]![1]).toBe(join(dir, 'onnx/model.onnx'));
      expect(d.providerAttempts.map((a) => [a.provider, a.ok])).toEqual([
        ['cuda', false],
        ['webgpu', false],
        ['cpu', true],
      ]);
    } finally {
      await encoder.close();
    }
  });
});

describe('derived models cache', () => {
  it('reuses a derivation, and rebuilds it when its record is damaged or the source changes', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'intentsim-derived-'));
    const source = join(dir, 'onnx/model.onnx');
    const recipe = { float16: false, graphPooling: true };
    const built = await derivedModel(source, recipe, cache);
    expect([built.source, built.reason]).toEqual(['built', 'not derived yet']);
    const reused = await derivedModel(source, recipe, cache);
    expect([reused.source, reused.path, reused.sha256]).toEqual(['cache', built.path, built.sha256]);

    const record = join(built.path, '..', 'record.json');
    writeFileSync(record, readFileSync(record, 'utf8').replace('"sha256":"', '"sha256":"0'));
    expect((await derivedModel(source, recipe, cache)).reason).toBe('the record is damaged');

    writeFileSync(built.path, 'not a model');
    expect((await derivedModel(source, recipe, cache)).reason).toBe('the derived file changed');
    const rebuilt = await derivedModel(source, recipe, cache);
    expect(rebuilt.source).toBe('cache');
    expect(rebuilt.sha256).toBe(built.sha256);

    const later = new Date(Date.now() + 5000);
    utimesSync(source, later, later);
    expect((await derivedModel(source, recipe, cache)).reason).toBe('the source model changed');
    // Nothing to derive: the source itself.
    expect((await derivedModel(source, { float16: false, graphPooling: false }, cache)).path).toBe(source);
  });
});
