// A client of an OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, llama.cpp's server,
// Ollama): the one HTTP client of the project, shared by the OpenAI conceptualizer and `ask`.
//
// - The API key comes from the environment (OPENAI_API_KEY by default) and is never logged: error
//   messages name the URL (without credentials) and the HTTP status, and the part of a server's error
//   body they quote goes through core/redact.ts first (servers do echo keys back: "Incorrect API key
//   provided: sk-…").
// - Transient failures (network errors, timeouts, HTTP 408/409/425/429/5xx, and an HTTP 200 that
//   holds no answer: no choices, or content that is not a string) are retried with exponential
//   backoff, honouring Retry-After up to `maxRetryWaitMs`; other HTTP errors fail the request at once.
//   A wait is reported through `onRetryWait` before it starts. A server that asks for more than the
//   cap gets the cap (its request counts as one failed attempt like any other), so `Retry-After:
//   100000` or an HTTP date in 2099 can neither stall a run for a day nor overflow Node's timer
//   (setTimeout fires at once beyond 2^31-1 ms).
// - A response body longer than `maxResponseBytes` is not read further: the request fails (naming
//   the endpoint and the limit), and nothing of it is kept or cached.
// - A rate limit spaces request starts by 60/rpm seconds, with at most `concurrency` in flight.
import { redact, redactUrl } from './redact.js';
import { UserError, ConfigError } from './errors.js';

/** OpenAI's API host: the only endpoint that the default key variable is sent to. */
export const OPENAI_API_HOST = 'api.openai.com';

/**
 * The request URL of a base URL: `/chat/completions` appended to its path, before any query string
 * (issue 45: `http://h/v1?api-key=X` posted to `/v1?api-key=X/chat/completions`); a fragment is not
 * sent. Throws (TypeError) for what is not a URL.
 */
export function completionsUrl(baseUrl: string): URL {
  const url = new URL(baseUrl);
  url.pathname = url.pathname.replace(/\/+$/, '') + '/chat/completions';
  url.hash = '';
  return url;
}

export interface ChatCompletionsOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** The key itself; default: the environment variable named by `apiKeyEnv`. May be absent for local servers. */
  apiKey?: string;
  /** Default `OPENAI_API_KEY`, read for api.openai.com only: another endpoint gets no key unless one is named. */
  apiKeyEnv?: string;
  /** Retries after the first attempt for transient failures (default 5). */
  maxRetries?: number;
  /** First backoff delay in ms, doubled per retry (default 1000). */
  backoffMs?: number;
  /** Request starts per minute (default 60). */
  requestsPerMinute?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Per-request timeout in ms (default 60 000). */
  timeoutMs?: number;
  /** The longest wait before a retry, whatever Retry-After or the backoff ask for (default 60 000 ms). */
  maxRetryWaitMs?: number;
  /** The longest response body read, in bytes (default 1 MiB); a longer one fails the request. */
  maxResponseBytes?: number;
  /** Told of each wait before a retry, before it starts (e.g. to print it). */
  onRetryWait?: (wait: RetryWait) => void;
  /** For tests: the clock. */
  sleep?: (ms: number) => Promise<void>;
}

/** A wait before a retry, as `onRetryWait` is told of it. */
export interface RetryWait {
  /** What failed (the error's message, without secrets). */
  reason: string;
  /** The attempt that failed (1 = the first) and the attempts allowed in all. */
  attempt: number;
  attempts: number;
  /** How long the client waits, in ms. */
  waitMs: number;
  /** What the server asked for (Retry-After), in ms, when it did; Infinity for a date too far to compute. */
  requestedMs?: number;
  /** Whether the wait was cut to `maxRetryWaitMs`. */
  capped: boolean;
}

/** Default of `maxRetryWaitMs`. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;
/** Default of `maxResponseBytes`: a chat answer is a few kB; 1 MiB leaves room for long CoT answers. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1 << 20;
/** The longest delay Node's timers take (2^31-1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The request body: model, messages and the generation settings, sent as given. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface ChatCompletion {
  /** choices[0].message.content (a response without one is a failed request, retried; never null
   * since issue 29 — the type keeps null for callers written before). */
  content: string | null;
  /** The server's token counts; null when it reported none. */
  usage: ChatUsage | null;
  /** Attempts made (1 = no retry). */
  attempts: number;
  /** Milliseconds from sending the successful attempt to reading its body. */
  latencyMs: number;
}

