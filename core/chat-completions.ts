// A client of an OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, llama.cpp's server,
// Ollama): the one HTTP client of the project, shared by the OpenAI conceptualizer and `ask`.
//
// - The API key comes from the environment (OPENAI_API_KEY by default) and is never logged: error
//   messages name the URL (without credentials) and the HTTP status, and the part of a server's error
//   body they quote goes through core/redact.ts first (servers do echo keys back: "Incorrect API key
//   provided: sk-…").
// - Transient failures (network errors, timeouts, HTTP 408/409/425/429/5xx) are retried with
//   exponential backoff, honouring Retry-After; other HTTP errors fail the request at once.
// - A rate limit spaces request starts by 60/rpm seconds, with at most `concurrency` in flight.
import { redact, redactUrl } from './redact.js';
import { UserError, ConfigError } from './errors.js';

export interface ChatCompletionsOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** The key itself; default: the environment variable named by `apiKeyEnv`. May be absent for local servers. */
  apiKey?: string;
  /** Default `OPENAI_API_KEY`. */
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
  /** For tests: the clock. */
  sleep?: (ms: number) => Promise<void>;
}

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
  /** choices[0].message.content; null when the server sent none. */
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

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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

  constructor(options: ChatCompletionsOptions) {
    this.requestUrl = options.baseUrl.replace(/\/+$/, '') + '/chat/completions';
    let parsed: URL;
    try {
      parsed = new URL(this.requestUrl);
    } catch {
      throw new ConfigError('baseUrl', `is not a URL: ${JSON.stringify(publicUrl(options.baseUrl))}`);
    }
    if (parsed.username !== '' || parsed.password !== '')
      throw new ConfigError('baseUrl', 'must not carry credentials; the key comes from the environment');
    this.url = publicUrl(this.requestUrl);
    this.apiKey = options.apiKey ?? process.env[options.apiKeyEnv ?? 'OPENAI_API_KEY'];
    this.sleep = options.sleep ?? realSleep;
    const rpm = options.requestsPerMinute ?? 60;
    if (!(rpm > 0)) throw new ConfigError('requestsPerMinute', `must be > 0, got ${rpm}`);
    this.limiter = new RateLimiter(60_000 / rpm, Math.max(1, options.concurrency ?? 4), this.sleep);
    this.maxRetries = options.maxRetries ?? 5;
    this.backoffMs = options.backoffMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 60_000;
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
        const backoff = this.backoffMs * 2 ** attempt;
        await this.sleep(Math.max(backoff, err.retryAfterMs ?? 0));
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
      body = await response.text();
    } catch (err) {
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
    const usage = json.usage;
    return {
      content: typeof content === 'string' ? content : null,
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

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
