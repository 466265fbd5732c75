// The distributed queue (BullMQ on Redis) against the local run, in one run:
// 1. the same sentences encoded locally, through 1 worker process and through 2 (rounds alternated,
//    best of each): sentences/s and the ratio to local. On 2 cores, 2 workers share the cores the
//    local run uses alone, so they cannot beat it; the row is there to show the cost of the split.
// 2. the queue's own cost: trivial jobs (one 1-word sentence, the tiny model) through one worker —
//    ms per job end to end and the jobs/s one coordinator with Redis sustains.
// 3. the bound: how many workers one coordinator and Redis keep busy at the realistic job size, as
//    (jobs/s the queue sustains) ÷ (jobs/s one worker finishes at that size), with its inputs.
// 4. embed's node-context units on a generated graph: local vs 1 vs 2 workers that read their own
//    copy of the graph, and the same bound for them (the coordinator no longer tokenizes).
//
// Needs redis-server on PATH (the module says so and measures nothing otherwise).
// Run: npx tsc -p . && node dist/bench/queue.js [--quick]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBenchModel, makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { sharedMiniLmTokenizerDir } from '../core/shared-files.js';
import { QueuedSentenceEncoder } from '../workers/queue/queued-encoder.js';
import { cleanQueue } from '../workers/queue/queue-admin.js';
import type { SentenceEncoder } from '../embeddings/sentence-encoder.js';
import { aserLikeSentences } from './embeddings.js';
import { writeScaleGraph } from '../graph/generate/generate-scale.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import { graphIdentity } from '../graph/graph-identity.js';
import { ContextEmbedder, type ContextNode } from '../embeddings/context-embedder.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { runAlone } from './support/run-alone.js';
import { haveRedisServer, startRedisServer } from './support/redis-server.js';

const CLI = join(import.meta.dirname, '..', '..', 'bin', 'intentsim.js');

/** `intentsim queue worker` processes on `queueName`, resolved once each says it serves. */
async function startWorkers(
  count: number,
  url: string,
  queueName: string,
  modelArgs: string[],
): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(
        process.execPath,
        [CLI, 'queue', 'worker', '--queue', url, '--queue-name', queueName, ...modelArgs],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      return new Promise<ChildProcess>((resolve, reject) => {
        let log = '';
        child.stderr!.on('data', (d: Buffer) => {
          log += d.toString();
          if (log.includes('worker: serving')) resolve(child);
        });
        child.on('exit', (code) => reject(new Error(`worker exited with ${code}: ${log}`)));
      });
    }),
  );
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          w.removeAllListeners('exit');
          w.once('exit', () => resolve());
          w.kill('SIGTERM');
        }),
    ),
  );
}

