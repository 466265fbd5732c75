// The distributed queue (BullMQ on Redis): settings and job payloads without a server, then real
// runs against a redis-server this file starts on a free loopback port, with worker processes
// started as `intentsim queue worker`: the queue's outputs must be the local run's bytes.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { displayQueueUrl, queueUrlFrom, redisOptions, checkQueueReachable } from '../workers/queue/redis-connection.js';
import { encodeJobId, parseEncodeJob, type EncodeJob } from '../workers/queue/encode-job.js';
import { identityMismatch } from '../workers/queue/job-payloads.js';
import { contextQueueName, encodeQueueName } from '../workers/queue/queue-names.js';
import {
  contextJobId,
  decodeContextResult,
  encodeContextResult,
  graphMismatch,
  nodeTextMismatch,
  parseContextJob,
  type ContextJob,
} from '../workers/queue/context-job.js';
import type { ContextUnitResult } from '../embeddings/context-embedder.js';
import { freePort, haveRedisServer, startRedisCluster, startRedisServer } from '../bench/support/redis-server.js';
import {
  expectSameOutputs,
  faultsWorkspace,
  fileHashes,
  runCli,
  runCliOk,
  isRunRecord,
  startCli,
} from './support/faults.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');
const PASSWORD = 'queue-Pa55word-never-shown';

const haveRedis = haveRedisServer();
if (!haveRedis)
  console.warn(
    'SKIPPED: "queue through a real redis-server" — redis-server is not on PATH. ' +
      'Install it (apt-get install -y redis-server; .ci/run does so as root) and run: npx vitest run test/queue.test.ts',
  );

const job = (over: Partial<EncodeJob> = {}): EncodeJob => ({
  format: 1,
  model: { fingerprint: 'abc', dtype: 'q8', maxTokens: 256, kernels: 'avx512-vnni' },
  sentences: ['a', 'b'],
  batchSize: 64,
  normalize: true,
  ...over,
});

const contextJob = (over: Partial<ContextJob> = {}): ContextJob => ({
  format: 1,
  model: { fingerprint: 'abc', dtype: 'q8', maxTokens: 256, kernels: 'avx512-vnni' },
  graph: 'sqlite:10n:20e:r1',
  templates: 'templates-1f',
  mode: 'induced',
  batchSize: 64,
  workSentences: 8192,
  streamEdges: 5000,
  unit: {
    kind: 'group',
    nodes: [
      { id: 3, text: 'PersonX buy a tent' },
      { id: 7, text: 'PersonX go camping' },
    ],
  },
  ...over,
});

describe('node-context jobs', () => {
  it('ids depend on content and settings only', () => {
    expect(contextJobId(contextJob())).toBe(contextJobId(contextJob()));
    expect(contextJobId(contextJob())).toMatch(/^ctx-[0-9a-f]{40}$/);
    expect(contextJobId(contextJob())).not.toBe(contextJobId(contextJob({ mode: 'incident' })));
    expect(contextJobId(contextJob())).not.toBe(contextJobId(contextJob({ graph: 'sqlite:10n:20e:r2' })));
    expect(contextJobId(contextJob())).not.toBe(
      contextJobId(contextJob({ unit: { kind: 'hub', node: { id: 3, text: 'PersonX buy a tent' } } })),
    );
  });

  it('names the first malformed field of a payload', () => {
    expect(parseContextJob(contextJob())).toEqual(contextJob());
    const hub = contextJob({ unit: { kind: 'hub', node: { id: 1, text: 'x' } } });
    expect(parseContextJob(hub)).toEqual(hub);
    const bad = (over: Record<string, unknown>) => () => parseContextJob({ ...contextJob(), ...over });
    expect(() => parseContextJob(null)).toThrow('malformed node-context job: the payload is not an object');
    expect(bad({ model: { fingerprint: 1 } })).toThrow('model.fingerprint must be a string');
    expect(bad({ graph: 5 })).toThrow('graph must be a string');
    expect(bad({ mode: 'all' })).toThrow('mode must be induced or incident');
    expect(bad({ workSentences: 0 })).toThrow('workSentences must be a positive integer');
    expect(bad({ unit: undefined })).toThrow('unit is missing');
    expect(bad({ unit: { kind: 'group', nodes: [] } })).toThrow('unit.nodes must be a non-empty array');
    expect(
      bad({
        unit: {
          kind: 'group',
          nodes: [
            { id: 1, text: 'a' },
            { id: 1.5, text: 'b' },
          ],
        },
      }),
    ).toThrow('unit.nodes[1] must be {id: integer, text: string}');
    expect(bad({ unit: { kind: 'hub', node: { id: 1 } } })).toThrow('unit.node must be {id: integer, text: string}');
    expect(bad({ unit: { kind: 'all' } })).toThrow('unit.kind must be group or hub');
  });

  it('refuses another graph, other templates, or ids that name other texts', () => {
    const own = { graph: 'sqlite:10n:20e:r1', templates: 'templates-1f' };
    expect(graphMismatch(contextJob(), own)).toBeUndefined();
    expect(graphMismatch(contextJob(), { ...own, graph: 'sqlite:10n:21e:r2' })).toBe(
      'refused: the job wants graph sqlite:10n:20e:r1, this worker has sqlite:10n:21e:r2',
    );
    expect(graphMismatch(contextJob(), { ...own, templates: 'templates-2a' })).toContain('sentence templates');
    const nodes = [
      { id: 3, text: 'PersonX buy a tent' },
      { id: 7, text: 'PersonX go camping' },
    ];
    expect(
      nodeTextMismatch(
        nodes,
        new Map([
          [3, 'PersonX buy a tent'],
          [7, 'PersonX go camping'],
        ]),
      ),
    ).toBeUndefined();
    expect(
      nodeTextMismatch(
        nodes,
        new Map([
          [3, 'PersonX buy a tent'],
          [7, 'PersonX go fishing'],
        ]),
      ),
    ).toBe('refused: node 7 is "PersonX go camping" in the job, "PersonX go fishing" in this worker\'s graph');
  });

  it('results round-trip exactly: vectors, nodes without one, and the counts', () => {
    const counts = {
      missingFromGraph: 1,
      streamedHubs: 0,
      cappedHubs: 0,
      edges: 9,
      sentenceOccurrences: 12,
      sentencesEncoded: 10,
      sentencesWithoutVector: 0,
      workChunks: 1,
      encodeMs: 3.5,
    };
    const result: ContextUnitResult = {
      embeddings: [
        { sentences: 4, vector: new Float32Array([0.1, -2.5, Math.PI]) },
        { sentences: 0, vector: null },
        { sentences: 8, vector: new Float32Array([1e-30, 7, -0]) },
      ],
      counts,
    };
    const wire = JSON.parse(JSON.stringify(encodeContextResult(result, 3, 'cpu'))) as ReturnType<
      typeof encodeContextResult
    >;
    expect(wire.provider).toBe('cpu');
    expect(decodeContextResult(wire, 3, 3)).toEqual(result);
    expect(() => decodeContextResult(wire, 2, 3)).toThrow('3 sentence counts and 3 vector flags, expected 2 nodes');
    expect(() => decodeContextResult(wire, 3, 4)).toThrow('dimension 3, expected 4');
    expect(() => decodeContextResult({ ...wire, vectors: wire.vectors.slice(8) }, 3, 3)).toThrow('vector bytes');
  });
});

