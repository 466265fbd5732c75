// The queue runs every encoder: a job of a glove-100d or stand-in run names its encoder, and a
// worker opens it on the first such job, with no Sentence-BERT model at all (the offline set-up of
// docs/distributed.md). Payloads without a server; then real runs against a redis-server this file
// starts on a free loopback port, with `intentsim queue worker` processes that have no model: the
// bytes must be the local run's, a worker killed mid-run changes nothing, and Sentence-BERT jobs
// are left to workers that have the model (they wait, and the coordinator says so).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeJobId, parseEncodeJob, type EncodeJob } from '../workers/queue/encode-job.js';
import { baselineIdentity, baselineRequestOf } from '../workers/queue/baseline-request.js';
import { haveRedisServer, startRedisServer } from '../bench/support/redis-server.js';
import { faultsWorkspace, fileHashes, isRunRecord, runCliOk, startCli } from './support/faults.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');

const gloveJob = (over: Partial<EncodeJob> = {}): EncodeJob => ({
  format: 1,
  model: baselineIdentity({ fingerprint: 'glove-100d-0123456789abcdef' }),
  encoder: { name: 'glove-100d', sif: false },
  sentences: ['a tent', 'the rain'],
  batchSize: 64,
  normalize: true,
  ...over,
});

describe('baseline jobs', () => {
  it('name their encoder (glove-100d with its weighting, or the stand-in); Sentence-BERT jobs name none', () => {
    expect(baselineRequestOf({ encoder: 'glove-100d', sif: true })).toEqual({ name: 'glove-100d', sif: true });
    expect(baselineRequestOf({ encoder: 'glove-100d' })).toEqual({ name: 'glove-100d', sif: false });
    expect(baselineRequestOf({ encoder: 'offline-hashing-v1' })).toEqual({ name: 'offline-hashing-v1' });
    expect(baselineRequestOf({ encoder: 'sentence-bert' })).toBeUndefined();
    expect(baselineRequestOf({})).toBeUndefined();
    expect(baselineIdentity({ fingerprint: 'f' })).toEqual({
      fingerprint: 'f',
      dtype: 'fp32',
      maxTokens: 0,
      kernels: 'javascript',
    });
  });

  it('parse, with the first malformed encoder field named; the encoder and its weighting are in the id', () => {
    expect(parseEncodeJob(gloveJob())).toEqual(gloveJob());
    expect(() => parseEncodeJob(gloveJob({ encoder: { name: 'word2vec' } as never }))).toThrow(
      'malformed encode-sentences job: encoder.name must be glove-100d or offline-hashing-v1, got "word2vec"',
    );
    expect(() => parseEncodeJob(gloveJob({ encoder: { name: 'glove-100d' } as never }))).toThrow(
      'malformed encode-sentences job: encoder.sif must be true or false',
    );
    expect(() => parseEncodeJob(gloveJob({ encoder: 'glove-100d' as never }))).toThrow('encoder must be an object');
    expect(encodeJobId(gloveJob())).not.toBe(encodeJobId(gloveJob({ encoder: { name: 'glove-100d', sif: true } })));
    const { encoder: _none, ...sentenceBert } = gloveJob();
    expect(encodeJobId(sentenceBert)).not.toBe(encodeJobId(gloveJob()));
  });
});

const haveRedis = haveRedisServer();
if (!haveRedis)
  console.warn(
    'SKIPPED: "baselines through a real redis-server": redis-server is not on PATH (apt-get install -y redis-server)',
  );

