// The worker's side of the queue. It serves a run's two job kinds:
// - encode-sentences (encode-job.ts): some whole batches of sentences, run with one encode() call of
//   the local model, batch for batch as the coordinator cut them; or, when the job names glove-100d
//   or the offline stand-in (baseline-request.ts), of that encoder, opened on the first such job;
// - node-context (context-job.ts), only when it has a graph: one unit of `embed`'s context work,
//   read from its own copy of the graph and computed as the coordinator would have computed it.
// A job made for another model, dtype, token limit, CPU kernel class (embeddings/kernel-class.ts),
// graph or template set is refused (failed without retries, with the reason); a malformed payload
// fails with the field that is wrong; the worker keeps serving after both.
import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { OnnxSentenceEncoder } from '../../embeddings/onnx-encoder.js';
import {
  ContextEmbedder,
  TEMPLATES_FINGERPRINT,
  unitNodes,
  type ContextNode,
} from '../../embeddings/context-embedder.js';
import type { GraphStore } from '../../graph/graph-store.js';
import { graphIdentity } from '../../graph/graph-identity.js';
import { parseEncodeJob, type EncodeJob, type EncodeJobResult } from './encode-job.js';
import {
  encodeContextResult,
  graphMismatch,
  nodeTextMismatch,
  parseContextJob,
  type ContextJobResult,
  type WorkerGraph,
} from './context-job.js';
import {
  float32ToBase64,
  identityMismatch,
  MalformedJobError,
  modelIdentity,
  type ModelIdentity,
} from './job-payloads.js';
import { QueueConnection } from './redis-connection.js';
import { baselineIdentity, type BaselineRequest } from './baseline-request.js';
import { GloveSentenceEncoder } from '../../embeddings/glove-encoder.js';
import { HashingSentenceEncoder } from '../../embeddings/hashing-encoder.js';
import { baselineQueueName, contextQueueName, encodeQueueName } from './queue-names.js';
import { UserError } from '../../core/errors.js';

export interface QueueWorkerOptions {
  url: string;
  /** The run's queue name (default "intentsim"). */
  name?: string;
  /** The graph node-context jobs read (this worker's copy); without it, only encode jobs are served. */
  graph?: GraphStore;
  /** Jobs run at once (default 1: one model call at a time uses every ONNX thread). */
  concurrency?: number;
  /** How long a job's lock lasts without renewal; a killed worker's job goes to another after it (default 30 s). */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for (default 30 s). */
  stalledIntervalMs?: number;
  /** One line per job and per refusal (default: none). */
  log?: (line: string) => void;
  /** Without a Sentence-BERT model: why (its jobs are refused with this reason; the baselines' are served). */
  modelMissing?: string;
  /** glove-100d jobs: the cache its converted vectors go to, and its package (default: resolved from this installation). */
  cacheDir?: string;
  glovePackageDir?: string;
}

export interface QueueWorkerHandle {
  /**
   * The queues served: the encode queue (with a Sentence-BERT model), the baselines queue (always),
   * and the node-context queue when the worker has a graph.
   */
  readonly queues: string[];
  /** The graph's identity (graph/graph-identity.ts), when the worker has a graph. */
  readonly graph?: string;
  /**
   * The kernel class of the worker's Sentence-BERT model on this CPU (embeddings/kernel-class.ts): jobs
   * of another are refused. Undefined without a model.
   */
  readonly kernels?: string;
  /** Stops taking jobs, lets the jobs in hand finish, disconnects. */
  close(): Promise<void>;
  /** Jobs finished, refused and malformed so far. */
  readonly counts: { done: number; refused: number; malformed: number };
}

/**
 * Serves the run's queues with `encoder` (the Sentence-BERT model; undefined: none here, and its jobs
 * are refused with `options.modelMissing`) and the baselines that jobs ask for.
 */
