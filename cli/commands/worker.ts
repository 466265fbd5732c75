// `intentsim worker`: a long-running process that encodes the batches coordinators (`encode`,
// `embed`, `pipeline`, `catalog index` with --queue) put on a Redis queue. SIGTERM or Ctrl-C: it stops
// taking jobs, finishes the ones in hand and exits 0.
import type { Command } from '@commander-js/extra-typings';
import { addModelOptions, encoderOptions } from '../options/model-options.js';
import { addQueueNameOption, QUEUE_URL_HELP, requireQueueUrl } from '../options/queue-options.js';
import { positiveInt } from '../options/value-parsers.js';
import { ConfigError } from '../../core/errors.js';

const WORKER_HELP = `Serves a run's job queue: each job is some whole batches of sentences that the
coordinator cut exactly as a local run would, so the vectors are the local run's, byte for byte
(same model, dtype, provider and kind of CPU). A job made for another model, dtype or --max-tokens
is refused (it fails with that reason, without retries); a malformed job fails with the field that
is wrong; the worker keeps serving. A worker killed mid-job loses its lock, and the job goes to
another worker after --lock-duration. Start Redis first (redis-server), as many workers as you
like on any machines that reach it, then the coordinator with the same --queue and --queue-name.
Each job brings its batch size; --batch-size here is not used.

Example
  intentsim worker --queue redis://10.0.0.5:6379 --model-dir minilm/ --dtype q8
  intentsim encode --queue redis://10.0.0.5:6379 --in sentences.txt --out vectors.npy \\
    --model-dir minilm/ --dtype q8`;

export function registerWorkerCommand(program: Command): void {
  const command = program
    .command('worker')
    .summary("encode a queue's jobs for coordinators run with --queue (until SIGTERM)")
    .description(WORKER_HELP)
    .option('--queue [url]', QUEUE_URL_HELP)
    .option('--concurrency <n>', 'jobs run at once', positiveInt, 1)
    .option(
      '--lock-duration <ms>',
      "a job's lock; a killed worker's job goes to another after it",
      positiveInt,
      30_000,
    );
  addModelOptions(addQueueNameOption(command)).action(async (o) => {
    const url = requireQueueUrl(o.queue);
    if (o.encoder !== 'sentence-bert')
      throw new ConfigError('encoder', `a worker runs the Sentence-BERT model only, not ${o.encoder}`);
    const { OnnxSentenceEncoder } = await import('../../embeddings/onnx-encoder.js');
    const { serveEncodeJobs } = await import('../../workers/queue/queue-worker.js');
    const { displayQueueUrl } = await import('../../workers/queue/redis-connection.js');
    const { encodeQueueName } = await import('../../workers/queue/queue-names.js');
    const encoder = await OnnxSentenceEncoder.open(encoderOptions(o));
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const handle = await serveEncodeJobs(encoder, {
      url,
      name: o.queueName,
      concurrency: o.concurrency,
      lockDurationMs: o.lockDuration,
      stalledIntervalMs: Math.min(o.lockDuration, 30_000),
      log,
    });
    log(
      `worker: serving ${encodeQueueName(o.queueName)} at ${displayQueueUrl(url)}; ${encoder.name} (${encoder.dtype}) ` +
        `on ${encoder.provider}, fingerprint ${encoder.fingerprint}, ${o.concurrency} job(s) at once`,
    );
    await new Promise<void>((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        log(`worker: ${signal}: finishing the jobs in hand, then exiting`);
        void handle
          .close()
          .then(() => encoder.close())
          .then(resolve);
      };
      // These replace the command line's default (remove temporary files, exit 130/143): a worker
      // writes no files, and a clean stop hands no job back half done.
      process.removeAllListeners('SIGTERM').removeAllListeners('SIGINT');
      process.once('SIGTERM', stop).once('SIGINT', stop);
    });
    log(
      `worker: stopped after ${handle.counts.done} job(s), ${handle.counts.refused} refused, ${handle.counts.malformed} malformed`,
    );
  });
}
