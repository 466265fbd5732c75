// Where the queue's Redis is: the option, else $INTENTSIM_REDIS_URL, else $REDIS_URL. Kept apart from
// redis-connection.ts so that reading the flags does not load the Redis client (ioredis, some 50
// modules) into every run of a command that has a --queue option but was not given one.

/** The URL given, else $INTENTSIM_REDIS_URL, else $REDIS_URL; undefined when none is set. */
export function queueUrlFrom(
  given: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  return given ?? env.INTENTSIM_REDIS_URL ?? env.REDIS_URL;
}
