// How close q8 stays to fp32 for each way of storing q8's weights, on the CPU this runs on
// (docs/embeddings.md, "q8 on every CPU"): int8 ±127 (quantize_dynamic's default), int8 ±64
// (reduce_range, what the generator writes), uint8 (QUInt8), and int8 ±127 with ONNX Runtime's
// session.x64quantprecision. Run it on two CPU classes, or under emulation
// (`qemu-x86_64 -cpu max "$(which node)" dist/bench/q8-formats.js --quick`: AVX2 without VNNI), and
// compare the cosines and the vectors' hashes. Not a speed benchmark: not part of `npm run bench`.
// Run: npx tsc -p . && node dist/bench/q8-formats.js [--quick] [--seed N]
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBenchModel, makeTestModel, testModelSpec } from '../embeddings/model-generator.js';
import { buildBertOnnx, MINILM_L6_SHAPE, randomBertWeights, type Q8WeightFormat } from '../embeddings/bert-onnx.js';
import { decodeModelProto, encodeModelProto } from '../embeddings/onnx-proto.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { onnxRuntimeSessionFactory, type SessionFactory } from '../embeddings/execution-providers.js';
import { sharedMiniLmTokenizerDir } from '../core/shared-files.js';
import { cpuClass } from '../embeddings/kernel-class.js';
import { aserLikeSentences } from './embeddings.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { runAlone } from './support/run-alone.js';

/** The sentences of test/embeddings-encoder.test.ts's q8 test. */
const TEST_SENTENCES = [
  'PersonX buy a phone.',
  'PersonX buy a phone. Then, PersonX call PersonY.',
  '',
  'If it rains, then the street is wet and everyone happens to stay at home.',
  'PersonX buy a phone.',
  'Zebra!',
  'PersonY and PersonX happen at the same time.',
];

/** Sessions opened with session.x64quantprecision=1 (ORT rewrites int8 weights to uint8 on AVX2/AVX-512). */
const preciseFactory: SessionFactory = {
  ...onnxRuntimeSessionFactory,
  create: (path, options) =>
    onnxRuntimeSessionFactory.create(path, { ...options, extra: { session: { x64quantprecision: '1' } } }),
};

/**
 * The model with one zero-point initializer per MatMulInteger: ORT 1.30's int8→uint8 rewrite fails on
 * a shared one ("Attempt to replace the existing tensor"), as the generator writes it.
 */
function unshareZeroPoints(bytes: Uint8Array): Uint8Array {
  const model = decodeModelProto(bytes);
  const zero = model.graph.initializer.find((t) => t.name === 'const_int8_zero');
  if (!zero) return bytes;
  let n = 0;
  for (const node of model.graph.node) {
    node.input = node.input.map((input) => {
      if (input !== 'const_int8_zero') return input;
      const name = `const_int8_zero_${n++}`;
      model.graph.initializer.push({ ...zero, name });
      return name;
    });
  }
  model.graph.initializer = model.graph.initializer.filter((t) => t !== zero);
  return encodeModelProto(model);
}

const hash = (v: Float32Array) =>
  createHash('sha256')
    .update(Buffer.from(v.buffer, v.byteOffset, v.byteLength))
    .digest('hex')
    .slice(0, 12);

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const seed = opts.seed ?? 1;
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-q8-formats-'));
  const rows: BenchRow[] = [];
  try {
    const base = join(dir, 'fp32');
    let sentences: string[];
    let weights;
    if (opts.quick) {
      await makeTestModel(base, { seed });
      const spec = testModelSpec(seed);
      weights = randomBertWeights(spec.shape, spec.seed, spec.std);
      sentences = TEST_SENTENCES;
    } else {
      await makeBenchModel(base, { seed, precisions: ['fp32'], tokenizerFrom: sharedMiniLmTokenizerDir() });
      weights = randomBertWeights(MINILM_L6_SHAPE, seed, 0.02);
      sentences = aserLikeSentences(32, seed).sentences;
    }
    const encode = async (modelDir: string, dtype: 'fp32' | 'q8', sessionFactory?: SessionFactory) => {
      const encoder = await OnnxSentenceEncoder.open({
        modelDir,
        dtype,
        device: 'cpu',
        offline: true,
        intraOpThreads: 1,
        ...(sessionFactory ? { sessionFactory } : {}),
      });
      try {
        return { vectors: await encoder.encode(sentences), dim: encoder.dim };
      } finally {
        await encoder.close();
      }
    };
    const fp32 = await encode(base, 'fp32');
    rows.push({ q8_weights: 'none (fp32)', min_cosine: 1, mean_cosine: 1, vectors_sha256: hash(fp32.vectors) });
    const cases: Array<{ label: string; format: Q8WeightFormat; precise?: boolean }> = [
      { label: 'int8 ±127 (quantize_dynamic default)', format: 's8' },
      { label: 'int8 ±64, reduce_range (the generator)', format: 's8-reduced' },
      { label: 'uint8, asymmetric (QUInt8)', format: 'u8' },
      { label: 'int8 ±127 + session.x64quantprecision=1', format: 's8', precise: true },
    ];
    for (const c of cases) {
      const modelDir = join(dir, `${c.format}${c.precise ? '-precise' : ''}`);
      cpSync(base, modelDir, { recursive: true });
      const bytes = buildBertOnnx(weights, 'q8', c.format);
      writeFileSync(join(modelDir, 'onnx/model_quantized.onnx'), c.precise ? unshareZeroPoints(bytes) : bytes);
      const q8 = await encode(modelDir, 'q8', c.precise ? preciseFactory : undefined);
      const cosines = sentences.map((_, r) => {
        let dot = 0;
        for (let d = r * fp32.dim; d < (r + 1) * fp32.dim; d++) dot += fp32.vectors[d]! * q8.vectors[d]!;
        return dot;
      });
      rows.push({
        q8_weights: c.label,
        min_cosine: Number(Math.min(...cosines).toFixed(6)),
        mean_cosine: Number((cosines.reduce((a, b) => a + b, 0) / cosines.length).toFixed(6)),
        vectors_sha256: hash(q8.vectors),
      });
    }
    return {
      name: 'q8 weight formats: cos(q8, fp32) per sentence on this CPU',
      rows,
      notes: [
        `CPU class ${cpuClass()} (embeddings/kernel-class.ts; under qemu-user it reads the host's flags: set INTENTSIM_KERNEL_CLASS)`,
        `${sentences.length} sentences; ${opts.quick ? 'tiny test model' : 'MiniLM-L6-shaped model'}, seed ${seed}, ` +
          'random weights; the engine encoder, 1 ORT thread, L2-normalised vectors',
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, 'q8-formats', run);