describe('queue settings and payloads', () => {
  it('maps redis:// and rediss:// URLs to connection options, password included only there', () => {
    expect(redisOptions('redis://:p%40ss@10.0.0.5:6380/2')).toMatchObject({
      host: '10.0.0.5',
      port: 6380,
      db: 2,
      password: 'p@ss',
      maxRetriesPerRequest: null,
    });
    const tls = redisOptions('rediss://user:pw@cache.example.com');
    expect(tls).toMatchObject({ host: 'cache.example.com', port: 6379, db: 0, username: 'user', password: 'pw' });
    expect(tls.tls).toEqual({ servername: 'cache.example.com' });
    expect(redisOptions('redis://127.0.0.1:7000').tls).toBeUndefined();
    expect(() => redisOptions('http://h:1')).toThrow('queue must be a redis:// or rediss:// URL');
    expect(() => redisOptions('redis://h:1/x')).toThrow('database number');
    expect(displayQueueUrl('redis://:secret-pw@h:1/0')).toBe('redis://***@h:1/0');
  });

  it('takes the URL from the option, else INTENTSIM_REDIS_URL, else REDIS_URL', () => {
    const env = { INTENTSIM_REDIS_URL: 'redis://a:1', REDIS_URL: 'redis://b:2' };
    expect(queueUrlFrom('redis://c:3', env)).toBe('redis://c:3');
    expect(queueUrlFrom(undefined, env)).toBe('redis://a:1');
    expect(queueUrlFrom(undefined, { REDIS_URL: 'redis://b:2' })).toBe('redis://b:2');
    expect(queueUrlFrom(undefined, {})).toBeUndefined();
  });

  it('job ids depend on content and settings only', () => {
    expect(encodeJobId(job())).toBe(encodeJobId(job()));
    expect(encodeJobId(job())).not.toBe(encodeJobId(job({ sentences: ['a', 'c'] })));
    expect(encodeJobId(job())).not.toBe(encodeJobId(job({ batchSize: 32 })));
    expect(encodeJobId(job())).toMatch(/^enc-[0-9a-f]{40}$/);
  });

  it('names the first malformed field of a payload', () => {
    expect(parseEncodeJob(job())).toEqual(job());
    expect(() => parseEncodeJob('x')).toThrow('malformed encode-sentences job: the payload is not an object');
    expect(() => parseEncodeJob({ ...job(), format: 2 })).toThrow('format must be 1, got 2');
    expect(() => parseEncodeJob({ ...job(), model: undefined })).toThrow('model is missing');
    expect(() => parseEncodeJob({ ...job(), sentences: ['a', 3] })).toThrow('sentences must be an array of strings');
    expect(() => parseEncodeJob({ ...job(), batchSize: 0 })).toThrow('batchSize must be a positive integer');
    expect(() => parseEncodeJob({ ...job(), model: { ...job().model, dtype: 'fp16' } })).toThrow('dtype');
  });

  it('refuses another model, dtype or token limit', () => {
    const own = job().model;
    expect(identityMismatch(own, own)).toBeUndefined();
    expect(identityMismatch({ ...own, fingerprint: 'zzz' }, own)).toBe(
      'refused: the job wants model fingerprint zzz, this worker has abc',
    );
    expect(identityMismatch({ ...own, dtype: 'fp32' }, own)).toContain('dtype fp32');
    expect(identityMismatch({ ...own, maxTokens: 128 }, own)).toContain('maxTokens 128');
  });

  it('refuses a job made on another CPU kernel class, and a payload without one', () => {
    const own = job().model;
    expect(identityMismatch({ ...own, kernels: 'avx2' }, own)).toBe(
      'refused: the job wants q8 kernels of CPU class avx2, this worker has avx512-vnni (their vectors differ)',
    );
    const { kernels: _kernels, ...withoutKernels } = own;
    expect(() => parseEncodeJob({ ...job(), model: withoutKernels })).toThrow('model.kernels must be a string');
    expect(() => parseContextJob({ ...contextJob(), model: withoutKernels })).toThrow('model.kernels must be a string');
  });

  it('names queues per run', () => {
    expect(encodeQueueName()).toBe('intentsim-encode');
    expect(encodeQueueName('run-7')).toBe('run-7-encode');
    expect(contextQueueName('run-7')).toBe('run-7-nodes');
    expect(() => encodeQueueName('a b')).toThrow('queueName');
    expect(() => contextQueueName('a/b')).toThrow('queueName');
  });
});

