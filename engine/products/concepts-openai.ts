// Conceptualization through an OpenAI-compatible chat-completions endpoint, with the IntentionQA
// paper's Table 5 prompt. Optional: nothing in the default path or the tests needs a network.
//
// - Requests go through the project's one chat-completions client (core/chat-completions.ts): key
//   from the environment and never logged, retries with backoff on transient failures, rate limit.
// - Answers are cached in a JSONL file keyed by (model, title), appended one whole line per answer
//   (core/jsonl-append-log.ts), so that a second or interrupted run asks nothing twice. A torn last
//   line (a crash mid-write) is ignored on load and reported.
import { conceptsFromRaw, type ConceptOutcome, type Conceptualizer } from './concepts.js';
import type { Product } from './products.js';
import { ChatCompletionsClient, type ChatCompletionsOptions } from '../../core/chat-completions.js';
import { redact } from '../../core/redact.js';
import { JsonlAppendLog } from '../../core/jsonl-append-log.js';

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

export interface OpenAiConceptOptions extends ChatCompletionsOptions {
  model: string;
  /** JSONL answer cache; none when absent. */
  cacheFile?: string;
  /** Completion token limit (the released script used 50) and temperature (0). */
  maxTokens?: number;
  temperature?: number;
}

interface CacheRecord {
  model: string;
  title: string;
  phrases: string[];
  answer: string;
}

function cacheRecordOf(json: unknown): CacheRecord | undefined {
  const r = json as Partial<CacheRecord> | null;
  return r !== null &&
    typeof r === 'object' &&
    typeof r.model === 'string' &&
    typeof r.title === 'string' &&
    Array.isArray(r.phrases)
    ? (r as CacheRecord)
    : undefined;
}

export class OpenAiConceptualizer implements Conceptualizer {
  readonly name: string;
  cacheHits = 0;
  /** Cache lines that could not be read (a torn last line after a crash). */
  cacheLinesIgnored = 0;
  private readonly cache = new Map<string, CacheRecord>();
  private cacheLog: JsonlAppendLog | undefined;
  private readonly inflight = new Map<string, Promise<ConceptOutcome>>();
  private readonly client: ChatCompletionsClient;
  private readonly maxTokens: number;
  private readonly temperature: number;

  private constructor(private readonly options: OpenAiConceptOptions) {
    this.name = `openai:${options.model}`;
    this.client = new ChatCompletionsClient(options);
    this.maxTokens = options.maxTokens ?? 50;
    this.temperature = options.temperature ?? 0;
  }

  /** Requests actually sent (attempts, retries included); cache hits send none. */
  get requestsSent(): number {
    return this.client.requestsSent;
  }

  static async open(options: OpenAiConceptOptions): Promise<OpenAiConceptualizer> {
    const c = new OpenAiConceptualizer(options);
    await c.loadCache();
    return c;
  }

  private static key(model: string, title: string): string {
    return `${model}\u0000${title}`;
  }

  private async loadCache(): Promise<void> {
    const file = this.options.cacheFile;
    if (file === undefined) return;
    const { log, records, unreadable } = await JsonlAppendLog.open(file, cacheRecordOf);
    this.cacheLog = log;
    for (const r of records) this.cache.set(OpenAiConceptualizer.key(r.model, r.title), r);
    this.cacheLinesIgnored = unreadable;
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
      answer = await this.ask(conceptualizePrompt(title));
    } catch (err) {
      return { ok: false, field: 'title', reason: (err as Error).message };
    }
    const phrases = parseCategoryAnswer(answer);
    const concepts = conceptsFromRaw(phrases);
    if (concepts.phrases.length === 0) {
      return {
        ok: false,
        field: 'title',
        reason: `the model's answer has no usable category: ${JSON.stringify(redact(answer).slice(0, 200))}`,
      };
    }
    const record: CacheRecord = { model: this.options.model, title, phrases, answer };
    this.cache.set(key, record);
    await this.cacheLog?.append(record);
    return { ok: true, concepts };
  }

  private async ask(prompt: string): Promise<string> {
    const { content } = await this.client.complete({
      model: this.options.model,
      messages: [{ role: 'user', content: prompt }],
      max_tokens: this.maxTokens,
      temperature: this.temperature,
    });
    if (content === null) throw new Error(`${this.client.url}: the response has no choices[0].message.content`);
    return content;
  }

  async close(): Promise<void> {
    await this.cacheLog?.flush();
  }
}
