// `intentsim queue worker|status|clean`: serve a run's job queues, watch them, and remove them when
// the run is over.
import type { Command } from '@commander-js/extra-typings';
import { workerCommand } from './worker.js';
import { addQueueNameOption, QUEUE_URL_HELP, requireQueueUrl } from '../options/queue-options.js';
import { declarePaths, NO_PATHS } from '../declared-paths.js';

export function registerQueueCommands(program: Command): void {
  const queue = program
    .command('queue')
    .description('the Redis job queue of runs with --queue: the workers that serve it, its status, clean-up');
  queue.addCommand(workerCommand());
  const statusCommand = addQueueNameOption(
    queue
      .command('status')
      .description(
        'per queue of the run (sentence batches, node-context units): jobs per state, the workers connected and the jobs completed per minute (newest first)',
      )
      .option('--queue [url]', QUEUE_URL_HELP)
      .option('--json', 'print JSON'),
  );
  // The queue commands name no file or folder: the queue is in Redis.
  declarePaths(statusCommand, NO_PATHS).action(async (o) => {
    const { completedLine, queueStatus } = await import('../../workers/queue/queue-admin.js');
    const queues = await queueStatus(requireQueueUrl(o.queue), o.queueName);
    if (o.json) {
      process.stdout.write(JSON.stringify(queues, null, 2) + '\n');
      return;
    }
    for (const status of queues) {
      const jobs = Object.entries(status.jobs).map(([state, n]) => `${state} ${n}`);
      process.stdout.write(
        `${status.queue}: ${jobs.join(', ')}\n` +
          `  workers (${status.workers.length}): ${status.workers.join(', ') || 'none'}\n` +
          `  ${completedLine(status)}\n`,
      );
    }
  });
  const cleanCommand = addQueueNameOption(
    queue
      .command('clean')
      .description(
        "remove a finished or abandoned run's jobs and results from Redis (running jobs too); refused while a coordinator runs on it, unless --force",
      )
      .option('--queue [url]', QUEUE_URL_HELP)
      .option(
        '--force',
        'clean even while a coordinator runs on the queue (it adds the jobs it waits for again, up to 3 times a job, then stops)',
      ),
  );
  declarePaths(cleanCommand, NO_PATHS).action(async (o) => {
    const { cleanQueue } = await import('../../workers/queue/queue-admin.js');
    const removed = await cleanQueue(requireQueueUrl(o.queue), o.queueName, { force: o.force === true });
    process.stdout.write(`removed ${removed.join(', ')}\n`);
  });
}
