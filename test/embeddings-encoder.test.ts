// The Sentence-BERT encoder on the generated tiny model, loaded through the same code path as the
// real model: its output must equal a plain computation — each sentence alone (no padding) through
// the ONNX session, mean of its token vectors by hand, divided by the L2 norm — whatever the batch
// size, padding and batch order.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { AutoTokenizer } from '@huggingface/transformers';
import { makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { planBatches, paddingWasted } from '../embeddings/length-batching.js';
import { l2NormalizeRow, meanPoolBatch } from '../embeddings/pooling.js';
import { Rng } from '../core/rng.js';

let dir: string;
let encoder: OnnxSentenceEncoder;
const SENTENCES = [
  'PersonX buy a phone.',
  'PersonX buy a phone. Then, PersonX call PersonY.',
  '',
  'If it rains, then the street is wet and everyone happens to stay at home.',
  'PersonX buy a phone.',
  'Zebra!',
  'PersonY and PersonX happen at the same time.',
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-encoder-'));
  await makeTestModel(dir);
  encoder = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu' });
});
afterAll(async () => {
  await encoder?.close();
});

/** The obvious computation, one sentence at a time, independent of the encoder's code. */
async function referenceEmbeddings(sentences: string[], normalize: boolean, maxTokens = 256): Promise<number[][]> {
  const tokenizer = await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
  const session = await ort.InferenceSession.create(join(dir, 'onnx/model.onnx'));
  const out: number[][] = [];
  for (const s of sentences) {
    const all = tokenizer.encode(s);
    // Python tokenizers' truncation: cut the text's tokens, keep [CLS] first and [SEP] last.
    const ids = all.length <= maxTokens ? all : [...all.slice(0, maxTokens - 1), all[all.length - 1]!];
    const n = ids.length;
    const t = (values: number[]) => new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), [1, n]);
    const hidden = (
      await session.run({ input_ids: t(ids), attention_mask: t(ids.map(() => 1)), token_type_ids: t(ids.map(() => 0)) })
    ).last_hidden_state!.data as Float32Array;
    const dim = hidden.length / n;
    const mean = Array.from({ length: dim }, (_, d) => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += hidden[i * dim + d]!;
      return sum / n;
    });
    const norm = Math.sqrt(mean.reduce((a, b) => a + b * b, 0));
    out.push(normalize ? mean.map((v) => v / norm) : mean);
  }
  await session.release();
  return out;
}

function maxAbsDiff(actual: Float32Array, expected: number[][]): number {
  const dim = expected[0]!.length;
  let max = 0;
  expected.forEach((row, r) => row.forEach((v, d) => (max = Math.max(max, Math.abs(actual[r * dim + d]! - v)))));
  return max;
}

describe('planBatches', () => {
  it('sorts longest first (ties by position) and counts padding exactly', () => {
    const plan = planBatches([3, 7, 5, 7, 2], 2, true);
    expect(plan.batches).toEqual([
      { indices: [1, 3], paddedLength: 7 },
      { indices: [2, 0], paddedLength: 5 },
      { indices: [4], paddedLength: 2 },
    ]);
    expect(plan.realTokens).toBe(24);
    expect(plan.paddedTokens).toBe(14 + 10 + 2);
    expect(paddingWasted(plan.realTokens, plan.paddedTokens)).toBeCloseTo(1 - 24 / 26, 12);
  });

  it('keeps arrival order when not sorting', () => {
    const plan = planBatches([3, 7, 5, 7, 2], 2, false);
    expect(plan.batches.map((b) => b.indices)).toEqual([[0, 1], [2, 3], [4]]);
    expect(plan.paddedTokens).toBe(14 + 14 + 2);
  });

  it('rejects a non-positive batch size', () => {
    expect(() => planBatches([1], 0, true)).toThrow('batchSize must be a positive integer, got 0');
  });
});

