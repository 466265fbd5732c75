// The responses file of `ask`, which is also its resume point: every response is appended as one
// line the moment it arrives (a kill loses at most the requests in flight), a rerun reads the file
// and asks only the items without a usable response, and the finished run rewrites the file once,
// atomically, in items order. Lines already there are kept as they are, fields and all. A line is
// known by its key: the item's id (`ask`), or what else tells the items of a run apart (`audit`,
// whose two IntentionQA tasks reuse ids).
import { writeFileAtomic } from '../../core/atomic.js';
import { JsonlAppendLog } from '../../core/jsonl-append-log.js';
import { FAILED_RESPONSE } from '../scoring/responses.js';

export interface StoredResponse {
  /** The line's key (keyOf): by default its id. */
  key: string;
  /** The line's JSON, rewritten as read. */
  json: Record<string, unknown>;
  /** A usable response: not the failed-request record ("Error", completion_tokens -1), in any sample. */
  answered: boolean;
}

/** Whether a response line holds a usable response (for every sample, when it has several). */
export function isAnswered(json: Record<string, unknown>): boolean {
  const response = json.response;
  const tokens = json.completion_tokens;
  const responses = Array.isArray(response) ? response : [response];
  const counts = Array.isArray(tokens) ? tokens : [tokens];
  return responses.every((r) => typeof r === 'string' && r !== FAILED_RESPONSE) && !counts.includes(-1);
}

/** What tells a line's item from the others; undefined: the line is not a response line. */
export type ResponseKey = (json: Record<string, unknown>) => string | undefined;

/** The default key: the id. Ids are strings (`ask` writes them so); a numeric one was rounded by JSON.parse and is no id. */
export const idKey: ResponseKey = (json) => (typeof json.id === 'string' ? json.id : undefined);

function storedResponseOf(keyOf: ResponseKey) {
  return (json: unknown): StoredResponse | undefined => {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
    const record = json as Record<string, unknown>;
    const key = keyOf(record);
    if (key === undefined) return undefined;
    if (typeof record.response !== 'string' && !Array.isArray(record.response)) return undefined;
    return { key, json: record, answered: isAnswered(record) };
  };
}

export class ResponsesFile {
  /** The latest line per key; an answered line is never replaced by an unanswered one. */
  readonly stored = new Map<string, StoredResponse>();
  /** Keys in the order their first line appeared. */
  private readonly order: string[] = [];

  private constructor(
    private readonly log: JsonlAppendLog,
    /** Lines that could not be read (a torn last line after a kill). */
    readonly unreadable: number,
    private readonly keyOf: ResponseKey,
  ) {}

  static async open(file: string, keyOf: ResponseKey = idKey): Promise<ResponsesFile> {
    const { log, records, unreadable } = await JsonlAppendLog.open(file, storedResponseOf(keyOf));
    const f = new ResponsesFile(log, unreadable, keyOf);
    for (const r of records) f.keep(r);
    return f;
  }

  get file(): string {
    return this.log.file;
  }

  private keep(r: StoredResponse): void {
    const old = this.stored.get(r.key);
    if (old === undefined) this.order.push(r.key);
    if (old === undefined || r.answered || !old.answered) this.stored.set(r.key, r);
  }

  isAnswered(key: string): boolean {
    return this.stored.get(key)?.answered ?? false;
  }

  /** Appends a response line now, and keeps it for the final rewrite. */
  async append(json: Record<string, unknown> & { id: string }): Promise<void> {
    const key = this.keyOf(json);
    if (key === undefined) throw new Error(`a response line without its key: ${JSON.stringify(json).slice(0, 200)}`);
    this.keep({ key, json, answered: isAnswered(json) });
    await this.log.append(json);
  }

  /**
   * Rewrites the file atomically: one line per key, the items' keys first in their order, then any
   * other keys the file held, in the order they first appeared.
   */
  async rewrite(itemOrder: readonly string[]): Promise<void> {
    await this.log.flush();
    const keys = [...itemOrder.filter((key) => this.stored.has(key))];
    const listed = new Set(itemOrder);
    for (const key of this.order) if (!listed.has(key)) keys.push(key);
    await writeFileAtomic(this.file, keys.map((key) => JSON.stringify(this.stored.get(key)!.json) + '\n').join(''));
  }
}
