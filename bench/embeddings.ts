// Sentence-embedding throughput on a generated model of all-MiniLM-L6-v2's exact shape (random
// weights, same FLOPs; `intentsim model make-bench`), on ASER-like template sentences (two eventuality
// texts joined by one of the 15 relation templates; the texts are ../shared's real ASER eventualities
// when present, else the scale generator's synthetic ones). Rows, each with its baseline from the same run:
//   1. engine encode() vs a bare ONNX Runtime loop (same model file, dtype, provider, batch size,
//      threads and batches, inputs pre-tokenized and pre-padded: session.run only), fp32 and q8 —
//      the engine's overhead (tokenization, padding, pooling, normalisation); target ≥ 0.9;
//   2. length-sorted batches vs arrival order (engine, fp32), with the padding each wastes;
//   3. q8 vs fp32 (engine), with their agreement (mean cosine between the two precisions' vectors of
//      the same sentences: quantisation error, not meaning — the weights are random).
// INTENTSIM_BENCH_DEVICE=auto|cpu|cuda|webgpu picks the provider (default cpu); the bare loop runs
// the engine's own ONNX Runtime session (same provider, options and thread pool).
//
// Run: npx tsc -p . && node dist/bench/embeddings.js [--quick]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as ort from 'onnxruntime-node';
import { writeFileAtomic } from '../engine/io/atomic.js';
import { Rng } from '../engine/rng.js';
import { ScaleGraph } from '../graph/generate-scale.js';
import { senseSentence } from '../graph/sentences.js';
import { RELATION_SENSES } from '../graph/types.js';
import { makeBenchModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder, paddedInputs } from '../embeddings/onnx-encoder.js';
import { parseDeviceRequest } from '../embeddings/execution-providers.js';
import { planBatches } from '../embeddings/length-batching.js';
import { sharedEventualitiesFile, sharedMiniLmTokenizerDir } from '../embeddings/shared-files.js';
import type { ModelDtype } from '../embeddings/model-files.js';
import type { BenchOptions, BenchResult, BenchRow } from './types.js';

const TARGET_ENGINE_VS_BARE = 0.9;

function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** ASER-like sentences: a relation template over two eventuality texts. */
export function aserLikeSentences(count: number, seed: number): { sentences: string[]; source: string } {
  const file = sharedEventualitiesFile();
  const lines = file ? readFileSync(file, 'utf8').split('\n') : [];
  const graph = new ScaleGraph({ nodes: Math.max(2, Math.min(count * 2, 200_000)), edges: 0, seed, purchaseFraction: 0 }, lines);
  const rng = Rng.derive(seed, 'bench-sentences');
  const sentences = Array.from({ length: count }, () => {
    const h = graph.nodeText(rng.int(graph.nodes));
    const t = graph.nodeText(rng.int(graph.nodes));
    return senseSentence(RELATION_SENSES[rng.int(RELATION_SENSES.length)]!, h, t);
  });
  return { sentences, source: file ? `${file} (real ASER eventualities)` : 'synthetic ASER-style eventualities (graph/generate-scale.ts)' };
}

