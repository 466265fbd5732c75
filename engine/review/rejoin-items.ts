// `tune --items DIR`: the reviewed items read from a folder of the same items made again, not from
// the copy the review stored when it started. A review keeps each item's line as it was; items made
// again by a newer pipeline with the same inputs and seed are the same items with more fields (the
// rules' readings, rule-readings.ts), and the labels still hold for them. An item is found by its
// file and id, and must offer the same options with the same gold: otherwise the labels were given
// to other options, and that is an error naming the file, line and field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { InputError, UserError } from '../../core/errors.js';
import type { ReviewItem } from './review-items.js';

/** An item's line, and where it was read. */
export interface ItemLine {
  raw: string;
  file: string;
  line: number;
}

/** The lines of a folder's item files by id, each file read once, when first asked. */
export class ItemLines {
  private readonly files = new Map<string, Map<string, { raw: string; line: number }>>();

  constructor(readonly dir: string) {}

  /** The line of the item `item` (by file and id), checked against the line the review stored. */
  rejoin(item: ReviewItem, storedRaw: string): ItemLine {
    const file = join(this.dir, item.file);
    const found = this.linesOf(file).get(item.id);
    if (found === undefined)
      throw new InputError({ file }, `no item "${item.id}": the reviewed item ${item.key} is not in ${this.dir}`);
    const stored = JSON.parse(storedRaw) as Record<string, unknown>;
    const now = JSON.parse(found.raw) as Record<string, unknown>;
    for (const field of ['options', 'gold_ind'])
      if (!isDeepStrictEqual(now[field], stored[field]))
        throw new InputError(
          { file, line: found.line, field },
          `differs from the reviewed item ${item.key}: its labels were given to other options`,
        );
    return { raw: found.raw, file, line: found.line };
  }

  private linesOf(file: string): Map<string, { raw: string; line: number }> {
    let lines = this.files.get(file);
    if (lines !== undefined) return lines;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new UserError(`${file}: cannot read the items file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    lines = new Map();
    text.split('\n').forEach((raw, k) => {
      if (raw.trim() === '') return;
      let id: unknown;
      try {
        id = (JSON.parse(raw) as { id?: unknown }).id;
      } catch (err) {
        throw new InputError({ file, line: k + 1 }, `not valid JSON (${(err as Error).message})`);
      }
      if (typeof id === 'string') lines.set(id, { raw, line: k + 1 });
    });
    this.files.set(file, lines);
    return lines;
  }
}
