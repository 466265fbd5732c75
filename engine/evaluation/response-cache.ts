// The response cache of `ask`: completions keyed by (endpoint, model, prompt, settings, sample), so
// that asking the same prompt again (a rerun into another file, SessionIntentBench tasks that share
// a question, the samples of a CoT-SC item that failed half-way) sends no request. One JSONL line
// per completion (core/jsonl-append-log.ts); the key is a SHA-256, so prompts are not stored.
import { sha256OfJson } from '../../core/checksum.js';
import { JsonlAppendLog } from '../../core/jsonl-append-log.js';
import type { ChatUsage } from '../../core/chat-completions.js';

export interface CacheKey {
  /** The endpoint as the client names it (no credentials). */
  endpoint: string;
  model: string;
  prompt: string;
  temperature: number;
  maxTokens: number;
  /** Which sample of the item (0 unless the style asks several). */
  sample: number;
}

export interface CachedCompletion {
  key: string;
  /** The completion's text as the server sent it; null when it sent none. */
  content: string | null;
  usage: ChatUsage | null;
  latency_ms: number;
}

export function cacheKey(k: CacheKey): string {
  return sha256OfJson([k.endpoint, k.model, k.prompt, k.temperature, k.maxTokens, k.sample]);
}

function cachedCompletionOf(json: unknown): CachedCompletion | undefined {
  const r = json as Partial<CachedCompletion> | null;
  if (r === null || typeof r !== 'object' || typeof r.key !== 'string') return undefined;
  if (r.content !== null && typeof r.content !== 'string') return undefined;
  if (typeof r.latency_ms !== 'number') return undefined;
  return r as CachedCompletion;
}

export class ResponseCache {
  private constructor(
    private readonly log: JsonlAppendLog,
    private readonly entries: Map<string, CachedCompletion>,
    /** Lines that could not be read (a torn last line). */
    readonly unreadable: number,
  ) {}

  static async open(file: string): Promise<ResponseCache> {
    const { log, records, unreadable } = await JsonlAppendLog.open(file, cachedCompletionOf);
    return new ResponseCache(log, new Map(records.map((r) => [r.key, r])), unreadable);
  }

  get file(): string {
    return this.log.file;
  }

  get(key: string): CachedCompletion | undefined {
    return this.entries.get(key);
  }

  async put(entry: CachedCompletion): Promise<void> {
    this.entries.set(entry.key, entry);
    await this.log.append(entry);
  }

  async flush(): Promise<void> {
    await this.log.flush();
  }
}
