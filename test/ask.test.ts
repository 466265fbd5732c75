// `ask` against the small OpenAI-compatible server of test/support/fake-chat-server.ts (the protocol only): the
// request bodies carry the style's prompt, the model and the settings; 429 and 500 are retried; a
// request that keeps failing is written as "Error" and asked again by a rerun; the cache answers a
// repeated question; a rerun after killing `ask` asks only the missing items; the key never appears
// in any output.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCli } from './support/faults.js';
import { askItems as items } from './support/ask-items.js';
import { ask, type AskOptions } from '../engine/evaluation/ask.js';
import { scoreIntentionQa } from '../engine/scoring/intentionqa/score-intentionqa.js';
import { completion, FakeChatServer, type ChatBody, type Reply } from './support/fake-chat-server.js';
import { expectSecretRedacted } from './support/secret-leaks.js';

const SECRET = 'sk-intentsim-SECRET-0123456789abcdef';
const KEY_ENV = 'INTENTSIM_ASK_TEST_KEY';

const jsonl = (records: readonly object[]) => records.map((r) => JSON.stringify(r) + '\n').join('');
/** The item a prompt belongs to (the prompts below name their item). */
const itemOf = (body: ChatBody) => /item (q\d+)/.exec(body.messages[0]!.content)![1]!;

const server = new FakeChatServer();
const requests = server.requests;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-ask-'));
  writeFileSync(join(dir, 'items6.jsonl'), jsonl(items(6)));
  writeFileSync(join(dir, 'items12.jsonl'), jsonl(items(12)));
  await server.start();
  process.env[KEY_ENV] = SECRET;
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  delete process.env[KEY_ENV];
});
beforeEach(() => {
  requests.length = 0;
  server.handler = () => completion('A');
});

const readLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function options(out: string, more: Partial<AskOptions> = {}): AskOptions {
  return {
    items: join(dir, 'items6.jsonl'),
    style: 'zero_shot',
    out: join(dir, out),
    endpoint: server.baseUrl,
    model: 'test-model',
    apiKeyEnv: KEY_ENV,
    requestsPerMinute: 60_000,
    backoffMs: 1,
    cacheFile: null,
    ...more,
  };
}

