// The IntentionQA report with the judge's verdicts. The pipeline writes the report with the items,
// before any audit can exist (and the demo appends its solver comparison to it), so `audit` writes
// that report, as it is, into its own folder with a "Judge" section appended (verdict counts by task
// × difficulty), and its picture beside it. The items folder is left as it is.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { InputError } from '../../core/errors.js';
import type { IntentionQaStats } from '../items/intentionqa/intentionqa-report.js';
import { INTENTIONQA_FILES } from '../items/intentionqa/write-items.js';
import { countsLine, verdictTable, type AuditSummary } from './audit-summary.js';

/** The report's "Judge" section. `reported`: the report's item counts per task, to say when they differ. */
export function judgeSection(s: AuditSummary, reported?: { task1: number; task2: number }): string[] {
  const lines = [
    '',
    '## Judge',
    '',
    `A judge model, \`${s.judge.model}\`, was asked for every item which of its options are right (\`intentsim audit\`, prompt \`${s.judge.prompt}\`).`,
    'ok: exactly the gold; second-answer: the gold and another option; gold-wrong: not the gold (other options, or none);',
    'unparseable: no answer read from the reply; failed: no reply (the request failed after its retries).',
    '',
    `${countsLine(s.items, s.counts)}.`,
    '',
    ...verdictTable(s.byTaskDifficulty),
  ];
  if (reported) {
    const judged = (task: 1 | 2) => s.byTaskDifficulty.filter((r) => r.task === task).reduce((n, r) => n + r.items, 0);
    const differ = ([1, 2] as const).filter((t) => judged(t) !== reported[`task${t}`]);
    for (const t of differ)
      lines.push('', `Note: the judge saw ${judged(t)} Task-${t} items; this report counts ${reported[`task${t}`]}.`);
  }
  lines.push('', 'By relation: audit_summary.md.', '');
  return lines;
}

/** The items per task that an items folder's intentionqa_summary.json counts; undefined without one. */
function reportedItems(items: string): { task1: number; task2: number } | undefined {
  const file = join(items, INTENTIONQA_FILES.summary);
  if (!existsSync(file)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InputError({ file }, `invalid JSON: ${(err as Error).message}`);
  }
  const stats = (json as { stats?: Partial<IntentionQaStats> } | null)?.stats;
  const task1 = stats?.task1?.items;
  const task2 = stats?.task2?.items;
  if (typeof task1 !== 'number' || typeof task2 !== 'number')
    throw new InputError({ file, field: 'stats' }, 'not an IntentionQA summary (stats.task1.items, stats.task2.items)');
  return { task1, task2 };
}

/**
 * Writes `outDir`/intentionqa_report.md: an items folder's report with the Judge section appended,
 * and its picture (intentionqa_report.svg) beside it; returns the files written (none when `items`
 * is not a folder with a report).
 */
export async function writeAuditedReport(items: string, outDir: string, audit: AuditSummary): Promise<string[]> {
  const source = join(items, INTENTIONQA_FILES.report);
  if (!statSync(items, { throwIfNoEntry: false })?.isDirectory() || !existsSync(source)) return [];
  const markdown = readFileSync(source, 'utf8').trimEnd() + '\n' + judgeSection(audit, reportedItems(items)).join('\n');
  const written: string[] = [];
  const svg = join(items, INTENTIONQA_FILES.svg);
  if (existsSync(svg)) {
    await writeFileAtomic(join(outDir, INTENTIONQA_FILES.svg), readFileSync(svg));
    written.push(join(outDir, INTENTIONQA_FILES.svg));
  }
  await writeFileAtomic(join(outDir, INTENTIONQA_FILES.report), markdown);
  return [join(outDir, INTENTIONQA_FILES.report), ...written];
}
