// The coordinator's side of the queue: a SentenceEncoder whose encode() cuts its sentences into the
// batches the local encoder would run (same tokenizer, same length sorting, same batch size), sends
// groups of whole batches as jobs to worker processes through BullMQ, and puts the rows back in
// input order. Because a job is exactly a sequence of the local run's model calls, the vectors are
// the local run's, byte for byte (on the same model, dtype, provider and kind of CPU).
// The local model is opened for its tokenizer and identity only: it runs no inference here.
import { Job, Queue, QueueEvents } from 'bullmq';
import { planBatches } from '../../embeddings/length-batching.js';
import {
  DEFAULT_BATCH_SIZE,
  OnnxSentenceEncoder,
  type OnnxEncodeOptions,
  type OnnxEncoderOptions,
} from '../../embeddings/onnx-encoder.js';
import type { DescribedEncoder, QueuedEncoderDescription } from '../../embeddings/encoder-description.js';
import { ConfigError, UserError } from '../../core/errors.js';
import { decodeVectors, encodeJobId, ENCODE_JOB_NAME, type EncodeJob, type EncodeJobResult } from './encode-job.js';
import { checkQueueReachable, displayQueueUrl, QueueUnreachableError, redisOptions } from './redis-connection.js';
import { encodeQueueName } from './queue-names.js';

export interface QueueOptions {
  /** redis://[user:password@]host:port[/db] or rediss://… */
  url: string;
  /** The run's queue name (default "intentsim"); workers must serve the same name. */
  name?: string;
  /** Sentences per job, rounded to whole batches (default 512). */
  jobSentences?: number;
  /** Jobs waiting or running at once, which bounds Redis memory (default 16). */
  maxInFlight?: number;
  /** Tries per job before the run fails with the worker's error (default 3). */
  attempts?: number;
  /** How long Redis may stay unreachable in the middle of a run before the run fails (default 30 s). */
  lostAfterMs?: number;
}

export class QueuedSentenceEncoder implements DescribedEncoder {
  readonly sentenceBert = true as const;
  private jobs = 0;
  private reusedJobs = 0;
  private readonly providers: Record<string, number> = {};
  /** Rejected when Redis has been unreachable too long: every encode() in progress races it. */
  private readonly lost: Promise<never>;
  private failLost: (err: Error) => void = () => {};

  private constructor(
    private readonly local: OnnxSentenceEncoder,
    private readonly queue: Queue<EncodeJob, EncodeJobResult>,
    private readonly events: QueueEvents,
    private readonly options: Required<Omit<QueueOptions, 'name'>> & {
      name: string;
      defaultBatchSize: number;
      sortByLength: boolean;
    },
  ) {
    this.lost = new Promise<never>((_, reject) => (this.failLost = reject));
    this.lost.catch(() => {}); // observed by the encode() calls in progress, if any
  }

  static async open(model: OnnxEncoderOptions, queue: QueueOptions): Promise<QueuedSentenceEncoder> {
    const settings = {
      url: queue.url,
      name: encodeQueueName(queue.name),
      jobSentences: queue.jobSentences ?? 512,
      maxInFlight: queue.maxInFlight ?? 16,
      attempts: queue.attempts ?? 3,
      lostAfterMs: queue.lostAfterMs ?? 30_000,
      defaultBatchSize: model.batchSize ?? DEFAULT_BATCH_SIZE,
      sortByLength: model.sortByLength ?? true,
    };
    for (const field of ['jobSentences', 'maxInFlight', 'attempts', 'lostAfterMs'] as const) {
      if (!Number.isInteger(settings[field]) || settings[field] < 1)
        throw new ConfigError(field, `must be a positive integer, got ${settings[field]}`);
    }
    await checkQueueReachable(queue.url);
    const local = await OnnxSentenceEncoder.open({ ...model, device: 'cpu', intraOpThreads: 1 });
    const connection = redisOptions(queue.url);
    const q = new Queue<EncodeJob, EncodeJobResult>(settings.name, { connection });
    const events = new QueueEvents(settings.name, { connection });
    // Every job waited for listens for the queue closing: as many listeners as jobs in flight.
    q.setMaxListeners(settings.maxInFlight + 10);
    events.setMaxListeners(settings.maxInFlight + 10);
    await events.waitUntilReady();
    q.on('error', () => {}); // Redis going away is reported by watchConnection, with the URL
    events.on('error', () => {});
    return new QueuedSentenceEncoder(local, q, events, settings);
  }