interface WorkerProcess {
  child: ChildProcess;
  log: () => string;
  ended: Promise<number | null>;
}

describe.skipIf(!haveRedis)('queue through a real redis-server', () => {
  const ws = faultsWorkspace('intentsim-queue-');
  let stopRedis = () => {};
  let url = '';
  const workers: WorkerProcess[] = [];

  const startWorker = (queueName: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): WorkerProcess => {
    const child = spawn(
      process.execPath,
      [
        CLI,
        'queue',
        'worker',
        '--queue',
        url,
        '--queue-name',
        queueName,
        '--model-dir',
        ws.model,
        '--device',
        'cpu',
        ...extra,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
    );
    let log = '';
    child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const w = { child, log: () => log, ended };
    workers.push(w);
    return w;
  };
  const waitFor = async (what: () => boolean, label: string, ms = 30_000) => {
    const until = Date.now() + ms;
    while (!what()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${label}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const startWorkers = async (n: number, queueName: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) => {
    const started = Array.from({ length: n }, () => startWorker(queueName, extra, env));
    for (const w of started) await waitFor(() => w.log().includes('worker: serving'), 'a worker to start');
    return started;
  };
  const stop = async (w: WorkerProcess) => {
    w.child.kill('SIGTERM');
    return w.ended;
  };

  let sentences = '';
  beforeAll(async () => {
    const server = await startRedisServer(ws.dir);
    stopRedis = server.stop;
    const open = server.url;
    url = open.replace('redis://', `redis://:${PASSWORD}@`);
    // The password is set through the connection, so that it is in no process's arguments.
    const { Redis } = await import('ioredis');
    const admin = new Redis(redisOptions(open));
    await admin.config('SET', 'requirepass', PASSWORD);
    admin.disconnect();
    await checkQueueReachable(url);
    sentences = join(ws.dir, 'sentences.txt');
    const edges = readFileSync(join(ws.world, 'edges.jsonl'), 'utf8').split('\n').slice(0, 300);
    writeFileSync(sentences, edges.map((l) => l.slice(0, 80)).join('\n') + '\n');
  }, 60_000);

  afterAll(async () => {
    for (const w of workers) w.child.kill('SIGKILL');
    stopRedis();
  });

  const model = () => ['--model-dir', ws.model, '--device', 'cpu'];
  const queue = (name: string) => ['--queue', url, '--queue-name', name];

  /** A worker's own copy of the coordinator's graph, as on another machine. */
  const workerGraph = (name = 'worker-graph.sqlite') => {
    const copy = join(ws.dir, name);
    copyFileSync(join(ws.world, 'graph.sqlite'), copy);
    return copy;
  };

  it('encode, catalog index, embed and pipeline through 2 worker processes give the local bytes', async () => {
    const pair = await startWorkers(2, 'same', ['--graph', workerGraph()]);
    const out = (name: string) => join(ws.dir, name);
    const small = ['--batch-size', '8', '--queue-job-sentences', '24'];

    runCliOk(['encode', '--in', sentences, '--out', out('local.npy'), '--batch-size', '8', ...model()]);
    const viaQueue = runCliOk([
      'encode',
      '--in',
      sentences,
      '--out',
      out('queue.npy'),
      ...small,
      ...model(),
      ...queue('same'),
    ]);
    expect(readFileSync(out('queue.npy')).equals(readFileSync(out('local.npy')))).toBe(true);
    expect(viaQueue.stdout).toContain('queue: cpu');
    const manifest = JSON.parse(readFileSync(out('queue.npy.manifest.json'), 'utf8')) as {
      encoder: { queue: { jobs: number; providers: Record<string, number> } };
    };
    expect(manifest.encoder.queue.jobs).toBe(Math.ceil(300 / 24));
    expect(manifest.encoder.queue.providers).toEqual({ cpu: Math.ceil(300 / 24) });

    const products = join(ws.world, 'products.jsonl');
    runCliOk([
      'catalog',
      'index',
      '--products',
      products,
      '--out',
      out('cat-local'),
      '--chunk-products',
      '16',
      ...model(),
    ]);
    runCliOk([
      'catalog',
      'index',
      '--products',
      products,
      '--out',
      out('cat-queue'),
      '--chunk-products',
      '16',
      ...model(),
      ...queue('same'),
    ]);
    expectSameOutputs(out('cat-queue'), out('cat-local'));

    // score shoppingbench's titles: the same title similarities, so the same scores.
    const targets = join(ws.dir, 'sb-targets.jsonl');
    const predictions = join(ws.dir, 'sb-predictions.jsonl');
    writeFileSync(
      targets,
      JSON.stringify({
        query_id: 'q1',
        reward: { product_id: 'T1', title: ['wireless mouse'], price: [{ 'less than': [0, 30] }] },
      }) + '\n',
    );
    writeFileSync(
      predictions,
      JSON.stringify({
        query_id: 'q1',
        products: [{ product_id: 'p9', title: 'bluetooth mouse', price: 19.9, shop_id: 's1' }],
      }) + '\n',
    );
    const score = ['score', 'shoppingbench', '--predictions', predictions, '--targets', targets, ...model()];
    runCliOk([...score, '--out', out('sb-local')]);
    runCliOk([...score, '--out', out('sb-queue'), ...queue('same')]);
    expect(readFileSync(out('sb-queue/scores.jsonl'), 'utf8')).toBe(readFileSync(out('sb-local/scores.jsonl'), 'utf8'));
    expect(readFileSync(out('sb-queue/scores.jsonl'), 'utf8')).toMatch(/"titleSim":-?\d/);

    const world = [
      '--graph',
      join(ws.world, 'graph.sqlite'),
      '--products',
      products,
      '--concepts',
      join(ws.world, 'concepts.jsonl'),
    ];
    runCliOk([
      'embed',
      ...world,
      '--out',
      out('emb-local'),
      '--model-cache',
      out('c1'),
      '--node-cache',
      out('c1'),
      ...model(),
    ]);
    runCliOk([
      'embed',
      ...world,
      '--out',
      out('emb-queue'),
      '--model-cache',
      out('c2'),
      '--node-cache',
      out('c2'),
      ...model(),
      ...queue('same'),
    ]);
    expectSameOutputs(out('emb-queue'), out('emb-local'));
    // The context work went out as node-context units, read from the workers' copies of the graph.
    const embedManifest = JSON.parse(readFileSync(out('emb-queue/manifest.json'), 'utf8')) as {
      encoder: {
        provider: string;
        queue: { nodeContext: { name: string; jobs: number; providers: Record<string, number> } };
      };
      counts: { context: { computed: number } };
    };
    const nodeJobs = embedManifest.encoder.queue.nodeContext;
    expect(nodeJobs.name).toBe('same-nodes');
    expect(nodeJobs.jobs).toBeGreaterThan(0);
    expect(nodeJobs.providers).toEqual({ cpu: nodeJobs.jobs });
    expect(embedManifest.encoder.provider).toBe('queue: cpu');
    expect(embedManifest.counts.context.computed).toBeGreaterThan(0);

    const pipeline = [...world, '--assertions', join(ws.world, 'assertions.jsonl'), '--seed', '1'];
    runCliOk([
      'pipeline',
      ...pipeline,
      '--out',
      out('pipe-local'),
      '--model-cache',
      out('c3'),
      '--node-cache',
      out('c3'),
      ...model(),
    ]);
    runCliOk([
      'pipeline',
      ...pipeline,
      '--out',
      out('pipe-queue'),
      '--model-cache',
      out('c4'),
      '--node-cache',
      out('c4'),
      ...model(),
      ...queue('same'),
    ]);
    const results = (dir: string) =>
      [...fileHashes(dir, (n) => isRunRecord(n) || /report|summary/.test(n))].sort((a, b) => a[0].localeCompare(b[0]));
    expect(results(out('pipe-queue'))).toEqual(results(out('pipe-local')));
    expect(results(out('pipe-local')).map(([f]) => f)).toContain('items/intentionqa_task1.jsonl');

    // Both workers took jobs, stop cleanly on SIGTERM, and never printed the password.
    // (Their logs are read once they have stopped: runCli blocks this process while a command runs.)
    expect(await Promise.all(pair.map(stop))).toEqual([0, 0]);
    // BullMQ gives each job to whichever worker asks first; together they ran every job.
    const ran = pair.map((w) => w.log().match(/job enc-/g)?.length ?? 0);
    expect(ran[0]! + ran[1]!).toBeGreaterThanOrEqual(Math.ceil(300 / 24));
    const units = pair.map((w) => w.log().match(/job ctx-/g)?.length ?? 0);
    expect(units[0]! + units[1]!).toBeGreaterThanOrEqual(nodeJobs.jobs);
    expect(pair[0]!.log()).toContain('serving same-encode, same-baselines and same-nodes');
    const everything = [viaQueue.stdout, viaQueue.stderr, ...pair.map((w) => w.log())];
    for (const dir of [
      'queue.npy.manifest.json',
      'cat-queue/manifest.json',
      'emb-queue/manifest.json',
      'pipe-queue/manifest.json',
    ])
      everything.push(readFileSync(out(dir), 'utf8'));
    for (const text of everything) expect(text).not.toContain(PASSWORD);
    expect(pair[0]!.log()).toContain('redis://***@127.0.0.1');
  }, 240_000);

  it("a call without batch settings is cut with the encoder's own defaults, as a local call is", async () => {
    const [w] = await startWorkers(1, 'defaults');
    const texts = readFileSync(sentences, 'utf8').trimEnd().split('\n').slice(0, 100);
    const { OnnxSentenceEncoder } = await import('../embeddings/onnx-encoder.js');
    const { QueuedSentenceEncoder } = await import('../workers/queue/queued-encoder.js');
    const options = { modelDir: ws.model, device: 'cpu' as const, batchSize: 8, sortByLength: false };
    const local = await OnnxSentenceEncoder.open(options);
    const queued = await QueuedSentenceEncoder.open(options, { url, name: 'defaults', jobSentences: 16 });
    try {
      const [a, b] = [await local.encode(texts), await queued.encode(texts)];
      expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
      expect(queued.describe().queue.jobs).toBe(Math.ceil(100 / 16));
      // What the progress bar shows: jobs done, and the worker seen (looked up when the jobs went out).
      expect(queued.queueStatus()).toMatchObject({ done: Math.ceil(100 / 16), workersSeen: 1 });
    } finally {
      await local.close();
      await queued.close();
    }
    expect(await stop(w!)).toBe(0);
  }, 120_000);

  it('a job for another model is refused with the reason; the run fails without hanging', async () => {
    const w = (await startWorkers(1, 'refuse', ['--max-tokens', '128']))[0]!;
    const r = runCli([
      'encode',
      '--in',
      sentences,
      '--out',
      join(ws.dir, 'refused.npy'),
      ...model(),
      ...queue('refuse'),
    ]);
    expect(r.status).toBe(1);
    // The fingerprint covers the token limit, so it is the first field found to differ.
    expect(r.stderr).toMatch(
      /failed after up to 3 attempts: refused: the job wants model fingerprint [0-9a-f]{16}, this worker has [0-9a-f]{16}/,
    );
    expect(r.stderr).not.toContain(PASSWORD);
    expect(await stop(w)).toBe(0);
    expect(w.log()).toContain('1 refused');
    // With the right worker, a rerun tries the failed job again and succeeds.
    const [right] = await startWorkers(1, 'refuse');
    runCliOk(['encode', '--in', sentences, '--out', join(ws.dir, 'refused.npy'), ...model(), ...queue('refuse')]);
    expect(await stop(right!)).toBe(0);
  }, 120_000);

  it('a job made on another CPU kernel class is refused: q8 on any other class, fp32 where the float kernels differ', async () => {
    // The classes are injected (INTENTSIM_KERNEL_CLASS), so this runs the same on every machine.
    const { QueuedSentenceEncoder } = await import('../workers/queue/queued-encoder.js');
    const { OnnxSentenceEncoder } = await import('../embeddings/onnx-encoder.js');
    const texts = ['PersonX buy a phone.', 'PersonY call PersonX.', 'It rains.'];
    const saved = process.env.INTENTSIM_KERNEL_CLASS;
    process.env.INTENTSIM_KERNEL_CLASS = 'avx512-vnni'; // the coordinator's class
    const run = async (dtype: 'fp32' | 'q8', workerClass: string, name: string) => {
      const [w] = await startWorkers(1, name, ['--dtype', dtype], { INTENTSIM_KERNEL_CLASS: workerClass });
      const options = { modelDir: ws.model, device: 'cpu' as const, dtype, batchSize: 2 };
      const queued = await QueuedSentenceEncoder.open(options, { url, name });
      try {
        return await queued.encode(texts).then(
          (v) => ({ vectors: v, log: w!.log() }),
          (err: Error) => ({ error: err.message, log: w!.log() }),
        );
      } finally {
        await queued.close();
        await stop(w!);
      }
    };
    try {
      // AVX-512 without VNNI: q8's u8×s8 kernel differs (saturating VPMADDUBSW), the float kernels do not.
      const q8 = await run('q8', 'avx512', 'kernels-q8');
      expect('error' in q8 && q8.error).toMatch(
        /refused: the job wants q8 kernels of CPU class avx512-vnni, this worker has avx512 \(their vectors differ\)/,
      );
      const fp32 = await run('fp32', 'avx512', 'kernels-fp32');
      const local = await OnnxSentenceEncoder.open({ modelDir: ws.model, device: 'cpu', batchSize: 2 });
      const expected = await local.encode(texts);
      await local.close();
      expect('vectors' in fp32 && Buffer.from(fp32.vectors.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
      // AVX2: other float kernels (FMA3), so fp32 is refused too.
      const avx2 = await run('fp32', 'avx2', 'kernels-fp32-avx2');
      expect('error' in avx2 && avx2.error).toMatch(
        /refused: the job wants fp32 kernels of CPU class avx512f, this worker has fma3/,
      );
    } finally {
      if (saved === undefined) delete process.env.INTENTSIM_KERNEL_CLASS;
      else process.env.INTENTSIM_KERNEL_CLASS = saved;
    }
  }, 120_000);

  /** embed's inputs in the demo world. */
  const embedInputs = () => [
    ...['--graph', join(ws.world, 'graph.sqlite'), '--products', join(ws.world, 'products.jsonl')],
    ...['--concepts', join(ws.world, 'concepts.jsonl')],
  ];

  it('a node-context job for another graph is refused with the reason; the run fails without hanging', async () => {
    const other = workerGraph('other-graph.sqlite');
    const { SqliteGraphStore } = await import('../graph/sqlite/sqlite-store.js');
    const writer = SqliteGraphStore.open(other, { mode: 'write' });
    await writer.upsertEdges([{ head: 'PersonX buy a kite', tail: 'PersonX fly a kite', senses: { Result: 1 } }]);
    await writer.close();
    const [w] = await startWorkers(1, 'graph-refuse', ['--graph', other]);
    const r = runCli([
      ...[
        'embed',
        ...embedInputs(),
        '--out',
        join(ws.dir, 'emb-refused'),
        '--model-cache',
        join(ws.dir, 'c-refused'),
        '--node-cache',
        join(ws.dir, 'c-refused'),
      ],
      ...model(),
      ...queue('graph-refuse'),
    ]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /queue job ctx-[0-9a-f]{40} failed after up to 3 attempts: refused: the job wants graph sqlite:\d+n:\d+e:r\d+:id:[0-9a-f-]{36}, this worker has sqlite:\d+n:\d+e:r\d+:id:[0-9a-f-]{36}/,
    );
    expect(await stop(w!)).toBe(0);
    expect(w!.log()).toMatch(/[1-9]\d* refused/);
  }, 120_000);

  it('q8 (batch-dependent vectors), many units, 2 workers: the local bytes; a rerun collects every finished job', async () => {
    // Dynamic quantization scales by the whole batch, so these bytes hold only if every unit is
    // computed exactly as the local run computes it.
    const q8 = [...model(), '--dtype', 'q8', '--chunk-nodes', '16'];
    const pair = await startWorkers(2, 'collect', ['--dtype', 'q8', '--graph', workerGraph('collect-graph.sqlite')]);
    const run = (out: string, cache: string, extra: string[]) =>
      runCliOk([
        ...[
          'embed',
          ...embedInputs(),
          '--out',
          join(ws.dir, out),
          '--model-cache',
          join(ws.dir, cache),
          '--node-cache',
          join(ws.dir, cache),
        ],
        ...q8,
        ...extra,
      ]);
    run('emb-q8-local', 'c-q8-local', []);
    run('emb-first', 'c-first', queue('collect'));
    expectSameOutputs(join(ws.dir, 'emb-first'), join(ws.dir, 'emb-q8-local'));
    // A new node cache: as if the coordinator had died before recording anything. Redis has the results.
    run('emb-again', 'c-again', queue('collect'));
    type Manifest = { encoder: { queue: { nodeContext: { jobs: number; reusedJobs: number } } } };
    const manifest = (dir: string) => JSON.parse(readFileSync(join(ws.dir, dir, 'manifest.json'), 'utf8')) as Manifest;
    const first = manifest('emb-first').encoder.queue.nodeContext;
    expect(first.jobs).toBeGreaterThan(5);
    expect(first.reusedJobs).toBe(0);
    expect(manifest('emb-again').encoder.queue.nodeContext).toEqual({ ...first, reusedJobs: first.jobs });
    expectSameOutputs(join(ws.dir, 'emb-again'), join(ws.dir, 'emb-first'));
    expect(await Promise.all(pair.map(stop))).toEqual([0, 0]);
    const ran = pair.map((w) => w.log().match(/job ctx-/g)?.length ?? 0);
    expect(ran[0]! + ran[1]!).toBe(first.jobs); // each unit computed once, by one worker or the other
  }, 120_000);

  it('a Redis Cluster, reached through any one node: found out, each queue on its own hash tag, the local bytes', async () => {
    const cluster = await startRedisCluster(ws.dir);
    const onCluster = ['--queue', cluster.url, '--queue-name', 'cl'];
    const worker = spawn(
      process.execPath,
      [CLI, 'queue', 'worker', ...onCluster, ...model(), '--graph', workerGraph('cluster-graph.sqlite')],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    worker.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const ended = new Promise<number | null>((resolve) => worker.on('close', resolve));
    try {
      await waitFor(() => log.includes('worker: serving'), 'the cluster worker to start');
      const out = (name: string) => join(ws.dir, name);
      runCliOk(['encode', '--in', sentences, '--out', out('cl-local.npy'), '--batch-size', '8', ...model()]);
      runCliOk([
        'encode',
        '--in',
        sentences,
        '--out',
        out('cl-queue.npy'),
        '--batch-size',
        '8',
        ...model(),
        ...onCluster,
      ]);
      expect(readFileSync(out('cl-queue.npy')).equals(readFileSync(out('cl-local.npy')))).toBe(true);
      const embed = ['embed', ...embedInputs(), ...model(), '--chunk-nodes', '32'];
      runCliOk([
        ...embed,
        '--out',
        out('cl-emb-local'),
        '--model-cache',
        out('c-cl-local'),
        '--node-cache',
        out('c-cl-local'),
      ]);
      runCliOk([
        ...embed,
        '--out',
        out('cl-emb-queue'),
        '--model-cache',
        out('c-cl-queue'),
        '--node-cache',
        out('c-cl-queue'),
        ...onCluster,
      ]);
      expectSameOutputs(out('cl-emb-queue'), out('cl-emb-local'));
      const [sentenceJobs, nodeJobs] = JSON.parse(
        runCliOk(['queue', 'status', ...onCluster, '--json']).stdout,
      ) as Array<{
        jobs: Record<string, number>;
        workers: string[];
      }>;
      expect(sentenceJobs!.jobs.completed).toBeGreaterThan(0);
      expect(nodeJobs!.jobs.completed).toBeGreaterThan(1);
      expect(nodeJobs!.workers).toHaveLength(1);
      // Each queue's keys carry its own hash tag, so all of them share one slot (BullMQ's scripts need it).
      const { Cluster } = await import('ioredis');
      const { port } = new URL(cluster.url);
      const client = new Cluster([{ host: '127.0.0.1', port: Number(port) }]);
      try {
        await new Promise((resolve) => client.once('ready', resolve));
        const keys = (await Promise.all(client.nodes('master').map((node) => node.keys('*')))).flat();
        expect(keys.some((k) => k.startsWith('{cl-encode}:cl-encode:'))).toBe(true);
        expect(keys.some((k) => k.startsWith('{cl-nodes}:cl-nodes:'))).toBe(true);
        expect(keys.every((k) => /^\{cl-(encode|nodes|baselines)\}:/.test(k))).toBe(true);
      } finally {
        client.disconnect();
      }
      worker.kill('SIGTERM');
      expect(await ended).toBe(0);
    } finally {
      worker.kill('SIGKILL');
      cluster.stop();
    }
  }, 120_000);

  it('a malformed job fails with the field that is wrong, and the worker keeps serving', async () => {
    const w = (await startWorkers(1, 'malformed'))[0]!;
    const q = new Queue(encodeQueueName('malformed'), { connection: redisOptions(url) });
    try {
      await q.add('encode-sentences', {
        format: 1,
        model: { fingerprint: 'x', dtype: 'q8', maxTokens: 1, kernels: 'x' },
        sentences: 'no',
      });
      let failed: Awaited<ReturnType<typeof q.getFailed>> = [];
      for (let i = 0; i < 200 && failed.length === 0; i++) {
        failed = await q.getFailed();
        if (failed.length === 0) await new Promise((r) => setTimeout(r, 50));
      }
      expect(w.log()).toContain('malformed');
      expect(failed[0]!.failedReason).toBe('malformed encode-sentences job: sentences must be an array of strings');
      expect(failed[0]!.attemptsMade).toBe(1);
    } finally {
      await q.close();
    }
    runCliOk(['encode', '--in', sentences, '--out', join(ws.dir, 'after.npy'), ...model(), ...queue('malformed')]);
    expect(await stop(w)).toBe(0);
  }, 120_000);

  it('Redis unreachable: a clear error naming the URL without its password', async () => {
    const dead = `redis://:${PASSWORD}@127.0.0.1:${await freePort()}`;
    const r = runCli(['encode', '--in', sentences, '--out', join(ws.dir, 'x.npy'), ...model(), '--queue', dead]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot reach the queue's Redis at redis:\/\/\*\*\*@127\.0\.0\.1:\d+/);
    expect(r.stderr + r.stdout).not.toContain(PASSWORD);
  });

  /** 6,000 sentences: enough work that a job is still running when a process is killed. */
  const manySentences = () => {
    const file = join(ws.dir, 'many.txt');
    const base = readFileSync(sentences, 'utf8').trimEnd().split('\n');
    writeFileSync(file, Array.from({ length: 6000 }, (_, i) => `${base[i % base.length]} ${i}`).join('\n') + '\n');
    return file;
  };
  const counts = async (name: string) => {
    const q = new Queue(encodeQueueName(name), { connection: redisOptions(url) });
    try {
      return await q.getJobCounts('active', 'completed');
    } finally {
      await q.close();
    }
  };

  it('kill -9 of a worker in the middle of a job: another worker gets it, same bytes', async () => {
    const many = manySentences();
    runCliOk(['encode', '--in', many, '--out', join(ws.dir, 'many-local.npy'), '--batch-size', '16', ...model()]);
    const [a] = await startWorkers(1, 'crash', ['--lock-duration', '1000']);
    const coordinator = startCli([
      ...['encode', '--in', many, '--out', join(ws.dir, 'many-queue.npy'), '--batch-size', '16'],
      ...['--queue-job-sentences', '3000', ...model(), ...queue('crash')],
    ]);
    let active = 0;
    for (let i = 0; i < 400 && active === 0; i++) {
      active = (await counts('crash')).active!;
      if (active === 0) await new Promise((r) => setTimeout(r, 25));
    }
    expect(active).toBeGreaterThan(0);
    a!.child.kill('SIGKILL');
    const [b] = await startWorkers(1, 'crash', ['--lock-duration', '1000']);
    const run = await coordinator.ended;
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(ws.dir, 'many-queue.npy')).equals(readFileSync(join(ws.dir, 'many-local.npy')))).toBe(
      true,
    );
    expect(await stop(b!)).toBe(0);
  }, 240_000);

  it('kill -9 of the coordinator, then a rerun: finished jobs are reused, not recomputed, same bytes', async () => {
    const many = manySentences();
    const args = [
      ...['encode', '--in', many, '--out', join(ws.dir, 'resume.npy'), '--batch-size', '16'],
      ...['--queue-job-sentences', '256', '--queue-in-flight', '4', ...model(), ...queue('resume')],
    ];
    const [w] = await startWorkers(1, 'resume');
    const first = startCli(args);
    let completed = 0;
    for (let i = 0; i < 1200 && completed < 5; i++) {
      completed = (await counts('resume')).completed!;
      if (completed < 5) await new Promise((r) => setTimeout(r, 25));
    }
    first.child.kill('SIGKILL');
    expect((await first.ended).signal).toBe('SIGKILL');
    const finishedBefore = (await counts('resume')).completed!;
    expect(finishedBefore).toBeGreaterThanOrEqual(5);
    runCliOk(args);
    const manifest = JSON.parse(readFileSync(join(ws.dir, 'resume.npy.manifest.json'), 'utf8')) as {
      encoder: { queue: { jobs: number; reusedJobs: number } };
    };
    const jobs = Math.ceil(6000 / 256);
    expect(manifest.encoder.queue.jobs).toBe(jobs);
    expect(manifest.encoder.queue.reusedJobs).toBeGreaterThanOrEqual(finishedBefore);
    expect(readFileSync(join(ws.dir, 'resume.npy')).equals(readFileSync(join(ws.dir, 'many-local.npy')))).toBe(true);
    expect(await stop(w!)).toBe(0);
    // Each job ran once: the rerun recomputed nothing the first run's workers had finished.
    expect(w!.log().match(/job enc-/g)?.length).toBe(jobs);
  }, 240_000);

  it('queue status shows the jobs per state and the workers; queue clean removes the run', async () => {
    const [w] = await startWorkers(1, 'same', ['--graph', workerGraph()]);
    const [sentenceJobs, nodeJobs] = JSON.parse(
      runCliOk(['queue', 'status', '--queue', url, '--queue-name', 'same', '--json']).stdout,
    ) as Array<{
      queue: string;
      jobs: Record<string, number>;
      workers: string[];
    }>;
    expect(sentenceJobs!.queue).toBe('same-encode');
    expect(sentenceJobs!.jobs.completed).toBeGreaterThan(0); // the first test's jobs, kept for reruns
    expect(sentenceJobs!.jobs.waiting).toBe(0);
    expect(sentenceJobs!.workers).toEqual([expect.stringMatching(/^intentsim-worker-.+-\d+$/)]);
    expect(nodeJobs!.queue).toBe('same-nodes');
    expect(nodeJobs!.jobs.completed).toBeGreaterThan(0);
    expect(nodeJobs!.workers).toHaveLength(1); // started with --graph
    expect(runCliOk(['queue', 'clean', '--queue', url, '--queue-name', 'same']).stdout).toBe(
      'removed same-encode, same-nodes, same-baselines\n',
    );
    const after = runCliOk(['queue', 'status', '--queue', url, '--queue-name', 'same']).stdout;
    expect(after).toMatch(/^same-encode: waiting 0, active 0, completed 0, failed 0, delayed 0, prioritized 0\n/);
    expect(after).toMatch(/\nsame-nodes: waiting 0, active 0, completed 0, failed 0, delayed 0, prioritized 0\n/);
    expect(await stop(w!)).toBe(0);
  }, 120_000);

  it('Redis lost in the middle of a run: a clear error naming the URL; a rerun after Redis is back gives the same bytes', async () => {
    const many = manySentences();
    const local = join(ws.dir, 'many-local.npy');
    const server = await startRedisServer(ws.dir);
    const lostUrl = server.url;
    const port = new URL(lostUrl).port;
    const args = [
      ...['encode', '--in', many, '--out', join(ws.dir, 'lost.npy'), '--batch-size', '16'],
      ...['--queue-job-sentences', '128', '--queue-in-flight', '2', '--queue-lost-after', '2000', ...model()],
      ...['--queue', lostUrl, '--queue-name', 'lost'],
    ];
    // No worker yet: the jobs wait in Redis when it goes away, so the coordinator is surely mid-run.
    const coordinator = startCli(args);
    const q = new Queue(encodeQueueName('lost'), { connection: redisOptions(lostUrl) });
    q.on('error', () => {});
    let waiting = 0;
    for (let i = 0; i < 1200 && waiting < 2; i++) {
      waiting = (await q.getJobCounts('waiting')).waiting!;
      if (waiting < 2) await new Promise((r) => setTimeout(r, 25));
    }
    expect(waiting).toBe(2); // --queue-in-flight 2
    await q.close();
    server.stop();
    const run = await coordinator.ended;
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toContain(`cannot reach the queue's Redis at ${lostUrl}: lost in the middle of the run`);
    // Redis back on the same port (it kept nothing: --save ''), a worker: the rerun writes the same bytes.
    const again = spawn(
      'redis-server',
      ['--port', port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', ws.dir],
      { stdio: 'ignore' },
    );
    const lostWorker = spawn(
      process.execPath,
      [CLI, 'queue', 'worker', '--queue', lostUrl, '--queue-name', 'lost', ...model()],
      {
        cwd: ROOT,
        stdio: 'ignore',
      },
    );
    try {
      for (
        let i = 0;
        i < 100 &&
        !(await checkQueueReachable(lostUrl).then(
          () => true,
          () => false,
        ));
        i++
      )
        await new Promise((r) => setTimeout(r, 100));
      runCliOk(args);
      expect(readFileSync(join(ws.dir, 'lost.npy')).equals(readFileSync(local))).toBe(true);
    } finally {
      lostWorker.kill('SIGKILL');
      again.kill('SIGKILL');
    }
  }, 240_000);
});