describe('pooling', () => {
  it('mean over the unpadded positions only, into the rows named, then L2 normalisation', () => {
    // batch 2, seq 3, dim 2; row 1 has its last position padded; rows go to output rows 1 and 0.
    const hidden = Float32Array.of(1, 2, 3, 4, 5, 6, /* row 1 */ 2, 0, 4, 0, 100, 100);
    const out = new Float32Array(4);
    meanPoolBatch(hidden, [3, 2], 3, 2, out, [1, 0]);
    expect(Array.from(out)).toEqual([3, 0, 3, 4]);
    l2NormalizeRow(out, 0, 2);
    l2NormalizeRow(out, 2, 2);
    expect(Array.from(out)).toEqual([1, 0, 0.6000000238418579, 0.800000011920929]);
  });

  it('refuses a token count longer than the batch, negative or fractional, and a batch too short (issue 29)', () => {
    const hidden = new Float32Array(2 * 3 * 2);
    const out = new Float32Array(4);
    // Before: clamped to 3 without a word.
    expect(() => meanPoolBatch(hidden, [4, 2], 3, 2, out, [0, 1])).toThrow(
      'meanPoolBatch: row 0 has 4 tokens, but the batch has 3 positions a row',
    );
    expect(() => meanPoolBatch(hidden, [3, -1], 3, 2, out, [0, 1])).toThrow('row 1 has -1 tokens');
    expect(() => meanPoolBatch(hidden, [1.5, 2], 3, 2, out, [0, 1])).toThrow('row 0 has 1.5 tokens');
    expect(() => meanPoolBatch(hidden.subarray(1), [3, 2], 3, 2, out, [0, 1])).toThrow(
      'meanPoolBatch: 2 rows of 3 × 2 need 12 hidden values, got 11',
    );
  });

  it('is bit-identical to the obvious per-row float64 mean over a 0/1 mask, on random batches', () => {
    const rng = new Rng(11);
    for (let trial = 0; trial < 50; trial++) {
      const [rows, seq, dim] = [1 + rng.int(9), 1 + rng.int(40), 1 + rng.int(70)];
      const hidden = Float32Array.from({ length: rows * seq * dim }, () => (rng.next() - 0.5) * 10 ** rng.int(6));
      const lengths = Array.from({ length: rows }, () => rng.int(seq + 1));
      const outRows = Array.from({ length: rows }, (_, r) => rows - 1 - r);
      const out = new Float32Array(rows * dim).fill(NaN);
      meanPoolBatch(hidden, lengths, seq, dim, out, outRows);
      const expected = new Float32Array(rows * dim);
      for (let r = 0; r < rows; r++) {
        const mask = Array.from({ length: seq }, (_, t) => (t < lengths[r]! ? 1 : 0));
        const sums = new Float64Array(dim);
        let count = 0;
        for (let t = 0; t < seq; t++) {
          if (mask[t] === 0) continue;
          count++;
          for (let d = 0; d < dim; d++) sums[d]! += hidden[(r * seq + t) * dim + d]!;
        }
        for (let d = 0; d < dim; d++) expected[outRows[r]! * dim + d] = count === 0 ? 0 : sums[d]! / count;
      }
      expect(Buffer.from(out.buffer).equals(Buffer.from(expected.buffer)), `trial ${trial}`).toBe(true);
    }
  });

  it('a zero vector stays zero (no NaN)', () => {
    const v = new Float32Array(3);
    l2NormalizeRow(v, 0, 3);
    expect(Array.from(v)).toEqual([0, 0, 0]);
  });
});

