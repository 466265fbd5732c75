// Tokenization on worker threads feeding the pipelined encoder (workers/tokenizer-threads.ts): the
// same vectors, byte for byte, as the encoder tokenizing on its own thread, over many windows; and
// the auto thread count (none on the CPU provider). Needs `npm run build` (the worker runs from dist/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { attachTokenizerThreads, tokenizerThreadCount } from '../workers/tokenizer-threads.js';
import { Rng } from '../core/rng.js';

let dir: string;
let plain: OnnxSentenceEncoder;
let threaded: OnnxSentenceEncoder;
const WORDS = ['PersonX', 'buy', 'a', 'phone', 'then', 'call', 'PersonY', 'rain', 'street', 'wet', 'Zebra!', 'home'];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-tokenizer-threads-'));
  await makeTestModel(dir);
  plain = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', pipeline: true, pipelineWindowBatches: 3 });
  threaded = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', pipeline: true, pipelineWindowBatches: 3 });
});
afterAll(async () => {
  await plain?.close();
  await threaded?.close();
});

describe('tokenizer threads', () => {
  it('give byte-identical vectors to the one-thread tokenizer, in input order, across many windows', async () => {
    expect(attachTokenizerThreads(threaded, 2)).toBe(2);
    expect(threaded.describe().tokenizerThreads).toBe(2);
    const rng = new Rng(7);
    const sentences = Array.from({ length: 300 }, (_, i) =>
      i % 37 === 0
        ? ''
        : Array.from(
            { length: 1 + Math.floor(rng.next() * 20) },
            () => WORDS[Math.floor(rng.next() * WORDS.length)],
          ).join(' '),
    );
    for (const batchSize of [4, 16]) {
      const a = await plain.encode(sentences, { batchSize });
      const b = await threaded.encode(sentences, { batchSize });
      expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
    }
    expect(threaded.stats.sentences).toBe(600);
    expect(threaded.stats.realTokens).toBe(plain.stats.realTokens);
  });

  it('auto: none on the CPU provider or without the pipeline, up to 4 and one core spared elsewhere', () => {
    expect(tokenizerThreadCount('auto', { provider: 'cpu', pipeline: true }, 16)).toBe(0);
    expect(tokenizerThreadCount('auto', { provider: 'webgpu', pipeline: false }, 16)).toBe(0);
    expect(tokenizerThreadCount('auto', { provider: 'webgpu', pipeline: true }, 16)).toBe(4);
    expect(tokenizerThreadCount('auto', { provider: 'cuda', pipeline: true }, 2)).toBe(1);
    expect(tokenizerThreadCount(3, { provider: 'cpu', pipeline: true }, 2)).toBe(3);
    expect(tokenizerThreadCount(3, { provider: 'cpu', pipeline: false }, 2)).toBe(0);
  });
});
