// `queue status` after jobs completed: it printed "no data yet", because BullMQ records a minute's
// completions only when a job completes in a later minute. The open minute and the total are shown.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { completedLine, queueStatus } from '../workers/queue/queue-admin.js';
import { encodeQueueName } from '../workers/queue/queue-names.js';
import { QueueConnection } from '../workers/queue/redis-connection.js';
import { haveRedisServer, startRedisServer } from '../bench/support/redis-server.js';
import { runCliOk } from './support/faults.js';

describe('the completed-jobs line', () => {
  it('says none, or the total and the minutes newest first, the open one with its start', () => {
    expect(completedLine({ completedTotal: 0, completedPerMinute: [] })).toBe('completed: none yet');
    // A short run: no minute closed yet, all of its jobs in the open one.
    expect(
      completedLine({
        completedTotal: 7,
        completedPerMinute: [],
        openMinute: { from: '2026-11-26T14:05:00.000Z', completed: 7 },
      }),
    ).toBe('completed: 7 in all; per minute, newest first: 7 since 14:05 UTC');
    expect(
      completedLine({
        completedTotal: 60,
        completedPerMinute: [30, 0, 20],
        openMinute: { from: '2026-11-26T14:09:00.000Z', completed: 10 },
      }),
    ).toBe('completed: 60 in all; per minute, newest first: 10 since 14:09 UTC, 30, 0, 20');
  });
});

const haveRedis = haveRedisServer();
if (!haveRedis) console.warn('SKIPPED: "queue status after a short run": redis-server is not on PATH');

describe.skipIf(!haveRedis)('queue status after a short run, on a real redis-server', () => {
  let dir: string;
  let server: { url: string; stop: () => void };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'intentsim-queue-status-'));
    server = await startRedisServer(dir);
  });
  afterAll(() => {
    server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts the jobs completed in the minute not yet closed', async () => {
    const name = encodeQueueName('status');
    const redis = await QueueConnection.open(server.url);
    const queue = new Queue(name, redis.forQueue(name));
    const events = new QueueEvents(name, redis.forQueue(name));
    // Metrics as `queue worker` collects them (workers/queue/queue-worker.ts).
    const worker = new Worker(name, async () => 'done', { ...redis.forQueue(name), metrics: { maxDataPoints: 60 } });
    try {
      await events.waitUntilReady();
      const jobs = await Promise.all([1, 2, 3].map((i) => queue.add('job', { i })));
      await Promise.all(jobs.map((j) => j.waitUntilFinished(events)));
      const [status] = await queueStatus(server.url, 'status');
      expect(status!.completedTotal).toBe(3);
      // Whether or not a minute closed during the run, every job is counted once.
      expect((status!.openMinute?.completed ?? 0) + status!.completedPerMinute.reduce((a, b) => a + b, 0)).toBe(3);
      const printed = runCliOk(['queue', 'status', '--queue', server.url, '--queue-name', 'status']).stdout;
      expect(printed).toMatch(/^status-encode: waiting 0, active 0, completed 3, /);
      expect(printed).toMatch(/\n {2}completed: 3 in all; per minute, newest first: \d+ since \d\d:\d\d UTC/);
      expect(printed).not.toContain('no data yet');
    } finally {
      await worker.close();
      await events.close();
      await queue.close();
      await redis.close();
    }
  }, 60_000);
});
