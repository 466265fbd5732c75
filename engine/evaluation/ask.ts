// `intentsim ask`: items → prompts → responses. Each item's prompt (in the asked style) goes to an
// OpenAI-compatible chat-completions endpoint through the project's client (core/chat-completions.ts:
// rate limit, concurrency, retries with backoff on 429 and 5xx, key from the environment). The
// responses file has the released askLM format (`id`, `response`, `prompt_tokens`,
// `completion_tokens`; lists for CoT-SC), which `score` reads, plus what makes a line reproducible:
// the prompt's SHA-256, the model, endpoint, style and settings, and the latency.
//
// - Resumable: responses are appended as they arrive; a rerun asks only the items without a usable
//   response (responses-file.ts). It resumes only the same run: a file whose answers were made by
//   another model, endpoint or style, under other generation settings, or from another prompt for
//   the same item, is refused with the difference named (run-identity.ts), so that `score` never
//   reports one table over answers made two ways. The out file is locked while the run writes it
//   (core/output-claim.ts): a second run on it stops instead of asking every item again.
// - Cached: each completion is stored under (endpoint, model, prompt, settings, sample)
//   (response-cache.ts), so that the same question is never paid for twice. What `audit` asks the
//   same way (client, cache, failures, the stop on a fatal error) is in chat-asker.ts.
// - A request that still fails after its retries is written as the released code wrote it
//   ("Error", tokens -1; `score` excludes it) with the reason, and asked again by a rerun. An
//   error no retry can fix (HTTP 401, 403, 404: key, permission, model or URL) stops the run.
import type { InputLimits } from '../../core/jsonl.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { ConfigError, type OnError } from '../../core/errors.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { createProgress } from '../../core/progress.js';
import { RejectsSink } from '../../core/rejects.js';
import { isSampledStyle, type AnswerStyle, type Benchmark } from '../scoring/answer-styles.js';
import { detectBenchmark, readAskItems, type AskItem } from './ask-items.js';
import { ChatAsker, type ChatEndpointOptions, type ChatSample, type ChatRunCounts } from './chat-asker.js';
import { checkGenerationSettings, defaultGenerationSettings, type GenerationSettings } from './generation-settings.js';
import { ResponsesFile } from './responses-file.js';
import { checkSameRun, promptHash, settingsRecord } from './run-identity.js';

export { promptHash } from './run-identity.js';

export interface AskOptions extends ChatEndpointOptions {
  /** IntentionQA items or SessionIntentBench tasks (JSONL). */
  items: string;
  style: AnswerStyle;
  /** The responses file (JSONL); appended to while the run goes, rewritten in items order at the end. */
  out: string;
  /** Overrides of the style's defaults (generation-settings.ts). */
  settings?: Partial<GenerationSettings>;
  /** Bad item lines: stop (default) or write them to `${out}.rejects.jsonl` and go on. */
  onError?: OnError;
  /** How long an input line and a text may be (core/jsonl-batches.ts's defaults when absent). */
  limits?: InputLimits;
  progress?: boolean;
}

export interface AskResult extends ChatRunCounts {
  benchmark: Benchmark;
  items: number;
  /** IntentionQA items not asked: malformed (not four options with distinct texts), with the reason. */
  malformed: Array<{ line: number; id: string; reason: string }>;
  /** Items that already had a usable response in the out file. */
  alreadyAnswered: number;
  /** Items asked in this run (from the cache or the endpoint). */
  asked: number;
  /** Items whose request (or one of whose samples) failed after its retries: "Error" lines, asked again next run. */
  failed: number;
  settings: GenerationSettings;
  /** Lines of the out file and the cache that could not be read (torn by a kill) and were dropped. */
  unreadableLines: number;
  rejected: number;
  seconds: number;
}

function checkSettings(s: GenerationSettings, style: AnswerStyle): void {
  checkGenerationSettings(s);
  if (s.samples !== 1 && !isSampledStyle(style))
    throw new ConfigError('settings.samples', `is for cot_sc; style ${style} asks once per item`);
}

