// What Redis holds is checked, and jobs that vanish are noticed (issue 29, items 2, 7, 8, 10, 12,
// 13): results with NaN, null, invalid JSON, a missing field or the wrong shape are refused naming
// the job and never reused; `queue clean` refuses while a coordinator holds the queue, and a forced
// clean or a Redis restart that loses the jobs does not leave the coordinator waiting for ever.
// Against real redis-server processes this file starts (and restarts), with `intentsim queue worker`
// processes; the outputs must be the local run's bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { checkQueueReachable, redisOptions } from '../workers/queue/redis-connection.js';
import { encodeQueueName } from '../workers/queue/queue-names.js';
import { decodeContextResult, encodeContextResult } from '../workers/queue/context-job.js';
import { decodeVectors } from '../workers/queue/encode-job.js';
import { float32ToBase64 } from '../workers/queue/job-payloads.js';
import { haveRedisServer, startRedisServer } from '../bench/support/redis-server.js';
import { faultsWorkspace, runCli, runCliOk, startCli } from './support/faults.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');

describe('worker results are checked field by field (no server)', () => {
  const base64 = (values: number[]) => float32ToBase64(Float32Array.from(values));

  it('sentence results: shape, fields and finite values', () => {
    const good = { rows: 2, dim: 2, provider: 'cpu', vectors: base64([1, 2, 3, 4]) };
    expect([...decodeVectors(good, 2, 2)]).toEqual([1, 2, 3, 4]);
    expect(() => decodeVectors(null, 2, 2)).toThrow('the result is null, not an object');
    expect(() => decodeVectors(undefined, 2, 2)).toThrow('the result is undefined, not an object');
    expect(() => decodeVectors({ ...good, vectors: undefined }, 2, 2)).toThrow('vectors is missing');
    expect(() => decodeVectors({ ...good, provider: 5 }, 2, 2)).toThrow('provider must be a string');
    expect(() => decodeVectors({ ...good, rows: 3 }, 2, 2)).toThrow('3 × 2 vectors, expected 2 × 2');
    expect(() => decodeVectors({ ...good, vectors: base64([1, 2, 3]) }, 2, 2)).toThrow(
      '12 vector bytes, expected 2 × 2 float32 (16)',
    );
    expect(() => decodeVectors({ ...good, vectors: base64([1, 2, NaN, 4]) }, 2, 2)).toThrow(
      'row 1 has a NaN value at column 0',
    );
    expect(() => decodeVectors({ ...good, vectors: base64([1, Infinity, 3, 4]) }, 2, 2)).toThrow(
      'row 0 has a infinite value at column 1',
    );
  });

  it('node-context results: node count, sentence counts, flags, counts and finite vectors', () => {
    const counts = {
      missingFromGraph: 0,
      streamedHubs: 0,
      cappedHubs: 0,
      edges: 3,
      sentenceOccurrences: 4,
      sentencesEncoded: 4,
      sentencesWithoutVector: 0,
      workChunks: 1,
      encodeMs: 2.5,
    };
    const good = encodeContextResult(
      {
        embeddings: [
          { sentences: 2, vector: Float32Array.from([1, 2]) },
          { sentences: 0, vector: null },
        ],
        counts,
      },
      2,
      'cpu',
    );
    expect(decodeContextResult(good, 2, 2).embeddings[0]!.vector).toEqual(Float32Array.from([1, 2]));
    const bad =
      (over: Record<string, unknown>, nodes = 2) =>
      () =>
        decodeContextResult({ ...good, ...over }, nodes, 2);
    expect(() => decodeContextResult(null, 2, 2)).toThrow('the result is null, not an object');
    expect(bad({ counts: undefined })).toThrow('counts is missing');
    expect(bad({}, 3)).toThrow('2 sentence counts and 2 vector flags, expected 3 nodes');
    expect(bad({ sentences: [2, -1] })).toThrow('sentences[1] must be a whole number ≥ 0');
    expect(bad({ hasVector: [true, 'no'] })).toThrow('hasVector[1] must be true or false');
    expect(bad({ vectors: base64([NaN, 2]) })).toThrow('row 0 has a NaN value at column 0');
    expect(bad({ counts: { ...counts, edges: null } })).toThrow('counts.edges must be a finite number ≥ 0');
  });
});

const haveRedis = haveRedisServer();

