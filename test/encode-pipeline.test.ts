// The pipelined encoder (issue 30, item 1): while batch k is in the session, batch k+1 is tokenized
// and batch k−1 pooled. Its vectors must be byte-identical to the sequential encoder's on the same
// batches, and with a session whose run() takes a fixed time it must keep that session busy.
import { describe, expect, it, beforeAll } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { onnxRuntimeSessionFactory, type SessionFactory } from '../embeddings/execution-providers.js';
import { pipelineWindows } from '../embeddings/length-batching.js';
import { emptyPipelineTimings, runPipeline } from '../embeddings/encode-pipeline.js';
import { Rng } from '../core/rng.js';

let dir: string;
const WORDS =
  'personx persony buy a phone call the street is wet rain then if and everyone stay at home zebra happen same time'.split(
    ' ',
  );

function randomSentences(count: number, seed: number): string[] {
  const rng = new Rng(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + rng.int(40) }, () => WORDS[rng.int(WORDS.length)]!).join(' '),
  );
}

const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-pipeline-'));
  await makeTestModel(dir);
});

describe('pipelineWindows', () => {
  it('starts with one batch and doubles up to the window size', () => {
    expect(pipelineWindows(1000, 64, 4)).toEqual([
      [0, 64],
      [64, 192],
      [192, 448],
      [448, 704],
      [704, 960],
      [960, 1000],
    ]);
    expect(pipelineWindows(10, 64, 8)).toEqual([[0, 10]]);
    expect(pipelineWindows(0, 64, 8)).toEqual([]);
    expect(() => pipelineWindows(10, 64, 0)).toThrow('pipelineWindowBatches');
  });
});

describe('runPipeline', () => {
  it('calls each step in the same order with and without overlap, and runs one batch at a time', async () => {
    for (const overlap of [false, true]) {
      const log: string[] = [];
      let next = 0;
      let running = 0;
      await runPipeline<number, number>(
        {
          prepare: () => (next < 4 ? (log.push(`prepare ${next}`), next++) : undefined),
          run: async (b) => {
            expect(running).toBe(0);
            running += 1;
            await new Promise((r) => setTimeout(r, 2));
            running -= 1;
            return b * 10;
          },
          finish: (b, r) => void log.push(`finish ${b}=${r}`),
        },
        overlap,
        emptyPipelineTimings(),
      );
      const only = (word: string) => log.filter((l) => l.startsWith(word));
      expect(only('prepare')).toEqual(['prepare 0', 'prepare 1', 'prepare 2', 'prepare 3']);
      expect(only('finish')).toEqual(['finish 0=0', 'finish 1=10', 'finish 2=20', 'finish 3=30']);
      // Overlapped, batch k+1 is prepared before batch k is finished.
      expect(log.indexOf('prepare 1') < log.indexOf('finish 0=0')).toBe(overlap);
    }
  });

  it('a failing run rejects the whole call', async () => {
    let n = 0;
    await expect(
      runPipeline<number, number>(
        {
          prepare: () => (n < 3 ? n++ : undefined),
          run: async (b) => {
            if (b === 1) throw new Error('device lost');
            return b;
          },
          finish: () => undefined,
        },
        true,
        emptyPipelineTimings(),
      ),
    ).rejects.toThrow('device lost');
  });
});

describe('the pipelined encoder on the CPU provider', () => {
  it.each(['fp32', 'q8'] as const)(
    '%s: byte-identical to the sequential encoder on the same windows, random sentences',
    async (dtype) => {
      const pipelined = await OnnxSentenceEncoder.open({
        modelDir: dir,
        device: 'cpu',
        dtype,
        pipeline: true,
        pipelineWindowBatches: 4,
      });
      const sequential = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', dtype });
      try {
        expect(sequential.pipeline).toBe(false); // the CPU default
        for (const [seed, count, batchSize] of [
          [1, 700, 16],
          [2, 33, 8],
          [3, 5, 64],
        ] as const) {
          const sentences = randomSentences(count, seed);
          const actual = await pipelined.encode(sentences, { batchSize });
          // The sequential encoder, one encode() per window, plans exactly the same batches.
          const parts = await Promise.all(
            pipelineWindows(count, batchSize, 4).map(([s, e]) =>
              sequential.encode(sentences.slice(s, e), { batchSize }),
            ),
          );
          const expected = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
          let at = 0;
          for (const p of parts) {
            expected.set(p, at);
            at += p.length;
          }
          expect(bytes(actual).equals(bytes(expected)), `seed ${seed}`).toBe(true);
          // One window over the whole input: the sequential encoder's own plan, the same bytes.
          const whole = await pipelined.encode(sentences, { batchSize: count });
          expect(bytes(whole).equals(bytes(await sequential.encode(sentences, { batchSize: count })))).toBe(true);
          // Per call, pipeline: false is the sequential path.
          const off = await pipelined.encode(sentences, { batchSize, pipeline: false });
          expect(bytes(off).equals(bytes(await sequential.encode(sentences, { batchSize })))).toBe(true);
        }
        expect(pipelined.describe().pipeline).toBe(true);
        expect(pipelined.stats.batches).toBeGreaterThan(44);
      } finally {
        await pipelined.close();
        await sequential.close();
      }
    },
  );
});

