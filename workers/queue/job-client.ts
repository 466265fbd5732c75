// The coordinator's end of one BullMQ queue: adds jobs under content ids, keeps a bounded number in
// flight, waits for each one's result, fails the run when Redis is gone too long, and keeps what
// the progress line shows (jobs waiting, active and done, the workers seen). Both kinds of
// coordinator use it: sentence batches (queued-encoder.ts) and node-context units (queued-context.ts).
//
// What Redis holds is checked, never trusted: every result (computed now or left by an earlier run)
// goes through the caller's `decode`, which refuses a malformed one (job-payloads.ts,
// MalformedResultError); a refused earlier result is removed and computed again, a refused new one
// is removed and stops the run naming the job. Jobs that vanish while waited for (Redis restarted
// without persistence, `queue clean --force`) are noticed by polling their state and added again.
// While open, the client keeps its name in a holders set (queue-holders.ts), so that `queue clean`
// refuses to remove the jobs of a run in progress.
import { Job, Queue, QueueEvents } from 'bullmq';
import { MalformedResultError } from './job-payloads.js';
import { QueueHolder } from './queue-holders.js';
import { ConfigError, UserError } from '../../core/errors.js';
import { createProgress } from '../../core/progress.js';
import { notice } from '../../core/notice.js';
import { checkQueueReachable, QueueConnection, QueueUnreachableError } from './redis-connection.js';
import { workerName } from './queue-names.js';
import type { QueueJobsRecord } from '../../embeddings/encoder-description.js';

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
  /**
   * A progress bar per batch of jobs: done of total, jobs/s, ETA, jobs waiting and active, workers
   * seen (default: on, unless INTENTSIM_QUIET=1).
   */
  progress?: boolean;
}

export type JobClientSettings = Required<Pick<QueueOptions, 'url' | 'maxInFlight' | 'attempts' | 'lostAfterMs'>> &
  Pick<QueueOptions, 'progress'>;

/** The settings with their defaults, checked. */
export function jobClientSettings(options: QueueOptions): JobClientSettings {
  const settings = {
    url: options.url,
    maxInFlight: options.maxInFlight ?? 16,
    attempts: options.attempts ?? 3,
    lostAfterMs: options.lostAfterMs ?? 30_000,
    progress: options.progress,
  };
  for (const field of ['maxInFlight', 'attempts', 'lostAfterMs'] as const) {
    if (!Number.isInteger(settings[field]) || settings[field] < 1)
      throw new ConfigError(field, `must be a positive integer, got ${settings[field]}`);
  }
  return settings;
}

/** What the queue looks like from the coordinator, refreshed every few seconds while jobs are out. */
export interface QueueSnapshot {
  waiting: number;
  active: number;
  /** This run's jobs finished (computed by a worker now, or reused from an earlier run). */
  done: number;
  /** Distinct worker connections seen serving the queue during this run. */
  workersSeen: number;
}

/** A job's result names the execution provider that computed it, which the manifest counts. */
export class JobClient<Data, Result extends { provider: string }> {
  /** Jobs this run has asked for. */
  private jobs = 0;
  /** Of those, the ones an earlier run had finished: collected, not computed again. */
  private reusedJobs = 0;
  /** Jobs per execution provider that ran them ('cpu', 'cuda', …). */
  private readonly providers: Record<string, number> = {};
  private readonly seen = new Set<string>();
  private idleSince: number | undefined;
  private saidIdle = false;
  private readonly snapshot: QueueSnapshot = { waiting: 0, active: 0, done: 0, workersSeen: 0 };
  /** Rejected when Redis has been unreachable too long: every runAll() in progress races it. */
  private readonly lost: Promise<never>;
  private failLost: (err: Error) => void = () => {};
  /** Jobs waited for, by id: settled by the state poll when their completion event does not come. */
  private readonly watched = new Map<string, (outcome: PolledOutcome) => void>();

  private constructor(
    private readonly queue: Queue<Data, Result>,
    private readonly events: QueueEvents,
    private readonly redis: QueueConnection,
    private readonly jobName: string,
    private readonly settings: JobClientSettings,
    private readonly noWorkerHint: string,
    private readonly holder: QueueHolder,
  ) {
    this.lost = new Promise<never>((_, reject) => (this.failLost = reject));
    this.lost.catch(() => {}); // observed by the runAll() calls in progress, if any
  }

  /** Connects to `queueName` (after checking that Redis answers, so that a bad URL fails now). */
  static async open<Data, Result extends { provider: string }>(
    queueName: string,
    jobName: string,
    settings: JobClientSettings,
    /** Printed when jobs wait with no worker serving the queue, e.g. how to start one. */
    noWorkerHint: string,
  ): Promise<JobClient<Data, Result>> {
    const redis = await QueueConnection.open(settings.url);
    const queue = new Queue<Data, Result>(queueName, redis.forQueue(queueName));
    const events = new QueueEvents(queueName, redis.forQueue(queueName));
    // Every job waited for listens for the queue closing: as many listeners as jobs in flight.
    queue.setMaxListeners(settings.maxInFlight + 10);
    events.setMaxListeners(settings.maxInFlight + 10);
    await events.waitUntilReady();
    queue.on('error', () => {}); // Redis going away is reported by watchConnection, with the URL
    events.on('error', () => {});
    const holder = await QueueHolder.start(queue);
    return new JobClient(queue, events, redis, jobName, settings, noWorkerHint, holder);
  }

