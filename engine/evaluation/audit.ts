// `intentsim audit`: a judge model asked, for every IntentionQA item, which of its options are right
// (the prompt: prompts/audit-judge.txt). An item is valid only if exactly one option is right, and
// the validity filters catch what a program can; the judge flags what they cannot. Outputs in `out`:
//   audit.jsonl          one line per item: {id, task, difficulty, relation, gold, judged_correct,
//                        verdict, response, …} plus what makes the line reproducible (ask's fields)
//   audit_summary.json   verdict counts by task × difficulty × relation, and by task × difficulty
//   audit_summary.md     the same as tables
//   intentionqa_report.md + .svg   the items folder's report with the judge's verdicts, when `items`
//                        is a folder with a report (the pipeline's), the section appended
//   items/               with dropFlagged: the item files with only the items not flagged
//
// Asked as `ask` asks (chat-asker.ts): the response cache, the key rules, rate limit, retries, the
// stop on an error no retry can fix; and resumed as `ask` resumes (responses-file.ts,
// run-identity.ts): lines are appended as they arrive, a rerun asks only the items without a usable
// reply, refuses a file made by another judge, settings or prompt, and recomputes every verdict
// from the stored reply and the item's gold (a reply is reused, never a verdict unverified). The
// out folder is locked while the run writes it.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { ConfigError, type OnError } from '../../core/errors.js';
import type { InputLimits } from '../../core/jsonl.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { createProgress } from '../../core/progress.js';
import { RejectsSink } from '../../core/rejects.js';
import type { DroppedAssertion } from '../items/intentionqa/item-types.js';
import { INTENTIONQA_FILES } from '../items/intentionqa/write-items.js';
import type { MalformedItem } from '../scoring/intentionqa/intentionqa-item-file.js';
import { auditItemFiles, auditKey, readAuditItems, type AuditItem } from './audit-items.js';
import { writeAuditedReport } from './audit-report.js';
import { summarizeAudit, renderAuditMarkdown, type AuditOutcome, type AuditSummary } from './audit-summary.js';
import { ChatAsker, type ChatEndpointOptions, type ChatRunCounts } from './chat-asker.js';
import { checkGenerationSettings, type GenerationSettings } from './generation-settings.js';
import { checkJudgeTemplate, defaultJudgeTemplate, JUDGE_PROMPT_FILE, renderJudgePrompt } from './judge-prompt.js';
import { judgedLetters, verdictOf, type JudgeVerdict } from './judge-verdict.js';
import { ResponsesFile, type ResponseKey } from './responses-file.js';
import { checkSameRun, promptHash, settingsRecord } from './run-identity.js';
import { AUDIT_FILES, DEFAULT_JUDGE_SETTINGS } from './audit-files.js';

export { AUDIT_FILES, DEFAULT_JUDGE_SETTINGS };

/** The `style` audit lines record: how the judge was asked (checked on resume like ask's styles). */
export const JUDGE_STYLE = 'judge';

export interface AuditOptions extends ChatEndpointOptions {
  /** An items folder (intentionqa_task1.jsonl, intentionqa_task2.jsonl) or one IntentionQA items file. */
  items: string;
  /** The output folder (resumed when it holds an audit.jsonl). */
  out: string;
  /** Overrides of DEFAULT_JUDGE_SETTINGS (samples must stay 1). */
  settings?: Partial<GenerationSettings>;
  /** The judge prompt template (judge-prompt.ts); default: the shipped prompts/audit-judge.txt. */
  judgePrompt?: string;
  /**
   * Also write the items not flagged to `out/items/`: verdicts ok and unparseable (an unparseable
   * reply says nothing about the item: it is kept, and counted). Not written while any item failed.
   */
  dropFlagged?: boolean;
  /** Bad item lines: stop (default) or write them to `out/audit.rejects.jsonl` and go on. */
  onError?: OnError;
  limits?: InputLimits;
  progress?: boolean;
}

export interface DropFlaggedResult {
  /** False when items failed: no verdict for them, so no filtered set (run again first). */
  written: boolean;
  /** The files written, and the items kept per input file (by its name). */
  files: string[];
  kept: Record<string, number>;
  /** Items dropped: verdicts second-answer and gold-wrong. */
  dropped: number;
  /** Items kept although their reply was unparseable. */
  keptUnparseable: number;
}

export interface AuditResult extends ChatRunCounts {
  items: number;
  /** Items set apart, not judged: not four options with distinct texts (with --drop-flagged, dropped as `malformed`). */
  malformed: Array<{ file: string; line: number; id: string; reason: string }>;
  /** Items that already had a usable reply in audit.jsonl. */
  alreadyJudged: number;
  /** Items asked in this run (from the cache or the endpoint). */
  asked: number;
  /** Items whose request failed after its retries: verdict `failed`, asked again next run. */
  failed: number;
  settings: GenerationSettings;
  summary: AuditSummary;
  /** The files written (audit.jsonl, the summaries, and the report when there was one to extend). */
  files: string[];
  dropFlagged?: DropFlaggedResult;
  /** Lines of audit.jsonl and the cache that could not be read (torn by a kill) and were dropped. */
  unreadableLines: number;
  rejected: number;
  seconds: number;
}

