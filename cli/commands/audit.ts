// `intentsim audit`: a judge model asked which options of every IntentionQA item are right
// (engine/evaluation/audit.ts); verdicts, their counts, and with --drop-flagged the items kept.
import type { Command } from '@commander-js/extra-typings';
import { progressWanted } from '../../core/progress.js';
import { AUDIT_FILES, DEFAULT_JUDGE_SETTINGS } from '../../engine/evaluation/audit-files.js';
import { declarePaths } from '../declared-paths.js';
import { JUDGE_PROMPT_FILE } from '../../engine/evaluation/judge-prompt.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';
import { addChatEndpointOptions } from '../options/chat-options.js';
import { addResponseCacheOptions, chatRunOptions, RESPONSE_CACHE_FILE } from '../options/chat-run-options.js';
import { malformedItemsLine } from '../malformed-items.js';

const AUDIT_HELP = `
Asks a judge model, for every IntentionQA item, which of its options are right.
An item is valid only if exactly one option is right; the validity filters
remove what a program can find, the judge flags what they cannot.

Items (--items): an items folder (intentionqa_task1.jsonl and/or
intentionqa_task2.jsonl, as the pipeline writes them) or one items file, the
engine's or a released one.

The prompt is ${JUDGE_PROMPT_FILE}.
The judge's answer is the last non-blank line of its reply, upper-cased,
without a leading "ANSWER:" and a trailing period: NONE, or option letters
separated by commas, spaces, "&" or "and".
Verdicts:
  ok             exactly the gold
  second-answer  the gold and another option
  gold-wrong     not the gold (other options, or NONE)
  unparseable    anything else (an empty reply, a word, a letter with no option)
  failed         no reply: the request failed after its retries (asked again
                 by a rerun; the exit status is 1)
Settings: temperature ${DEFAULT_JUDGE_SETTINGS.temperature} and max_tokens ${DEFAULT_JUDGE_SETTINGS.maxTokens} unless --temperature or
--max-completion-tokens say otherwise; one request per item (a judge answers
once: no --samples).

Outputs in --out
  ${AUDIT_FILES.audit}          one line per item: {"id", "task", "difficulty",
                       "relation", "gold", "judged_correct": ["A", "C"],
                       "verdict": "second-answer", "response", …} plus the
                       prompt hash, model, endpoint and settings, as ask writes
  ${AUDIT_FILES.summary}   verdict counts by task × difficulty (× relation)
  ${AUDIT_FILES.summaryMarkdown}     the same as tables (also printed)
  intentionqa_report.md + .svg   the items folder's report with a "Judge"
                       section appended (when --items is a folder with one)
  items/               with --drop-flagged: the item files with the items of
                       verdict ok and unparseable (kept, and counted: an
                       unreadable reply says nothing about the item), lines as
                       read; intentionqa_dropped.jsonl: the folder's dropped
                       assertions, then one line per flagged item (reason
                       judge-second-answer or judge-gold-wrong). Not written
                       while any item failed.
Asked, cached, rate-limited and resumed as ask does (see intentsim ask --help):
a rerun with the same --out asks only the items without a reply, refuses a
file made by another model, endpoint, setting or prompt, and recomputes every
verdict from the stored reply. Completions are cached (--cache, default
<cache root>/${RESPONSE_CACHE_FILE}).

Example
  intentsim audit --items run/items --out run/audit --drop-flagged \\
    --endpoint http://127.0.0.1:8000/v1 --model Qwen/Qwen2.5-7B-Instruct \\
    --concurrency 16 --requests-per-minute 600`;

export function registerAuditCommand(program: Command): void {
  const command = program
    .command('audit')
    .summary('ask a judge model which options of each IntentionQA item are right; flag items with a second answer')
    .description(AUDIT_HELP)
    .requiredOption('--items <path>', 'an IntentionQA items folder, or one items file')
    .requiredOption('--out <dir>', 'output folder (resumed when it holds an audit.jsonl)')
    .option('--drop-flagged', 'also write the items not flagged (ok, unparseable) to OUT/items/');
  const withOptions = addBadInputOptions(
    addChatEndpointOptions(addResponseCacheOptions(command), {
      temperature: String(DEFAULT_JUDGE_SETTINGS.temperature),
      maxCompletionTokens: String(DEFAULT_JUDGE_SETTINGS.maxTokens),
    }),
    `OUT/${AUDIT_FILES.rejects}`,
  );
  declarePaths(withOptions, async (o) =>
    (await import('../../engine/evaluation/audit.js')).auditPaths({
      ...o,
      cacheFile: typeof o.cache === 'string' ? o.cache : null,
    }),
  ).action(async (o) => {
    // The library code loads when the command runs, not for `--help` (issue 50).
    const { runAudit } = await import('../../engine/evaluation/audit.js');
    const { verdictTable } = await import('../../engine/evaluation/audit-summary.js');
    const r = await runAudit({
      ...chatRunOptions(o, 'audit'),
      items: o.items,
      out: o.out,
      dropFlagged: o.dropFlagged === true,
      onError: o.onError,
      limits: inputLimits(o),
      progress: progressWanted(),
    });
    const s = r.summary;
    const lines = [
      `IntentionQA items: ${r.items}; already judged ${r.alreadyJudged}; asked ${r.asked} (${r.cacheHits} completions from the cache, ${r.requestsSent} requests sent)`,
      `settings: temperature ${r.settings.temperature}, max_tokens ${r.settings.maxTokens}; tokens: ${r.tokens.prompt} prompt + ${r.tokens.completion} completion`,
      '',
      ...verdictTable(s.byTaskDifficultyRelation),
      '',
      ...verdictTable(s.byTaskDifficulty),
      '',
      `written: ${r.files.join(', ')} (${r.seconds.toFixed(1)} s)`,
    ];
    const d = r.dropFlagged;
    if (d?.written)
      lines.push(
        `--drop-flagged: kept ${Object.entries(d.kept)
          .map(([f, n]) => `${n} of ${f}`)
          .join(
            ', ',
          )} (${d.keptUnparseable} of them unparseable); ${d.dropped} flagged item(s) dropped → ${d.files.join(', ')}`,
      );
    if (d && !d.written)
      lines.push(`--drop-flagged: no filtered items written: ${r.failed} item(s) have no verdict; run again first`);
    if (r.failed > 0)
      lines.push(`${r.failed} item(s) failed after their retries (verdict "failed"); run again to ask them`);
    if (r.unreadableLines > 0)
      lines.push(
        `${r.unreadableLines} unreadable line(s) of ${AUDIT_FILES.audit} or the cache (torn by an interrupted run) were ignored`,
      );
    if (r.rejected > 0) lines.push(`${r.rejected} item line(s) rejected (see ${o.out}/${AUDIT_FILES.rejects})`);
    const malformed = malformedItemsLine(r.malformed, 'judged');
    if (malformed !== undefined) lines.push(malformed);
    process.stdout.write(lines.join('\n') + '\n');
    if (r.failed > 0) process.exitCode = 1;
  });
}
