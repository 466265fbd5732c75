// An append-only JSONL file that survives being killed mid-write: caches of model answers and the
// responses file of `ask`. Each record is appended as one whole line, in call order. On open, lines
// that cannot be read (a torn last line, after a crash) are counted and skipped, so that what they
// held is simply asked again; the next append starts on a fresh line, so it never joins the torn one.
import { appendFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirs } from './make-dirs.js';

export interface OpenedAppendLog<T> {
  log: JsonlAppendLog;
  /** The records read, in file order. */
  records: T[];
  /** Lines that were not JSON, or that `accept` refused. */
  unreadable: number;
}

export class JsonlAppendLog {
  private tail: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    private needsNewline: boolean,
  ) {}

  /**
   * Reads `file` (absent: no records) and opens it for appending. `accept` turns a line's JSON into a
   * record, or returns undefined for one that is not a record of this log.
   */
  static async open<T>(file: string, accept: (json: unknown) => T | undefined): Promise<OpenedAppendLog<T>> {
    const records: T[] = [];
    let unreadable = 0;
    let needsNewline = false;
    if (existsSync(file)) {
      const text = await readFile(file, 'utf8');
      needsNewline = text !== '' && !text.endsWith('\n');
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        let record: T | undefined;
        try {
          record = accept(JSON.parse(line));
        } catch {
          record = undefined;
        }
        if (record === undefined) unreadable += 1;
        else records.push(record);
      }
    }
    return { log: new JsonlAppendLog(file, needsNewline), records, unreadable };
  }

  /** Appends one record as one line; appends happen one at a time, in call order. */
  append(record: unknown): Promise<void> {
    const next = this.tail.then(async () => {
      const prefix = this.needsNewline ? '\n' : '';
      await makeDirs(dirname(this.file));
      await appendFile(this.file, prefix + JSON.stringify(record) + '\n');
      this.needsNewline = false;
    });
    // A failed append fails its caller; later appends still run.
    this.tail = next.catch(() => {});
    return next;
  }

  /** Waits for every pending append. */
  async flush(): Promise<void> {
    await this.tail;
  }
}