describe.skipIf(!haveRedis)('what Redis holds, through a real redis-server', () => {
  const ws = faultsWorkspace('intentsim-queue-integrity-');
  let stopRedis = () => {};
  let url = '';
  const children: ChildProcess[] = [];
  let sentences = '';
  let local = '';

  const model = () => ['--model-dir', ws.model, '--device', 'cpu'];
  /** 60 sentences in jobs of 8: 8 jobs, 2 in flight at once. */
  const encodeArgs = (out: string, queueUrl: string, name: string) => [
    ...['encode', '--in', sentences, '--out', out, '--batch-size', '4', '--queue-job-sentences', '8'],
    ...['--queue-in-flight', '2', ...model(), '--queue', queueUrl, '--queue-name', name],
  ];

  const startWorker = (queueUrl: string, name: string): { log: () => string; ended: Promise<unknown> } => {
    const child = spawn(
      process.execPath,
      [CLI, 'queue', 'worker', '--queue', queueUrl, '--queue-name', name, ...model()],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let log = '';
    child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    return { log: () => log, ended: new Promise((resolve) => child.on('close', resolve)) };
  };
  const waitFor = async (what: () => boolean | Promise<boolean>, label: string, ms = 30_000) => {
    const until = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${label}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const waitingJobs = async (queueUrl: string, name: string) => {
    const q = new Queue(encodeQueueName(name), { connection: redisOptions(queueUrl) });
    q.on('error', () => {});
    try {
      return (await q.getJobCounts('waiting')).waiting ?? 0;
    } finally {
      await q.close();
    }
  };

  beforeAll(async () => {
    const server = await startRedisServer(ws.dir);
    stopRedis = server.stop;
    url = server.url;
    sentences = join(ws.dir, 'sentences.txt');
    const edges = readFileSync(join(ws.world, 'edges.jsonl'), 'utf8').split('\n').slice(0, 60);
    writeFileSync(sentences, edges.map((l) => l.slice(0, 80)).join('\n') + '\n');
    local = join(ws.dir, 'local.npy');
    runCliOk(['encode', '--in', sentences, '--out', local, '--batch-size', '4', ...model()]);
  }, 60_000);

  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    stopRedis();
  });

  it('results an earlier run left that are null, invalid JSON, incomplete, NaN or of the wrong shape are refused and computed again', async () => {
    const w = startWorker(url, 'tamper');
    await waitFor(() => w.log().includes('worker: serving'), 'the worker');
    runCliOk(encodeArgs(join(ws.dir, 'tamper1.npy'), url, 'tamper'));
    const q = new Queue(encodeQueueName('tamper'), { connection: redisOptions(url) });
    const done = await q.getJobs(['completed']);
    expect(done).toHaveLength(8);
    type Result = { rows: number; dim: number; provider: string; vectors: string };
    const real = (i: number) => done[i]!.returnvalue as Result;
    const nan = float32ToBase64(new Float32Array(real(3).rows * real(3).dim).fill(NaN));
    const hostile = [
      'null',
      '{"rows": 8, "dim"',
      JSON.stringify({ ...real(2), vectors: undefined }),
      JSON.stringify({ ...real(3), vectors: nan }),
      JSON.stringify({ ...real(4), rows: real(4).rows + 1 }),
    ];
    const redis = new Redis(redisOptions(url));
    for (const [i, value] of hostile.entries())
      await redis.hset(`bull:${encodeQueueName('tamper')}:${done[i]!.id!}`, 'returnvalue', value);
    redis.disconnect();
    const rerun = runCli(encodeArgs(join(ws.dir, 'tamper2.npy'), url, 'tamper'));
    expect(rerun.status, rerun.stderr).toBe(0);
    for (const [i, reason] of [
      'the result is null, not an object',
      'the result is undefined, not an object',
      'vectors is missing',
      'row 0 has a NaN value at column 0',
      `${real(4).rows + 1} × ${real(4).dim} vectors, expected ${real(4).rows} × ${real(4).dim}`,
    ].entries()) {
      expect(rerun.stderr).toContain(
        `queue job ${done[i]!.id!}: the result an earlier run left is refused (${reason}); computing it again`,
      );
    }
    expect(readFileSync(join(ws.dir, 'tamper2.npy')).equals(readFileSync(local))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(ws.dir, 'tamper2.npy.manifest.json'), 'utf8')) as {
      encoder: { queue: { jobs: number; reusedJobs: number } };
    };
    expect(manifest.encoder.queue).toMatchObject({ jobs: 8, reusedJobs: 3 });
    // The recomputed results are sound: a third run reuses all of them.
    const third = runCliOk(encodeArgs(join(ws.dir, 'tamper3.npy'), url, 'tamper'));
    expect(third.stderr).not.toContain('refused');
    await q.close();
  }, 120_000);

  it('a new result with NaN is refused naming the job, written nowhere, and removed from Redis', async () => {
    // A worker of another program that answers every job with NaN rows of the right shape.
    const hostile = new Worker(
      encodeQueueName('nan'),
      async (job: Job<{ sentences: string[] }>) => ({
        rows: job.data.sentences.length,
        dim: 32,
        provider: 'cpu',
        vectors: float32ToBase64(new Float32Array(job.data.sentences.length * 32).fill(NaN)),
      }),
      { connection: redisOptions(url) },
    );
    try {
      const out = join(ws.dir, 'nan.npy');
      const run = await startCli(encodeArgs(out, url, 'nan')).ended;
      expect(run.status, run.stderr).toBe(1);
      const id =
        /queue job (enc-[0-9a-f]{40}): the worker's result is refused: row 0 has a NaN value at column 0; the job is removed, so a rerun computes it again/.exec(
          run.stderr,
        )?.[1];
      expect(id, run.stderr).toBeDefined();
      expect(existsSync(out)).toBe(false);
      const q = new Queue(encodeQueueName('nan'), { connection: redisOptions(url) });
      expect(await Job.fromId(q, id!)).toBeUndefined();
      await q.close();
    } finally {
      await hostile.close();
    }
  }, 120_000);

  it('queue clean refuses while a coordinator runs; clean --force makes the jobs vanish, and the coordinator adds them again', async () => {
    const out = join(ws.dir, 'clean.npy');
    const coordinator = startCli(encodeArgs(out, url, 'clean-run'));
    await waitFor(async () => (await waitingJobs(url, 'clean-run')) === 2, 'two jobs waiting');
    const refused = runCli(['queue', 'clean', '--queue', url, '--queue-name', 'clean-run']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /clean-run-encode is in use by a running coordinator \(.+ pid \d+\): cleaning now would remove the jobs it waits for\. Wait for the run to end, or stop it; to remove them anyway, add --force/,
    );
    expect(await waitingJobs(url, 'clean-run')).toBe(2);
    expect(runCliOk(['queue', 'clean', '--queue', url, '--queue-name', 'clean-run', '--force']).stdout).toBe(
      'removed clean-run-encode, clean-run-nodes, clean-run-baselines\n',
    );
    // The coordinator notices the jobs are gone and adds them again; a worker then finishes the run.
    await waitFor(async () => (await waitingJobs(url, 'clean-run')) === 2, 'the jobs added again');
    startWorker(url, 'clean-run');
    const run = await coordinator.ended;
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/queue job enc-[0-9a-f]{40} vanished from Redis .*; adding it again/);
    expect(readFileSync(out).equals(readFileSync(local))).toBe(true);
  }, 120_000);

  it('Redis restarted within --queue-lost-after, its jobs lost: the coordinator adds them again and finishes', async () => {
    const server = await startRedisServer(ws.dir);
    const port = new URL(server.url).port;
    const out = join(ws.dir, 'restart.npy');
    const coordinator = startCli(encodeArgs(out, server.url, 'restart'));
    await waitFor(async () => (await waitingJobs(server.url, 'restart')) === 2, 'two jobs waiting');
    server.stop(); // SIGKILL: nothing persisted (--save '', no AOF)
    await new Promise((r) => setTimeout(r, 300));
    const again = spawn(
      'redis-server',
      ['--port', port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', ws.dir],
      { stdio: 'ignore' },
    );
    children.push(again);
    await waitFor(
      () =>
        checkQueueReachable(server.url).then(
          () => true,
          () => false,
        ),
      'Redis back',
    );
    startWorker(server.url, 'restart');
    const run = await coordinator.ended;
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/queue job enc-[0-9a-f]{40} vanished from Redis/);
    expect(readFileSync(out).equals(readFileSync(local))).toBe(true);
  }, 120_000);

  it('a wrong or missing password: authentication failed, once, with no double full stop', async () => {
    const server = await startRedisServer(ws.dir);
    const admin = new Redis(redisOptions(server.url));
    await admin.config('SET', 'requirepass', 'right-Pa55');
    admin.disconnect();
    try {
      const missing = runCli(['queue', 'status', '--queue', server.url]);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain(
        `the queue's Redis at ${server.url} refused the connection: authentication failed (NOAUTH Authentication required).\nGive the password`,
      );
      const wrong = runCli(['queue', 'status', '--queue', server.url.replace('redis://', 'redis://:wrong-Pa55@')]);
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toContain('refused the connection: authentication failed (WRONGPASS');
      expect(wrong.stderr).not.toContain('wrong-Pa55');
      for (const r of [missing, wrong]) {
        expect(r.stderr).not.toContain('..');
        expect(r.stderr).not.toContain('Connection is closed');
      }
    } finally {
      server.stop();
    }
  }, 60_000);
});

describe('URLs a user can get wrong', () => {
  it('a bad %-escape in a Redis password is a clear error, not a URIError', () => {
    expect(() => redisOptions('redis://:100%zz@127.0.0.1:6379')).toThrow(
      'has a password with a bad %-escape (write % as %25, and a reserved character as %XX): redis://***@127.0.0.1:6379',
    );
    const r = runCli(['queue', 'status', '--queue', 'redis://:100%zz@127.0.0.1:1']);
    expect(r.status).toBe(1);
    expect(r.stderr).not.toMatch(/URIError|internal error|\n\s+at /);
    expect(r.stderr).not.toContain('100%zz');
  });

  it('a bolt:// URL with ?password= is a clear error without a stack', () => {
    const r = runCli(['graph', 'stats', '--graph', 'bolt://127.0.0.1:1?password=x']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('the Neo4j driver refuses the URL bolt://127.0.0.1:1');
    expect(r.stderr).toContain('give the password in NEO4J_PASSWORD');
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.stderr).not.toContain('password=x');
  });
});
