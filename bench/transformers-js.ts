// The JavaScript alternative a user would compare us with: transformers.js
// (`@huggingface/transformers`, already a dependency for the tokenizer) running the same
// MiniLM-L6-shaped model file as `pipeline('feature-extraction')` with mean pooling and
// normalisation, on the same ASER-like sentences, batch 64, fp32, CPU, the same thread count.
// Rows, each timed in the same run (rounds alternate which side goes first):
//   1. engine encode() as a user calls it (length-sorted batches, the default) vs transformers.js
//      called batch by batch in arrival order (what its pipeline does with a list);
//   2. engine encode() in arrival order (sortByLength: false) vs the same: the same padding, so the
//      ratio is the engine's own cost against transformers.js's;
//   3. opening the model (session created, tokenizer read) on each side.
// The two sides' vectors are compared row by row (cosine): the same model and pooling must give the
// same vectors, to float rounding.
//
// Run: npx tsc -p . && node dist/bench/transformers-js.js [--quick] [--seed N]
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { makeBenchModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { sharedMiniLmTokenizerDir } from '../core/shared-files.js';
import { aserLikeSentences } from './embeddings.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { runAlone } from './support/run-alone.js';

const BATCH = 64;
const DIM = 384;

function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** The lowest and the mean cosine between aligned rows of two sets of unit vectors. */
export function rowCosines(a: Float32Array, b: Float32Array, dim: number): { min: number; mean: number } {
  if (a.length !== b.length) throw new Error(`rowCosines: ${a.length} values against ${b.length}`);
  const rows = a.length / dim;
  let min = Infinity;
  let sum = 0;
  for (let r = 0; r < rows; r++) {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let d = r * dim; d < (r + 1) * dim; d++) {
      dot += a[d]! * b[d]!;
      na += a[d]! * a[d]!;
      nb += b[d]! * b[d]!;
    }
    const cos = dot / Math.sqrt(na * nb);
    min = Math.min(min, cos);
    sum += cos;
  }
  return { min, mean: sum / rows };
}

interface FeatureExtractor {
  (texts: string[], options: { pooling: 'mean'; normalize: boolean }): Promise<{ data: Float32Array; dims: number[] }>;
  dispose(): Promise<void>;
}

