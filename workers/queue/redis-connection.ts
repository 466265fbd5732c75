// Where the queue's Redis is and how to reach it: the URL comes from the option or from
// INTENTSIM_REDIS_URL / REDIS_URL; its password goes to ioredis only and is never printed (every
// message shows the URL through core/redact.ts). rediss:// turns TLS on.
import { Redis } from 'ioredis';
import type { RedisOptions } from 'bullmq';
import { ConfigError, UserError } from '../../core/errors.js';
import { redact } from '../../core/redact.js';

/** The URL given, else $INTENTSIM_REDIS_URL, else $REDIS_URL; undefined when none is set. */
export function queueUrlFrom(
  given: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  return given ?? env.INTENTSIM_REDIS_URL ?? env.REDIS_URL;
}

/** The URL as messages show it: user-info replaced by ***. */
export function displayQueueUrl(url: string): string {
  return redact(url);
}

/**
 * ioredis options for `redis://[user:password@]host[:port][/db]` or `rediss://…` (TLS). BullMQ needs
 * `maxRetriesPerRequest: null` on the connections its workers block on.
 */
export function redisOptions(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('queue', `is not a URL: ${displayQueueUrl(url)} (expected redis://host:port[/db])`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new ConfigError('queue', `must be a redis:// or rediss:// URL, got ${displayQueueUrl(url)}`);
  const dbText = parsed.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0)
    throw new ConfigError('queue', `has a database number that is not a whole number: ${displayQueueUrl(url)}`);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    db,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: { servername: parsed.hostname } } : {}),
    maxRetriesPerRequest: null,
  };
}

/** Raised when Redis cannot be reached: names the URL without its password. */
export class QueueUnreachableError extends UserError {
  constructor(url: string, reason: string) {
    super(
      `cannot reach the queue's Redis at ${displayQueueUrl(url)}: ${redact(reason)}. ` +
        'Start it (redis-server) or fix --queue; a rerun resumes where this one stopped.',
    );
    this.name = 'QueueUnreachableError';
  }
}

/** Connects once, with no retries, and pings: a clear error now rather than a hang later. */
export async function checkQueueReachable(url: string, timeoutMs = 5_000): Promise<void> {
  const probe = new Redis({
    ...redisOptions(url),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {}); // reported through the rejected connect/ping below
  try {
    await probe.connect();
    await probe.ping();
  } catch (err) {
    throw new QueueUnreachableError(url, (err as Error).message);
  } finally {
    probe.disconnect();
  }
}
