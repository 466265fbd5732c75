// The coordinator's side of the queue: a SentenceEncoder whose encode() cuts its sentences into the
// batches the local encoder would run (same tokenizer, same length sorting, same batch size), sends
// groups of whole batches as jobs to worker processes through BullMQ, and puts the rows back in
// input order. Because a job is exactly a sequence of the local run's model calls, the vectors are
// the local run's, byte for byte (on the same model, dtype, provider and kind of CPU).
// The local model is opened for its tokenizer and identity only: it runs no inference here.
// It owns the node-context runner too (openContextRunner, which openEncoder hands to `embed` as the
// Encoder's contextRunners): its context units then go to the workers that have the graph, on the
// same Redis and run name.
import { planBatches } from '../../embeddings/length-batching.js';
import {
  DEFAULT_BATCH_SIZE,
  OnnxSentenceEncoder,
  type OnnxEncodeOptions,
  type OnnxEncoderOptions,
} from '../../embeddings/onnx-encoder.js';
import type { DescribedEncoder, QueuedEncoderDescription } from '../../embeddings/encoder-description.js';
import { ConfigError } from '../../core/errors.js';
import { TEMPLATES_FINGERPRINT } from '../../embeddings/context-embedder.js';
import { decodeVectors, encodeJobId, ENCODE_JOB_NAME, type EncodeJob, type EncodeJobResult } from './encode-job.js';
import { CONTEXT_JOB_NAME, type ContextJob, type ContextJobResult } from './context-job.js';
import { modelIdentity, type ModelIdentity } from './job-payloads.js';
import { displayQueueUrl } from './redis-connection.js';
import { contextQueueName, encodeQueueName } from './queue-names.js';
import { JobClient, jobClientSettings, type QueueOptions, type QueueSnapshot } from './job-client.js';
import { QueuedContextRunner } from './queued-context.js';

export type { QueueOptions };

export class QueuedSentenceEncoder implements DescribedEncoder {
  readonly sentenceBert = true as const;
  /** Opened by openContextRunner (embed): the node-context jobs' queue. */
  private contextRunner?: { graph: string; runner: QueuedContextRunner };

  private constructor(
    private readonly local: OnnxSentenceEncoder,
    private readonly client: JobClient<EncodeJob, EncodeJobResult>,
    /** The options it was opened with: the node-context jobs (openContextRunner) use the same Redis and run. */
    private readonly queueOptions: QueueOptions,
    private readonly cut: { jobSentences: number; defaultBatchSize: number; sortByLength: boolean },
  ) {}

  static async open(model: OnnxEncoderOptions, queue: QueueOptions): Promise<QueuedSentenceEncoder> {
    const settings = jobClientSettings(queue);
    const cut = {
      jobSentences: queue.jobSentences ?? 512,
      defaultBatchSize: model.batchSize ?? DEFAULT_BATCH_SIZE,
      sortByLength: model.sortByLength ?? true,
    };
    if (!Number.isInteger(cut.jobSentences) || cut.jobSentences < 1)
      throw new ConfigError('jobSentences', `must be a positive integer, got ${cut.jobSentences}`);
    const client = await JobClient.open<EncodeJob, EncodeJobResult>(
      encodeQueueName(queue.name),
      ENCODE_JOB_NAME,
      settings,
      `start \`intentsim queue worker\` with the same --queue, --queue-name and model`,
    );
    try {
      const local = await OnnxSentenceEncoder.open({ ...model, device: 'cpu', intraOpThreads: 1 });
      return new QueuedSentenceEncoder(local, client, queue, cut);
    } catch (err) {
      await client.close();
      throw err;
    }
  }

