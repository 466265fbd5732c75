// Where the queue's Redis is and how to reach it: the URL comes from the option or from
// INTENTSIM_REDIS_URL / REDIS_URL; its password goes to ioredis only and is never printed (every
// message shows the URL through core/redact.ts). rediss:// turns TLS on.
import { Cluster, Redis } from 'ioredis';
import type { ConnectionOptions, RedisOptions } from 'bullmq';
import { ConfigError, UserError } from '../../core/errors.js';
import { redact } from '../../core/redact.js';

export { queueUrlFrom } from './queue-url.js';

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
    ...(parsed.username ? { username: decodeUserInfo(parsed.username, 'user name', url) } : {}),
    ...(parsed.password ? { password: decodeUserInfo(parsed.password, 'password', url) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: { servername: parsed.hostname } } : {}),
    maxRetriesPerRequest: null,
  };
}

/** A user name or password from the URL, %-decoded; a bad %-escape is the user's error (not a URIError). */
function decodeUserInfo(text: string, what: string, url: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ConfigError(
      'queue',
      `has a ${what} with a bad %-escape (write % as %25, and a reserved character as %XX): ${displayQueueUrl(url)}`,
    );
  }
}

/** Raised when Redis cannot be reached: names the URL without its password. */
export class QueueUnreachableError extends UserError {
  constructor(url: string, reason: string) {
    super(
      `cannot reach the queue's Redis at ${displayQueueUrl(url)}: ${redact(reason).replace(/\.+$/, '')}. ` +
        'Start it (redis-server) or fix --queue; a rerun resumes where this one stopped.',
    );
    this.name = 'QueueUnreachableError';
  }
}

/** Raised when Redis answers but refuses the URL's password (or wants one the URL lacks). */
export class QueueAuthenticationError extends UserError {
  constructor(url: string, reason: string) {
    super(
      `the queue's Redis at ${displayQueueUrl(url)} refused the connection: authentication failed (${redact(reason).replace(/\.+$/, '')}).\n` +
        // On a line of its own: redaction masks a line's URL up to its last @, which the example holds.
        'Give the password in the URL (redis://:PASSWORD@host:port, or user:PASSWORD@ for an ACL user) or in INTENTSIM_REDIS_URL.',
    );
    this.name = 'QueueAuthenticationError';
  }
}

/** Redis's replies that mean the credentials are wrong or missing. */
const AUTH_FAILURE =
  /\b(NOAUTH|WRONGPASS)\b|invalid password|invalid username-password|AUTH.*without any password configured/i;

/**
 * Connects once, with no retries, and pings: a clear error now rather than a hang later. Says
 * whether the server is a node of a Redis Cluster (`INFO cluster`).
 */
export async function checkQueueReachable(url: string, timeoutMs = 5_000): Promise<{ cluster: boolean }> {
  const probe = new Redis({
    ...redisOptions(url),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // An AUTH refused at connect comes as an 'error' event; the rejection then only says "Connection is closed".
  let refused: string | undefined;
  probe.on('error', (err: Error) => {
    if (AUTH_FAILURE.test(err.message)) refused ??= err.message;
  });
  try {
    await probe.connect();
    await probe.ping();
    const info = await probe.info('cluster');
    return { cluster: /^cluster_enabled:1\b/m.test(info) };
  } catch (err) {
    const message = (err as Error).message;
    if (refused !== undefined || AUTH_FAILURE.test(message))
      throw new QueueAuthenticationError(url, refused ?? message);
    throw new QueueUnreachableError(url, message);
  } finally {
    probe.disconnect();
  }
}

/** What a BullMQ object (Queue, QueueEvents, Worker) of one queue is given to reach Redis. */
export interface QueueClientOptions {
  connection: ConnectionOptions;
  /** A hash tag on a cluster, so that all of a queue's keys share a slot (BullMQ's Lua scripts need it). */
  prefix?: string;
}

/**
 * How the queue's BullMQ objects reach Redis: one server (plain connection options, which BullMQ
 * opens and closes itself) or a Redis Cluster, found out by asking the server given. On a cluster
 * each object gets its own cluster client, seeded with that server (the others are discovered), and
 * each queue its own hash tag, so that different queues can live on different nodes.
 */
export class QueueConnection {
  private readonly clusterClients: Cluster[] = [];

  private constructor(
    private readonly url: string,
    readonly cluster: boolean,
  ) {}

  /** Checks that Redis answers (QueueUnreachableError otherwise) and whether it is a cluster. */
  static async open(url: string): Promise<QueueConnection> {
    const { cluster } = await checkQueueReachable(url);
    if (cluster && redisOptions(url).db !== 0)
      throw new ConfigError('queue', `names a database, which a Redis Cluster does not have: ${displayQueueUrl(url)}`);
    return new QueueConnection(url, cluster);
  }

  forQueue(queueName: string): QueueClientOptions {
    const options = redisOptions(this.url);
    if (!this.cluster) return { connection: options };
    const { host, port, db: _db, maxRetriesPerRequest, ...auth } = options;
    const client = new Cluster([{ host: host ?? '127.0.0.1', port: port ?? 6379 }], {
      redisOptions: { ...auth, maxRetriesPerRequest },
      // TLS endpoints of managed clusters announce addresses that must be checked against the seed's name.
      ...(auth.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
    });
    client.on('error', () => {}); // reported by the callers' probes, with the URL
    this.clusterClients.push(client);
    return { connection: client, prefix: `{${queueName}}` };
  }

  /** Closes the cluster clients handed out (BullMQ leaves clients it did not create open). */
  async close(): Promise<void> {
    for (const client of this.clusterClients.splice(0)) client.disconnect();
  }
}
