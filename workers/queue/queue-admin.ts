// `queue status` and `queue clean`: what a run's queues hold, who serves them, and removing them.
import { Queue } from 'bullmq';
import { QueueConnection } from './redis-connection.js';
import { runQueueNames, workerName } from './queue-names.js';

export interface QueueStatus {
  queue: string;
  /** Jobs per state: waiting, active, completed, failed, delayed, prioritized. */
  jobs: Record<string, number>;
  /** Worker connections serving the queue, by name. */
  workers: string[];
  /** Jobs completed in each of the last minutes (newest first), from the workers' metrics. */
  completedPerMinute: number[];
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
    return { queue: queue.name, jobs, workers, completedPerMinute: metrics.data };
  });
}

/** Removes every job and key of the run's queues (finished or abandoned); running jobs are dropped too. */
export async function cleanQueue(url: string, name?: string): Promise<string[]> {
  return withRunQueues(url, name, async (queue) => {
    await queue.obliterate({ force: true });
    return queue.name;
  });
}
