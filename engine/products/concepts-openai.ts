// Conceptualization through an OpenAI-compatible chat-completions endpoint, with the IntentionQA
// paper's Table 5 prompt. Optional: nothing in the default path or the tests needs a network.
//
// - The API key comes from the environment (OPENAI_API_KEY by default) and is never logged: every
//   message (the URL, the status, an endpoint's error body, which may quote the request's headers)
//   goes through core/redact.ts, with the key among the known secrets, before it reaches stderr or
//   the rejects file.
// - Answers are cached in a JSONL file keyed by (model, title), appended one whole line per answer,
//   so that a second or interrupted run asks nothing twice. A torn last line (a crash mid-write) is
//   ignored on load and reported.
// - Transient failures (network errors, HTTP 408/409/429/5xx) are retried with exponential backoff,
//   honouring Retry-After; other HTTP errors fail that product at once.
// - A rate limit spaces request starts by 60/rpm seconds, with at most `concurrency` in flight.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { conceptsFromRaw, type ConceptOutcome, type Conceptualizer } from './concepts.js';
import type { Product } from './products.js';
import { ConfigError } from '../../core/errors.js';
import { redact } from '../../core/redact.js';

/**
 * IntentionQA Table 5 (zero-shot product-name simplification), word for word; `<product>` is the
 * title. (The released script said "separated by comma."; the paper prints "by a comma.".)
 */
export const CONCEPTUALIZE_PROMPT =
  'Product name: <product>; What is the category of the product? Generate three possible categories, each in 2 words, separated by a comma.';

export function conceptualizePrompt(title: string): string {
  // A function replacement: `$&` and friends in a title are copied literally.
  return CONCEPTUALIZE_PROMPT.replace('<product>', () => title);
}

/**
 * Three phrases from a model's answer. The prompt asks for a comma-separated list; models also
 * answer with numbered or bulleted lines, quotes and a final period, which are stripped. Empty
 * items are dropped; at most three are kept.
 */
export function parseCategoryAnswer(answer: string): string[] {
  return answer
    .split(/[,\n]/)
    .map((item) =>
      item
        .trim()
        .replace(/^(?:\d+\s*[.):-]|[-*•])\s*/, '')
        .replace(/^(?:categor(?:y|ies)\s*\d*\s*:\s*)/i, '')
        .replace(/^["'“”‘’`]+|["'“”‘’`]+$/g, '')
        .replace(/\.+$/, '')
        .trim(),
    )
    .filter((item) => item !== '')
    .slice(0, 3);
}

export interface OpenAiConceptOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  /** The key itself; default: the environment variable named by `apiKeyEnv`. May be absent for local servers. */
  apiKey?: string;
  /** Default `OPENAI_API_KEY`. */
  apiKeyEnv?: string;
  /** JSONL answer cache; none when absent. */
  cacheFile?: string;
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
  /** Completion token limit (the released script used 50) and temperature (0). */
  maxTokens?: number;
  temperature?: number;
  /** For tests: the clock. */
  sleep?: (ms: number) => Promise<void>;
}

interface CacheRecord {
  model: string;
  title: string;
  phrases: string[];
  answer: string;
}

const TRANSIENT_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

class TransientError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
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

export class OpenAiConceptualizer implements Conceptualizer {
  readonly name: string;
  /** Requests actually sent (attempts, retries included); cache hits send none. */
  requestsSent = 0;
  cacheHits = 0;
  /** Cache lines that could not be read (a torn last line after a crash). */
  cacheLinesIgnored = 0;
  private readonly cache = new Map<string, CacheRecord>();
  private readonly inflight = new Map<string, Promise<ConceptOutcome>>();
  private readonly url: string;
  /** The URL as messages show it (a key in its query string redacted). */
  private readonly shownUrl: string;
  private readonly apiKey: string | undefined;
  private readonly limiter: RateLimiter;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly opts: Required<
    Pick<OpenAiConceptOptions, 'maxRetries' | 'backoffMs' | 'timeoutMs' | 'maxTokens' | 'temperature'>
  >;

  private constructor(private readonly options: OpenAiConceptOptions) {
    this.name = `openai:${options.model}`;
    this.url = options.baseUrl.replace(/\/+$/, '') + '/chat/completions';
    this.apiKey = options.apiKey ?? process.env[options.apiKeyEnv ?? 'OPENAI_API_KEY'];
    this.shownUrl = this.redact(this.url);
    this.sleep = options.sleep ?? realSleep;
    const rpm = options.requestsPerMinute ?? 60;
    if (!(rpm > 0)) throw new ConfigError('requestsPerMinute', `must be > 0, got ${rpm}`);
    this.limiter = new RateLimiter(60_000 / rpm, Math.max(1, options.concurrency ?? 4), this.sleep);
    this.opts = {
      maxRetries: options.maxRetries ?? 5,
      backoffMs: options.backoffMs ?? 1000,
      timeoutMs: options.timeoutMs ?? 60_000,
      maxTokens: options.maxTokens ?? 50,
      temperature: options.temperature ?? 0,
    };
  }

