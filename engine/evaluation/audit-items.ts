// The items `audit` judges: IntentionQA items, from an items folder (its intentionqa_task1.jsonl and
// intentionqa_task2.jsonl, whichever it has) or from one items file, the engine's or a released one
// (the same files `ask` reads, through the same parser). Each keeps its line as read, so that
// `--drop-flagged` writes the kept items back byte for byte; malformed items (not four distinct
// options) are set apart, not judged. The two tasks reuse ids: an item is known by its task and id.
import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UserError, type OnError } from '../../core/errors.js';
import type { InputLimits } from '../../core/jsonl.js';
import type { RejectsSink } from '../../core/rejects.js';
import type { Difficulty } from '../items/intentionqa/difficulty.js';
import { INTENTIONQA_FILES } from '../items/intentionqa/write-items.js';
import { readIntentionQaItems, type MalformedItem } from '../scoring/intentionqa/intentionqa-item-file.js';
import type { IntentionQaTask } from '../scoring/intentionqa/intentionqa-questions.js';
import { detectBenchmark } from './ask-items.js';

export interface AuditItem {
  /** `<task>#<id>`: unique in an audit. */
  key: string;
  id: string;
  task: IntentionQaTask;
  /** null for released items, which have none. */
  difficulty: Difficulty | null;
  relation: string;
  gold: string;
  /** Letter → option text, in the item's order. */
  options: Record<string, string>;
  /** The question as the zero-shot prompt asks it, without the options and the answer instruction. */
  question: string;
  /** The file it was read from, its line there and the line's text. */
  file: string;
  line: number;
  text: string;
}

export function auditKey(task: number, id: string): string {
  return `${task}#${id}`;
}

/** The item files of `items`: a folder's task files (at least one), or the file itself. */
export function auditItemFiles(items: string): string[] {
  if (!statSync(items, { throwIfNoEntry: false })?.isDirectory()) {
    if (!existsSync(items)) throw new UserError(`${items}: no such items file or folder`);
    return [items];
  }
  const files = [INTENTIONQA_FILES.task1, INTENTIONQA_FILES.task2].map((f) => join(items, f)).filter(existsSync);
  if (files.length === 0)
    throw new UserError(
      `${items}: no IntentionQA items to audit (expected ${INTENTIONQA_FILES.task1} or ${INTENTIONQA_FILES.task2})`,
    );
  return files;
}

export interface AuditItems {
  items: AuditItem[];
  /** Items set apart, not judged: not four options with distinct texts. */
  malformed: MalformedItem[];
}

export async function readAuditItems(
  files: readonly string[],
  options: { onError: OnError; rejects?: RejectsSink; limits?: InputLimits },
): Promise<AuditItems> {
  const out: AuditItems = { items: [], malformed: [] };
  const seen = new Map<string, string>();
  for (const file of files) {
    if ((await detectBenchmark(file)) !== 'intentionqa')
      throw new UserError(`${file}: audit judges IntentionQA items; this file holds SessionIntentBench tasks`);
    const read = await readIntentionQaItems(file, options);
    out.malformed.push(...read.malformed);
    for (const { question: q, display, line, text } of read.items) {
      const key = auditKey(q.task, q.id);
      const first = seen.get(key);
      if (first !== undefined)
        throw new UserError(
          `${file}:${line}: Task ${q.task} item "${q.id}" is also in ${first}: audit one items set at a time`,
        );
      seen.set(key, basename(file));
      out.items.push({
        key,
        id: q.id,
        task: q.task,
        difficulty: q.difficulty,
        relation: q.relation,
        gold: q.gold,
        // The judge reads what a person would: HTML references decoded.
        options: display.options,
        question: display.question,
        file,
        line,
        text,
      });
    }
  }
  return out;
}