/** The paths `ask` reads and writes (core/check-paths.ts); the out file is its own resume point, an output. */
export function askPaths(o: Pick<AskOptions, 'items' | 'out' | 'onError'> & { cacheFile?: string | null }): PathChecks {
  return {
    inputFiles: { items: o.items },
    outputFiles: {
      out: o.out,
      rejects: o.onError === 'skip' ? `${o.out}.rejects.jsonl` : undefined,
      // The response cache is appended to: the items file given as the cache would grow cached lines.
      cacheFile: o.cacheFile ?? undefined,
    },
  };
}

export async function ask(o: AskOptions): Promise<AskResult> {
  const started = performance.now();
  checkPaths(askPaths(o));
  const settings = { ...defaultGenerationSettings(o.style), ...o.settings };
  checkSettings(settings, o.style);
  const asker = new ChatAsker(o);
  const benchmark = await detectBenchmark(o.items);
  return withClaimedOutput(o.out, 'file', {}, () => askInto(o, asker, settings, benchmark, started));
}

async function askInto(
  o: AskOptions,
  asker: ChatAsker,
  settings: GenerationSettings,
  benchmark: Benchmark,
  started: number,
): Promise<AskResult> {
  const onError = o.onError ?? 'fail';
  const rejects = onError === 'skip' ? new RejectsSink(`${o.out}.rejects.jsonl`) : undefined;
  const { items, malformed } = await readAskItems(o.items, benchmark, o.style, {
    onError,
    rejects,
    limits: o.limits,
  });

  const responses = await ResponsesFile.open(o.out);
  checkSameRun(responses, {
    model: o.model,
    style: o.style,
    endpoint: asker.endpoint,
    settings: settingsRecord(settings),
    promptHashes: new Map(items.map((i) => [i.id, promptHash(i.prompt)])),
  });
  await asker.openCache();
  const todo = items.filter((item) => !responses.isAnswered(item.id));

  let failed = 0;
  const progress = createProgress({
    label: 'ask',
    total: todo.length,
    unit: 'items',
    enabled: o.progress,
    detail: true,
  });
  const common = { model: o.model, endpoint: asker.endpoint, style: o.style, settings: settingsRecord(settings) };

  const askItem = async (item: AskItem): Promise<void> => {
    const samples = await Promise.all(
      Array.from({ length: settings.samples }, (_, k) => asker.sample(item.prompt, settings, k)),
    );
    const errors = samples.flatMap((s) => (s.error === undefined ? [] : [s.error]));
    if (errors.length > 0) failed += 1;
    const field = <K extends keyof ChatSample>(k: K) =>
      isSampledStyle(o.style) ? samples.map((s) => s[k] ?? null) : (samples[0]![k] ?? null);
    await responses.append({
      id: item.id,
      response: field('response') as string | string[],
      prompt_tokens: field('prompt_tokens'),
      completion_tokens: field('completion_tokens'),
      latency_ms: field('latency_ms'),
      cached: field('cached'),
      prompt_hash: promptHash(item.prompt),
      ...common,
      ...(errors.length > 0 ? { error: [...new Set(errors)].join('; ') } : {}),
    });
    progress.increment(1, {
      detail: `${asker.tokens.prompt} prompt + ${asker.tokens.completion} completion tokens`,
    });
  };

  try {
    await asker.each(todo, askItem);
  } finally {
    progress.stop();
    await rejects?.close();
  }
  const stopped = asker.stopped(o.out);
  if (stopped !== undefined) throw stopped;
  await responses.rewrite(items.map((i) => i.id));
  return {
    benchmark,
    items: items.length,
    malformed: malformed.map((m) => ({ line: m.line, id: m.id, reason: m.reason })),
    alreadyAnswered: items.length - todo.length,
    asked: todo.length,
    failed,
    ...asker.counts(),
    settings,
    unreadableLines: responses.unreadable + asker.unreadableCacheLines,
    rejected: rejects?.count ?? 0,
    seconds: (performance.now() - started) / 1000,
  };
}
