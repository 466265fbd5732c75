// --queue and its companions: the commands whose model work can go to `intentsim queue worker` processes
// through Redis (encode, embed, pipeline, catalog index) and the worker and queue commands themselves.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { ConfigError } from '../../core/errors.js';
import { queueUrlFrom } from '../../workers/queue/queue-url.js';
import { DEFAULT_QUEUE_NAME } from '../../workers/queue/queue-names.js';
import type { QueueOptions } from '../../workers/queue/queued-encoder.js';
import { positiveInt } from './value-parsers.js';

export const QUEUE_URL_HELP =
  'Redis of the job queue: redis://[user:password@]host:port[/db] (rediss:// for TLS; any node of a Redis Cluster); given alone, ' +
  '$INTENTSIM_REDIS_URL or $REDIS_URL. The password is never printed.';

/** --queue-name: shared by coordinators, workers and the queue commands. */
export function addQueueNameOption<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  return cmd.option(
    '--queue-name <name>',
    "the run's queue: workers serve one name, and two runs sharing a Redis under different names never mix",
    DEFAULT_QUEUE_NAME,
  );
}

/** --queue [url], --queue-name, --queue-job-sentences, --queue-in-flight: for coordinators. */
export function addQueueOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  return addQueueNameOption(
    cmd.option(
      '--queue [url]',
      `send the model's batches to \`intentsim queue worker\` processes (every encoder: Sentence-BERT, glove-100d, offline-hashing-v1). ${QUEUE_URL_HELP}`,
    ),
  )
    .option('--queue-job-sentences <n>', 'sentences per queue job, in whole batches', positiveInt, 512)
    .option('--queue-in-flight <n>', 'queue jobs waiting or running at once (bounds Redis memory)', positiveInt, 16)
    .option(
      '--queue-lost-after <ms>',
      'fail the run when Redis stays unreachable this long mid-run',
      positiveInt,
      30_000,
    );
}

export interface QueueCliOptions {
  queue?: string | true;
  queueName: string;
  queueJobSentences: number;
  queueInFlight: number;
  queueLostAfter: number;
}

/** The URL the flags or the environment give, or a ConfigError saying where to give one. */
export function requireQueueUrl(given: string | true | undefined): string {
  const url = queueUrlFrom(given === true ? undefined : given);
  if (url === undefined)
    throw new ConfigError('queue', 'needs a URL: --queue redis://host:port, or set INTENTSIM_REDIS_URL or REDIS_URL');
  return url;
}

/** OpenEncoderOptions.queue for the flags, or undefined without --queue (the local run). */
export function queueOptions(o: QueueCliOptions): QueueOptions | undefined {
  if (o.queue === undefined) return undefined;
  return {
    url: requireQueueUrl(o.queue),
    name: o.queueName,
    jobSentences: o.queueJobSentences,
    maxInFlight: o.queueInFlight,
    lostAfterMs: o.queueLostAfter,
  };
}