/** Best of `reps` timings (seconds) of `fn`: the least disturbed run on a shared machine. */
async function bestOf(reps: number, fn: () => Promise<void>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    best = Math.min(best, (performance.now() - t) / 1000);
  }
  return best;
}

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const seed = opts.seed ?? 1;
  const count = opts.quick ? 256 : opts.large ? 16_384 : 2048;
  const reps = opts.quick ? 2 : 3;
  const batchSize = 64;
  const threads = Math.max(1, availableParallelism());
  const device = parseDeviceRequest(process.env.INTENTSIM_BENCH_DEVICE ?? 'cpu');
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-emb-'));
  try {
    const tokenizerFrom = sharedMiniLmTokenizerDir();
    let t = performance.now();
    await makeBenchModel(dir, { seed, tokenizerFrom });
    notes.push(
      `model: intentsim model make-bench --seed ${seed} (all-MiniLM-L6-v2 shape: 30,522 × 384, 6 layers, 12 heads; RANDOM weights — ` +
        `throughput only, no similarity here means anything); tokenizer: ${tokenizerFrom ? 'the real all-MiniLM-L6-v2 one (../shared)' : 'generated 30,522-token WordPiece vocabulary (more pieces per word than the real one)'}; written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const { sentences, source } = aserLikeSentences(count, seed);
    notes.push(`sentences: ${count} ASER-like template sentences from ${source}; batch ${batchSize}; ${threads} intra-op threads; best of ${reps}`);

    // One encoder per dtype; the bare loop runs each encoder's own session (the same ORT thread pool:
    // two sessions of one model would have two pools, and one pool's spin-waiting threads would slow
    // the other on a small machine). Tensors for the bare loop are built before timing, from the same
    // length-sorted batches the engine forms. Everything alternates slice by slice — fp32 engine,
    // fp32 bare, q8 engine, q8 bare, with a pause between sessions for their threads to stop
    // spinning — and each side keeps its best of `reps`, so all four see the same machine load.
    const dtypes: ModelDtype[] = ['fp32', 'q8'];
    const sliceSize = 256;
    const sides = [];
    for (const dtype of dtypes) {
      const encoder = await OnnxSentenceEncoder.open({ modelDir: dir, dtype, device, intraOpThreads: threads, batchSize });
      if (dtype === 'fp32') {
        const failed = encoder.info.providerAttempts.filter((a) => !a.ok).map((a) => `${a.provider}: ${a.reason}`);
        notes.push(`provider: ${encoder.provider} (--device ${device})${failed.length ? `; unavailable: ${failed.join('; ')}` : ''}`);
      }
      const slices: Array<{ sentences: string[]; feeds: ReturnType<typeof paddedInputs>[] }> = [];
      for (let i = 0; i < count; i += sliceSize) {
        const part = sentences.slice(i, i + sliceSize);
        const tokens = encoder.tokenize(part);
        const plan = planBatches(tokens.map((x) => x.ids.length), batchSize, true);
        slices.push({ sentences: part, feeds: plan.batches.map((b) => paddedInputs(b.indices.map((j) => tokens[j]!), b.paddedLength)) });
      }
      const session: ort.InferenceSession = encoder.onnxSession;
      await encoder.encode(sentences.slice(0, batchSize)); // warm-up
      await session.run(slices[0]!.feeds[0]!);
      sides.push({ dtype, encoder, session, slices, vectors: new Float32Array(count * 384), engine: Infinity, bare: Infinity });
    }
    const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
    for (let rep = 0; rep < reps; rep++) {
      const totals = sides.map(() => ({ engine: 0, bare: 0 }));
      for (let k = 0; k * sliceSize < count; k++) {
        for (const [j, side] of sides.entries()) {
          const slice = side.slices[k]!;
          totals[j]!.engine += await bestOf(1, async () => {
            side.vectors.set(await side.encoder.encode(slice.sentences, { batchSize }), k * sliceSize * 384);
          });
          totals[j]!.bare += await bestOf(1, async () => {
            for (const f of slice.feeds) {
              const out = await side.session.run(f);
              for (const v of Object.values(out)) v.dispose();
            }
          });
          await pause();
        }
      }
      sides.forEach((side, j) => {
        side.engine = Math.min(side.engine, totals[j]!.engine);
        side.bare = Math.min(side.bare, totals[j]!.bare);
      });
    }
    for (const side of sides) {
      rows.push({
        case: `engine encode() vs bare ORT session.run loop, ${side.dtype}`,
        engine_sentences_per_s: round(count / side.engine, 1),
        baseline_sentences_per_s: round(count / side.bare, 1),
        ratio: round(side.bare / side.engine),
        target: `≥ ${TARGET_ENGINE_VS_BARE}`,
        meets: side.bare / side.engine >= TARGET_ENGINE_VS_BARE ? 'yes' : 'NO',
      });
    }
    const [fp32, q8] = sides as [(typeof sides)[number], (typeof sides)[number]];
    await q8.encoder.close();

    // Length-sorted vs arrival order, fp32, one encoder (one session), alternating.
    const sorted = fp32.encoder;
    let sortedSeconds = Infinity;
    let arrivalSeconds = Infinity;
    for (let rep = 0; rep < reps; rep++) {
      sortedSeconds = Math.min(sortedSeconds, await bestOf(1, async () => void (await sorted.encode(sentences, { sortByLength: true }))));
      arrivalSeconds = Math.min(arrivalSeconds, await bestOf(1, async () => void (await sorted.encode(sentences, { sortByLength: false }))));
    }
    const tokens = sorted.tokenize(sentences).map((x) => x.ids.length);
    const sortedPlan = planBatches(tokens, batchSize, true);
    const arrivalPlan = planBatches(tokens, batchSize, false);
    const wasted = (p: { realTokens: number; paddedTokens: number }) => `${(100 * (1 - p.realTokens / p.paddedTokens)).toFixed(1)}%`;
    rows.push({
      case: 'length-sorted batches vs arrival order, fp32',
      engine_sentences_per_s: round(count / sortedSeconds, 1),
      baseline_sentences_per_s: round(count / arrivalSeconds, 1),
      ratio: round(arrivalSeconds / sortedSeconds),
      target: '',
      meets: `padding wasted ${wasted(sortedPlan)} vs ${wasted(arrivalPlan)}`,
    });
    notes.push(`token lengths: mean ${(tokens.reduce((a, b) => a + b, 0) / tokens.length).toFixed(1)}, max ${Math.max(...tokens)} ([CLS] and [SEP] included)`);
    await sorted.close();

    // q8 vs fp32 (measured interleaved above).
    const a = fp32.vectors;
    const b = q8.vectors;
    let cosSum = 0;
    let cosMin = 1;
    for (let r = 0; r < count; r++) {
      let dot = 0;
      for (let d = 0; d < 384; d++) dot += a[r * 384 + d]! * b[r * 384 + d]!;
      cosSum += dot;
      cosMin = Math.min(cosMin, dot);
    }
    rows.push({
      case: 'q8 (dynamic quantisation) vs fp32, engine',
      engine_sentences_per_s: round(count / q8.engine, 1),
      baseline_sentences_per_s: round(count / fp32.engine, 1),
      ratio: round(fp32.engine / q8.engine),
      target: '',
      meets: `cosine(q8, fp32) mean ${(cosSum / count).toFixed(6)}, min ${cosMin.toFixed(6)}`,
    });
    notes.push('ratio = engine rate / baseline rate (higher is better for the engine); the q8/fp32 cosine measures quantisation error of this random model, not semantic quality');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  notes.push(`Node ${process.version}`);
  return { name: 'Sentence embeddings (MiniLM-L6-shaped model)', rows, notes };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const large = process.argv.includes('--large');
  const result = await run({ quick, large });
  console.table(result.rows);
  for (const n of result.notes) console.log(`- ${n}`);
  await writeFileAtomic(join(process.cwd(), 'bench', 'results', 'embeddings.json'), JSON.stringify(result, null, 2) + '\n');
}
