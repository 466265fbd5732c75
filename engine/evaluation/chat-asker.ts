// What `ask` and `audit` share to put prompts to an OpenAI-compatible chat model: the client (the
// key from the environment, checked before anything is read; rate limit, concurrency, retries with
// backoff, a note for each long wait), each completion through the response cache (response-cache.ts),
// a request that failed after its retries recorded as the released askLM recorded it, and the
// errors no retry can fix (HTTP 401, 403, 404: key, permission, model or URL) remembered, so that
// the run takes no more items and stops.
import { ConfigError, UserError } from '../../core/errors.js';
import { notice } from '../../core/notice.js';
import {
  ChatCompletionError,
  ChatCompletionsClient,
  type ChatCompletionsOptions,
  type RetryWait,
} from '../../core/chat-completions.js';
import { pythonStrip } from '../scoring/answer-parsers.js';
import { FAILED_RESPONSE } from '../scoring/responses.js';
import type { GenerationSettings } from './generation-settings.js';
import { cacheKey, ResponseCache } from './response-cache.js';

/** HTTP statuses after which no later request can succeed either: the run stops. */
const FATAL_STATUS = new Set([401, 403, 404]);

/** Where and whom a run asks, and how fast (the client's options, less its base URL). */
export interface ChatEndpointOptions extends Omit<ChatCompletionsOptions, 'baseUrl'> {
  /** The OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1. */
  endpoint: string;
  model: string;
  /** The response cache file; null: no cache. */
  cacheFile: string | null;
}

/** One sample's outcome, as a response line lists it. */
export interface ChatSample {
  response: string;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  latency_ms: number | null;
  cached: boolean;
  error?: string;
}

/** How a wait before a retry is told when the caller says nothing: one note line, for waits of a second or more. */
function noteRetryWait(w: RetryWait): void {
  if (w.waitMs < 1000 && !w.capped) return;
  const asked =
    w.requestedMs === undefined
      ? ''
      : w.capped
        ? `; the server asked for ${formatWait(w.requestedMs)}, cut to the longest retry wait`
        : `; the server asked for it (Retry-After)`;
  notice(`${w.reason}; retrying in ${formatWait(w.waitMs)} (attempt ${w.attempt} of ${w.attempts} failed${asked})`);
}

function formatWait(ms: number): string {
  if (!Number.isFinite(ms)) return 'longer than can be told';
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 6000) / 10} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}

/** What a run's requests cost: ask's and audit's results report it the same way. */
export interface ChatRunCounts {
  /** Completions taken from the cache, and requests sent (attempts, retries included). */
  cacheHits: number;
  requestsSent: number;
  tokens: { prompt: number; completion: number };
}

export class ChatAsker {
  readonly client: ChatCompletionsClient;
  readonly tokens = { prompt: 0, completion: 0 };
  /** Completions taken from the cache. */
  cacheHits = 0;

  /** This run's counts so far. */
  counts(): ChatRunCounts {
    return { cacheHits: this.cacheHits, requestsSent: this.client.requestsSent, tokens: this.tokens };
  }
  /** The first error no retry can fix; once set, no more items are taken. */
  fatal: ChatCompletionError | undefined;
  private cache: ResponseCache | undefined;

  /** Checks the key variable and makes the client; the cache is opened later (openCache), once the inputs are read. */
  constructor(private readonly o: ChatEndpointOptions) {
    if (o.apiKeyEnv !== undefined && o.apiKey === undefined && !process.env[o.apiKeyEnv])
      throw new ConfigError('apiKeyEnv', `names the environment variable ${o.apiKeyEnv}, which is not set`);
    this.client = new ChatCompletionsClient({ onRetryWait: noteRetryWait, ...o, baseUrl: o.endpoint });
  }

  /** The endpoint as the client names it (no credentials): what response lines and cache keys record. */
  get endpoint(): string {
    return this.client.url;
  }

  async openCache(): Promise<void> {
    if (this.o.cacheFile !== null) this.cache = await ResponseCache.open(this.o.cacheFile);
  }

  /** Cache lines that could not be read (torn by a kill). */
  get unreadableCacheLines(): number {
    return this.cache?.unreadable ?? 0;
  }

  /** One completion of `prompt` (sample `sample` of the settings): from the cache, else asked and cached. */
  async sample(prompt: string, settings: GenerationSettings, sample: number): Promise<ChatSample> {
    const key = cacheKey({
      endpoint: this.client.url,
      model: this.o.model,
      prompt,
      temperature: settings.temperature,
      maxTokens: settings.maxTokens,
      sample,
    });
    // A completion without content, cached before such a response counted as a failed request, is asked again.
    let hit = this.cache?.get(key);
    if (hit?.content === null) hit = undefined;
    const cached = hit !== undefined;
    if (hit === undefined) {
      try {
        const done = await this.client.complete({
          model: this.o.model,
          messages: [{ role: 'user', content: prompt }],
          max_tokens: settings.maxTokens,
          temperature: settings.temperature,
        });
        hit = { key, content: done.content, usage: done.usage, latency_ms: Math.round(done.latencyMs) };
        await this.cache?.put(hit);
      } catch (err) {
        if (!(err instanceof ChatCompletionError)) throw err;
        if (err.status !== undefined && FATAL_STATUS.has(err.status)) this.fatal ??= err;
        // The released askLM's record of a request that failed all its attempts.
        return {
          response: FAILED_RESPONSE,
          prompt_tokens: -1,
          completion_tokens: -1,
          latency_ms: null,
          cached: false,
          error: err.message,
        };
      }
    } else this.cacheHits += 1;
    this.tokens.prompt += hit.usage?.prompt_tokens ?? 0;
    this.tokens.completion += hit.usage?.completion_tokens ?? 0;
    // The released LM_generation returned content.strip(), and "" when there was no content.
    return {
      response: pythonStrip(hit.content ?? ''),
      prompt_tokens: hit.usage?.prompt_tokens ?? null,
      completion_tokens: hit.usage?.completion_tokens ?? null,
      latency_ms: hit.latency_ms,
      cached,
    };
  }

  /**
   * Runs `work` on every item, taken in order by as many runners as requests may be in flight; a
   * fatal error stops them from taking more, and what is in flight is still finished. The cache is
   * flushed however it ends.
   */
  async each<T>(todo: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const concurrency = Math.max(1, this.o.concurrency ?? 4);
    const runner = async () => {
      while (this.fatal === undefined && next < todo.length) await work(todo[next++]!);
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, runner));
    } finally {
      await this.cache?.flush();
    }
  }

  /** The error that stopped the run, saying where the answers so far are; undefined when none did. */
  stopped(out: string): UserError | undefined {
    if (this.fatal === undefined) return undefined;
    return new UserError(
      `${this.fatal.message}\nStopped: no request can succeed after this error. The responses so far are in ${out}; fix the cause and run again to ask the rest.`,
    );
  }
}