  /**
   * The runner for `embed`'s context units as node-context jobs, on this run's Redis and name, served
   * by workers started with the same graph (`graph`: graph/graph-identity.ts of the coordinator's).
   * One per encoder, closed with it; its jobs are reported in describe().
   */
  async openContextRunner(graph: string): Promise<QueuedContextRunner> {
    if (this.contextRunner) {
      if (this.contextRunner.graph !== graph)
        throw new Error(
          `internal: this encoder's node-context jobs are for graph ${this.contextRunner.graph}, not ${graph}`,
        );
      return this.contextRunner.runner;
    }
    const client = await JobClient.open<ContextJob, ContextJobResult>(
      contextQueueName(this.queueOptions.name),
      CONTEXT_JOB_NAME,
      jobClientSettings(this.queueOptions),
      "node-context jobs are served only by workers started with --graph, a copy of this run's graph",
    );
    const runner = new QueuedContextRunner(
      client,
      { model: this.modelIdentity, graph, templates: TEMPLATES_FINGERPRINT },
      this.dim,
    );
    this.contextRunner = { graph, runner };
    return runner;
  }

  /** The sentence jobs' queue as the progress bar shows it: waiting, active, done, workers seen. */
  queueStatus(): QueueSnapshot {
    return this.client.status();
  }

  /** What a worker's model must be to run this run's jobs. */
  get modelIdentity(): ModelIdentity {
    return modelIdentity({
      fingerprint: this.fingerprint,
      dtype: this.local.dtype,
      maxTokens: this.local.info.maxTokens,
    });
  }

  get name(): string {
    return this.local.name;
  }
  get dim(): number {
    return this.local.dim;
  }
  get fingerprint(): string {
    return this.local.fingerprint;
  }
  get dtype(): string {
    return this.local.dtype;
  }
  /** `queue:` and the providers that ran this run's jobs, of both kinds. */
  get provider(): string {
    const used = new Set(Object.keys(this.client.record().providers));
    for (const p of Object.keys(this.contextRunner?.runner.record().providers ?? {})) used.add(p);
    return `queue: ${used.size > 0 ? [...used].sort().join(', ') : 'no job run yet'}`;
  }

  describe(): QueuedEncoderDescription {
    // The local session only tokenizes: where it would run, and its threads, say nothing of the jobs.
    const { provider: _provider, providerAttempts: _attempts, intraOpThreads: _threads, ...info } = this.local.info;
    const nodeContext = this.contextRunner?.runner.record();
    return {
      ...info,
      provider: this.provider,
      queue: {
        url: displayQueueUrl(this.queueOptions.url),
        ...this.client.record(),
        ...(nodeContext ? { nodeContext } : {}),
      },
    };
  }

  async encode(sentences: readonly string[], options: OnnxEncodeOptions = {}): Promise<Float32Array> {
    // The local encoder's defaults, so that a call without them is cut as a local call would be.
    const batchSize = options.batchSize ?? this.cut.defaultBatchSize;
    const dim = this.dim;
    const out = new Float32Array(sentences.length * dim);
    const lengths = this.local.tokenize(sentences).map((t) => t.ids.length);
    const plan = planBatches(lengths, batchSize, options.sortByLength ?? this.cut.sortByLength);
    // Whole batches per job, in plan order: the worker runs them in arrival order, batch for batch.
    const perJob = Math.max(1, Math.floor(this.cut.jobSentences / batchSize));
    const jobs: Array<{ rows: number[]; job: EncodeJob }> = [];
    for (let b = 0; b < plan.batches.length; b += perJob) {
      const rows = plan.batches.slice(b, b + perJob).flatMap((batch) => batch.indices);
      jobs.push({
        rows,
        job: {
          format: 1,
          model: this.modelIdentity,
          sentences: rows.map((i) => sentences[i]!),
          batchSize,
          normalize: options.normalize ?? true,
        },
      });
    }
    await this.client.runAll(
      jobs,
      ({ job }) => ({ id: encodeJobId(job), data: job }),
      (index, result) => decodeVectors(result, jobs[index]!.job.sentences.length, dim),
      (index, vectors) => {
        const { rows } = jobs[index]!;
        rows.forEach((row, r) => out.set(vectors.subarray(r * dim, (r + 1) * dim), row * dim));
      },
    );
    return out;
  }

  async close(): Promise<void> {
    await this.local.close();
    await this.contextRunner?.runner.close();
    await this.client.close();
  }
}
