// Options of commands that ask an OpenAI-compatible chat-completions endpoint (`ask`, `catalog match
// --conceptualizer openai`): where, which model, whose key, how fast (addChatConnectionOptions), and
// for `ask` and `audit` the generation settings that override their defaults (addChatEndpointOptions: both).
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { UserError } from '../../core/errors.js';
import { OPENAI_API_HOST, type ChatCompletionsOptions } from '../../core/chat-completions.js';
import { nonNegativeInt, number, positiveInt } from './value-parsers.js';

/** The variable that holds the key when --api-key-env is not given. */
export const DEFAULT_API_KEY_ENV = 'OPENAI_API_KEY';

/** Where, which model, whose key, how fast: every command that asks a chat endpoint. */
export function addChatConnectionOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(cmd: Command<Args, Opts, Globals>) {
  return cmd
    .option(
      '--endpoint <url>',
      'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (/chat/completions is appended)',
    )
    .option('--model <name>', 'the model name the endpoint serves')
    .option(
      '--api-key-env <name>',
      `environment variable holding the API key (never logged; default ${DEFAULT_API_KEY_ENV}, required for ${OPENAI_API_HOST} or when given; local servers need none)`,
    )
    .option('--concurrency <n>', 'requests in flight at once', positiveInt, 4)
    .option('--requests-per-minute <n>', 'rate limit: request starts per minute', positiveInt, 60)
    .option(
      '--retries <n>',
      'retries of a request after a 429, a 5xx or a network error (backoff 1 s, doubled)',
      nonNegativeInt,
      5,
    )
    .option('--timeout <seconds>', 'per-request timeout', positiveInt, 60)
    .option(
      '--max-retry-wait <seconds>',
      'the longest wait before a retry, whatever Retry-After asks (a longer one is cut to it, and printed)',
      nonNegativeInt,
      60,
    );
}

/** What --temperature and --max-completion-tokens default to, in each command's own words. */
export interface GenerationDefaultsHelp {
  temperature: string;
  maxCompletionTokens: string;
}

/** `ask`'s defaults: the style's, as the released askLM scripts set them. */
export const ASK_GENERATION_DEFAULTS: GenerationDefaultsHelp = {
  temperature: "the style's, as the released code: 0.1; cot_sc 0.7",
  maxCompletionTokens: "the style's: zero-shot 10, CoT 200",
};

/**
 * The chat connection options and the generation settings that override a command's defaults, which
 * its help states (`defaults`): `ask` and `audit` default differently, and each help says its own.
 */
export function addChatEndpointOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
  defaults: GenerationDefaultsHelp,
) {
  return addChatConnectionOptions(cmd)
    .option('--temperature <t>', `sampling temperature (default: ${defaults.temperature})`, number)
    .option(
      '--max-completion-tokens <n>',
      `the request's max_tokens (default: ${defaults.maxCompletionTokens})`,
      positiveInt,
    );
}

/** --samples: replies per item, for the styles that sample several (`ask`'s cot_sc; a judge answers once). */
export function addSamplesOption<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  return cmd.option('--samples <n>', 'cot_sc: samples per item (default 5)', positiveInt);
}

/**
 * The key variable to hand to the library for `--endpoint` and `--api-key-env`, checked here so that
 * an error names the flag. A key is required where the user named a variable (`--api-key-env`) and
 * for OpenAI's own API; any other endpoint (a local vLLM, llama.cpp or Ollama server) needs none, and
 * gets the default variable's key only when it happens to be set.
 */
export function chatKeyEnv(o: { endpoint: string; apiKeyEnv?: string | undefined }): string | undefined {
  const required = o.apiKeyEnv !== undefined || isOpenAiEndpoint(o.endpoint);
  if (!required) return undefined;
  const name = o.apiKeyEnv ?? DEFAULT_API_KEY_ENV;
  if (!process.env[name])
    throw new UserError(
      o.apiKeyEnv !== undefined
        ? `--api-key-env names the environment variable ${name}, which is not set`
        : `${OPENAI_API_HOST} needs an API key: set ${name}, or name another variable with --api-key-env`,
    );
  return name;
}

/** The parsed values of addChatConnectionOptions. */
export interface ChatConnectionCliOptions {
  endpoint?: string;
  model?: string;
  apiKeyEnv?: string;
  concurrency: number;
  requestsPerMinute: number;
  retries: number;
  timeout: number;
  maxRetryWait: number;
}

/** The client's fields (core/chat-completions.ts) from the connection flags, the endpoint given. */
export function chatClientOptions(
  o: ChatConnectionCliOptions & { endpoint: string },
): Pick<
  ChatCompletionsOptions,
  'baseUrl' | 'apiKeyEnv' | 'concurrency' | 'requestsPerMinute' | 'maxRetries' | 'timeoutMs' | 'maxRetryWaitMs'
> {
  return {
    baseUrl: o.endpoint,
    apiKeyEnv: chatKeyEnv(o),
    concurrency: o.concurrency,
    requestsPerMinute: o.requestsPerMinute,
    maxRetries: o.retries,
    timeoutMs: o.timeout * 1000,
    maxRetryWaitMs: o.maxRetryWait * 1000,
  };
}

function isOpenAiEndpoint(endpoint: string): boolean {
  try {
    return new URL(endpoint).hostname === OPENAI_API_HOST;
  } catch {
    return false; // the library rejects a malformed URL, naming it
  }
}