  get queueName(): string {
    return this.queue.name;
  }

  /** What the manifest records of this queue's jobs. */
  record(): QueueJobsRecord {
    return { name: this.queue.name, jobs: this.jobs, reusedJobs: this.reusedJobs, providers: { ...this.providers } };
  }

  /** The latest look at the queue (counts are refreshed every 2 s while runAll() has jobs out). */
  status(): QueueSnapshot {
    return { ...this.snapshot };
  }

  /**
   * Runs `items` as jobs, at most maxInFlight at once; `decode` checks each result (anything Redis
   * held: it throws MalformedResultError for one that does not fit the item), and `collect` gets
   * what it returns, with the item's index, as the jobs finish. Fails with the first job that fails
   * for good or whose new result is refused, or when Redis is lost.
   */
  async runAll<T, V>(
    items: readonly T[],
    toJob: (item: T) => { id: string; data: Data },
    decode: (index: number, result: unknown) => V,
    collect: (index: number, value: V) => void,
  ): Promise<void> {
    const progress = createProgress({
      label: `queue ${this.queue.name}`,
      total: items.length,
      unit: 'jobs',
      enabled: this.settings.progress,
      detail: true,
      transient: true,
    });
    const detail = () => {
      const s = this.snapshot;
      return `${s.waiting} waiting, ${s.active} active, ${s.workersSeen} worker${s.workersSeen === 1 ? '' : 's'} seen`;
    };
    await this.refreshSnapshot();
    let next = 0;
    const runOne = async (): Promise<void> => {
      while (next < items.length) {
        const index = next++;
        const { id, data } = toJob(items[index]!);
        const { value, provider } = await this.run(id, data, (result) => decode(index, result));
        this.providers[provider] = (this.providers[provider] ?? 0) + 1;
        collect(index, value);
        this.snapshot.done += 1;
        progress.increment(1, { detail: detail() });
      }
    };
    const unwatch = this.watchConnection(() => progress.increment(0, { detail: detail() }));
    try {
      await Promise.race([
        Promise.all(Array.from({ length: Math.min(this.settings.maxInFlight, items.length) }, runOne)),
        this.lost,
      ]);
    } finally {
      unwatch();
      progress.stop();
    }
  }

  /** Adds the job (a no-op when one with its id exists) and waits for its result, checked by `decode`. */
  private async run<V>(
    jobId: string,
    data: Data,
    decode: (result: unknown) => V,
  ): Promise<{ value: V; provider: string }> {
    // What an earlier run left under this id is looked at before adding: a finished job is reused
    // when its result passes `decode` (else removed and computed again), and one that failed for
    // good is tried again (the rerun may have fixed the cause). Looking after adding would count
    // this run's own fast jobs as reused, and retry its own refusals.
    this.jobs += 1;
    const earlier = await Job.fromId<Data, Result>(this.queue, jobId);
    if (earlier && (await earlier.isCompleted())) {
      const reused = accept(earlier.returnvalue, decode);
      if (!(reused instanceof MalformedResultError)) {
        this.reusedJobs += 1;
        return reused;
      }
      notice(`queue job ${jobId}: the result an earlier run left is refused (${reused.message}); computing it again`);
      await earlier.remove();
    } else if (earlier && (await earlier.isFailed())) await earlier.retry('failed');
    for (let vanished = 0; ; vanished++) {
      // BullMQ's add() is typed with its own name type; the job name is only a label here.
      const added = await this.queue.add(this.jobName as Parameters<Queue<Data, Result>['add']>[0], data as never, {
        jobId,
        attempts: this.settings.attempts,
        backoff: { type: 'exponential', delay: 1_000 },
        // Finished results stay a day: a coordinator rerun after a crash collects them without recomputing.
        removeOnComplete: { age: 24 * 3600 },
        removeOnFail: { age: 7 * 24 * 3600 },
      });
      let outcome = await this.waitFor(added);
      // A job that is gone is reported as failed when its disappearance is seen by BullMQ's own
      // look ("Missing key for job …"): it vanished, it did not fail.
      if ('failed' in outcome && (await this.queue.getJobState(jobId).catch(() => undefined)) === 'unknown')
        outcome = { vanished: true };
      if ('failed' in outcome)
        throw new UserError(
          `queue job ${jobId} failed after up to ${this.settings.attempts} attempts: ${outcome.failed}`,
        );
      if ('vanished' in outcome) {
        if (vanished + 1 >= this.settings.attempts)
          throw new UserError(
            `queue job ${jobId} vanished from Redis ${vanished + 1} times (Redis restarted without persistence, or \`intentsim queue clean --force\` ran); stopping: rerun when the queue is left alone`,
          );
        notice(
          `queue job ${jobId} vanished from Redis (Redis restarted without persistence, or \`intentsim queue clean --force\` ran); adding it again`,
        );
        continue;
      }
      const accepted = accept(outcome.result, decode);
      if (accepted instanceof MalformedResultError) {
        // Never left for a later run to reuse.
        await added.remove().catch(() => {});
        throw new UserError(
          `queue job ${jobId}: the worker's result is refused: ${accepted.message}; the job is removed, so a rerun computes it again`,
        );
      }
      return accepted;
    }
  }

