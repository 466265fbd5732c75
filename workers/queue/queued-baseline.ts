// The coordinator's side of the queue for glove-100d and the offline stand-in: the sentences go, in
// input order, as jobs of `jobSentences` to worker processes, on the run's baselines queue (every
// worker serves it, with or without a Sentence-BERT model), and a worker opens the encoder the job
// names (baseline-request.ts). Both encode each sentence on its own (no batches, no padding), so the cut
// changes nothing and the rows are the local run's, byte for byte, on any worker. The local encoder
// is opened for its identity and description only (glove-100d: its vectors' checksum); it encodes
// nothing here. `embed`'s node-context units stay on the coordinator (they call encode(), whose
// sentences go to the queue): the node-context jobs are Sentence-BERT's.
import { ConfigError } from '../../core/errors.js';
import type { GloveSentenceEncoder } from '../../embeddings/glove-encoder.js';
import type { HashingSentenceEncoder } from '../../embeddings/hashing-encoder.js';
import type { DescribedEncoder, QueuedBaselineDescription } from '../../embeddings/encoder-description.js';
import type { EncodeOptions } from '../../embeddings/sentence-encoder.js';
import { DEFAULT_BATCH_SIZE } from '../../embeddings/onnx-encoder.js';
import { baselineIdentity, type BaselineRequest } from './baseline-request.js';
import { decodeVectors, encodeJobId, ENCODE_JOB_NAME, type EncodeJob, type EncodeJobResult } from './encode-job.js';
import { JobClient, jobClientSettings, type QueueOptions, type QueueSnapshot } from './job-client.js';
import { baselineQueueName } from './queue-names.js';
import { displayQueueUrl } from './redis-connection.js';

export class QueuedBaselineEncoder implements DescribedEncoder {
  readonly sentenceBert = false as const;

  private constructor(
    private readonly local: GloveSentenceEncoder | HashingSentenceEncoder,
    private readonly request: BaselineRequest,
    private readonly client: JobClient<EncodeJob, EncodeJobResult>,
    private readonly url: string,
    private readonly jobSentences: number,
  ) {}

  static async open(
    local: GloveSentenceEncoder | HashingSentenceEncoder,
    request: BaselineRequest,
    queue: QueueOptions,
  ): Promise<QueuedBaselineEncoder> {
    const jobSentences = queue.jobSentences ?? 512;
    if (!Number.isInteger(jobSentences) || jobSentences < 1)
      throw new ConfigError('jobSentences', `must be a positive integer, got ${jobSentences}`);
    const client = await JobClient.open<EncodeJob, EncodeJobResult>(
      baselineQueueName(queue.name),
      ENCODE_JOB_NAME,
      jobClientSettings(queue),
      `start \`intentsim queue worker\` with the same --queue and --queue-name (${request.name} needs no model there)`,
    );
    return new QueuedBaselineEncoder(local, request, client, queue.url, jobSentences);
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
  /** `queue:` and the providers that ran this run's jobs. */
  get provider(): string {
    const used = Object.keys(this.client.record().providers).sort();
    return `queue: ${used.length > 0 ? used.join(', ') : 'no job run yet'}`;
  }

  /** The jobs' queue as the progress bar shows it: waiting, active, done, workers seen. */
  queueStatus(): QueueSnapshot {
    return this.client.status();
  }

  describe(): QueuedBaselineDescription {
    const own = this.local.describe();
    // The local encoder encoded nothing: its counters would say nothing of the run.
    const description = 'stats' in own ? (({ stats: _stats, ...rest }) => rest)(own) : own;
    return {
      ...description,
      provider: this.provider,
      queue: { url: displayQueueUrl(this.url), ...this.client.record() },
    };
  }

  async encode(sentences: readonly string[], options: EncodeOptions = {}): Promise<Float32Array> {
    const dim = this.dim;
    const out = new Float32Array(sentences.length * dim);
    const jobs: Array<{ from: number; job: EncodeJob }> = [];
    for (let from = 0; from < sentences.length; from += this.jobSentences) {
      jobs.push({
        from,
        job: {
          format: 1,
          model: baselineIdentity(this.local),
          encoder: this.request,
          sentences: sentences.slice(from, from + this.jobSentences),
          // A baseline has no batches; the field is the payload's, and the same value keeps job ids stable.
          batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
          normalize: options.normalize ?? true,
        },
      });
    }
    await this.client.runAll(
      jobs,
      ({ job }) => ({ id: encodeJobId(job), data: job }),
      (index, result) => decodeVectors(result, jobs[index]!.job.sentences.length, dim),
      (index, vectors) => out.set(vectors, jobs[index]!.from * dim),
    );
    return out;
  }

  async close(): Promise<void> {
    await this.local.close();
    await this.client.close();
  }
}