/** An audit line's key: its task and id (the two tasks reuse ids). */
const auditLineKey: ResponseKey = (json) =>
  typeof json.id === 'string' && (json.task === 1 || json.task === 2) ? auditKey(json.task, json.id) : undefined;

/** What an item's line says of the judgement (the reply undefined: the request failed). */
interface Judgement {
  judged_correct: string[] | null;
  verdict: AuditOutcome;
}

function judgement(item: AuditItem, reply: string | undefined): Judgement {
  if (reply === undefined) return { judged_correct: null, verdict: 'failed' };
  const judged = judgedLetters(reply, Object.keys(item.options));
  return { judged_correct: judged ?? null, verdict: verdictOf(judged, item.gold) };
}

/** The first fields of an item's line: the item, then the judgement. */
function lineHead(item: AuditItem, j: Judgement): Record<string, unknown> & { id: string } {
  return {
    id: item.id,
    task: item.task,
    difficulty: item.difficulty,
    relation: item.relation,
    gold: item.gold,
    judged_correct: j.judged_correct,
    verdict: j.verdict,
  };
}

function omit(json: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json).filter(([k]) => !keys.includes(k)));
}

/** The paths `audit` reads and writes (core/check-paths.ts): OUT/audit.jsonl is its own resume point, an output. */
export function auditPaths(o: Pick<AuditOptions, 'items' | 'out' | 'cacheFile'>): PathChecks {
  const folder = statSync(o.items, { throwIfNoEntry: false })?.isDirectory() === true;
  return {
    inputFiles: folder ? {} : { items: o.items },
    inputDirs: folder ? { items: o.items } : {},
    outputDirs: { out: o.out },
    outputFiles: { cacheFile: o.cacheFile ?? undefined },
  };
}

export async function runAudit(o: AuditOptions): Promise<AuditResult> {
  checkPaths(auditPaths(o));
  const started = performance.now();
  const settings = { ...DEFAULT_JUDGE_SETTINGS, ...o.settings };
  checkGenerationSettings(settings);
  if (settings.samples !== 1)
    throw new ConfigError('settings.samples', `a judge answers once per item, got ${settings.samples}`);
  const template = o.judgePrompt ?? defaultJudgeTemplate();
  checkJudgeTemplate(template);
  const asker = new ChatAsker(o);
  const files = auditItemFiles(o.items);
  const out = (f: string) => join(o.out, f);
  const keptFiles = [...files.map((f) => basename(f)), INTENTIONQA_FILES.dropped].map((f) =>
    join(out(AUDIT_FILES.keptDir), f),
  );
  // The summaries, the report and a filtered set describe a finished run: removed first, written last.
  const completionFiles = [
    out(AUDIT_FILES.summary),
    out(AUDIT_FILES.summaryMarkdown),
    out(INTENTIONQA_FILES.report),
    out(INTENTIONQA_FILES.svg),
    ...keptFiles,
  ];
  return withClaimedOutput(o.out, 'folder', { completionFiles }, async () => {
    const onError = o.onError ?? 'fail';
    const rejects = onError === 'skip' ? new RejectsSink(out(AUDIT_FILES.rejects)) : undefined;
    const { items, malformed } = await readAuditItems(files, { onError, rejects, limits: o.limits });
    const prompts = new Map(items.map((i) => [i.key, renderJudgePrompt(template, i)]));

    const auditFile = out(AUDIT_FILES.audit);
    const lines = await ResponsesFile.open(auditFile, auditLineKey);
    const record = settingsRecord(settings);
    checkSameRun(lines, {
      model: o.model,
      style: JUDGE_STYLE,
      endpoint: asker.endpoint,
      settings: record,
      promptHashes: new Map([...prompts].map(([key, p]) => [key, promptHash(p)])),
    });
    await asker.openCache();
    const todo = items.filter((i) => !lines.isAnswered(i.key));
    const progress = createProgress({
      label: 'audit',
      total: todo.length,
      unit: 'items',
      enabled: o.progress,
      detail: true,
    });
    const judgeItem = async (item: AuditItem): Promise<void> => {
      const prompt = prompts.get(item.key)!;
      const s = await asker.sample(prompt, settings, 0);
      await lines.append({
        ...lineHead(item, judgement(item, s.error === undefined ? s.response : undefined)),
        response: s.response,
        prompt_tokens: s.prompt_tokens,
        completion_tokens: s.completion_tokens,
        latency_ms: s.latency_ms,
        cached: s.cached,
        prompt_hash: promptHash(prompt),
        model: o.model,
        endpoint: asker.endpoint,
        style: JUDGE_STYLE,
        settings: record,
        ...(s.error === undefined ? {} : { error: s.error }),
      });
      progress.increment(1, { detail: `${asker.tokens.prompt} prompt + ${asker.tokens.completion} completion tokens` });
    };
    try {
      await asker.each(todo, judgeItem);
    } finally {
      progress.stop();
      await rejects?.close();
    }
    const stopped = asker.stopped(auditFile);
    if (stopped !== undefined) throw stopped;

    // Every verdict recomputed from the stored reply and the item as read now.
    const judgements = new Map<string, Judgement>();
    for (const item of items) {
      const stored = lines.stored.get(item.key)!;
      const reply = stored.answered ? stored.json.response : undefined;
      const j = judgement(item, typeof reply === 'string' ? reply : undefined);
      const head = lineHead(item, j);
      stored.json = { ...head, ...omit(stored.json, Object.keys(head)) };
      judgements.set(item.key, j);
    }
    await lines.rewrite(items.map((i) => i.key));

    const summary = summarizeAudit(
      items.map((i) => ({
        task: i.task,
        difficulty: i.difficulty,
        relation: i.relation,
        outcome: judgements.get(i.key)!.verdict,
      })),
      {
        model: o.model,
        endpoint: asker.endpoint,
        settings: record,
        prompt: o.judgePrompt === undefined ? JUDGE_PROMPT_FILE : '(given)',
        prompt_hash: promptHash(template),
      },
    );
    const written = [auditFile];
    const write = async (path: string, text: string) => {
      await writeFileAtomic(path, text);
      written.push(path);
    };
    await write(out(AUDIT_FILES.summary), JSON.stringify(summary, null, 2) + '\n');
    await write(out(AUDIT_FILES.summaryMarkdown), renderAuditMarkdown(summary));
    written.push(...(await writeAuditedReport(o.items, o.out, summary)));
    const failed = summary.counts.failed;
    let dropFlagged: DropFlaggedResult | undefined;
    if (o.dropFlagged)
      dropFlagged =
        failed > 0
          ? { written: false, files: [], kept: {}, dropped: 0, keptUnparseable: 0 }
          : await writeKept(o.items, files, items, malformed, judgements, join(o.out, AUDIT_FILES.keptDir), o.model);
    return {
      items: items.length,
      malformed: malformed.map((m) => ({ file: m.file, line: m.line, id: m.id, reason: m.reason })),
      alreadyJudged: items.length - todo.length,
      asked: todo.length,
      failed,
      ...asker.counts(),
      settings,
      summary,
      files: written,
      ...(dropFlagged ? { dropFlagged } : {}),
      unreadableLines: lines.unreadable + asker.unreadableCacheLines,
      rejected: rejects?.count ?? 0,
      seconds: (performance.now() - started) / 1000,
    };
  });
}