async function seconds(encoder: SentenceEncoder, sentences: string[], batchSize: number): Promise<number> {
  const started = performance.now();
  await encoder.encode(sentences, { batchSize });
  return (performance.now() - started) / 1000;
}

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const notes: string[] = [];
  if (!haveRedisServer()) {
    notes.push('not measured: redis-server is not on PATH (apt-get install -y redis-server)');
    return { name: 'Distributed queue (BullMQ on Redis) vs local', rows: [], notes };
  }
  const seed = opts.seed ?? 1;
  const cores = Math.max(1, availableParallelism());
  const count = opts.quick ? 512 : 4096;
  const rounds = opts.quick ? 1 : 3;
  const batchSize = 64;
  const jobSentences = 512;
  const trivialJobs = opts.quick ? 100 : 1000;
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-queue-'));
  const redis = await startRedisServer(dir);
  const url = redis.url;
  const rows: BenchRow[] = [];
  try {
    const modelDir = join(dir, 'model');
    if (opts.quick) await makeTestModel(modelDir);
    else await makeBenchModel(modelDir, { seed, precisions: ['q8'], tokenizerFrom: sharedMiniLmTokenizerDir() });
    const dtype = opts.quick ? 'fp32' : 'q8';
    const model = { modelDir, dtype, device: 'cpu', offline: true } as const;
    const modelArgs = ['--model-dir', modelDir, '--dtype', dtype, '--device', 'cpu'];
    const { sentences, source } = aserLikeSentences(count, seed);

    // 1. Local vs 1 worker vs 2 workers, rounds alternated; each round's sentences carry the round
    //    number, so that no round collects finished jobs of an earlier one.
    const local = await OnnxSentenceEncoder.open({ ...model, intraOpThreads: cores });
    const best = { local: Infinity, one: Infinity, two: Infinity };
    let tokenizeRate = 0;
    const setups = [
      { key: 'one' as const, workers: 1, threads: cores },
      { key: 'two' as const, workers: 2, threads: Math.max(1, Math.floor(cores / 2)) },
    ];
    const pools = new Map<string, { workers: ChildProcess[]; encoder: QueuedSentenceEncoder }>();
    for (const s of setups) {
      const workers = await startWorkers(s.workers, url, `bench-${s.key}`, [
        ...modelArgs,
        '--threads',
        String(s.threads),
      ]);
      const encoder = await QueuedSentenceEncoder.open(model, {
        url,
        name: `bench-${s.key}`,
        jobSentences,
        progress: false,
      });
      pools.set(s.key, { workers, encoder });
    }
    try {
      await local.encode(sentences.slice(0, batchSize), { batchSize }); // warm-up
      // The coordinator tokenizes every sentence to cut the batches: its own ceiling in sentences/s.
      const tokenizeStarted = performance.now();
      local.tokenize(sentences);
      tokenizeRate = count / ((performance.now() - tokenizeStarted) / 1000);
      for (let round = 0; round < rounds; round++) {
        const these = sentences.map((t) => `${t} ${round}`);
        best.local = Math.min(best.local, await seconds(local, these, batchSize));
        for (const s of setups)
          best[s.key] = Math.min(best[s.key], await seconds(pools.get(s.key)!.encoder, these, batchSize));
      }
    } finally {
      await local.close();
      for (const [key, p] of pools) {
        await p.encoder.close();
        await stopWorkers(p.workers);
        await cleanQueue(url, `bench-${key}`, { force: true });
      }
    }
    const rate = (s: number) => count / s;
    rows.push({
      case: `local, 1 process × ${cores} ONNX threads`,
      sentences_per_s: Math.round(rate(best.local)),
      ratio_to_local: 1,
    });
    for (const s of setups)
      rows.push({
        case: `queue, ${s.workers} worker process${s.workers > 1 ? 'es' : ''} × ${s.threads} ONNX thread${s.threads > 1 ? 's' : ''}`,
        sentences_per_s: Math.round(rate(best[s.key])),
        ratio_to_local: Math.round((best.local / best[s.key]) * 100) / 100,
        ...(s.workers === 1 ? { target: '≥ 0.9× local', meets: best.local / best.one >= 0.9 ? 'yes' : 'NO' } : {}),
      });

    // 2. Trivial jobs: one 1-word sentence each, the tiny model, one worker; in flight 16.
    const tinyDir = join(dir, 'tiny');
    await makeTestModel(tinyDir);
    const tinyArgs = ['--model-dir', tinyDir, '--device', 'cpu', '--threads', '1'];
    const [tinyWorker] = await startWorkers(1, url, 'bench-trivial', tinyArgs);
    const coordinator = await QueuedSentenceEncoder.open(
      { modelDir: tinyDir, device: 'cpu' },
      { url, name: 'bench-trivial', jobSentences: 1, maxInFlight: 16, progress: false },
    );
    let trivialSeconds: number;
    try {
      const words = Array.from({ length: trivialJobs }, (_, i) => `word${i}`);
      trivialSeconds = await seconds(coordinator, words, 1);
    } finally {
      await coordinator.close();
      await stopWorkers([tinyWorker!]);
      await cleanQueue(url, 'bench-trivial', { force: true });
    }
    const jobsPerSecond = trivialJobs / trivialSeconds;
    rows.push({
      case: `queue overhead: ${trivialJobs} trivial jobs (1 word, tiny model), 1 worker, 16 in flight`,
      sentences_per_s: Math.round(jobsPerSecond),
      ratio_to_local: '–',
      ms_per_job: Math.round((1000 / jobsPerSecond) * 100) / 100,
    });

    // 3. The bound at the realistic job size: Redis and the coordinator's job handling, and the
    //    coordinator's tokenization (it cuts every batch), each divided by one worker's rate.
    const workerRate = rate(best.one);
    const byJobs = Math.floor(jobsPerSecond / (workerRate / jobSentences));
    const byTokenizer = Math.floor(tokenizeRate / workerRate);
    const bound = Math.min(byJobs, byTokenizer);
    rows.push({
      case: `workers one coordinator + Redis keep busy at ${jobSentences} sentences a job (computed)`,
      sentences_per_s: Math.round(bound * workerRate),
      ratio_to_local: '–',
      bound_workers: bound,
    });
    notes.push(
      `bound = min(queue jobs/s ${jobsPerSecond.toFixed(0)} ÷ one worker's jobs/s ${(workerRate / jobSentences).toFixed(2)} ` +
        `(${Math.round(workerRate)} sentences/s ÷ ${jobSentences}) = ${byJobs}, coordinator tokenization ${Math.round(tokenizeRate)} sentences/s ÷ ` +
        `${Math.round(workerRate)} = ${byTokenizer}); a faster worker (a GPU) lowers both in proportion`,
    );
    // 4. Node-context units (embed's context work) on a generated graph: local vs 1 vs 2 workers
    //    that read their own copy of the graph. The coordinator only plans units (one degrees query)
    //    and sends them, so its tokenizer is no longer a bound; its jobs/s (section 2) is.
    const nodeRates = await timeNodeUnits({ dir, url, model, modelArgs, cores, rounds, seed, quick: opts.quick });
    for (const r of nodeRates.rows) rows.push(r);
    const nodeBound = Math.floor(jobsPerSecond / nodeRates.oneWorkerUnitsPerSecond);
    rows.push({
      case: `workers one coordinator + Redis keep busy with node-context jobs of ${nodeRates.unitNodes} nodes (computed)`,
      sentences_per_s: Math.round(nodeBound * nodeRates.oneWorkerSentencesPerSecond),
      ratio_to_local: '–',
      bound_workers: nodeBound,
    });
    notes.push(
      `node-context bound = queue jobs/s ${jobsPerSecond.toFixed(0)} ÷ one worker's units/s ${nodeRates.oneWorkerUnitsPerSecond.toFixed(2)} = ${nodeBound} ` +
        `(no coordinator tokenization: workers read the graph and build the sentences); ${nodeRates.note}`,
    );
    notes.push(
      `${count} ASER-like sentences (seed ${seed}; ${source}), batch ${batchSize}, ${jobSentences} sentences a job, best of ${rounds} alternated rounds; ` +
        `${opts.quick ? 'tiny generated model (fp32)' : 'MiniLM-L6-shaped model (q8, random weights: speed only)'}; ` +
        `workers and Redis on this machine (${cores} cores), so the worker rows share the cores the local row has alone`,
    );
  } finally {
    redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { name: 'Distributed queue (BullMQ on Redis) vs local', rows, notes };
}