/** transformers.js's feature-extraction pipeline on the model folder `dir`, offline, fp32, CPU. */
async function openTransformersJs(dir: string, threads: number): Promise<FeatureExtractor> {
  const { pipeline, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.localModelPath = dirname(dir) + '/';
  const extractor = await pipeline('feature-extraction', basename(dir), {
    dtype: 'fp32',
    device: 'cpu',
    session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
  });
  return extractor as unknown as FeatureExtractor;
}

/** Every sentence through transformers.js in batches of BATCH, arrival order: rows as one Float32Array. */
async function encodeWithTransformersJs(extractor: FeatureExtractor, sentences: string[]): Promise<Float32Array> {
  const out = new Float32Array(sentences.length * DIM);
  for (let i = 0; i < sentences.length; i += BATCH) {
    const result = await extractor(sentences.slice(i, i + BATCH), { pooling: 'mean', normalize: true });
    out.set(result.data, i * DIM);
  }
  return out;
}

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const seed = opts.seed ?? 1;
  const count = opts.quick ? 128 : 2048;
  // Two rounds at the full size: transformers.js takes about 20 s a pass on 2 cores.
  const rounds = opts.quick ? 1 : 2;
  const threads = Math.max(1, availableParallelism());
  const root = mkdtempSync(join(tmpdir(), 'intentsim-bench-tjs-'));
  const dir = join(root, 'minilm-shape');
  try {
    await makeBenchModel(dir, { seed, precisions: ['fp32'], tokenizerFrom: sharedMiniLmTokenizerDir() });
    const { sentences, source } = aserLikeSentences(count, seed);

    let started = performance.now();
    const engine = await OnnxSentenceEncoder.open({
      modelDir: dir,
      dtype: 'fp32',
      device: 'cpu',
      intraOpThreads: threads,
      batchSize: BATCH,
    });
    const engineOpenS = (performance.now() - started) / 1000;
    started = performance.now();
    const extractor = await openTransformersJs(dir, threads);
    const tjsOpenS = (performance.now() - started) / 1000;
    try {
      // Warm-up: one batch each, so that neither side's first timed batch pays for lazy set-up.
      await engine.encode(sentences.slice(0, BATCH));
      await encodeWithTransformersJs(extractor, sentences.slice(0, BATCH));

      const best = { sorted: Infinity, arrival: Infinity, tjs: Infinity };
      let vectors: { engine?: Float32Array; tjs?: Float32Array } = {};
      for (let round = 0; round < rounds; round++) {
        const sides: Array<() => Promise<void>> = [
          async () => {
            const t = performance.now();
            vectors.engine = await engine.encode(sentences, { batchSize: BATCH });
            best.sorted = Math.min(best.sorted, (performance.now() - t) / 1000);
          },
          async () => {
            const t = performance.now();
            await engine.encode(sentences, { batchSize: BATCH, sortByLength: false });
            best.arrival = Math.min(best.arrival, (performance.now() - t) / 1000);
          },
          async () => {
            const t = performance.now();
            vectors.tjs = await encodeWithTransformersJs(extractor, sentences);
            best.tjs = Math.min(best.tjs, (performance.now() - t) / 1000);
          },
        ];
        for (let i = 0; i < sides.length; i++) await sides[(i + round) % sides.length]!();
      }
      const agreement = rowCosines(vectors.engine!, vectors.tjs!, DIM);
      vectors = {};
      const rate = (s: number) => round(count / s, 1);
      const tjsRate = rate(best.tjs);
      const rows: BenchRow[] = [
        {
          case: 'engine encode() (length-sorted batches, the default) vs transformers.js feature-extraction, fp32',
          engine_sentences_per_s: rate(best.sorted),
          baseline_sentences_per_s: tjsRate,
          ratio: round(best.tjs / best.sorted),
        },
        {
          case: 'engine encode() in arrival order (same padding as transformers.js) vs transformers.js, fp32',
          engine_sentences_per_s: rate(best.arrival),
          baseline_sentences_per_s: tjsRate,
          ratio: round(best.tjs / best.arrival),
        },
        {
          case: 'opening the model (session and tokenizer): engine vs transformers.js pipeline(), seconds',
          engine_seconds: round(engineOpenS),
          baseline_seconds: round(tjsOpenS),
          ratio: round(tjsOpenS / engineOpenS),
        },
      ];
      const notes = [
        // In code spans: the report is also a page of the docs site, whose Markdown is Vue (a bare `<…>` is a tag).
        `transformers.js ${await transformersVersion()}: \`pipeline('feature-extraction', MODEL_FOLDER, { dtype: 'fp32', device: 'cpu' })\` ` +
          `(MODEL_FOLDER: the same model folder), called on batches of ${BATCH} sentences with \`{ pooling: 'mean', normalize: true }\`; both sides ${threads} intra-op threads`,
        `model: intentsim model make-bench --seed ${seed} (all-MiniLM-L6-v2 shape, RANDOM weights: throughput only), one model folder for both sides`,
        `sentences: ${count} ASER-like template sentences (seed ${seed}) from ${source}; best of ${rounds} round(s), sides alternated; ratio = engine rate / transformers.js rate (open: transformers.js seconds / engine seconds)`,
        `same vectors: cosine between the two sides' rows, lowest ${agreement.min.toFixed(7)}, mean ${agreement.mean.toFixed(7)}`,
      ];
      return { name: 'Sentence embeddings against transformers.js', rows, notes };
    } finally {
      await extractor.dispose();
      await engine.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function transformersVersion(): Promise<string> {
  const { env } = await import('@huggingface/transformers');
  return String(env.version);
}

await runAlone(import.meta.url, 'transformers-js', run);
