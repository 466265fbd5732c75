// A throwaway redis-server for the queue's tests and benchmark: Debian's binary on a free loopback
// port, persisting nothing, in the folder given; stopped by the caller.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { checkQueueReachable } from '../../workers/queue/redis-connection.js';

export function haveRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server in `dir` and resolves once it answers: its URL (no password) and how to stop it. */
export async function startRedisServer(dir: string): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await checkQueueReachable(url).then(
        () => true,
        () => false,
      )
    )
      return { url, stop: () => redis.kill('SIGKILL') };
    await new Promise((r) => setTimeout(r, 100));
  }
  redis.kill('SIGKILL');
  throw new Error(`redis-server did not answer on port ${port}`);
}