describe('OnnxSentenceEncoder (tiny generated model)', () => {
  it('equals the one-sentence-at-a-time reference for any batch size, in input order', async () => {
    const reference = await referenceEmbeddings(SENTENCES, true);
    for (const batchSize of [1, 2, 3, 64]) {
      const vectors = await encoder.encode(SENTENCES, { batchSize });
      expect(vectors.length).toBe(SENTENCES.length * 32);
      expect(maxAbsDiff(vectors, reference), `batch ${batchSize}`).toBeLessThan(1e-5);
    }
  });

  it('normalize: false returns the plain mean-pooled vectors', async () => {
    const reference = await referenceEmbeddings(SENTENCES, false);
    const vectors = await encoder.encode(SENTENCES, { batchSize: 4, normalize: false });
    expect(maxAbsDiff(vectors, reference)).toBeLessThan(1e-5);
    const norm0 = Math.hypot(...vectors.subarray(0, 32));
    expect(Math.abs(norm0 - 1)).toBeGreaterThan(1e-3);
  });

  it('arrival-order batching gives the same vectors and pads more', async () => {
    const unsorted = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', sortByLength: false });
    const a = await unsorted.encode(SENTENCES, { batchSize: 2 });
    const sortedEncoder = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu' });
    const b = await sortedEncoder.encode(SENTENCES, { batchSize: 2 });
    let max = 0;
    a.forEach((v, i) => (max = Math.max(max, Math.abs(v - b[i]!))));
    expect(max).toBeLessThan(1e-5);
    // Padding counted exactly: recompute from the token lengths.
    const lengths = sortedEncoder.tokenize(SENTENCES).map((t) => t.ids.length);
    expect(sortedEncoder.stats.realTokens).toBe(lengths.reduce((x, y) => x + y, 0));
    expect(sortedEncoder.stats.paddedTokens).toBe(planBatches(lengths, 2, true).paddedTokens);
    expect(unsorted.stats.paddedTokens).toBe(planBatches(lengths, 2, false).paddedTokens);
    expect(unsorted.paddingWasted).toBeGreaterThan(sortedEncoder.paddingWasted);
    // The per-call override: arrival order on the sorting encoder.
    const before = sortedEncoder.stats.paddedTokens;
    const c = await sortedEncoder.encode(SENTENCES, { batchSize: 2, sortByLength: false });
    expect(sortedEncoder.stats.paddedTokens - before).toBe(planBatches(lengths, 2, false).paddedTokens);
    c.forEach((v, i) => expect(Math.abs(v - b[i]!)).toBeLessThan(1e-5));
    await unsorted.close();
    await sortedEncoder.close();
  });

  it('truncates at maxTokens keeping [CLS] … [SEP]', async () => {
    const short = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', maxTokens: 6 });
    const long = 'PersonX buy a phone and then PersonX call PersonY because it is late.';
    const tokens = short.tokenize([long])[0]!.ids;
    expect(tokens.length).toBe(6);
    expect(tokens[0]).toBe(2); // [CLS] in the tiny vocabulary
    expect(tokens[5]).toBe(3); // [SEP]
    const reference = await referenceEmbeddings([long], true, 6);
    expect(maxAbsDiff(await short.encode([long]), reference)).toBeLessThan(1e-5);
    expect(short.stats.truncated).toBe(1);
    expect(short.fingerprint).not.toBe(encoder.fingerprint);
    await short.close();
  });

  // The bound comes from measurements on both CPU classes (docs/embeddings.md): the lowest cosine of
  // these sentences is 0.99982 on AVX-512 VNNI (AMD EPYC) and on AVX2 without VNNI (qemu-x86_64 -cpu
  // max), the same bytes on both. With ±127 weights it was 0.99979 there and 0.964 on AVX2.
  it('q8 (dynamic quantisation) stays close to fp32: cosine > 0.9995 per sentence', async () => {
    const q8 = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', dtype: 'q8' });
    const a = await encoder.encode(SENTENCES);
    const b = await q8.encode(SENTENCES);
    for (let r = 0; r < SENTENCES.length; r++) {
      let dot = 0;
      for (let d = 0; d < 32; d++) dot += a[r * 32 + d]! * b[r * 32 + d]!;
      expect(dot, SENTENCES[r]).toBeGreaterThan(0.9995);
    }
    expect(q8.info.onnxFile.endsWith('onnx/model_quantized.onnx')).toBe(true);
    expect(q8.fingerprint).not.toBe(encoder.fingerprint);
    await q8.close();
  });

  it('reports what ran: model, dim, provider, attempts', () => {
    expect(encoder.dim).toBe(32);
    expect(encoder.provider).toBe('cpu');
    expect(encoder.info.providerAttempts).toEqual([expect.objectContaining({ provider: 'cpu', ok: true })]);
    expect(encoder.info.source).toBe('model-dir');
    expect(encoder.name).toContain('intentsim/generated-tiny-bert');
    expect(encoder.sentenceBert).toBe(true);
  });

  it('an empty input gives an empty matrix', async () => {
    expect((await encoder.encode([])).length).toBe(0);
  });
});
