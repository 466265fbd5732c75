// The IntentionQA report with the judge's verdicts. The pipeline writes the report with the items,
// before any audit can exist; its intentionqa_summary.json keeps everything the report is made of
// (settings and counts), so `audit` writes the same report again into its own folder, from that
// summary, with a "Judge" section added (verdict counts by task × difficulty). The items folder is
// left as it is.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { InputError } from '../../core/errors.js';
import {
  renderMarkdown,
  renderSvg,
  type IntentionQaStats,
  type ReportSettings,
} from '../items/intentionqa/intentionqa-report.js';
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

/**
 * Writes `outDir`/intentionqa_report.md (+ .svg) from an items folder's intentionqa_summary.json and
 * the audit; returns the files written (none when `items` is not a folder with that summary).
 */
export async function writeAuditedReport(items: string, outDir: string, audit: AuditSummary): Promise<string[]> {
  const summaryFile = join(items, INTENTIONQA_FILES.summary);
  if (!statSync(items, { throwIfNoEntry: false })?.isDirectory() || !existsSync(summaryFile)) return [];
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(summaryFile, 'utf8'));
  } catch (err) {
    throw new InputError({ file: summaryFile }, `invalid JSON: ${(err as Error).message}`);
  }
  const { settings, stats } = (json ?? {}) as { settings?: ReportSettings; stats?: IntentionQaStats };
  if (typeof settings !== 'object' || typeof stats?.task1 !== 'object' || typeof stats.task2 !== 'object')
    throw new InputError(
      { file: summaryFile },
      'not an IntentionQA summary ({"settings", "stats"} as the pipeline writes it)',
    );
  const markdown =
    renderMarkdown(stats, settings, INTENTIONQA_FILES.svg).trimEnd() +
    '\n' +
    judgeSection(audit, { task1: stats.task1.items, task2: stats.task2.items }).join('\n');
  const report = join(outDir, INTENTIONQA_FILES.report);
  const svg = join(outDir, INTENTIONQA_FILES.svg);
  await writeFileAtomic(svg, renderSvg(stats, settings.caveat));
  await writeFileAtomic(report, markdown);
  return [report, svg];
}