const FLAGGED: ReadonlySet<AuditOutcome> = new Set<JudgeVerdict>(['second-answer', 'gold-wrong']);

/**
 * The items not flagged, in their files' names and order, each line as read. From an items folder,
 * also its intentionqa_dropped.jsonl, followed by one line per flagged item (reason
 * `judge-second-answer` or `judge-gold-wrong`) and one per malformed item (reason `malformed`), so
 * that no item goes missing unaccounted.
 */
async function writeKept(
  itemsPath: string,
  files: readonly string[],
  items: readonly AuditItem[],
  malformed: readonly MalformedItem[],
  judgements: ReadonlyMap<string, Judgement>,
  dir: string,
  model: string,
): Promise<DropFlaggedResult> {
  const result: DropFlaggedResult = { written: true, files: [], kept: {}, dropped: 0, keptUnparseable: 0 };
  const droppedLines: string[] = [];
  for (const file of files) {
    const name = basename(file);
    let text = '';
    let kept = 0;
    for (const item of items) {
      if (item.file !== file) continue;
      const { verdict: outcome, judged_correct } = judgements.get(item.key)!;
      if (FLAGGED.has(outcome)) {
        result.dropped += 1;
        const dropped: DroppedAssertion = {
          id: item.id,
          task: item.task,
          reason: outcome === 'second-answer' ? 'judge-second-answer' : 'judge-gold-wrong',
          detail: `the judge (${model}) marked ${judged_correct!.length === 0 ? 'no option' : judged_correct!.join(', ')} right; the gold is ${item.gold}`,
        };
        droppedLines.push(JSON.stringify(dropped) + '\n');
        continue;
      }
      if (outcome === 'unparseable') result.keptUnparseable += 1;
      text += item.text + '\n';
      kept += 1;
    }
    const path = join(dir, name);
    await writeFileAtomic(path, text);
    result.files.push(path);
    result.kept[name] = kept;
  }
  for (const m of malformed) {
    const dropped: DroppedAssertion = { id: m.id, task: m.task, reason: 'malformed', detail: m.reason };
    droppedLines.push(JSON.stringify(dropped) + '\n');
  }
  // An items folder's dropped assertions first (a file has none), then the judge's and the malformed.
  const sourceDropped = join(itemsPath, INTENTIONQA_FILES.dropped);
  const fromFolder = files[0] !== itemsPath && existsSync(sourceDropped);
  const before = fromFolder ? readFileSync(sourceDropped, 'utf8') : '';
  const path = join(dir, INTENTIONQA_FILES.dropped);
  await writeFileAtomic(
    path,
    (before === '' || before.endsWith('\n') ? before : before + '\n') + droppedLines.join(''),
  );
  result.files.push(path);
  return result;
}