describe('ask: requests and records', () => {
  it("sends each item's prompt with the model and the style's settings, and records what came back", async () => {
    server.handler = (body) =>
      completion(` ${itemOf(body) === 'q2' ? 'c' : 'B'}.\n`, 40 + Number(itemOf(body).slice(1)), 2);
    const r = await ask(options('zero.jsonl'));
    expect(r).toMatchObject({ benchmark: 'intentionqa', items: 6, asked: 6, failed: 0, cacheHits: 0, requestsSent: 6 });
    expect(r.tokens).toEqual({ prompt: 6 * 40 + 21, completion: 12 });
    expect(requests).toHaveLength(6);
    for (const q of requests) {
      expect(q.auth).toBe(`Bearer ${SECRET}`);
      // The released askLM's zero-shot settings: temperature 0.1, at most 10 completion tokens.
      expect(q.body).toEqual({
        model: 'test-model',
        messages: [{ role: 'user', content: `zero-shot prompt of item ${itemOf(q.body)}` }],
        max_tokens: 10,
        temperature: 0.1,
      });
    }
    const lines = readLines(join(dir, 'zero.jsonl'));
    expect(lines.map((l) => l.id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5', 'q6']);
    const prompt = 'zero-shot prompt of item q2';
    expect(lines[1]).toEqual({
      id: 'q2',
      // Stripped as the released LM_generation did (content.strip()).
      response: 'c.',
      prompt_tokens: 42,
      completion_tokens: 2,
      latency_ms: lines[1]!.latency_ms,
      cached: false,
      prompt_hash: 'sha256:' + createHash('sha256').update(prompt).digest('hex'),
      model: 'test-model',
      endpoint: `${server.baseUrl}/chat/completions`,
      style: 'zero_shot',
      settings: { temperature: 0.1, max_tokens: 10, samples: 1 },
    });
    expect(lines[1]!.latency_ms).toBeGreaterThanOrEqual(0);

    // `score` reads exactly this file.
    const scored = await scoreIntentionQa({
      files: [{ items: join(dir, 'items6.jsonl'), responses: join(dir, 'zero.jsonl') }],
      style: 'zero_shot',
    });
    expect(scored.scores.map((s) => s.parsed)).toEqual(['B', 'C', 'B', 'B', 'B', 'B']);
    expect(scored.summary.answerer).toBe('test-model');
  });

  it('cot_sc asks the CoT prompt 5 times at temperature 0.7 and 200 tokens, and records lists; settings can be overridden', async () => {
    let k = 0;
    server.handler = () => completion(`Step 1: thinking.\nStep 2: ${'ABABA'[k++ % 5]}`);
    await ask(options('sc.jsonl', { items: join(dir, 'items12.jsonl'), style: 'cot_sc', concurrency: 1 }));
    expect(requests).toHaveLength(12 * 5);
    for (const q of requests) {
      expect(q.body.messages[0]!.content).toBe(`CoT prompt of item ${itemOf(q.body)}`);
      expect(q.body).toMatchObject({ max_tokens: 200, temperature: 0.7 });
    }
    const first = readLines(join(dir, 'sc.jsonl'))[0]!;
    expect(first.response).toHaveLength(5);
    expect(first.completion_tokens).toEqual([1, 1, 1, 1, 1]);
    expect(first.cached).toEqual([false, false, false, false, false]);
    expect(first.settings).toEqual({ temperature: 0.7, max_tokens: 200, samples: 5 });

    requests.length = 0;
    await ask(options('sc3.jsonl', { style: 'cot_sc', settings: { temperature: 0, maxTokens: 50, samples: 3 } }));
    expect(requests).toHaveLength(6 * 3);
    expect(requests.every((q) => q.body.temperature === 0 && q.body.max_tokens === 50)).toBe(true);
    await expect(ask(options('bad.jsonl', { settings: { samples: 3 } }))).rejects.toThrow(/samples is for cot_sc/);
  });

  it('retries 429 (honouring Retry-After) and 500, then records the answer', async () => {
    const script = new Map<string, Reply[]>([
      [
        'q2',
        [
          { status: 429, body: '{"error": "slow down"}', headers: { 'retry-after': '0' } },
          { status: 500, body: 'boom' },
        ],
      ],
      ['q5', [{ status: 503, body: 'unavailable' }]],
    ]);
    server.handler = (body) => script.get(itemOf(body))?.shift() ?? completion('D');
    const r = await ask(options('retry.jsonl'));
    expect(r.failed).toBe(0);
    expect(requests.filter((q) => itemOf(q.body) === 'q2')).toHaveLength(3);
    expect(requests.filter((q) => itemOf(q.body) === 'q5')).toHaveLength(2);
    expect(requests).toHaveLength(9);
    expect(readLines(join(dir, 'retry.jsonl')).every((l) => l.response === 'D')).toBe(true);
  });

  it('writes a request that keeps failing as "Error" (score excludes it), and a rerun asks only that one', async () => {
    server.handler = (body) => (itemOf(body) === 'q3' ? { status: 500, body: 'always down' } : completion('A'));
    const out = join(dir, 'failing.jsonl');
    const r = await ask(options('failing.jsonl', { maxRetries: 1 }));
    expect(r.failed).toBe(1);
    const q3 = readLines(out)[2]!;
    expect(q3).toMatchObject({ id: 'q3', response: 'Error', prompt_tokens: -1, completion_tokens: -1 });
    expect(q3.error).toMatch(/HTTP 500: always down \(gave up after 2 attempts\)/);
    const scored = await scoreIntentionQa({
      files: [{ items: join(dir, 'items6.jsonl'), responses: out }],
      style: 'zero_shot',
    });
    expect(scored.summary.tasks[0]!.counts).toMatchObject({ scored: 5, failed: 1 });

    requests.length = 0;
    server.handler = () => completion('B');
    const again = await ask(options('failing.jsonl'));
    expect(again).toMatchObject({ alreadyAnswered: 5, asked: 1, failed: 0 });
    expect(requests.map((q) => itemOf(q.body))).toEqual(['q3']);
    const lines = readLines(out);
    expect(lines.map((l) => [l.id, l.response])).toEqual([
      ['q1', 'A'],
      ['q2', 'A'],
      ['q3', 'B'],
      ['q4', 'A'],
      ['q5', 'A'],
      ['q6', 'A'],
    ]);
  });

  it('answers a repeated question from the cache, keyed by endpoint, model, prompt, settings and sample', async () => {
    const cacheFile = join(dir, 'cache.jsonl');
    server.handler = (body) => completion(itemOf(body) === 'q1' ? 'C' : 'A');
    await ask(options('cache-a.jsonl', { cacheFile }));
    expect(requests).toHaveLength(6);
    requests.length = 0;
    const r = await ask(options('cache-b.jsonl', { cacheFile }));
    expect(requests).toHaveLength(0);
    expect(r.cacheHits).toBe(6);
    const b = readLines(join(dir, 'cache-b.jsonl'));
    expect(b[0]).toMatchObject({ response: 'C', cached: true, completion_tokens: 1 });
    // Another model, another temperature: asked again.
    await ask(options('cache-c.jsonl', { cacheFile, model: 'other-model' }));
    await ask(options('cache-d.jsonl', { cacheFile, settings: { temperature: 0.2 } }));
    expect(requests).toHaveLength(12);
    expect(readFileSync(cacheFile, 'utf8')).not.toContain('zero-shot prompt');
  });

  it('refuses to mix another model into a responses file', async () => {
    await ask(options('mine.jsonl'));
    await expect(ask(options('mine.jsonl', { model: 'someone-else' }))).rejects.toThrow(
      /mine.jsonl holds responses of model "test-model", not "someone-else"/,
    );
  });

  it("asks SessionIntentBench tasks their style's prompt, and refuses a style the benchmark has not", async () => {
    const tasks = join(dir, 'sib-tasks.jsonl');
    writeFileSync(
      tasks,
      jsonl(
        ['q1', 'q2'].map((id) => ({
          id,
          task: 1,
          answer_letters: ['A', 'B', 'C', 'D'],
          prompts: { 'zero-shot': `zs item ${id}`, 'five-shot': `5-shot item ${id}`, cot: `cot item ${id}` },
          label: null,
        })),
      ),
    );
    const r = await ask(options('sib.jsonl', { items: tasks, style: 'five_shot' }));
    expect(r.benchmark).toBe('sib');
    expect(requests.map((q) => q.body.messages[0]!.content).sort()).toEqual(['5-shot item q1', '5-shot item q2']);
    await expect(ask(options('sib2.jsonl', { items: tasks, style: 'cot_sc' }))).rejects.toThrow(
      /style must be one of zero_shot, five_shot, cot for SessionIntentBench items/,
    );
  });
});

/** Runs the CLI in a child process; resolves with its exit code and output. */
function runCli(args: string[], onSpawn?: (kill: () => void) => void) {
  const { child, ended } = startCli(args, { ...process.env, INTENTSIM_CACHE_DIR: join(dir, 'cache-root') });
  onSpawn?.(() => child.kill('SIGKILL'));
  return ended;
}

const askArgs = (items: string, out: string, ...more: string[]) => [
  'ask',
  '--items',
  items,
  '--out',
  out,
  '--endpoint',
  server.baseUrl,
  '--model',
  'test-model',
  '--api-key-env',
  KEY_ENV,
  '--requests-per-minute',
  '60000',
  ...more,
];

async function until(condition: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('ask: the command, killed and resumed, and the key', () => {
  it('a rerun after killing ask asks only the items without a response', async () => {
    const out = join(dir, 'killed.jsonl');
    // The first 5 requests are answered, then the server holds every request: ask waits, and is killed.
    server.handler = () => (requests.length <= 5 ? completion('B') : 'hold');
    const lineCount = () => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean).length : 0);
    const first = await runCli(askArgs(join(dir, 'items12.jsonl'), out, '--concurrency', '1', '--no-cache'), (kill) => {
      void until(() => lineCount() === 5 && requests.length === 6).then(kill);
    });
    expect(first.signal).toBe('SIGKILL');
    const answeredBefore = readLines(out).map((l) => l.id);
    expect(answeredBefore).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    // A kill mid-write leaves a torn last line: it is ignored, and its item asked again.
    appendFileSync(out, '{"id": "q6", "respo');

    requests.length = 0;
    server.handler = () => completion('C');
    const second = await runCli(askArgs(join(dir, 'items12.jsonl'), out, '--concurrency', '3', '--no-cache'));
    expect(second.status).toBe(0);
    expect(requests.map((q) => itemOf(q.body)).sort()).toEqual(['q6', 'q7', 'q8', 'q9', 'q10', 'q11', 'q12'].sort());
    expect(second.stdout).toMatch(/already answered 5; asked 7/);
    const lines = readLines(out);
    expect(lines.map((l) => [l.id, l.response])).toEqual(
      Array.from({ length: 12 }, (_, i) => [`q${i + 1}`, i < 5 ? 'B' : 'C']),
    );
  });

  it('never writes or prints the key, even when a server echoes it; HTTP 401 stops the run', async () => {
    const echo =
      (status: number) =>
      (_: ChatBody, auth: string | undefined): Reply => ({
        status,
        body: JSON.stringify({ error: { message: `Incorrect API key provided: ${auth?.slice(7)}; header ${auth}` } }),
      });
    // A 400 fails that item only (written as "Error" with the reason, redacted).
    server.handler = (body, auth) => (itemOf(body) === 'q2' ? echo(400)(body, auth) : completion('A'));
    const out = join(dir, 'secret.jsonl');
    const bad = await runCli(askArgs(join(dir, 'items6.jsonl'), out, '--concurrency', '1'));
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/1 item\(s\) failed after their retries/);
    expect(readLines(out)[1]!.error).toMatch(/HTTP 400: .*Incorrect API key provided: \*\*\*;/);
    expect(requests.every((q) => q.auth === `Bearer ${SECRET}`)).toBe(true);

    // A 401 stops the run: no request after it.
    requests.length = 0;
    server.handler = echo(401);
    const stopped = await runCli(
      askArgs(join(dir, 'items6.jsonl'), join(dir, 'secret401.jsonl'), '--concurrency', '1'),
    );
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toMatch(/HTTP 401: .*\*\*\*.*\nStopped: no request can succeed after this error/);
    expect(requests).toHaveLength(1);

    expectSecretRedacted(SECRET, dir, [bad.stdout, bad.stderr, stopped.stdout, stopped.stderr]);
  });
});
