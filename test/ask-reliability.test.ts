// `ask` under hostile or changed conditions (issue 29, items 3, 5, 9 and 14), against the fake
// server of test/support/fake-chat-server.ts: a rerun under other generation settings or prompts is
// refused with the difference named; an HTTP 200 without an answer is a failed request, asked
// again; Retry-After is cut to the longest retry wait, and the wait is printed; the out file is
// locked; a response body past the size limit is refused and never cached.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCli } from './support/faults.js';
import { askItems as items } from './support/ask-items.js';
import { retryAfterMs, type RetryWait } from '../core/chat-completions.js';
import { ask, type AskOptions } from '../engine/evaluation/ask.js';
import { cacheKey } from '../engine/evaluation/response-cache.js';
import { solveByEmbedding } from '../engine/evaluation/embedding-solver.js';
import { openEncoder } from '../workers/open-encoder.js';
import { completion, FakeChatServer, type ChatBody, type Reply } from './support/fake-chat-server.js';

const jsonl = (records: readonly object[]) => records.map((r) => JSON.stringify(r) + '\n').join('');
const itemOf = (body: ChatBody) => /item (q\d+)/.exec(body.messages[0]!.content)![1]!;
const readLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const server = new FakeChatServer();
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-ask-rel-'));
  writeFileSync(join(dir, 'items4.jsonl'), jsonl(items(4)));
  await server.start();
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
  server.handler = () => completion('A');
});

function options(out: string, more: Partial<AskOptions> = {}): AskOptions {
  return {
    items: join(dir, 'items4.jsonl'),
    style: 'zero_shot',
    out: join(dir, out),
    endpoint: server.baseUrl,
    model: 'test-model',
    requestsPerMinute: 60_000,
    backoffMs: 1,
    cacheFile: null,
    onRetryWait: () => {},
    ...more,
  };
}

const asked = (id: string) => server.requests.filter((q) => itemOf(q.body) === id).length;

describe('ask resumes only the same run (item 3)', () => {
  it('refuses other generation settings, naming each difference', async () => {
    await ask(options('settings.jsonl'));
    server.requests.length = 0;
    await expect(ask(options('settings.jsonl', { settings: { temperature: 0.7 } }))).rejects.toThrow(
      /settings.jsonl holds responses made under other generation settings: settings.temperature 0.1 \(this run: 0.7\): write this run to another file/,
    );
    await expect(ask(options('settings.jsonl', { settings: { maxTokens: 50, temperature: 0 } }))).rejects.toThrow(
      /settings.max_tokens 10 \(this run: 50\), settings.temperature 0.1 \(this run: 0\)/,
    );
    // A setting the file records and this run does not (a later version's top_p, say) differs too.
    const file = join(dir, 'settings.jsonl');
    const lines = readLines(file);
    lines[0]!.settings = { ...(lines[0]!.settings as object), top_p: 0.9 };
    writeFileSync(file, jsonl(lines));
    await expect(ask(options('settings.jsonl'))).rejects.toThrow(/settings.top_p 0.9 \(this run: null\)/);
    expect(server.requests).toHaveLength(0);
  });

  it("refuses an answer to another prompt for the same item, and accepts the same run's rerun", async () => {
    await ask(options('prompts.jsonl'));
    const changed = join(dir, 'items4-changed.jsonl');
    writeFileSync(
      changed,
      jsonl(items(4, (id) => (id === 'q3' ? `new wording of item ${id}` : `zero-shot prompt of item ${id}`))),
    );
    server.requests.length = 0;
    await expect(ask(options('prompts.jsonl', { items: changed }))).rejects.toThrow(
      /holds responses to another prompt for item "q3" \(prompt_hash sha256:[0-9a-f]{64}, this run: sha256:[0-9a-f]{64}\)/,
    );
    const again = await ask(options('prompts.jsonl'));
    expect(again).toMatchObject({ alreadyAnswered: 4, asked: 0 });
    expect(server.requests).toHaveLength(0);
  });

  it('does not hold failed lines against a rerun: they hold no answer, and are asked again', async () => {
    server.handler = () => ({ status: 500, body: 'down' });
    const first = await ask(options('failed-only.jsonl', { maxRetries: 0 }));
    expect(first.failed).toBe(4);
    server.handler = () => completion('B');
    const second = await ask(options('failed-only.jsonl', { settings: { temperature: 0.3 } }));
    expect(second).toMatchObject({ asked: 4, failed: 0 });
    expect(readLines(join(dir, 'failed-only.jsonl')).map((l) => l.response)).toEqual(['B', 'B', 'B', 'B']);
  });
});

