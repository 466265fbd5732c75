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
//   the same item, is refused with the difference named (checkSameRun), so that `score` never
//   reports one table over answers made two ways. The out file is locked while the run writes it
//   (core/output-claim.ts): a second run on it stops instead of asking every item again.
// - Cached: each completion is stored under (endpoint, model, prompt, settings, sample)
//   (response-cache.ts), so that the same question is never paid for twice.
// - A request that still fails after its retries is written as the released code wrote it
//   ("Error", tokens -1; `score` excludes it) with the reason, and asked again by a rerun. An
//   error no retry can fix (HTTP 401, 403, 404: key, permission, model or URL) stops the run.
import type { InputLimits } from '../../core/jsonl.js';
import { createHash } from 'node:crypto';
import { ConfigError, UserError, type OnError } from '../../core/errors.js';
import { notice } from '../../core/notice.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import {
  ChatCompletionError,
  ChatCompletionsClient,
  type ChatCompletionsOptions,
  type RetryWait,
} from '../../core/chat-completions.js';
import { createProgress } from '../../core/progress.js';
import { RejectsSink } from '../../core/rejects.js';
import { pythonStrip } from '../scoring/answer-parsers.js';
import { isSampledStyle, type AnswerStyle, type Benchmark } from '../scoring/answer-styles.js';
import { FAILED_RESPONSE } from '../scoring/responses.js';
import { detectBenchmark, readAskItems, type AskItem } from './ask-items.js';
import { defaultGenerationSettings, type GenerationSettings } from './generation-settings.js';
import { cacheKey, ResponseCache } from './response-cache.js';
import { ResponsesFile } from './responses-file.js';

/** HTTP statuses after which no later request can succeed either: the run stops. */
const FATAL_STATUS = new Set([401, 403, 404]);

export interface AskOptions extends Omit<ChatCompletionsOptions, 'baseUrl'> {
  /** IntentionQA items or SessionIntentBench tasks (JSONL). */
  items: string;
  style: AnswerStyle;
  /** The responses file (JSONL); appended to while the run goes, rewritten in items order at the end. */
  out: string;
  /** The OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1. */
  endpoint: string;
  model: string;
  /** Overrides of the style's defaults (generation-settings.ts). */
  settings?: Partial<GenerationSettings>;
  /** The response cache file; null: no cache. */
  cacheFile: string | null;
  /** Bad item lines: stop (default) or write them to `${out}.rejects.jsonl` and go on. */
  onError?: OnError;
  /** How long an input line and a text may be (core/jsonl-batches.ts's defaults when absent). */
  limits?: InputLimits;
  progress?: boolean;
}

export interface AskResult {
  benchmark: Benchmark;
  items: number;
  /** Items that already had a usable response in the out file. */
  alreadyAnswered: number;
  /** Items asked in this run (from the cache or the endpoint). */
  asked: number;
  /** Items whose request (or one of whose samples) failed after its retries: "Error" lines, asked again next run. */
  failed: number;
  /** Completions taken from the cache, and requests sent (attempts, retries included). */
  cacheHits: number;
  requestsSent: number;
  tokens: { prompt: number; completion: number };
  settings: GenerationSettings;
  /** Lines of the out file and the cache that could not be read (torn by a kill) and were dropped. */
  unreadableLines: number;
  rejected: number;
  seconds: number;
}

/** One sample's outcome, as the record lists it. */
interface Sample {
  response: string;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  latency_ms: number | null;
  cached: boolean;
  error?: string;
}

export function promptHash(prompt: string): string {
  return 'sha256:' + createHash('sha256').update(prompt).digest('hex');
}

function checkSettings(s: GenerationSettings, style: AnswerStyle): void {
  if (!(s.temperature >= 0)) throw new ConfigError('settings.temperature', `must be ≥ 0, got ${s.temperature}`);
  if (!(Number.isInteger(s.maxTokens) && s.maxTokens > 0))
    throw new ConfigError('settings.maxTokens', `must be a positive integer, got ${s.maxTokens}`);
  if (!(Number.isInteger(s.samples) && s.samples > 0))
    throw new ConfigError('settings.samples', `must be a positive integer, got ${s.samples}`);
  if (s.samples !== 1 && !isSampledStyle(style))
    throw new ConfigError('settings.samples', `is for cot_sc; style ${style} asks once per item`);
}