interface NodeUnitTiming {
  dir: string;
  url: string;
  model: { modelDir: string; dtype: 'fp32' | 'q8'; device: 'cpu'; offline: true };
  modelArgs: string[];
  cores: number;
  rounds: number;
  seed: number;
  quick?: boolean;
}

/** Section 4: embed's context units on a generated graph, here and through 1 and 2 workers with --graph. */
async function timeNodeUnits(o: NodeUnitTiming): Promise<{
  rows: BenchRow[];
  unitNodes: number;
  oneWorkerUnitsPerSecond: number;
  oneWorkerSentencesPerSecond: number;
  note: string;
}> {
  const edges = o.quick ? 10_000 : 100_000;
  const graphPath = join(o.dir, 'graph.sqlite');
  await writeScaleGraph(graphPath, { nodes: Math.round(edges / 3), edges, seed: o.seed, progress: false });
  const store = SqliteGraphStore.open(graphPath, { mode: 'read' });
  const unitNodes = 64;
  const nodeCount = o.quick ? 128 : 1024;
  const nodes: ContextNode[] = [];
  for await (const batch of store.purchaseEvents(1000)) {
    for (const n of batch) if (nodes.length < nodeCount) nodes.push({ id: n.id, text: n.text });
    if (nodes.length >= nodeCount) break;
  }
  const settings = { mode: 'induced' as const, batchSize: 64, nodesPerQuery: unitNodes };
  const graph = await graphIdentity(store);
  if (graph === undefined) throw new Error('the bench graph has no content id');
  const local = await OnnxSentenceEncoder.open({ ...o.model, intraOpThreads: o.cores });
  const setups = [
    { key: 'one' as const, workers: 1, threads: o.cores },
    { key: 'two' as const, workers: 2, threads: Math.max(1, Math.floor(o.cores / 2)) },
  ];
  const best = { local: Infinity, one: Infinity, two: Infinity };
  let sentences = 0;
  let units = 0;
  const pools: Array<{ key: 'one' | 'two'; workers: ChildProcess[]; encoder: QueuedSentenceEncoder }> = [];
  try {
    for (const s of setups) {
      const name = `bench-nodes-${s.key}`;
      const workers = await startWorkers(s.workers, o.url, name, [
        ...o.modelArgs,
        '--threads',
        String(s.threads),
        '--graph',
        graphPath,
      ]);
      pools.push({
        key: s.key,
        workers,
        encoder: await QueuedSentenceEncoder.open(o.model, { url: o.url, name, progress: false }),
      });
    }
    await local.encode(['warm up the session']);
    for (let round = 0; round < o.rounds; round++) {
      let t = performance.now();
      const here = new ContextEmbedder(store, local, settings);
      await here.embedNodes(nodes);
      best.local = Math.min(best.local, (performance.now() - t) / 1000);
      sentences = here.stats.sentencesEncoded;
      units = here.stats.workChunks;
      for (const p of pools) {
        const runner = await p.encoder.openContextRunner(graph);
        t = performance.now();
        await new ContextEmbedder(store, p.encoder, { ...settings, runner }).embedNodes(nodes);
        best[p.key] = Math.min(best[p.key], (performance.now() - t) / 1000);
        // The next round must compute again, not collect this round's finished jobs.
        await cleanQueue(o.url, `bench-nodes-${p.key}`, { force: true });
      }
    }
  } finally {
    await local.close();
    for (const p of pools) {
      await p.encoder.close();
      await stopWorkers(p.workers);
      await cleanQueue(o.url, `bench-nodes-${p.key}`, { force: true });
    }
    await store.close();
  }
  const unitCount = Math.ceil(nodes.length / unitNodes);
  const rows: BenchRow[] = [
    {
      case: `node-context units: local, ${nodes.length} nodes in units of ${unitNodes}`,
      sentences_per_s: Math.round(sentences / best.local),
      ratio_to_local: 1,
    },
    ...setups.map((s) => ({
      case: `node-context units: queue, ${s.workers} worker process${s.workers > 1 ? 'es' : ''} × ${s.threads} ONNX thread${s.threads > 1 ? 's' : ''}, each with its copy of the graph`,
      sentences_per_s: Math.round(sentences / best[s.key]),
      ratio_to_local: Math.round((best.local / best[s.key]) * 100) / 100,
      ...(s.workers === 1 ? { target: '≥ 0.9× local', meets: best.local / best.one >= 0.9 ? 'yes' : 'NO' } : {}),
    })),
  ];
  return {
    rows,
    unitNodes,
    oneWorkerUnitsPerSecond: unitCount / best.one,
    oneWorkerSentencesPerSecond: sentences / best.one,
    note:
      `node-context rows: ${nodes.length} purchase nodes of a generated graph (intentsim graph generate --nodes ${Math.round(edges / 3)} --edges ${edges} --seed ${o.seed}), ` +
      `induced neighbourhoods, ${unitCount} units, ${units} work chunks, ${sentences} distinct sentences encoded per run; sentences/s counts those`,
  };
}

await runAlone(import.meta.url, 'queue', run);