describe('an HTTP 200 without an answer is a failed request (item 5)', () => {
  const noAnswers: Array<[string, Reply]> = [
    ['no choices', { status: 200, body: '{"choices": []}' }],
    ['null content', completion(null)],
    ['numeric content', completion(42)],
    ['no message', { status: 200, body: '{"choices": [{"index": 0}]}' }],
  ];
  for (const [what, reply] of noAnswers)
    it(`${what}: asked again, and written as "Error" when it never comes`, async () => {
      let first = true;
      server.handler = (body) => {
        if (itemOf(body) === 'q4') return reply;
        if (itemOf(body) === 'q2' && first) {
          first = false;
          return reply;
        }
        return completion('C');
      };
      const name = `empty-${what.replace(/ /g, '-')}.jsonl`;
      const out = join(dir, name);
      const r = await ask(options(name, { maxRetries: 1 }));
      expect(r.failed).toBe(1);
      expect(asked('q2')).toBe(2);
      expect(asked('q4')).toBe(2);
      const lines = readLines(out);
      expect(lines.map((l) => l.response)).toEqual(['C', 'C', 'C', 'Error']);
      expect(lines[3]!.error).toMatch(/HTTP 200 without an answer \(no string choices\[0\]\.message\.content\)/);

      server.handler = () => completion('D');
      server.requests.length = 0;
      const again = await ask(options(name));
      expect(again).toMatchObject({ alreadyAnswered: 3, asked: 1, failed: 0 });
      expect(readLines(out)[3]!.response).toBe('D');
    });

  it('a cached completion without content is asked again, not taken as an answer', async () => {
    const cacheFile = join(dir, 'null-cache.jsonl');
    const key = cacheKey({
      endpoint: `${server.baseUrl}/chat/completions`,
      model: 'test-model',
      prompt: 'zero-shot prompt of item q1',
      temperature: 0.1,
      maxTokens: 10,
      sample: 0,
    });
    writeFileSync(cacheFile, JSON.stringify({ key, content: null, usage: null, latency_ms: 5 }) + '\n');
    const r = await ask(options('null-cache-out.jsonl', { cacheFile }));
    expect(r.cacheHits).toBe(0);
    expect(asked('q1')).toBe(1);
    expect(readLines(join(dir, 'null-cache-out.jsonl'))[0]!.response).toBe('A');
  });
});

describe('Retry-After is capped, printed and counted (item 9)', () => {
  it('reads delay-seconds, HTTP dates and numbers too long for a double', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('100000', now)).toBe(100_000_000);
    expect(retryAfterMs('Thu, 01 Jan 2099 00:00:00 GMT', now)).toBe(Date.parse('2099-01-01T00:00:00Z') - now);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('9'.repeat(400), now)).toBe(Infinity);
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });

  for (const header of ['100000', 'Thu, 01 Jan 2099 00:00:00 GMT', '9'.repeat(400)])
    it(`Retry-After: ${header.slice(0, 40)} waits the cap, and each capped wait is one failed attempt`, async () => {
      server.handler = (body) =>
        itemOf(body) === 'q1'
          ? { status: 429, body: 'slow down', headers: { 'retry-after': header } }
          : completion('A');
      const waits: RetryWait[] = [];
      const slept: number[] = [];
      const r = await ask(
        options(`retry-after-${header.length}.jsonl`, {
          maxRetries: 2,
          maxRetryWaitMs: 60_000,
          onRetryWait: (w) => waits.push(w),
          sleep: async (ms) => void slept.push(ms),
        }),
      );
      // 3 attempts in all (--retries 2), then "Error": the capped waits did not add attempts.
      expect(asked('q1')).toBe(3);
      expect(r.failed).toBe(1);
      expect(waits.map((w) => [w.attempt, w.attempts, w.waitMs, w.capped])).toEqual([
        [1, 3, 60_000, true],
        [2, 3, 60_000, true],
      ]);
      expect(waits[0]!.requestedMs).toBeGreaterThan(60_000);
      expect(slept.filter((ms) => ms >= 60_000)).toEqual([60_000, 60_000]);
    });

  it('never asks the timer for more than 2^31-1 ms, whatever the cap', async () => {
    server.handler = () => ({ status: 503, body: 'busy', headers: { 'retry-after': 'Thu, 01 Jan 2099 00:00:00 GMT' } });
    const waits: RetryWait[] = [];
    await ask(
      options('timer.jsonl', {
        items: join(dir, 'items4.jsonl'),
        maxRetries: 1,
        concurrency: 1,
        maxRetryWaitMs: 2 ** 40,
        onRetryWait: (w) => waits.push(w),
        sleep: async () => {},
      }),
    );
    expect(waits.map((w) => w.waitMs)).toEqual([2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1]);
  });

  it('the command prints the capped wait, and a huge Retry-After no longer stalls it', async () => {
    server.handler = (body) =>
      itemOf(body) === 'q2'
        ? { status: 429, body: 'slow down', headers: { 'retry-after': '100000' } }
        : completion('A');
    const r = await runCli([...askArgs('cli-retry.jsonl'), '--retries', '1', '--max-retry-wait', '0']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /note: .*HTTP 429: slow down; retrying in 0 s \(attempt 1 of 2 failed; the server asked for 27\.8 h, cut to the longest retry wait\)/,
    );
    expect(r.stdout).toMatch(/1 item\(s\) failed after their retries/);
  });
});

