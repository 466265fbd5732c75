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

/**
 * Starts a Redis Cluster of `nodes` masters (no replicas) in `dir` on free loopback ports, and
 * resolves once every slot is served: the URL of its first node (clients discover the others) and
 * how to stop all of them.
 */
export async function startRedisCluster(dir: string, nodes = 3): Promise<{ url: string; stop: () => void }> {
  const ports: number[] = [];
  for (let i = 0; i < nodes; i++) ports.push(await freePort());
  const servers = ports.map((port) =>
    spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
      ],
      { stdio: 'ignore' },
    ),
  );
  const stop = () => servers.forEach((s) => s.kill('SIGKILL'));
  try {
    for (const port of ports) {
      const url = `redis://127.0.0.1:${port}`;
      for (
        let i = 0;
        i < 100 &&
        !(await checkQueueReachable(url).then(
          () => true,
          () => false,
        ));
        i++
      )
        await new Promise((r) => setTimeout(r, 100));
    }
    const create = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    for (let i = 0; i < 100; i++) {
      const info = spawnSync('redis-cli', ['-p', String(ports[0]), 'cluster', 'info'], { encoding: 'utf8' });
      if (/cluster_state:ok/.test(info.stdout)) return { url: `redis://127.0.0.1:${ports[0]}`, stop };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the Redis Cluster did not reach cluster_state:ok');
  } catch (err) {
    stop();
    throw err;
  }
}
