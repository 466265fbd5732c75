// `queue status` and `queue clean`: what a run's queues hold, who serves them, and removing them.
import { Queue } from 'bullmq';
import { UserError } from '../../core/errors.js';
import { queueHolders } from './queue-holders.js';
import { QueueConnection } from './redis-connection.js';
import { runQueueNames, workerName } from './queue-names.js';

export interface QueueStatus {
  queue: string;
  /** Jobs per state: waiting, active, completed, failed, delayed, prioritized. */
  jobs: Record<string, number>;
  /** Worker connections serving the queue, by name. */
  workers: string[];
  /**
   * Jobs completed in each of the last closed minutes (newest first), from the workers' metrics. BullMQ
   * closes a minute only when a job completes in a later one: after a short run it is empty, although
   * jobs completed (they are in `openMinute`).
   */
  completedPerMinute: number[];
  /** Jobs completed since the queue's metrics began (the run's first job, or the last `queue clean`). */
  completedTotal: number;
  /** The minute the metrics have not closed yet: when it began, and the jobs completed in it so far. */
  openMinute?: { from: string; completed: number };
}

/** One line on the completed jobs: the total, then per minute, newest first (the open minute first). */
export function completedLine(
  status: Pick<QueueStatus, 'completedPerMinute' | 'completedTotal' | 'openMinute'>,
): string {
  if (status.completedTotal === 0) return 'completed: none yet';
  const minutes = [
    ...(status.openMinute ? [`${status.openMinute.completed} since ${status.openMinute.from.slice(11, 16)} UTC`] : []),
    ...status.completedPerMinute.map(String),
  ];
  return `completed: ${status.completedTotal} in all; per minute, newest first: ${minutes.join(', ')}`;
}

/** Runs `use` on each of the run's queues (encode-sentences, then node-context). */
async function withRunQueues<T>(
  url: string,
  name: string | undefined,
  use: (queue: Queue) => Promise<T>,
): Promise<T[]> {
  const redis = await QueueConnection.open(url);
  const out: T[] = [];
  try {
    for (const queueName of runQueueNames(name)) {
      const queue = new Queue(queueName, redis.forQueue(queueName));
      try {
        out.push(await use(queue));
      } finally {
        await queue.close();
      }
    }
  } finally {
    await redis.close();
  }
  return out;
}

/** One status per queue of the run: sentence jobs, then node-context jobs. */
export function queueStatus(url: string, name?: string, minutes = 10): Promise<QueueStatus[]> {
  return withRunQueues(url, name, async (queue) => {
    const jobs = await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized');
    const workers = (await queue.getWorkers()).map(workerName);
    const metrics = await queue.getMetrics('completed', 0, minutes - 1);
    const { count, prevTS, prevCount } = metrics.meta;
    // The open minute is the one of the last closing (prevTS): its jobs are counted since prevCount.
    const open = count - prevCount;
    return {
      queue: queue.name,
      jobs,
      workers,
      completedPerMinute: metrics.data,
      completedTotal: count,
      ...(open > 0 && prevTS > 0
        ? { openMinute: { from: new Date(Math.floor(prevTS / 60_000) * 60_000).toISOString(), completed: open } }
        : {}),
    };
  });
}

/**
 * Removes every job and key of the run's queues (finished or abandoned); running jobs are dropped
 * too. Refuses while a coordinator holds one of them (queue-holders.ts), unless `force`: its jobs
 * would vanish under it (it adds them again, job-client.ts).
 */
export async function cleanQueue(
  url: string,
  name?: string,
  { force = false }: { force?: boolean } = {},
): Promise<string[]> {
  if (!force) {
    const held = (
      await withRunQueues(url, name, async (queue) => ({ queue: queue.name, by: await queueHolders(queue) }))
    ).filter((h) => h.by.length > 0);
    if (held.length > 0)
      throw new QueueInUseError(
        `${held.map((h) => h.queue).join(' and ')} ${held.length === 1 ? 'is' : 'are'} in use by a running coordinator (${[...new Set(held.flatMap((h) => h.by))].join(', ')}): cleaning now would remove the jobs it waits for. Wait for the run to end, or stop it; to remove them anyway, add --force`,
      );
  }
  return withRunQueues(url, name, async (queue) => {
    await queue.obliterate({ force: true });
    return queue.name;
  });
}

/** `queue clean` on a queue that a running coordinator holds. */
export class QueueInUseError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'QueueInUseError';
  }
}
