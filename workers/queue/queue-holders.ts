// Who holds a queue: each coordinator (job-client.ts) keeps an entry in a sorted set next to the
// queue's keys while it is open — its name, scored by when the entry lapses — and refreshes it
// every few seconds. `queue clean` (queue-admin.ts) refuses to remove a queue that has a live
// entry, unless forced: removing the jobs of a run in progress leaves it nothing to wait for. An
// entry of a coordinator that died lapses after HOLD_MS.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** How long an entry lives without a refresh. */
const HOLD_MS = 20_000;
const REFRESH_MS = 5_000;

/** The queue's own ioredis client (a Redis or a Cluster: both have these commands). */
async function redisClient(
  queue: Queue,
): Promise<Pick<Redis, 'zadd' | 'zrem' | 'zrange' | 'zremrangebyscore' | 'pexpire'>> {
  return (await queue.backend.client) as unknown as Redis;
}

/** The sorted set of a queue's holders (its hash tag, on a cluster, is the queue's own). */
export function holdersKey(queue: Queue): string {
  return `${queue.opts.prefix ?? 'bull'}:${queue.name}:intentsim-holders`;
}

/** Live holders of the queue: the coordinators' names (`HOST pid PID`). */
export async function queueHolders(queue: Queue): Promise<string[]> {
  const client = await redisClient(queue);
  const key = holdersKey(queue);
  await client.zremrangebyscore(key, '-inf', Date.now());
  const members = await client.zrange(key, 0, -1);
  return members.map((m: string) => m.slice(0, m.lastIndexOf(' ')));
}

/** This process's entry in a queue's holders, refreshed until stopped. */
export class QueueHolder {
  private readonly member = `${hostname()} pid ${process.pid} ${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | undefined;

  private constructor(private readonly queue: Queue) {}

  static async start(queue: Queue): Promise<QueueHolder> {
    const holder = new QueueHolder(queue);
    await holder.refresh();
    holder.timer = setInterval(() => void holder.refresh().catch(() => {}), REFRESH_MS);
    holder.timer.unref(); // the jobs in flight keep the process alive, not this
    return holder;
  }

  private async refresh(): Promise<void> {
    const client = await redisClient(this.queue);
    const key = holdersKey(this.queue);
    await client.zadd(key, Date.now() + HOLD_MS, this.member);
    await client.pexpire(key, HOLD_MS);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    try {
      const client = await redisClient(this.queue);
      await Promise.race([
        client.zrem(holdersKey(this.queue), this.member),
        new Promise((resolve) => setTimeout(resolve, 1_000).unref()),
      ]);
    } catch {
      // Redis gone: the entry lapses by itself.
    }
  }
}