/**
 * A session whose run() takes `runMs` of "device" time, as a GPU would, off the JavaScript thread: it
 * hands back a last_hidden_state of the right shape (zeros: pooling still costs what it costs) `runMs`
 * after the call. The device's busy time is Σ runMs. The real session gives names and metadata only.
 */
function fixedTimeSessions(
  dim: number,
  runMs: () => number,
  record: { runs: number; busyMs: number; overlaps: number },
): SessionFactory {
  return {
    ...onnxRuntimeSessionFactory,
    async create(path, options) {
      const real = await onnxRuntimeSessionFactory.create(path, options);
      let busyUntil = 0;
      const double = {
        inputNames: real.inputNames,
        outputNames: real.outputNames,
        outputMetadata: real.outputMetadata,
        inputMetadata: real.inputMetadata,
        release: () => real.release(),
        async run(feeds: ort.InferenceSession.FeedsType, fetches: string[]) {
          const started = performance.now();
          // (1 ms of slack: a timer may fire a little before performance.now() reaches its time)
          if (started < busyUntil - 1) record.overlaps += 1;
          const ms = runMs();
          busyUntil = started + ms;
          const [rows, seq] = feeds.input_ids!.dims as [number, number];
          const result = {
            [fetches[0]!]: new ort.Tensor('float32', new Float32Array(rows * seq * dim), [rows, seq, dim]),
          };
          await new Promise((r) => setTimeout(r, Math.max(0, started + ms - performance.now())));
          record.runs += 1;
          record.busyMs += ms;
          return result;
        },
      };
      return double as unknown as ort.InferenceSession;
    },
  };
}

describe('the pipeline keeps a fixed-time session busy', () => {
  it(
    '≥ 90% of the wall time, where the sequential encoder leaves it idle while it tokenizes and pools',
    { timeout: 60_000, retry: 3 },
    async () => {
      const sentences = randomSentences(24 * 256, 7);
      const batchSize = 256;
      // What tokenization and pooling cost here, per batch (measured, not simulated).
      const probe = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu' });
      await probe.encode(sentences.slice(0, 4 * batchSize), { batchSize }); // warm-up
      probe.stats.tokenizeMs = probe.stats.poolingMs = probe.stats.batches = 0;
      await probe.encode(sentences.slice(4 * batchSize, 8 * batchSize), { batchSize });
      const dim = probe.dim;
      const jsPerBatch = (probe.stats.tokenizeMs + probe.stats.poolingMs) / probe.stats.batches;
      await probe.close();
      // A device that takes three times that per batch: overlapped, the JavaScript work hides behind it.
      // (Twice was enough on an idle machine; with other test files running beside this one the probe's
      // measure undershoots the run's own tokenization often enough to land just under 0.9.)
      const deviceMs = Math.max(20, 3 * jsPerBatch);
      const shares: Record<string, number> = {};
      const inRunJsPerBatch: Record<string, number> = {};
      for (const pipeline of [false, true]) {
        const record = { runs: 0, busyMs: 0, overlaps: 0 };
        const encoder = await OnnxSentenceEncoder.open({
          modelDir: dir,
          device: 'cpu',
          pipeline,
          sessionFactory: fixedTimeSessions(dim, () => deviceMs, record),
        });
        try {
          const started = performance.now();
          await encoder.encode(sentences, { batchSize });
          const wall = performance.now() - started;
          expect(record.runs).toBe(24);
          expect(record.overlaps).toBe(0);
          shares[String(pipeline)] = record.busyMs / wall;
          const described = encoder.describe();
          inRunJsPerBatch[String(pipeline)] = (described.stats.tokenizeMs + described.stats.poolingMs) / 24;
          expect(described.pipeline).toBe(pipeline);
          expect(described.stats.encodeMs).toBeGreaterThan(0);
          expect(described.sessionBusyShare).toBeGreaterThan(0);
        } finally {
          await encoder.close();
        }
      }
      console.log(
        `fixed-time session (${deviceMs.toFixed(1)} ms a batch; tokenize+pool ${jsPerBatch.toFixed(1)} ms): busy ${shares.false!.toFixed(3)} sequential, ${shares.true!.toFixed(3)} pipelined`,
      );
      // The claim holds while the device takes longer than the JavaScript work it hides. A machine busy
      // with other test files can slow that work past the device's time within the run itself: then the
      // premise is gone, and the attempt is retried rather than judged.
      expect(
        inRunJsPerBatch.true!,
        `tokenize+pool took ${inRunJsPerBatch.true!.toFixed(1)} ms a batch in the run (probe: ${jsPerBatch.toFixed(1)} ms), not under the device's ${deviceMs.toFixed(1)} ms: the machine is too busy for this measurement`,
      ).toBeLessThan(deviceMs / 1.5);
      expect(shares.true).toBeGreaterThanOrEqual(0.9);
      expect(shares.false).toBeLessThan(shares.true!);
    },
  );
});