  static async open(options: OpenAiConceptOptions): Promise<OpenAiConceptualizer> {
    const c = new OpenAiConceptualizer(options);
    await c.loadCache();
    return c;
  }

  /** `text` without the API key or anything shaped like a credential. */
  private redact(text: string): string {
    return redact(text, this.apiKey ? [this.apiKey] : []);
  }

  private static key(model: string, title: string): string {
    return `${model}\u0000${title}`;
  }

  private async loadCache(): Promise<void> {
    const file = this.options.cacheFile;
    if (file === undefined || !existsSync(file)) return;
    const lines = (await readFile(file, 'utf8')).split('\n');
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        const r = JSON.parse(line) as CacheRecord;
        if (typeof r.model === 'string' && typeof r.title === 'string' && Array.isArray(r.phrases)) {
          this.cache.set(OpenAiConceptualizer.key(r.model, r.title), r);
          continue;
        }
      } catch {
        // counted below
      }
      this.cacheLinesIgnored += 1;
    }
    if (this.cacheLinesIgnored > 0) {
      process.stderr.write(
        `${file}: ignored ${this.cacheLinesIgnored} unreadable cache line(s) (an interrupted write?); those titles will be asked again\n`,
      );
    }
  }

  async conceptualize(products: readonly Product[]): Promise<ConceptOutcome[]> {
    return Promise.all(products.map((p) => this.conceptualizeOne(p)));
  }

  private async conceptualizeOne(p: Product): Promise<ConceptOutcome> {
    const key = OpenAiConceptualizer.key(this.options.model, p.title);
    const cached = this.cache.get(key);
    if (cached) {
      this.cacheHits += 1;
      return { ok: true, concepts: conceptsFromRaw(cached.phrases) };
    }
    // Products with the same title in one batch share one request.
    let pending = this.inflight.get(key);
    if (pending === undefined) {
      pending = this.askAndCache(key, p.title).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async askAndCache(key: string, title: string): Promise<ConceptOutcome> {
    let answer: string;
    try {
      answer = await this.askWithRetries(conceptualizePrompt(title));
    } catch (err) {
      return { ok: false, field: 'title', reason: this.redact((err as Error).message) };
    }
    const phrases = parseCategoryAnswer(answer);
    const concepts = conceptsFromRaw(phrases);
    if (concepts.phrases.length === 0) {
      return {
        ok: false,
        field: 'title',
        reason: `the model's answer has no usable category: ${JSON.stringify(this.redact(answer).slice(0, 200))}`,
      };
    }
    const record: CacheRecord = { model: this.options.model, title, phrases, answer };
    this.cache.set(key, record);
    if (this.options.cacheFile !== undefined) {
      await mkdir(dirname(this.options.cacheFile), { recursive: true });
      await appendFile(this.options.cacheFile, JSON.stringify(record) + '\n');
    }
    return { ok: true, concepts };
  }

  private async askWithRetries(prompt: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.limiter.run(() => this.ask(prompt));
      } catch (err) {
        if (!(err instanceof TransientError) || attempt >= this.opts.maxRetries) {
          const tries = attempt + 1;
          throw new Error(
            `${(err as Error).message}${err instanceof TransientError ? ` (gave up after ${tries} attempts)` : ''}`,
            {
              cause: err,
            },
          );
        }
        const backoff = this.opts.backoffMs * 2 ** attempt;
        await this.sleep(Math.max(backoff, err.retryAfterMs ?? 0));
      }
    }
  }

  private async ask(prompt: string): Promise<string> {
    this.requestsSent += 1;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: this.options.model,
          messages: [{ role: 'user', content: prompt }],
          max_tokens: this.opts.maxTokens,
          temperature: this.opts.temperature,
        }),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (err) {
      // Network error or timeout; the message never contains the request headers.
      throw new TransientError(`${this.shownUrl}: request failed: ${this.redact((err as Error).message)}`);
    }
    const body = await response.text();
    if (!response.ok) {
      // Redacted before it is cut short, so that no part of a key survives at the cut.
      const message = `${this.shownUrl}: HTTP ${response.status}: ${this.redact(body).slice(0, 200)}`;
      if (TRANSIENT_STATUS.has(response.status))
        throw new TransientError(message, retryAfterMs(response.headers.get('retry-after')));
      throw new Error(message);
    }
    let content: unknown;
    try {
      const json = JSON.parse(body) as { choices?: Array<{ message?: { content?: unknown } }> };
      content = json.choices?.[0]?.message?.content;
    } catch {
      throw new Error(`${this.shownUrl}: the response is not JSON: ${this.redact(body).slice(0, 200)}`);
    }
    if (typeof content !== 'string')
      throw new Error(`${this.shownUrl}: the response has no choices[0].message.content`);
    return content;
  }

  async close(): Promise<void> {}
}

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
