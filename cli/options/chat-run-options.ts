// What `ask` and `audit` hand the library from the chat options (chat-options.ts) and the response
// cache options: the endpoint, model and key variable, the request limits, the generation settings
// that override the run's defaults, and the cache file.
import { join } from 'node:path';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { UserError } from '../../core/errors.js';
import { defaultCacheRoot } from '../../embeddings/cache-paths.js';
import type { ChatEndpointOptions } from '../../engine/evaluation/chat-asker.js';
import type { GenerationSettings } from '../../engine/evaluation/generation-settings.js';
import { chatClientOptions } from './chat-options.js';

/** The response cache's file name in the cache root. */
export const RESPONSE_CACHE_FILE = 'chat-responses.jsonl';

export function addResponseCacheOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(cmd: Command<Args, Opts, Globals>) {
  return cmd
    .option('--cache <file>', `response cache (default: <cache root>/${RESPONSE_CACHE_FILE})`)
    .option('--no-cache', 'ask without the response cache');
}

/** The values of addChatEndpointOptions and addResponseCacheOptions. */
export interface ChatRunFlags {
  endpoint?: string | undefined;
  model?: string | undefined;
  apiKeyEnv?: string | undefined;
  concurrency: number;
  requestsPerMinute: number;
  retries: number;
  timeout: number;
  maxRetryWait: number;
  temperature?: number | undefined;
  maxCompletionTokens?: number | undefined;
  samples?: number | undefined;
  cache?: string | boolean | undefined;
}

/** The library's endpoint options and generation overrides; `command` names the command in the error for a missing --endpoint or --model. */
export function chatRunOptions(
  o: ChatRunFlags,
  command: string,
): ChatEndpointOptions & { settings: Partial<GenerationSettings> } {
  if (o.endpoint === undefined || o.model === undefined) throw new UserError(`${command} needs --endpoint and --model`);
  const { baseUrl, ...limits } = chatClientOptions({ ...o, endpoint: o.endpoint });
  return {
    endpoint: baseUrl,
    model: o.model,
    ...limits,
    settings: {
      ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
      ...(o.maxCompletionTokens === undefined ? {} : { maxTokens: o.maxCompletionTokens }),
      ...(o.samples === undefined ? {} : { samples: o.samples }),
    },
    cacheFile:
      o.cache === false ? null : typeof o.cache === 'string' ? o.cache : join(defaultCacheRoot(), RESPONSE_CACHE_FILE),
  };
}
