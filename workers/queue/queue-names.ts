// Queue names. Each run names its queue (`--queue-name`, default "intentsim"): two runs that share a
// Redis but not a name never see each other's jobs, and `queue clean` removes one name's keys only.
import { ConfigError } from '../../core/errors.js';

export const DEFAULT_QUEUE_NAME = 'intentsim';

function checkedRunName(runName: string): string {
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(runName))
    throw new ConfigError(
      'queueName',
      `must be 1–100 letters, digits, '.', '_' or '-', got ${JSON.stringify(runName)}`,
    );
  return runName;
}

/** The BullMQ queue of a run's encode-sentences jobs. */
export function encodeQueueName(runName: string = DEFAULT_QUEUE_NAME): string {
  return `${checkedRunName(runName)}-encode`;
}

/** The BullMQ queue of a run's node-context jobs (served only by workers with a graph). */
export function contextQueueName(runName: string = DEFAULT_QUEUE_NAME): string {
  return `${checkedRunName(runName)}-nodes`;
}

/**
 * The BullMQ queue of a run's glove-100d and stand-in sentence jobs: apart from Sentence-BERT's, so
 * that a worker without the model (which serves only these) never takes a job it cannot run.
 */
export function baselineQueueName(runName: string = DEFAULT_QUEUE_NAME): string {
  return `${checkedRunName(runName)}-baselines`;
}

/** Every queue of a run. */
export function runQueueNames(runName: string = DEFAULT_QUEUE_NAME): string[] {
  return [encodeQueueName(runName), contextQueueName(runName), baselineQueueName(runName)];
}

/**
 * The name a worker gave itself (`intentsim-worker-HOST-PID`), from one entry of BullMQ's
 * getWorkers(): its `name` is the queue's, the worker's own is after ":w:" in `rawname`.
 */
export function workerName(client: Record<string, unknown>): string {
  const raw = typeof client.rawname === 'string' ? client.rawname : '';
  const own = raw.includes(':w:') ? raw.slice(raw.indexOf(':w:') + 3) : '';
  return own || (typeof client.addr === 'string' ? client.addr : 'unnamed');
}
