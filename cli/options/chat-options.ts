// Options of commands that ask an OpenAI-compatible chat-completions endpoint (`ask`): where, which
// model, whose key, how fast, and the generation settings that override a style's defaults.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { nonNegativeInt, number, positiveInt } from './value-parsers.js';

export function addChatEndpointOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  return cmd
    .option(
      '--endpoint <url>',
      'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (/chat/completions is appended)',
    )
    .option('--model <name>', 'the model name the endpoint serves')
    .option('--api-key-env <name>', 'environment variable holding the API key (never logged)', 'OPENAI_API_KEY')
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
    )
    .option(
      '--temperature <t>',
      "sampling temperature (default: the style's, as the released code: 0.1; cot_sc 0.7)",
      number,
    )
    .option(
      '--max-completion-tokens <n>',
      "the request's max_tokens (default: the style's: zero-shot 10, CoT 200)",
      positiveInt,
    )
    .option('--samples <n>', 'cot_sc: samples per item (default 5)', positiveInt);
}