const TRANSIENT_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/** How much of a server's error body a message quotes. */
const QUOTED_BODY_CHARS = 200;

/** A request that failed: `status` is the HTTP status (absent for network errors and bad bodies). */
export class ChatCompletionError extends UserError {
  constructor(
    message: string,
    readonly transient: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ChatCompletionError';
  }
}

/**
 * A URL as messages and records show it: without user name, password or query string; redacted once
 * more, since a password holding `/` parses as a path (`https://u:123/abc@h`); the whole URL masked
 * when it does not parse.
 */
export function publicUrl(url: string): string {
  if (!URL.canParse(url)) return redactUrl(url);
  const u = new URL(url);
  u.username = '';
  u.password = '';
  u.search = '';
  return redact(u.toString());
}

/** Spaces the starts of calls by `intervalMs` and bounds how many run at once. */
class RateLimiter {
  private nextStart = 0;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly intervalMs: number,
    private readonly concurrency: number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      const now = Date.now();
      const start = Math.max(now, this.nextStart);
      this.nextStart = start + this.intervalMs;
      if (start > now) await this.sleep(start - now);
      return await task();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}

const realSleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.min(Math.max(0, ms), MAX_TIMER_MS)));

export class ChatCompletionsClient {
  /** The endpoint, as messages and records name it (no credentials). */
  readonly url: string;
  /** Requests actually sent (attempts, retries included). */
  requestsSent = 0;
  private readonly requestUrl: string;
  private readonly apiKey: string | undefined;
  private readonly limiter: RateLimiter;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxRetries: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;
  private readonly maxRetryWaitMs: number;
  private readonly maxResponseBytes: number;
  private readonly onRetryWait: ((wait: RetryWait) => void) | undefined;

