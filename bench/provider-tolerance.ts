// How far the vectors move when the same model runs on other kernels: what a queue run can expect
// when its workers are not the coordinator's kind of machine (docs/distributed.md). The engine's own
// encoder (tokenizer, batching, pooling) runs the same sentences with the same settings on
// - the native CPU kernels of onnxruntime-node (the reference);
// - the native CPU kernels again with another thread count (1 vs all cores);
// - the WebAssembly kernels of onnxruntime-web (another implementation of every operator);
// - the GPU provider, when one opens on this machine (--device; `npm run bench` passes what it found).
// It reports, per dtype, the rows that differ at all, the largest absolute difference and 1 − the
// lowest cosine between the two vectors of a sentence. These are tolerances, not speeds: no ratio column.
// Run: npx tsc -p . && node dist/bench/provider-tolerance.js [--quick]
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as ort from 'onnxruntime-node';
import { makeBenchModel, makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder, type OnnxEncoderOptions } from '../embeddings/onnx-encoder.js';
import type { SessionFactory } from '../embeddings/execution-providers.js';
import { sharedMiniLmTokenizerDir } from '../core/shared-files.js';
import { aserLikeSentences } from './embeddings.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { runAlone } from './support/run-alone.js';

/** onnxruntime-web's WebAssembly kernels behind the engine's session factory (one thread: deterministic). */
async function wasmSessionFactory(): Promise<SessionFactory> {
  const web = await import('onnxruntime-web');
  web.env.wasm.numThreads = 1;
  return {
    // The engine's tensors are onnxruntime-common tensors, which both runtimes accept.
    create: async (model) =>
      (await (typeof model === 'string'
        ? web.InferenceSession.create(model)
        : web.InferenceSession.create(model))) as unknown as ort.InferenceSession,
    supported: () => [{ name: 'cpu', bundled: true }],
    precheck: () => undefined,
  };
}

/** Rows that differ at all, the largest |difference| and the lowest cosine, row by row. */
export function compareRows(
  a: Float32Array,
  b: Float32Array,
  dim: number,
): { differing: number; maxAbs: number; minCosine: number } {
  let differing = 0;
  let maxAbs = 0;
  let minCosine = 1;
  for (let r = 0; r < a.length / dim; r++) {
    let dot = 0;
    let na = 0;
    let nb = 0;
    let differs = false;
    for (let d = r * dim; d < (r + 1) * dim; d++) {
      const x = a[d]!;
      const y = b[d]!;
      if (x !== y) differs = true;
      maxAbs = Math.max(maxAbs, Math.abs(x - y));
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    if (differs) differing += 1;
    if (na > 0 && nb > 0) minCosine = Math.min(minCosine, dot / Math.sqrt(na * nb));
  }
  return { differing, maxAbs, minCosine };
}

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const seed = opts.seed ?? 1;
  const count = opts.quick ? 64 : 1024;
  const cores = Math.max(1, availableParallelism());
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-tolerance-'));
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  try {
    const modelDir = join(dir, 'model');
    if (opts.quick) await makeTestModel(modelDir);
    else await makeBenchModel(modelDir, { seed, tokenizerFrom: sharedMiniLmTokenizerDir() });
    const { sentences, source } = aserLikeSentences(count, seed);
    const wasm = await wasmSessionFactory();
    for (const dtype of ['fp32', 'q8'] as const) {
      const base: OnnxEncoderOptions = { modelDir, dtype, offline: true, batchSize: 64 };
      const encodeWith = async (options: OnnxEncoderOptions): Promise<{ vectors: Float32Array; provider: string }> => {
        const encoder = await OnnxSentenceEncoder.open({ ...base, ...options });
        try {
          return { vectors: await encoder.encode(sentences), provider: encoder.provider };
        } finally {
          await encoder.close();
        }
      };
      const reference = await encodeWith({ device: 'cpu', intraOpThreads: cores });
      const others: Array<{ label: string; options: OnnxEncoderOptions }> = [
        { label: 'native CPU, 1 thread', options: { device: 'cpu', intraOpThreads: 1 } },
        { label: 'WebAssembly kernels (onnxruntime-web)', options: { device: 'cpu', sessionFactory: wasm } },
      ];
      if (opts.device && opts.device !== 'cpu')
        others.push({ label: `GPU (${opts.device})`, options: { device: opts.device } });
      for (const other of others) {
        let got: { vectors: Float32Array; provider: string };
        try {
          got = await encodeWith(other.options);
        } catch (err) {
          notes.push(`${dtype}, ${other.label}: not measured: ${(err as Error).message.split('\n')[0]}`);
          continue;
        }
        const dim = reference.vectors.length / count;
        const c = compareRows(reference.vectors, got.vectors, dim);
        rows.push({
          case: `${dtype}: native CPU × ${cores} threads vs ${other.label}${other.label.startsWith('GPU') ? ` [ran on ${got.provider}]` : ''}`,
          rows_differing: `${c.differing}/${count}`,
          max_abs_diff: Number(c.maxAbs.toExponential(2)),
          // 1 − the lowest cosine: how far the worst sentence's two vectors are apart in angle.
          one_minus_min_cosine: Number(Math.max(0, 1 - c.minCosine).toExponential(2)),
        });
      }
    }
    notes.push(
      `${count} ASER-like sentences (seed ${seed}; ${source}), batch 64, the engine's encoder end to end (tokenizer, batching, mean pooling, L2 norm); ` +
        `${opts.quick ? 'tiny generated model' : 'MiniLM-L6-shaped model'} (random weights: tolerances of these weights, not of the trained model)`,
    );
    if (!opts.device || opts.device === 'cpu')
      notes.push('GPU: not measured (on a machine with one: node dist/bench/provider-tolerance.js --device cuda)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { name: 'Provider tolerance: the same model on other kernels', rows, notes };
}

await runAlone(import.meta.url, 'provider-tolerance', run);