/** How a wait before a retry is told when the caller says nothing: one note line, for waits of a second or more. */
function noteRetryWait(w: RetryWait): void {
  if (w.waitMs < 1000 && !w.capped) return;
  const asked =
    w.requestedMs === undefined
      ? ''
      : w.capped
        ? `; the server asked for ${formatWait(w.requestedMs)}, cut to the longest retry wait`
        : `; the server asked for it (Retry-After)`;
  notice(`${w.reason}; retrying in ${formatWait(w.waitMs)} (attempt ${w.attempt} of ${w.attempts} failed${asked})`);
}

function formatWait(ms: number): string {
  if (!Number.isFinite(ms)) return 'longer than can be told';
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 6000) / 10} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}

export async function ask(o: AskOptions): Promise<AskResult> {
  const started = performance.now();
  const settings = { ...defaultGenerationSettings(o.style), ...o.settings };
  checkSettings(settings, o.style);
  if (o.apiKeyEnv !== undefined && o.apiKey === undefined && !process.env[o.apiKeyEnv])
    throw new ConfigError('apiKeyEnv', `names the environment variable ${o.apiKeyEnv}, which is not set`);
  const client = new ChatCompletionsClient({ onRetryWait: noteRetryWait, ...o, baseUrl: o.endpoint });
  const benchmark = await detectBenchmark(o.items);
  return withClaimedOutput(o.out, 'file', {}, () => askInto(o, client, settings, benchmark, started));
}

async function askInto(
  o: AskOptions,
  client: ChatCompletionsClient,
  settings: GenerationSettings,
  benchmark: Benchmark,
  started: number,
): Promise<AskResult> {
  const onError = o.onError ?? 'fail';
  const rejects = onError === 'skip' ? new RejectsSink(`${o.out}.rejects.jsonl`) : undefined;
  const items = await readAskItems(o.items, benchmark, o.style, { onError, rejects, limits: o.limits });

  const responses = await ResponsesFile.open(o.out);
  checkSameRun(responses, {
    model: o.model,
    style: o.style,
    endpoint: client.url,
    settings: settingsRecord(settings),
    promptHashes: new Map(items.map((i) => [i.id, promptHash(i.prompt)])),
  });
  const cache = o.cacheFile === null ? undefined : await ResponseCache.open(o.cacheFile);
  const todo = items.filter((item) => !responses.isAnswered(item.id));

  const tokens = { prompt: 0, completion: 0 };
  let cacheHits = 0;
  let failed = 0;
  let fatal: ChatCompletionError | undefined;
  const progress = createProgress({
    label: 'ask',
    total: todo.length,
    unit: 'items',
    enabled: o.progress,
    detail: true,
  });
  const common = { model: o.model, endpoint: client.url, style: o.style, settings: settingsRecord(settings) };

  const askSample = async (item: AskItem, sample: number): Promise<Sample> => {
    const key = cacheKey({
      endpoint: client.url,
      model: o.model,
      prompt: item.prompt,
      temperature: settings.temperature,
      maxTokens: settings.maxTokens,
      sample,
    });
    // A completion without content, cached before such a response counted as a failed request, is asked again.
    let hit = cache?.get(key);
    if (hit?.content === null) hit = undefined;
    const cached = hit !== undefined;
    if (hit === undefined) {
      try {
        const done = await client.complete({
          model: o.model,
          messages: [{ role: 'user', content: item.prompt }],
          max_tokens: settings.maxTokens,
          temperature: settings.temperature,
        });
        hit = { key, content: done.content, usage: done.usage, latency_ms: Math.round(done.latencyMs) };
        await cache?.put(hit);
      } catch (err) {
        if (!(err instanceof ChatCompletionError)) throw err;
        if (err.status !== undefined && FATAL_STATUS.has(err.status)) fatal ??= err;
        // The released askLM's record of a request that failed all its attempts.
        return {
          response: FAILED_RESPONSE,
          prompt_tokens: -1,
          completion_tokens: -1,
          latency_ms: null,
          cached: false,
          error: err.message,
        };
      }
    } else cacheHits += 1;
    tokens.prompt += hit.usage?.prompt_tokens ?? 0;
    tokens.completion += hit.usage?.completion_tokens ?? 0;
    // The released LM_generation returned content.strip(), and "" when there was no content.
    return {
      response: pythonStrip(hit.content ?? ''),
      prompt_tokens: hit.usage?.prompt_tokens ?? null,
      completion_tokens: hit.usage?.completion_tokens ?? null,
      latency_ms: hit.latency_ms,
      cached,
    };
  };

  const askItem = async (item: AskItem): Promise<void> => {
    const samples = await Promise.all(Array.from({ length: settings.samples }, (_, k) => askSample(item, k)));
    const errors = samples.flatMap((s) => (s.error === undefined ? [] : [s.error]));
    if (errors.length > 0) failed += 1;
    const field = <K extends keyof Sample>(k: K) =>
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
    progress.increment(1, { detail: `${tokens.prompt} prompt + ${tokens.completion} completion tokens` });
  };

  // Items are taken in order by as many runners as requests may be in flight; a fatal error stops
  // them from taking more, and what is in flight is still written.
  let next = 0;
  const concurrency = Math.max(1, o.concurrency ?? 4);
  const runner = async () => {
    while (fatal === undefined && next < todo.length) await askItem(todo[next++]!);
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, runner));
  } finally {
    progress.stop();
    await cache?.flush();
    await rejects?.close();
  }
  if (fatal !== undefined)
    throw new UserError(
      `${fatal.message}\nStopped: no request can succeed after this error. The responses so far are in ${o.out}; fix the cause and run again to ask the rest.`,
    );
  await responses.rewrite(items.map((i) => i.id));
  return {
    benchmark,
    items: items.length,
    alreadyAnswered: items.length - todo.length,
    asked: todo.length,
    failed,
    cacheHits,
    requestsSent: client.requestsSent,
    tokens,
    settings,
    unreadableLines: responses.unreadable + (cache?.unreadable ?? 0),
    rejected: rejects?.count ?? 0,
    seconds: (performance.now() - started) / 1000,
  };
}