  constructor(options: ChatCompletionsOptions) {
    let parsed: URL;
    try {
      parsed = completionsUrl(options.baseUrl);
    } catch {
      throw new ConfigError('baseUrl', `is not a URL: ${JSON.stringify(publicUrl(options.baseUrl))}`);
    }
    this.requestUrl = parsed.href;
    if (parsed.username !== '' || parsed.password !== '')
      throw new ConfigError('baseUrl', 'must not carry credentials; the key comes from the environment');
    this.url = publicUrl(this.requestUrl);
    // The default variable holds an OpenAI key: it goes to OpenAI's API only. Any other endpoint gets a
    // key only when one is given or its variable is named, so a local or third-party server never sees it.
    const keyEnv = options.apiKeyEnv ?? (parsed.hostname === OPENAI_API_HOST ? 'OPENAI_API_KEY' : undefined);
    this.apiKey = options.apiKey ?? (keyEnv === undefined ? undefined : process.env[keyEnv]);
    this.sleep = options.sleep ?? realSleep;
    const rpm = options.requestsPerMinute ?? 60;
    if (!(rpm > 0)) throw new ConfigError('requestsPerMinute', `must be > 0, got ${rpm}`);
    this.limiter = new RateLimiter(60_000 / rpm, Math.max(1, options.concurrency ?? 4), this.sleep);
    this.maxRetries = options.maxRetries ?? 5;
    this.backoffMs = options.backoffMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    const maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    if (!(maxRetryWaitMs >= 0)) throw new ConfigError('maxRetryWaitMs', `must be ≥ 0, got ${maxRetryWaitMs}`);
    // Past Node's timer limit a wait would fire at once; 24.8 days is no real limit anyway.
    this.maxRetryWaitMs = Math.min(maxRetryWaitMs, MAX_TIMER_MS);
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!(Number.isInteger(this.maxResponseBytes) && this.maxResponseBytes > 0))
      throw new ConfigError('maxResponseBytes', `must be a positive integer, got ${this.maxResponseBytes}`);
    this.onRetryWait = options.onRetryWait;
  }

  /** One completion, retried on transient failures; throws a ChatCompletionError when it cannot be had. */
  async complete(request: ChatRequest): Promise<ChatCompletion> {
    for (let attempt = 0; ; attempt++) {
      try {
        const done = await this.limiter.run(() => this.send(request));
        return { ...done, attempts: attempt + 1 };
      } catch (err) {
        if (!(err instanceof ChatCompletionError)) throw err;
        if (!err.transient || attempt >= this.maxRetries) {
          if (!err.transient) throw err;
          throw new ChatCompletionError(
            `${err.message} (gave up after ${attempt + 1} attempts)`,
            true,
            err.status,
            err.retryAfterMs,
          );
        }
        const wanted = Math.max(this.backoffMs * 2 ** attempt, err.retryAfterMs ?? 0);
        const waitMs = Math.min(wanted, this.maxRetryWaitMs);
        this.onRetryWait?.({
          reason: err.message,
          attempt: attempt + 1,
          attempts: this.maxRetries + 1,
          waitMs,
          ...(err.retryAfterMs === undefined ? {} : { requestedMs: err.retryAfterMs }),
          capped: wanted > this.maxRetryWaitMs,
        });
        await this.sleep(waitMs);
      }
    }
  }

  private async send(request: ChatRequest): Promise<Omit<ChatCompletion, 'attempts'>> {
    this.requestsSent += 1;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const started = performance.now();
    let response: Response;
    let body: string;
    try {
      response = await fetch(this.requestUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // An error's body is only quoted: past the limit it is cut, and the status decides as ever.
      body = await readBody(response, this.maxResponseBytes, !response.ok);
    } catch (err) {
      if (err instanceof BodyTooLargeError)
        throw new ChatCompletionError(
          `${this.url}: HTTP ${err.status}: the response body is larger than ${this.maxResponseBytes} bytes (maxResponseBytes); refused, nothing of it kept`,
          false,
          err.status,
        );
      // Network error or timeout; the message never contains the request headers.
      throw new ChatCompletionError(`${this.url}: request failed: ${this.redact((err as Error).message)}`, true);
    }
    const latencyMs = performance.now() - started;
    if (!response.ok) {
      const message = `${this.url}: HTTP ${response.status}: ${this.quote(body)}`;
      const transient = TRANSIENT_STATUS.has(response.status);
      throw new ChatCompletionError(
        message,
        transient,
        response.status,
        transient ? retryAfterMs(response.headers.get('retry-after')) : undefined,
      );
    }
    let json: { choices?: Array<{ message?: { content?: unknown } }>; usage?: Partial<ChatUsage> };
    try {
      json = JSON.parse(body) as typeof json;
    } catch {
      throw new ChatCompletionError(`${this.url}: the response is not JSON: ${this.quote(body)}`, false);
    }
    const content = json.choices?.[0]?.message?.content;
    // An HTTP 200 without an answer is not an empty answer: the request failed, and is asked again.
    if (typeof content !== 'string')
      throw new ChatCompletionError(
        `${this.url}: HTTP ${response.status} without an answer (no string choices[0].message.content): ${this.quote(body)}`,
        true,
        response.status,
      );
    const usage = json.usage;
    return {
      content,
      usage:
        typeof usage?.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number'
          ? { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens }
          : null,
      latencyMs,
    };
  }

  private redact(text: string): string {
    return redact(text, this.apiKey ? [this.apiKey] : []);
  }

  private quote(body: string): string {
    // Redacted before it is cut, so that no part of a key at the cut survives.
    return this.redact(body).slice(0, QUOTED_BODY_CHARS);
  }
}

/** Retry-After in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  if (/^\s*\d+\s*$/.test(header)) return Infinity; // more digits than a double holds
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** A body longer than the client reads. */
class BodyTooLargeError extends Error {
  constructor(readonly status: number) {
    super('response body too large');
  }
}

/**
 * The body as text, read as a stream and abandoned past `maxBytes` (a declared length past it is
 * refused unread); with `cut`, the first `maxBytes` are returned instead of refusing.
 */
async function readBody(response: Response, maxBytes: number, cut = false): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (!cut && Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new BodyTooLargeError(response.status);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      if (!cut) throw new BodyTooLargeError(response.status);
      chunks.push(value.subarray(0, value.byteLength - (size - maxBytes)));
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
