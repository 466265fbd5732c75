// `queue status` and `queue clean`: what a run's queue holds, who serves it, and removing it.
import { Queue } from 'bullmq';
import { checkQueueReachable, redisOptions } from './redis-connection.js';
import { encodeQueueName } from './queue-names.js';

export interface QueueStatus {
  queue: string;
  /** Jobs per state: waiting, active, completed, failed, delayed, prioritized. */
  jobs: Record<string, number>;
  /** Worker connections serving the queue, by name. */
  workers: string[];
  /** Jobs completed in each of the last minutes (newest first), from the workers' metrics. */
  completedPerMinute: number[];
}

async function withQueue<T>(url: string, name: string | undefined, use: (queue: Queue) => Promise<T>): Promise<T> {
  await checkQueueReachable(url);
  const queue = new Queue(encodeQueueName(name), { connection: redisOptions(url) });
  try {
    return await use(queue);
  } finally {
    await queue.close();
  }
}

export function queueStatus(url: string, name?: string, minutes = 10): Promise<QueueStatus> {
  return withQueue(url, name, async (queue) => {
    const jobs = await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized');
    const workers = (await queue.getWorkers()).map((w) => w.name ?? w.addr ?? 'unnamed');
    const metrics = await queue.getMetrics('completed', 0, minutes - 1);
    return { queue: queue.name, jobs, workers, completedPerMinute: metrics.data };
  });
}

/** Removes every job and key of the run's queue (finished or abandoned); running jobs are dropped too. */
export function cleanQueue(url: string, name?: string): Promise<void> {
  return withQueue(url, name, (queue) => queue.obliterate({ force: true }));
}
