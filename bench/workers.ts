// Which split of the cores between worker threads and ONNX Runtime intra-op threads embeds sentences
// fastest? The pipeline's default (--workers 0: the main thread's session with one thread per core)
// is the configuration this measures as fastest on a 2-core machine; rerun it on yours.
// Configurations, each on the MiniLM-L6-shaped generated model (q8 and fp32), same sentences, batch 64:
//   main thread × T threads (baseline: T = all cores), and a Piscina pool of W workers × T threads.
//
// Run: npx tsc -p . && node dist/bench/workers.js [--quick]
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBenchModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { sharedMiniLmTokenizerDir } from '../core/shared-files.js';
import type { ModelDtype } from '../embeddings/model-files.js';
import type { BertPrecision } from '../embeddings/bert-onnx.js';
import type { FingerprintedEncoder } from '../embeddings/sentence-encoder.js';
import { PooledSentenceEncoder } from '../workers/pooled-encoder.js';
import { aserLikeSentences } from './embeddings.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { runAlone } from './support/run-alone.js';

interface Config {
  workers: number;
  threads: number;
}

async function timeEncoder(encoder: FingerprintedEncoder, sentences: string[], reps: number): Promise<number> {
  await encoder.encode(sentences.slice(0, 128)); // warm-up: sessions, thread pools, first allocations
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    await encoder.encode(sentences, { batchSize: 64 });
    best = Math.min(best, (performance.now() - t) / 1000);
  }
  return best;
}

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const seed = opts.seed ?? 1;
  const cores = Math.max(1, availableParallelism());
  const count = opts.quick ? 256 : 2048;
  const reps = opts.quick ? 1 : 2;
  const dtypes: Array<ModelDtype & BertPrecision> = opts.quick ? ['q8'] : ['q8', 'fp32'];
  const configs: Config[] = [
    { workers: 0, threads: cores },
    { workers: 0, threads: 1 },
    { workers: 1, threads: cores },
  ];
  for (let w = 2; w <= cores; w *= 2) configs.push({ workers: w, threads: Math.max(1, Math.floor(cores / w)) });
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-workers-'));
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  try {
    await makeBenchModel(dir, { seed, precisions: dtypes, tokenizerFrom: sharedMiniLmTokenizerDir() });
    const { sentences, source } = aserLikeSentences(count, seed);
    notes.push(
      `${count} ASER-like sentences (seed ${seed}; ${source}), batch 64, best of ${reps}, ${cores} cores, CPU provider; ` +
        `model: intentsim model make-bench --seed ${seed} (MiniLM-L6 shape, random weights: speed only); Piscina pool for the worker rows`,
    );
    for (const dtype of dtypes) {
      let baseline = 0;
      for (const c of configs) {
        const model = { modelDir: dir, dtype, offline: true, device: 'cpu' as const };
        const encoder: FingerprintedEncoder =
          c.workers === 0
            ? await OnnxSentenceEncoder.open({ ...model, intraOpThreads: c.threads })
            : await PooledSentenceEncoder.open(model, { workers: c.workers, threadsPerWorker: c.threads });
        try {
          const seconds = await timeEncoder(encoder, sentences, reps);
          const rate = count / seconds;
          if (baseline === 0) baseline = rate;
          rows.push({
            case: `${dtype}: ${c.workers === 0 ? 'main thread' : `${c.workers} worker${c.workers > 1 ? 's' : ''}`} × ${c.threads} ORT thread${c.threads > 1 ? 's' : ''}`,
            sentences_per_s: Math.round(rate * 10) / 10,
            baseline: `main thread × ${cores} threads: ${Math.round(baseline * 10) / 10}/s`,
            ratio: Math.round((rate / baseline) * 1000) / 1000,
          });
        } finally {
          await encoder.close();
        }
      }
    }
    const best = rows.reduce((a, b) => ((b.ratio as number) > (a.ratio as number) ? b : a));
    notes.push(`fastest here: ${String(best.case)} (${best.ratio}× the main-thread baseline)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { name: 'Workers × ONNX threads (sentence encoding)', rows, notes };
}

await runAlone(import.meta.url, 'workers', run);
