// The responses file of `ask`, which is also its resume point: every response is appended as one
// line the moment it arrives (a kill loses at most the requests in flight), a rerun reads the file
// and asks only the items without a usable response, and the finished run rewrites the file once,
// atomically, in items order. Lines already there are kept as they are, fields and all.
import { writeFileAtomic } from '../../core/atomic.js';
import { JsonlAppendLog } from '../../core/jsonl-append-log.js';
import { FAILED_RESPONSE } from '../scoring/responses.js';

export interface StoredResponse {
  id: string;
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

function storedResponseOf(json: unknown): StoredResponse | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const record = json as Record<string, unknown>;
  const id = record.id;
  // Ids are strings (`ask` writes them so); a numeric one was rounded by JSON.parse and is no id.
  if (typeof id !== 'string') return undefined;
  if (typeof record.response !== 'string' && !Array.isArray(record.response)) return undefined;
  return { id, json: record, answered: isAnswered(record) };
}

export class ResponsesFile {
  /** The latest line per id; an answered line is never replaced by an unanswered one. */
  readonly stored = new Map<string, StoredResponse>();
  /** Ids in the order their first line appeared. */
  private readonly order: string[] = [];

  private constructor(
    private readonly log: JsonlAppendLog,
    /** Lines that could not be read (a torn last line after a kill). */
    readonly unreadable: number,
  ) {}

  static async open(file: string): Promise<ResponsesFile> {
    const { log, records, unreadable } = await JsonlAppendLog.open(file, storedResponseOf);
    const f = new ResponsesFile(log, unreadable);
    for (const r of records) f.keep(r);
    return f;
  }

  get file(): string {
    return this.log.file;
  }

  private keep(r: StoredResponse): void {
    const old = this.stored.get(r.id);
    if (old === undefined) this.order.push(r.id);
    if (old === undefined || r.answered || !old.answered) this.stored.set(r.id, r);
  }

  isAnswered(id: string): boolean {
    return this.stored.get(id)?.answered ?? false;
  }

  /** Appends a response line now, and keeps it for the final rewrite. */
  async append(json: Record<string, unknown> & { id: string }): Promise<void> {
    this.keep({ id: json.id, json, answered: isAnswered(json) });
    await this.log.append(json);
  }

  /**
   * Rewrites the file atomically: one line per id, the items' ids first in their order, then any
   * other ids the file held, in the order they first appeared.
   */
  async rewrite(itemOrder: readonly string[]): Promise<void> {
    await this.log.flush();
    const ids = [...itemOrder.filter((id) => this.stored.has(id))];
    const listed = new Set(itemOrder);
    for (const id of this.order) if (!listed.has(id)) ids.push(id);
    await writeFileAtomic(this.file, ids.map((id) => JSON.stringify(this.stored.get(id)!.json) + '\n').join(''));
  }
}
