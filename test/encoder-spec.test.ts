// An encoder is a spec (which model) plus an execution (where it runs): the execution the usual
// settings name, the worker count set in one place only, a spec and execution that survive a JSON
// round trip and reopen the same encoder, and the opened Encoder that runs take.
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { executionFor, workerThreads, type EncoderExecution, type EncoderSpec } from '../workers/encoder-spec.js';
import { openEncoder, withEncoder } from '../workers/open-encoder.js';
import type { ContextRunnerSource, Encoder } from '../workers/encoder.js';
import type { QueuedContextRunner } from '../workers/queue/queued-context.js';
import type { EmbedRunOptions } from '../engine/pipeline/run-embed.js';
import type { PipelineEmbedOptions } from '../engine/pipeline/run-pipeline.js';
import { encoderExecution } from '../cli/options/model-options.js';
import { HASHING_ENCODER_NAME, HASHING_ENCODER_NOTICE } from '../embeddings/hashing-encoder.js';

const SENTENCES = ['PersonX buys a phone case', 'because they want to protect the phone', ''];

describe('the execution', () => {
  it('is a queue when given one, else a pool of the workers when there are any, else this thread', () => {
    const queue = { url: 'redis://127.0.0.1:6379' };
    const session = { device: 'cpu' as const, intraOpThreads: 2 };
    expect(executionFor({ queue, workers: 4, session })).toEqual({ kind: 'queue', queue });
    expect(executionFor({ workers: 4, session })).toEqual({
      kind: 'pool',
      workers: 4,
      device: 'cpu',
      intraOpThreads: 2,
    });
    expect(executionFor({ workers: 0, session })).toEqual({ kind: 'local', device: 'cpu', intraOpThreads: 2 });
    expect(executionFor({})).toEqual({ kind: 'local' });
  });

  it('the command line names the same executions from --workers, --queue, --device, --threads, --pooling and --tokenizer-threads', () => {
    const flags = { device: 'cpu' as const, threads: 3, pooling: 'js' as const, tokenizerThreads: 2 };
    expect(encoderExecution(flags, { workers: 2 })).toEqual({
      kind: 'pool',
      workers: 2,
      device: 'cpu',
      intraOpThreads: 3,
      pooling: 'js',
    });
    expect(encoderExecution(flags)).toEqual({
      kind: 'local',
      device: 'cpu',
      intraOpThreads: 3,
      pooling: 'js',
      tokenizerThreads: 2,
    });
    expect(encoderExecution({ ...flags, tokenizerThreads: undefined })).toEqual({
      kind: 'local',
      device: 'cpu',
      intraOpThreads: 3,
      pooling: 'js',
      tokenizerThreads: 'auto',
    });
    const queue = { url: 'redis://127.0.0.1:1', name: 'run' };
    expect(encoderExecution(flags, { workers: 2, queue })).toEqual({ kind: 'queue', queue });
  });

  it('holds the worker count, and only the pool has one; neither the spec nor the runs take one', () => {
    expect(workerThreads({ kind: 'pool', workers: 3 })).toBe(3);
    expect(workerThreads({ kind: 'local', intraOpThreads: 8 })).toBe(0);
    expect(workerThreads({ kind: 'queue', queue: { url: 'redis://127.0.0.1:1' } })).toBe(0);
    // The one place: no `workers` field on the model's spec, on runEmbed's or on the pipeline's stage 1.
    expectTypeOf<EncoderSpec>().not.toHaveProperty('workers');
    expectTypeOf<EncoderSpec>().not.toHaveProperty('queue');
    expectTypeOf<EncoderSpec>().not.toHaveProperty('device');
    expectTypeOf<EmbedRunOptions>().not.toHaveProperty('workers');
    expectTypeOf<PipelineEmbedOptions>().not.toHaveProperty('workers');
    expectTypeOf<Extract<EncoderExecution, { kind: 'pool' }>['workers']>().toEqualTypeOf<number>();
  });
});

describe('openEncoder(spec, execution)', () => {
  it('keeps the spec and execution it was opened with; through JSON they reopen the same encoder, byte for byte', async () => {
    const spec: EncoderSpec = { encoder: HASHING_ENCODER_NAME, batchSize: 16 };
    const execution: EncoderExecution = { kind: 'local', intraOpThreads: 1 };
    const warn = vi.fn();
    const first = await openEncoder({ ...spec, warn }, execution);
    const vectors = await first.encode(SENTENCES);
    const saved = JSON.stringify({ spec: first.spec, execution: first.execution });
    await first.close();

    const back = JSON.parse(saved) as { spec: EncoderSpec; execution: EncoderExecution };
    expect(back).toEqual({ spec, execution });
    const again = await openEncoder({ ...back.spec, warn }, back.execution);
    try {
      expect(again.fingerprint).toBe(first.fingerprint);
      expect(again.name).toBe(HASHING_ENCODER_NAME);
      expect(again.dim).toBe(first.dim);
      expect(Buffer.from((await again.encode(SENTENCES)).buffer)).toEqual(Buffer.from(vectors.buffer));
      // The blank line has nothing to embed: an all-zero row, as the stand-in promises.
      expect(vectors.subarray(2 * first.dim).every((x) => x === 0)).toBe(true);
    } finally {
      await again.close();
    }
    expect(warn.mock.calls).toEqual([[HASHING_ENCODER_NOTICE], [HASHING_ENCODER_NOTICE]]);
  });

  it('gives a local encoder no node-context runners (its units run on this thread); the field is typed', async () => {
    const encoder = await openEncoder({ encoder: HASHING_ENCODER_NAME, warn: () => {} });
    try {
      expect(encoder.execution).toEqual({ kind: 'local' });
      expect(encoder.contextRunners).toBeUndefined();
      expect(encoder.openMs).toBeGreaterThanOrEqual(0);
    } finally {
      await encoder.close();
    }
    expectTypeOf<Encoder['contextRunners']>().toEqualTypeOf<ContextRunnerSource | undefined>();
    expectTypeOf<ReturnType<ContextRunnerSource['open']>>().toEqualTypeOf<Promise<QueuedContextRunner>>();
  });

  it('withEncoder closes the encoder after its use, also when the use fails', async () => {
    let opened: Encoder | undefined;
    const result = await withEncoder({ encoder: HASHING_ENCODER_NAME, warn: () => {} }, { kind: 'local' }, (e) => {
      opened = e;
      vi.spyOn(e.sentences, 'close');
      return Promise.resolve(e.dim);
    });
    expect(result).toBe(opened!.dim);
    expect(opened!.sentences.close).toHaveBeenCalledTimes(1);

    let failed: Encoder | undefined;
    await expect(
      withEncoder({ encoder: HASHING_ENCODER_NAME, warn: () => {} }, { kind: 'local' }, (e) => {
        failed = e;
        vi.spyOn(e.sentences, 'close');
        return Promise.reject(new Error('the use failed'));
      }),
    ).rejects.toThrow('the use failed');
    expect(failed!.sentences.close).toHaveBeenCalledTimes(1);
    // A second close (a run that closes what its caller will close again) does not close twice.
    await failed!.close();
    expect(failed!.sentences.close).toHaveBeenCalledTimes(1);
  });
});
