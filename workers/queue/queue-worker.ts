// The worker's side of the queue. It serves a run's two job kinds:
// - encode-sentences (encode-job.ts): some whole batches of sentences, run with one encode() call of
//   the local model, batch for batch as the coordinator cut them;
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
import { parseEncodeJob, type EncodeJobResult } from './encode-job.js';
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
import { contextQueueName, encodeQueueName } from './queue-names.js';
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
}

export interface QueueWorkerHandle {
  /** The queues served: the encode queue, and the node-context queue when the worker has a graph. */
  readonly queues: string[];
  /** The graph's identity (graph/graph-identity.ts), when the worker has a graph. */
  readonly graph?: string;
  /** The kernel class of the worker's model on this CPU (embeddings/kernel-class.ts): jobs of another are refused. */
  readonly kernels: string;
  /** Stops taking jobs, lets the jobs in hand finish, disconnects. */
  close(): Promise<void>;
  /** Jobs finished, refused and malformed so far. */
  readonly counts: { done: number; refused: number; malformed: number };
}

export async function serveQueueJobs(
  encoder: OnnxSentenceEncoder,
  options: QueueWorkerOptions,
): Promise<QueueWorkerHandle> {
  const redis = await QueueConnection.open(options.url);
  const own: ModelIdentity = modelIdentity({
    fingerprint: encoder.fingerprint,
    dtype: encoder.dtype,
    maxTokens: encoder.info.maxTokens,
  });
  const log = options.log ?? (() => {});
  const counts = { done: 0, refused: 0, malformed: 0 };

  /** Parses and checks the payload, turning bad ones into failures BullMQ does not retry. */
  const accept = async <T extends { model: ModelIdentity }>(
    job: Job,
    parse: (data: unknown) => T,
    refusal: (payload: T) => Promise<string | undefined> | string | undefined,
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
    const reason = identityMismatch(payload.model, own) ?? (await refusal(payload));
    if (reason) {
      counts.refused += 1;
      log(`job ${String(job.id)}: ${reason}`);
      throw new UnrecoverableError(reason);
    }
    return payload;
  };

  const encodeSentences = async (job: Job<unknown, EncodeJobResult>): Promise<EncodeJobResult> => {
    const payload = await accept(job, parseEncodeJob, () => undefined);
    const vectors = await encoder.encode(payload.sentences, {
      batchSize: payload.batchSize,
      normalize: payload.normalize,
      sortByLength: false, // the coordinator already put the sentences in the local run's batch order
    });
    counts.done += 1;
    log(`job ${String(job.id)}: ${payload.sentences.length} sentences`);
    return {
      rows: payload.sentences.length,
      dim: encoder.dim,
      provider: encoder.provider,
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
  const workers: Worker[] = [
    new Worker(encodeQueueName(options.name), encodeSentences, {
      ...workerOptions,
      ...redis.forQueue(encodeQueueName(options.name)),
    }),
  ];

  let graph: string | undefined;
  const store = options.graph;
  if (store) {
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
      const embedder = new ContextEmbedder(store, encoder, { mode, batchSize, workSentences, streamEdges });
      const result = await embedder.computeUnit(payload.unit);
      counts.done += 1;
      log(`job ${String(job.id)}: ${result.embeddings.length} node(s), ${result.counts.sentencesEncoded} sentences`);
      return encodeContextResult(result, encoder.dim, encoder.provider);
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
    kernels: own.kernels,
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
      await redis.close();
    },
    counts,
  };
}