describe('the out file is locked, and response bodies have a size limit (item 14)', () => {
  it('a second run on the same out file stops instead of asking every item again', async () => {
    server.handler = () => 'hold';
    const first = ask(options('locked.jsonl', { concurrency: 4 }));
    await until(() => server.requests.length === 4);
    await expect(ask(options('locked.jsonl'))).rejects.toThrow(/locked\.jsonl is locked: .*pid/);
    expect(server.requests).toHaveLength(4);
    server.release(completion('B') as Exclude<Reply, 'hold'>);
    await expect(first).resolves.toMatchObject({ asked: 4, failed: 0 });
    expect(existsSync(join(dir, '.locked.jsonl.intentsim.lock'))).toBe(false);
    await expect(ask(options('locked.jsonl'))).resolves.toMatchObject({ alreadyAnswered: 4 });
  });

  it('the embedding solver locks its out file too', async () => {
    // A lock held by a live process on this host (this one): the solver stops before writing.
    const out = join(dir, 'solver.jsonl');
    const lock = join(dir, '.solver.jsonl.intentsim.lock');
    const holder = { pid: process.pid, host: hostname(), command: 'intentsim.js ask', since: new Date().toISOString() };
    writeFileSync(lock, JSON.stringify(holder));
    const encoder = await openEncoder({ encoder: 'offline-hashing-v1' });
    try {
      await expect(solveByEmbedding({ items: join(dir, 'items4.jsonl'), out, encoder })).rejects.toThrow(
        /solver\.jsonl is locked: intentsim pid \d+ on host .* has been writing it/,
      );
      expect(existsSync(out)).toBe(false);
      rmSync(lock);
      await expect(solveByEmbedding({ items: join(dir, 'items4.jsonl'), out, encoder })).resolves.toMatchObject({
        items: 4,
      });
      expect(existsSync(lock)).toBe(false);
    } finally {
      await encoder.close();
    }
  });

  for (const chunks of [undefined, 8])
    it(`refuses a body past the limit (${chunks === undefined ? 'Content-Length' : 'chunked'}), naming the endpoint; nothing is cached`, async () => {
      const big = completion('x'.repeat(5000)) as Exclude<Reply, 'hold'>;
      server.handler = (body) => (itemOf(body) === 'q3' ? { ...big, ...(chunks ? { chunks } : {}) } : completion('A'));
      const cacheFile = join(dir, `big-cache-${chunks ?? 0}.jsonl`);
      const out = join(dir, `big-${chunks ?? 0}.jsonl`);
      const r = await ask(options(`big-${chunks ?? 0}.jsonl`, { maxResponseBytes: 1000, cacheFile }));
      expect(r.failed).toBe(1);
      expect(asked('q3')).toBe(1);
      const q3 = readLines(out)[2]!;
      expect(q3.response).toBe('Error');
      expect(q3.error).toBe(
        `${server.baseUrl}/chat/completions: HTTP 200: the response body is larger than 1000 bytes (maxResponseBytes); refused, nothing of it kept`,
      );
      expect(readFileSync(cacheFile, 'utf8').trimEnd().split('\n')).toHaveLength(3);
      expect(readFileSync(cacheFile, 'utf8')).not.toContain('xxxx');
    });

  it('the default limit is 1 MiB: a 2 MB answer to max_tokens 10 is refused', async () => {
    server.handler = () => completion('y'.repeat(2_000_000));
    const r = await ask(options('huge.jsonl', { items: join(dir, 'items4.jsonl'), concurrency: 1 }));
    expect(r.failed).toBe(4);
    expect(readLines(join(dir, 'huge.jsonl'))[0]!.error).toMatch(/larger than 1048576 bytes/);
  });
});

const askArgs = (out: string) => [
  'ask',
  '--items',
  join(dir, 'items4.jsonl'),
  '--out',
  join(dir, out),
  '--endpoint',
  server.baseUrl,
  '--model',
  'test-model',
  '--requests-per-minute',
  '60000',
  '--no-cache',
];

function runCli(args: string[]) {
  return startCli(args, { ...process.env, OPENAI_API_KEY: 'sk-test-key-0123456789' }).ended;
}

async function until(condition: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