  /**
   * Redis lost in the middle of a run: BullMQ's clients may reconnect without end, or close and leave
   * nothing for the process to wait on (it would then exit 0 with the work undone). So while an
   * encode() is in progress, Redis is probed once a second with a fresh connection; when it has not
   * answered for lostAfterMs, the encode() fails naming the URL (without its password), and a rerun
   * collects what had finished. The timer also keeps the process alive while jobs are out.
   */
  private watchConnection(): () => void {
    let failingSince: number | undefined;
    let probing = false;
    const timer = setInterval(() => {
      if (probing) return;
      probing = true;
      void checkQueueReachable(this.options.url, 2_000)
        .then(
          () => (failingSince = undefined),
          () => {
            failingSince ??= Date.now();
            if (Date.now() - failingSince >= this.options.lostAfterMs)
              this.failLost(new QueueUnreachableError(this.options.url, 'lost in the middle of the run'));
          },
        )
        .finally(() => (probing = false));
    }, 1_000);
    return () => clearInterval(timer);
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
  get provider(): string {
    const used = Object.keys(this.providers).sort();
    return `queue: ${used.length > 0 ? used.join(', ') : 'no job run yet'}`;
  }

  describe(): QueuedEncoderDescription {
    // The local session only tokenizes: where it would run, and its threads, say nothing of the jobs.
    const { provider: _provider, providerAttempts: _attempts, intraOpThreads: _threads, ...info } = this.local.info;
    return {
      ...info,
      provider: this.provider,
      queue: {
        url: displayQueueUrl(this.options.url),
        name: this.options.name,
        jobs: this.jobs,
        reusedJobs: this.reusedJobs,
        providers: { ...this.providers },
      },
    };
  }

  async encode(sentences: readonly string[], options: OnnxEncodeOptions = {}): Promise<Float32Array> {
    // The local encoder's defaults, so that a call without them is cut as a local call would be.
    const batchSize = options.batchSize ?? this.options.defaultBatchSize;
    const dim = this.dim;
    const out = new Float32Array(sentences.length * dim);
    const lengths = this.local.tokenize(sentences).map((t) => t.ids.length);
    const plan = planBatches(lengths, batchSize, options.sortByLength ?? this.options.sortByLength);
    // Whole batches per job, in plan order: the worker runs them in arrival order, batch for batch.
    const perJob = Math.max(1, Math.floor(this.options.jobSentences / batchSize));
    const jobs: Array<{ rows: number[]; job: EncodeJob }> = [];
    for (let b = 0; b < plan.batches.length; b += perJob) {
      const rows = plan.batches.slice(b, b + perJob).flatMap((batch) => batch.indices);
      jobs.push({
        rows,
        job: {
          format: 1,
          model: { fingerprint: this.fingerprint, dtype: this.local.dtype, maxTokens: this.local.info.maxTokens },
          sentences: rows.map((i) => sentences[i]!),
          batchSize,
          normalize: options.normalize ?? true,
        },
      });
    }
    let next = 0;
    const runOne = async (): Promise<void> => {
      while (next < jobs.length) {
        const { rows, job } = jobs[next++]!;
        const vectors = await this.run(job);
        rows.forEach((row, r) => out.set(vectors.subarray(r * dim, (r + 1) * dim), row * dim));
      }
    };
    const unwatch = this.watchConnection();
    try {
      await Promise.race([
        Promise.all(Array.from({ length: Math.min(this.options.maxInFlight, jobs.length) }, runOne)),
        this.lost,
      ]);
    } finally {
      unwatch();
    }
    return out;
  }

  /** Adds the job (a no-op when one with its id exists) and waits for its rows. */
  private async run(job: EncodeJob): Promise<Float32Array> {
    const jobId = encodeJobId(job);
    // What an earlier run left under this id is looked at before adding: a finished job is reused,
    // and one that failed for good is tried again (the rerun may have fixed the cause). Looking after
    // adding would count this run's own fast jobs as reused, and retry its own refusals.
    const earlier = await Job.fromId<EncodeJob, EncodeJobResult>(this.queue, jobId);
    if (earlier && (await earlier.isCompleted())) this.reusedJobs += 1;
    else if (earlier && (await earlier.isFailed())) await earlier.retry('failed');
    const added = await this.queue.add(ENCODE_JOB_NAME, job, {
      jobId,
      attempts: this.options.attempts,
      backoff: { type: 'exponential', delay: 1_000 },
      // Finished results stay a day: a coordinator rerun after a crash collects them without recomputing.
      removeOnComplete: { age: 24 * 3600 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
    this.jobs += 1;
    let result: EncodeJobResult;
    try {
      result = await added.waitUntilFinished(this.events);
    } catch (err) {
      throw new UserError(
        `queue job ${jobId} failed after up to ${this.options.attempts} attempts: ${(err as Error).message}`,
      );
    }
    this.providers[result.provider] = (this.providers[result.provider] ?? 0) + 1;
    return decodeVectors(result, job.sentences.length, this.dim);
  }

  async close(): Promise<void> {
    await this.local.close();
    // A polite close waits for Redis; when Redis is gone it would wait for ever (and with nothing else
    // pending, Node would exit 0 as if the run had succeeded). After 2 s the connections are dropped.
    const polite = Promise.all([this.events.close(), this.queue.close()]);
    polite.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = await Promise.race([
      polite.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 2_000))),
    ]);
    clearTimeout(timer);
    // disconnect() may wait on Redis too: started, not awaited.
    if (gaveUp) for (const client of [this.events, this.queue]) client.disconnect().catch(() => {});
  }
}
