// `intentsim queue worker` (formerly `intentsim worker`): a long-running process that runs the jobs coordinators with --queue put on a
// Redis queue: sentence batches (`encode`, `catalog index`, `score shoppingbench`, the pipeline's
// other model work) and, with --graph, node-context units (`embed`, `pipeline`). SIGTERM or Ctrl-C:
// it stops taking jobs, finishes the ones in hand and exits 0.
import { Command } from '@commander-js/extra-typings';
import { addSentenceBertOptions, modelPaths, sentenceBertOptions } from '../options/model-options.js';
import { addDeprecatedOptions, deprecateCommand } from '../options/deprecated-spellings.js';
import { addQueueNameOption, QUEUE_URL_HELP, requireQueueUrl } from '../options/queue-options.js';
import { positiveInt } from '../options/value-parsers.js';
import { declarePaths, mergePaths } from '../declared-paths.js';

const WORKER_HELP = `Serves a run's job queues, until SIGTERM or Ctrl-C (then it finishes the jobs in
hand and exits 0). Two kinds of job:
- sentence batches (encode, catalog index, score shoppingbench, pipeline): whole batches cut
  exactly as a local run would cut them; a job of a glove-100d or offline-hashing-v1 run names
  that encoder, which the worker opens on the first such job (no model needed: glove-100d's
  vectors come from its npm package, converted once into --model-cache);
- node-context units (embed, pipeline), only with --graph: a group of nodes (or one hub node),
  read from this worker's copy of the graph and embedded as the coordinator would have.
So the vectors are the local run's, byte for byte (same model, dtype, provider and kind of CPU).
A job made for another model, dtype, --max-tokens, graph (kind, node and edge counts, revision;
and every node's text) or version of the sentence templates is refused: it fails with that reason,
without retries. A malformed job fails with the field that is wrong. The worker keeps serving.
A worker killed mid-job loses its lock, and the job goes to another worker after --lock-duration.
Start Redis first (redis-server), as many workers as you like on any machines that reach it, then
the coordinator with the same --queue and --queue-name. Each job brings its encoder, batch size
and context settings. Without a Sentence-BERT model (none found in the cache and no --model-dir),
the worker still serves glove-100d and stand-in jobs, and refuses Sentence-BERT ones, saying why.

Example
  intentsim queue worker --queue redis://10.0.0.5:6379 --model-dir minilm/ --dtype q8 --graph aser.sqlite
  intentsim embed --queue redis://10.0.0.5:6379 --graph aser.sqlite --products products.jsonl \\
    --out emb/ --model-dir minilm/ --dtype q8`;

/**
 * The worker command (`queue worker`); `deprecatedFor` names the new path where this is the old one
 * (`worker`), whose note then comes first, before any of its options' own.
 */
export function workerCommand(deprecatedFor?: string) {
  const base = new Command('worker');
  if (deprecatedFor !== undefined) deprecateCommand(base, deprecatedFor);
  const command = base
    .summary("run a queue's jobs for coordinators run with --queue (until SIGTERM)")
    .description(WORKER_HELP)
    .option('--queue [url]', QUEUE_URL_HELP)
    .option(
      '--graph <store>',
      "this worker's graph (a copy of the coordinator's SQLite file, opened read-only, or the shared bolt:// / neo4j:// URL): serves node-context jobs too",
    )
    .option('--concurrency <n>', 'jobs run at once, of each kind', positiveInt, 1)
    .option(
      '--lock-duration <ms>',
      "a job's lock; a killed worker's job goes to another after it",
      positiveInt,
      30_000,
    );
  const withModel = addSentenceBertOptions(addQueueNameOption(command));
  // It declared the encoder choice, and refused every encoder but Sentence-BERT; each job names its encoder now.
  const jobsSay = 'leave it out: each job names its encoder (and glove-100d its weighting)';
  addDeprecatedOptions(withModel, [
    { flags: '--encoder <name>', use: '', instead: jobsSay, apply: () => {} },
    { flags: '--sif', use: '', instead: jobsSay, apply: () => {} },
    {
      flags: '--batch-size <n>',
      use: '',
      parse: positiveInt,
      instead: "leave it out: each job brings its coordinator's batch size",
    },
  ]);
  // A worker writes no files: it reads its graph and its model.
  const paths = declarePaths(withModel, async (o) => {
    const { graphStoreFile } = await import('../../graph/open-store.js');
    return mergePaths(
      { inputFiles: { graph: o.graph === undefined ? undefined : graphStoreFile(o.graph) } },
      modelPaths(o),
    );
  });
  return paths.action(async (o) => {
    const url = requireQueueUrl(o.queue);
    const { OnnxSentenceEncoder } = await import('../../embeddings/onnx-encoder.js');
    const { serveQueueJobs } = await import('../../workers/queue/queue-worker.js');
    const { displayQueueUrl } = await import('../../workers/queue/redis-connection.js');
    const { openGraphStore } = await import('../../graph/open-store.js');
    const { redact } = await import('../../core/redact.js');
    const { ModelNotFoundError } = await import('../../embeddings/model-resolution.js');
    // The ONNX session itself (not openEncoder's Encoder): the worker serves its model's identity and info.
    // A model that is not found leaves the worker serving the baselines' jobs (glove-100d, the stand-in).
    const model = sentenceBertOptions(o);
    let encoder: Awaited<ReturnType<typeof OnnxSentenceEncoder.open>> | undefined;
    let modelMissing: string | undefined;
    try {
      encoder = await OnnxSentenceEncoder.open(model);
    } catch (err) {
      if (!(err instanceof ModelNotFoundError)) throw err;
      modelMissing = `${err.modelName} (${err.dtype}) not found here; \`intentsim model download --help\` says how to get it`;
    }
    const store = o.graph === undefined ? undefined : await openGraphStore(o.graph);
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const handle = await serveQueueJobs(encoder, {
      url,
      name: o.queueName,
      graph: store,
      concurrency: o.concurrency,
      lockDurationMs: o.lockDuration,
      stalledIntervalMs: Math.min(o.lockDuration, 30_000),
      log,
      modelMissing,
      cacheDir: model.cacheDir,
    });
    log(
      `worker: serving ${andList(handle.queues)} at ${displayQueueUrl(url)}; ` +
        (encoder
          ? `${encoder.name} (${encoder.dtype}) on ${encoder.provider} (CPU kernel class ${handle.kernels}), fingerprint ${encoder.fingerprint}, `
          : `no Sentence-BERT model (${modelMissing}): glove-100d and offline-hashing-v1 jobs only, `) +
        `${o.concurrency} job(s) at once; ` +
        (o.graph === undefined
          ? 'no graph (node-context jobs are left to workers with --graph)'
          : `graph ${redact(o.graph)} (${handle.graph})`),
    );
    await new Promise<void>((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        log(`worker: ${signal}: finishing the jobs in hand, then exiting`);
        void handle
          .close()
          .then(() => encoder?.close())
          .then(() => store?.close())
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

/** "a", "a and b", "a, b and c". */
function andList(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}` : (items[0] ?? '');
}

/** The old path `intentsim worker`, for one release. */
export function registerDeprecatedWorkerCommand(program: Command): void {
  program.addCommand(workerCommand('queue worker'), { hidden: true });
}
