// Queue names. Each run names its queue (`--queue-name`, default "intentsim"): two runs that share a
// Redis but not a name never see each other's jobs, and `queue clean` removes one name's keys only.
import { ConfigError } from '../../core/errors.js';

export const DEFAULT_QUEUE_NAME = 'intentsim';

/** The BullMQ queue of a run's encode jobs. */
export function encodeQueueName(runName: string = DEFAULT_QUEUE_NAME): string {
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(runName))
    throw new ConfigError(
      'queueName',
      `must be 1–100 letters, digits, '.', '_' or '-', got ${JSON.stringify(runName)}`,
    );
  return `${runName}-encode`;
}