export async function serveQueueJobs(
  encoder: OnnxSentenceEncoder | undefined,
  options: QueueWorkerOptions,
): Promise<QueueWorkerHandle> {
  if (options.graph && encoder === undefined)
    throw new UserError(
      `node-context jobs are Sentence-BERT's, and this worker has no Sentence-BERT model (${options.modelMissing ?? 'none was given'}): leave out the graph, or give it the model`,
    );
  const redis = await QueueConnection.open(options.url);
  const own: ModelIdentity | undefined =
    encoder &&
    modelIdentity({
      fingerprint: encoder.fingerprint,
      dtype: encoder.dtype,
      maxTokens: encoder.info.maxTokens,
    });
  const log = options.log ?? (() => {});
  const counts = { done: 0, refused: 0, malformed: 0 };
  const noModel = `refused: this worker has no Sentence-BERT model (${options.modelMissing ?? 'none was given'})`;

  // The baselines, opened on the first job that names each (glove-100d: its vectors are loaded once).
  const baselines = new Map<string, Promise<GloveSentenceEncoder | HashingSentenceEncoder>>();
  const baseline = (request: BaselineRequest) => {
    const key = JSON.stringify(request);
    let opened = baselines.get(key);
    if (opened === undefined) {
      opened =
        request.name === 'glove-100d'
          ? GloveSentenceEncoder.open({
              cacheDir: options.cacheDir,
              glovePackageDir: options.glovePackageDir,
              sif: request.sif,
              log,
            })
          : Promise.resolve(new HashingSentenceEncoder());
      baselines.set(key, opened);
      // A failed opening (the package not installed) is tried again by the next job that asks.
      opened.catch(() => baselines.delete(key));
    }
    return opened;
  };

  /** Parses and checks the payload, turning bad ones into failures BullMQ does not retry. */
  const accept = async <T extends { model: ModelIdentity }>(
    job: Job,
    parse: (data: unknown) => T,
    refusal: (payload: T) => Promise<string | undefined> | string | undefined,
    ownFor: (payload: T) => Promise<ModelIdentity | string> = async () => own ?? noModel,
  ): Promise<T> => {
    let payload: T;
    try {
      payload = parse(job.data);
    } catch (err) {
      if (!(err instanceof MalformedJobError)) throw err;
      counts.malformed += 1;
      log(`job ${String(job.id)}: ${err.message}`);
      throw new UnrecoverableError(err.message);
    }
    const identity = await ownFor(payload);
    const reason =
      typeof identity === 'string' ? identity : (identityMismatch(payload.model, identity) ?? (await refusal(payload)));
    if (reason) {
      counts.refused += 1;
      log(`job ${String(job.id)}: ${reason}`);
      throw new UnrecoverableError(reason);
    }
    return payload;
  };

  /** The encoder a sentence job names, or why this worker cannot run it. */
  const encoderFor = async (
    payload: EncodeJob,
  ): Promise<OnnxSentenceEncoder | GloveSentenceEncoder | HashingSentenceEncoder | string> => {
    if (payload.encoder === undefined) return encoder ?? noModel;
    try {
      return await baseline(payload.encoder);
    } catch (err) {
      return `refused: ${payload.encoder.name} cannot be opened here: ${(err as Error).message}`;
    }
  };

  const encodeSentences = async (job: Job<unknown, EncodeJobResult>): Promise<EncodeJobResult> => {
    let chosen: OnnxSentenceEncoder | GloveSentenceEncoder | HashingSentenceEncoder | undefined;
    const payload = await accept(
      job,
      parseEncodeJob,
      () => undefined,
      async (p) => {
        const found = await encoderFor(p);
        if (typeof found === 'string') return found;
        chosen = found;
        return found === encoder ? own! : baselineIdentity(found);
      },
    );
    const vectors = await chosen!.encode(payload.sentences, {
      batchSize: payload.batchSize,
      normalize: payload.normalize,
      // The coordinator already put the sentences in the local run's batch order (a baseline has no batches).
      ...(chosen === encoder ? { sortByLength: false } : {}),
    });
    counts.done += 1;
    log(
      `job ${String(job.id)}: ${payload.sentences.length} sentences${payload.encoder ? ` (${payload.encoder.name})` : ''}`,
    );
    return {
      rows: payload.sentences.length,
      dim: chosen!.dim,
      provider: chosen!.provider,
      vectors: float32ToBase64(vectors),
    };
  };

  const workerOptions = {
    concurrency: options.concurrency ?? 1,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    metrics: { maxDataPoints: 60 * 24 }, // a day of per-minute completions, for `queue status`
    name: `intentsim-worker-${hostname()}-${process.pid}`,
  };
  // Sentence-BERT's sentence jobs only with the model; the baselines' always (they need no model).
  const serve = (queueName: string, run: (job: Job<unknown, EncodeJobResult>) => Promise<EncodeJobResult>) =>
    new Worker(queueName, run, { ...workerOptions, ...redis.forQueue(queueName) });
  const workers: Worker[] = [
    ...(encoder ? [serve(encodeQueueName(options.name), encodeSentences)] : []),
    serve(baselineQueueName(options.name), encodeSentences),
  ];

  let graph: string | undefined;
  const store = options.graph;
  // Checked on entry: a worker with a graph has the Sentence-BERT model.
  const model = encoder;
  if (store && model) {
    graph = await graphIdentity(store);
    if (graph === undefined)
      throw new UserError(
        'the graph has no content id (no intentsim import has written to it), so node-context jobs could not be checked against it; an `intentsim graph import --to` into it gives it one',
      );
    const mine: WorkerGraph = { graph, templates: TEMPLATES_FINGERPRINT };
    const textsDiffer = async (nodes: ContextNode[]) =>
      nodeTextMismatch(nodes, await store.nodeTexts(nodes.map((n) => n.id)));
    const nodeContext = async (job: Job<unknown, ContextJobResult>): Promise<ContextJobResult> => {
      const payload = await accept(
        job,
        parseContextJob,
        async (p) => graphMismatch(p, mine) ?? (await textsDiffer(unitNodes(p.unit))),
      );
      const { mode, batchSize, workSentences, streamEdges } = payload;
      const embedder = new ContextEmbedder(store, model, { mode, batchSize, workSentences, streamEdges });
      const result = await embedder.computeUnit(payload.unit);
      counts.done += 1;
      log(`job ${String(job.id)}: ${result.embeddings.length} node(s), ${result.counts.sentencesEncoded} sentences`);
      return encodeContextResult(result, model.dim, model.provider);
    };
    workers.push(
      new Worker(contextQueueName(options.name), nodeContext, {
        ...workerOptions,
        ...redis.forQueue(contextQueueName(options.name)),
      }),
    );
  }
  for (const w of workers) w.on('error', (err) => log(`worker: ${err.message}`));
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  return {
    queues: workers.map((w) => w.name),
    graph,
    kernels: own?.kernels,
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
      await redis.close();
    },
    counts,
  };
}