describe.skipIf(!haveRedis)(
  'glove-100d and the stand-in through a real redis-server, on workers without a model',
  () => {
    const ws = faultsWorkspace('intentsim-queue-baselines-');
    let stopRedis = () => {};
    let url = '';
    const children: ChildProcess[] = [];
    const emptyCache = () => join(ws.dir, 'no-model-cache');

    /** `queue worker` with an empty model cache, offline: it finds no Sentence-BERT model. */
    const startWorker = (name: string) => {
      const child = spawn(
        process.execPath,
        [CLI, 'queue', 'worker', '--queue', url, '--queue-name', name, '--model-cache', emptyCache(), '--offline'],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(child);
      let log = '';
      child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
      child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
      const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      return { child, log: () => log, ended };
    };
    const started = async (w: ReturnType<typeof startWorker>) => {
      for (let i = 0; i < 600 && !w.log().includes('worker: serving'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(w.log()).toContain('worker: serving');
      return w;
    };

    let sentences = '';
    beforeAll(async () => {
      const server = await startRedisServer(ws.dir);
      stopRedis = server.stop;
      url = server.url;
      mkdirSync(emptyCache(), { recursive: true });
      sentences = join(ws.dir, 'sentences.txt');
      const edges = readFileSync(join(ws.world, 'edges.jsonl'), 'utf8').trimEnd().split('\n');
      const lines = Array.from({ length: 4000 }, (_, i) => edges[i % edges.length]!.slice(0, 60 + (i % 40)));
      writeFileSync(sentences, lines.join('\n') + '\n');
    }, 60_000);
    afterAll(() => {
      for (const c of children) c.kill('SIGKILL');
      stopRedis();
    });

    const cache = (name: string) => ['--model-cache', join(ws.dir, `cache-${name}`)];
    const queue = (name: string) => ['--queue', url, '--queue-name', name];
    const same = (a: string, b: string) => expect(readFileSync(a).equals(readFileSync(b)), `${a} = ${b}`).toBe(true);

    it('encode: glove-100d (mean and SIF) and the stand-in give the local bytes; Sentence-BERT jobs wait for a worker with the model', async () => {
      const [a, b] = await Promise.all([started(startWorker('enc')), started(startWorker('enc'))]);
      expect(a.log()).toMatch(
        /no Sentence-BERT model \(.+ not found here; .+\): glove-100d and offline-hashing-v1 jobs only/,
      );
      const out = (f: string) => join(ws.dir, f);
      for (const [label, flags] of [
        ['glove', ['--encoder', 'glove-100d']],
        ['sif', ['--encoder', 'glove-100d', '--sif']],
        ['hashing', ['--encoder', 'offline-hashing-v1']],
      ] as const) {
        runCliOk(['encode', '--in', sentences, '--out', out(`${label}-local.npy`), ...flags, ...cache('local')]);
        const run = runCliOk([
          ...['encode', '--in', sentences, '--out', out(`${label}-queue.npy`), ...flags, ...cache('coordinator')],
          ...['--queue-job-sentences', '500', ...queue('enc')],
        ]);
        same(out(`${label}-queue.npy`), out(`${label}-local.npy`));
        expect(run.stderr + run.stdout).toMatch(label === 'hashing' ? /provider: queue: none/ : /provider: queue: cpu/);
      }
      // The manifest records the encoder's own description, the queue and its jobs.
      const manifest = JSON.parse(readFileSync(out('glove-queue.npy.manifest.json'), 'utf8')) as {
        encoder: { encoder: string; sentenceBert: boolean; queue: { name: string; jobs: number } };
      };
      expect(manifest.encoder).toMatchObject({
        encoder: 'glove-100d',
        sentenceBert: false,
        queue: { name: 'enc-baselines', jobs: 8 },
      });

      // A Sentence-BERT run: these workers have no model, so they do not serve its queue; its jobs
      // wait for a worker that has one, and the coordinator says so (none takes a job it cannot run).
      expect(a.log()).toContain(`worker: serving enc-baselines at ${url};`);
      const waiting = startCli(
        [
          ...['encode', '--in', sentences, '--out', out('sbert-queue.npy'), '--model-dir', ws.model, '--device', 'cpu'],
          ...queue('enc'),
        ],
        { ...process.env },
      );
      let said = '';
      waiting.child.stderr!.on('data', (d: Buffer) => (said += d.toString()));
      for (let i = 0; i < 1200 && !said.includes('no worker is serving enc-encode'); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(said).toContain('no worker is serving enc-encode; its jobs wait until one starts');
      waiting.child.kill('SIGKILL');
      await waiting.ended;
      expect(a.log() + b.log()).not.toMatch(/refused/);
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      expect(await Promise.all([a.ended, b.ended])).toEqual([0, 0]);
      const ran = [a, b].map((w) => w.log().match(/sentences \(glove-100d\)/g)?.length ?? 0);
      expect(ran[0]! + ran[1]!).toBe(16); // 8 jobs of mean, 8 of SIF
    }, 240_000);

    it('pipeline --encoder glove-100d through 2 workers, one killed mid-run: the local bytes', async () => {
      const world = [
        ...['--graph', join(ws.world, 'graph.sqlite'), '--products', join(ws.world, 'products.jsonl')],
        ...['--concepts', join(ws.world, 'concepts.jsonl'), '--assertions', join(ws.world, 'assertions.jsonl')],
        ...['--seed', '1', '--encoder', 'glove-100d'],
      ];
      const out = (f: string) => join(ws.dir, f);
      runCliOk(['pipeline', ...world, '--out', out('pipe-local'), ...cache('p1'), '--node-cache', out('n1')]);
      const [a, b] = await Promise.all([started(startWorker('pipe')), started(startWorker('pipe'))]);
      const coordinator = startCli([
        ...['pipeline', ...world, '--out', out('pipe-queue'), ...cache('p2'), '--node-cache', out('n2')],
        ...['--queue-job-sentences', '64', ...queue('pipe')],
      ]);
      // Kill one worker once it has run a job; the other finishes the run.
      for (let i = 0; i < 1200 && !a.log().includes('sentences (glove-100d)'); i++)
        await new Promise((r) => setTimeout(r, 25));
      a.child.kill('SIGKILL');
      const run = await coordinator.ended;
      expect(run.status, run.stderr).toBe(0);
      const results = (dir: string) =>
        [...fileHashes(dir, (n) => isRunRecord(n) || /report|summary/.test(n))].sort((x, y) =>
          x[0].localeCompare(y[0]),
        );
      expect(results(out('pipe-queue'))).toEqual(results(out('pipe-local')));
      expect(results(out('pipe-local')).map(([f]) => f)).toContain('items/intentionqa_task1.jsonl');
      expect(readFileSync(out('pipe-local/items/intentionqa_task1.jsonl'), 'utf8').length).toBeGreaterThan(0);
      b.child.kill('SIGTERM');
      expect(await b.ended).toBe(0);
      expect(b.log()).toMatch(/sentences \(glove-100d\)/);
    }, 300_000);
  },
);