function settingsRecord(s: GenerationSettings): Record<string, number> {
  return { temperature: s.temperature, max_tokens: s.maxTokens, samples: s.samples };
}

/** What makes two answers comparable: who answered, how it was asked, and each item's prompt. */
interface RunIdentity {
  model: string;
  style: string;
  endpoint: string;
  /** The generation settings as the lines record them (settingsRecord). */
  settings: Record<string, number>;
  /** Each item's prompt hash, by id. */
  promptHashes: ReadonlyMap<string, string>;
}

/**
 * A responses file holds the answers of one run's model, style, endpoint and generation settings,
 * each to its item's prompt: refuse to add answers made another way, and name the difference. Only
 * answered lines are compared: a failed line ("Error") holds no answer, and a rerun replaces it.
 * A line without such a field (the released askLM's) is not compared on it.
 */
function checkSameRun(responses: ResponsesFile, run: RunIdentity): void {
  const refuse = (what: string) =>
    new UserError(
      `${responses.file} holds responses ${what}: write this run to another file, or finish that run with its settings`,
    );
  for (const { id, json, answered } of responses.stored.values()) {
    if (!answered) continue;
    for (const field of ['model', 'style', 'endpoint'] as const) {
      const value = json[field];
      if (value !== undefined && value !== run[field])
        throw refuse(`of ${field} ${JSON.stringify(value)}, not ${JSON.stringify(run[field])}`);
    }
    const stored = json.settings;
    if (stored !== undefined) {
      const record = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>;
      const names = [...new Set([...Object.keys(run.settings), ...Object.keys(record)])].sort();
      const differences = names
        .filter((name) => record[name] !== run.settings[name])
        .map(
          (name) =>
            `settings.${name} ${JSON.stringify(record[name] ?? null)} (this run: ${JSON.stringify(run.settings[name] ?? null)})`,
        );
      if (differences.length > 0) throw refuse(`made under other generation settings: ${differences.join(', ')}`);
    }
    const hash = json.prompt_hash;
    const current = run.promptHashes.get(id);
    if (hash !== undefined && current !== undefined && hash !== current)
      throw refuse(
        `to another prompt for item ${JSON.stringify(id)} (prompt_hash ${String(hash)}, this run: ${current}): the items or their prompts changed`,
      );
  }
}