  /**
   * The job's outcome: from its completion or failure event, or, when that does not come (the
   * events of a restarted Redis), from the state poll (pollWatched), which also sees a job vanish.
   */
  private async waitFor(job: { id?: string; waitUntilFinished: Job['waitUntilFinished'] }): Promise<PolledOutcome> {
    const id = job.id!;
    const polled = new Promise<PolledOutcome>((resolve) => this.watched.set(id, resolve));
    try {
      return await Promise.race([
        job.waitUntilFinished(this.events).then(
          (result: unknown): PolledOutcome => ({ result }),
          (err: Error): PolledOutcome => ({ failed: err.message }),
        ),
        polled,
      ]);
    } finally {
      this.watched.delete(id);
    }
  }

  /** Looks at the state of every job waited for: settles those finished or gone. */
  private async pollWatched(): Promise<void> {
    for (const [id, settle] of [...this.watched]) {
      const state = await this.queue.getJobState(id);
      if (state === 'unknown') settle({ vanished: true });
      else if (state === 'completed' || state === 'failed') {
        const job = await Job.fromId<Data, Result>(this.queue, id);
        if (job === undefined) settle({ vanished: true });
        else if (state === 'completed') settle({ result: job.returnvalue as unknown });
        else settle({ failed: job.failedReason });
      }
    }
  }

  /**
   * Redis lost in the middle of a run: BullMQ's clients may reconnect without end, or close and leave
   * nothing for the process to wait on (it would then exit 0 with the work undone). So while jobs are
   * out, Redis is probed once a second with a fresh connection; when it has not answered for
   * lostAfterMs, the run fails naming the URL (without its password), and a rerun collects what had
   * finished. After a good probe, every other second, the counts the progress line shows are
   * refreshed. The timer also keeps the process alive while jobs are out.
   */
  private watchConnection(refreshed: () => void): () => void {
    let failingSince: number | undefined;
    let probing = false;
    let tick = 0;
    const timer = setInterval(() => {
      if (probing) return;
      probing = true;
      tick += 1;
      void checkQueueReachable(this.settings.url, 2_000)
        .then(
          async () => {
            failingSince = undefined;
            if (tick % 2 === 1) {
              await this.refreshSnapshot();
              refreshed();
              await this.pollWatched().catch(() => {}); // a failed look says nothing: the next one tries again
            }
          },
          () => {
            failingSince ??= Date.now();
            if (Date.now() - failingSince >= this.settings.lostAfterMs)
              this.failLost(new QueueUnreachableError(this.settings.url, 'lost in the middle of the run'));
          },
        )
        .finally(() => (probing = false));
    }, 1_000);
    return () => clearInterval(timer);
  }

  private async refreshSnapshot(): Promise<void> {
    try {
      const counts = await this.queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed');
      this.snapshot.waiting = (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0);
      this.snapshot.active = counts.active ?? 0;
      // CLIENT LIST may be refused by a managed Redis: then the workers seen stay as they were.
      const workers = await this.queue.getWorkers();
      for (const w of workers) this.seen.add(workerName(w));
      this.snapshot.workersSeen = this.seen.size;
      // Jobs that nobody takes wait for ever, by design (workers may start later): say so once.
      if (workers.length === 0 && this.snapshot.waiting > 0) {
        this.idleSince ??= Date.now();
        if (!this.saidIdle && Date.now() - this.idleSince >= 10_000) {
          this.saidIdle = true;
          notice(`no worker is serving ${this.queue.name}; its jobs wait until one starts (${this.noWorkerHint})`);
        }
      } else this.idleSince = undefined;
    } catch {
      // A look that fails says nothing about the jobs: the probe above reports a lost Redis.
    }
  }

  async close(): Promise<void> {
    // A polite close waits for Redis; when Redis is gone it would wait for ever (and with nothing else
    // pending, Node would exit 0 as if the run had succeeded). After 2 s the connections are dropped.
    await this.holder.stop();
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
    await this.redis.close();
  }
}

/** How a job waited for ended: its result (unchecked), its final failure, or its disappearance. */
type PolledOutcome = { result: unknown } | { failed: string } | { vanished: true };

/** The decoded result with the provider that computed it, or why it is refused. */
function accept<V>(
  result: unknown,
  decode: (result: unknown) => V,
): { value: V; provider: string } | MalformedResultError {
  try {
    const value = decode(result);
    // decode checked the result's fields, the provider among them.
    return { value, provider: (result as { provider: string }).provider };
  } catch (err) {
    if (err instanceof MalformedResultError) return err;
    throw err;
  }
}
