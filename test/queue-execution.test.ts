// A queue execution owns both of its runners: the sentence batches' (the Encoder's sentences) and
// `embed`'s node-context units' (Encoder.contextRunners, a typed field: embed-resources asks it, never
// probes the runner). Against a real redis-server this file starts; no worker is needed, since no job
// is sent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { haveRedisServer, startRedisServer } from '../bench/support/redis-server.js';
import { makeTestModel } from '../embeddings/model-generator.js';
import { openEncoder } from '../workers/open-encoder.js';
import { QueuedContextRunner } from '../workers/queue/queued-context.js';
import { QueuedSentenceEncoder } from '../workers/queue/queued-encoder.js';

describe.skipIf(!haveRedisServer())('the queue execution', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-queue-execution-'));
  const modelDir = join(dir, 'model');
  let url: string;
  let stopRedis = () => {};

  beforeAll(async () => {
    await makeTestModel(modelDir);
    const server = await startRedisServer(dir);
    url = server.url;
    stopRedis = server.stop;
  }, 60_000);
  afterAll(() => {
    stopRedis();
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries its node-context runner: one per graph, closed with the encoder', async () => {
    const queue = { url, name: 'spec-test', progress: false };
    const encoder = await openEncoder({ modelDir, offline: true }, { kind: 'queue', queue });
    let runner: QueuedContextRunner | undefined;
    try {
      expect(encoder.execution).toEqual({ kind: 'queue', queue });
      expect(encoder.sentences).toBeInstanceOf(QueuedSentenceEncoder);
      expect(encoder.contextRunners).toBeDefined();
      runner = await encoder.contextRunners!.open('graph-a');
      expect(runner).toBeInstanceOf(QueuedContextRunner);
      expect(await encoder.contextRunners!.open('graph-a')).toBe(runner);
      expect(encoder.describe()).toMatchObject({ queue: { url, nodeContext: { jobs: 0 } } });
      vi.spyOn(runner, 'close');
    } finally {
      await encoder.close();
    }
    expect(runner.close).toHaveBeenCalledTimes(1);
  });

  it('the same spec run locally has none: its context units run on this thread', async () => {
    const encoder = await openEncoder({ modelDir, offline: true }, { kind: 'local', device: 'cpu' });
    try {
      expect(encoder.contextRunners).toBeUndefined();
      expect(encoder.sentences).not.toBeInstanceOf(QueuedSentenceEncoder);
    } finally {
      await encoder.close();
    }
  });
});
