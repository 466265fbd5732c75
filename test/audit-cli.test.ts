// `intentsim audit` from dist/ (bin/intentsim.js) against the fake chat server: killed mid-run and
// run again, it asks only the items without a line; it prints the verdict tables and writes the
// filtered items with --drop-flagged.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from './support/faults.js';
import { completion, FakeChatServer, type ChatBody, type Reply } from './support/fake-chat-server.js';
import { HAND_ITEMS, itemLine, itemOfPrompt, writeHandItems } from './support/audit-items.js';
import { expectSecretRedacted } from './support/secret-leaks.js';

const SECRET = 'sk-intentsim-AUDIT-SECRET-0123456789abcdef';
const KEY_ENV = 'INTENTSIM_AUDIT_TEST_KEY';
const server = new FakeChatServer();
const requests = server.requests;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-audit-cli-'));
  writeHandItems(join(dir, 'items'));
  await server.start();
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

function runCli(args: string[], onSpawn?: (kill: () => void) => void) {
  const { child, ended } = startCli(args, {
    ...process.env,
    INTENTSIM_CACHE_DIR: join(dir, 'cache-root'),
    [KEY_ENV]: SECRET,
  });
  onSpawn?.(() => child.kill('SIGKILL'));
  return ended;
}

async function until(condition: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const auditArgs = (out: string, ...more: string[]) => [
  'audit',
  '--items',
  join(dir, 'items'),
  '--out',
  out,
  '--endpoint',
  server.baseUrl,
  '--model',
  'judge-model',
  '--requests-per-minute',
  '60000',
  '--no-cache',
  ...more,
];

describe('intentsim audit', () => {
  it('killed after 3 replies, run again with --drop-flagged: asks the other 4, prints the tables, writes the kept items', async () => {
    const out = join(dir, 'audit');
    const file = join(out, 'audit.jsonl');
    // Task 1 q1–q4 golds A B C D, Task 2 q1–q3 golds A C D; the judge says "A" to every item.
    // The first 3 requests are answered, then the server holds every request: audit waits, and is killed.
    server.handler = () => (requests.length <= 3 ? completion('A') : 'hold');
    const lineCount = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);
    const first = await runCli(auditArgs(out, '--concurrency', '1'), (kill) => {
      void until(() => lineCount() === 3 && requests.length === 4).then(kill);
    });
    expect(first.signal).toBe('SIGKILL');
    expect(lineCount()).toBe(3);

    requests.length = 0;
    server.handler = () => completion('A');
    const second = await runCli(auditArgs(out, '--drop-flagged'));
    // The killed run held the out folder's lock; the rerun takes it over, and says so.
    expect(second.stderr).toMatch(
      /^note: took over the lock .*audit\/\.intentsim\.lock: intentsim pid \d+ \(intentsim\.js audit\).*no longer runs\n$/,
    );
    expect(second.status).toBe(0);
    // Only the items without a line: Task 1 q4, Task 2 q1–q3.
    expect(
      requests
        .map((q) => itemOfPrompt(q.body.messages[0]!.content))
        .map((h) => `${h.task}:${h.id}`)
        .sort(),
    ).toEqual(['1:q4', '2:q1', '2:q2', '2:q3']);
    expect(second.stdout).toContain(
      'IntentionQA items: 7; already judged 3; asked 4 (0 completions from the cache, 4 requests sent)',
    );
    // "A" is ok where the gold is A (Task 1 q1, Task 2 q1), gold-wrong elsewhere.
    expect(second.stdout).toContain(
      [
        '| task | difficulty | relation | items | ok | second-answer | gold-wrong | unparseable | failed |',
        '|------|------------|----------|------:|---:|--------------:|-----------:|------------:|-------:|',
        '| 1    | easy       | usedFor  |     2 |  1 |             0 |          1 |           0 |      0 |',
        '| 1    | medium     | isA      |     1 |  0 |             0 |          1 |           0 |      0 |',
        '| 1    | hard       | isA      |     1 |  0 |             0 |          1 |           0 |      0 |',
        '| 2    | easy       | usedFor  |     1 |  1 |             0 |          0 |           0 |      0 |',
        '| 2    | medium     | isA      |     1 |  0 |             0 |          1 |           0 |      0 |',
        '| 2    | medium     | usedFor  |     1 |  0 |             0 |          1 |           0 |      0 |',
      ].join('\n'),
    );
    expect(second.stdout).toContain(
      '--drop-flagged: kept 1 of intentionqa_task1.jsonl, 1 of intentionqa_task2.jsonl (0 of them unparseable); 5 flagged item(s) dropped',
    );
    const kept = (task: 1 | 2) => readFileSync(join(out, 'items', `intentionqa_task${task}.jsonl`), 'utf8');
    const line = (task: 1 | 2, id: string) => itemLine(HAND_ITEMS.find((h) => h.task === task && h.id === id)!) + '\n';
    expect(kept(1)).toBe(line(1, 'q1'));
    expect(kept(2)).toBe(line(2, 'q1'));
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => `${l.task}:${l.id}:${l.verdict}`)).toEqual([
      '1:q1:ok',
      '1:q2:gold-wrong',
      '1:q3:gold-wrong',
      '1:q4:gold-wrong',
      '2:q1:ok',
      '2:q2:gold-wrong',
      '2:q3:gold-wrong',
    ]);
    expect(Object.keys(lines[0]!).slice(0, 8)).toEqual([
      'id',
      'task',
      'difficulty',
      'relation',
      'gold',
      'judged_correct',
      'verdict',
      'response',
    ]);
  });

  it('needs --endpoint and --model, and has no --samples (a judge answers once)', async () => {
    const noModel = await runCli(['audit', '--items', join(dir, 'items'), '--out', join(dir, 'x')]);
    expect(noModel.status).not.toBe(0);
    expect(noModel.stderr).toContain('audit needs --endpoint and --model');
    const samples = await runCli(auditArgs(join(dir, 'y'), '--samples', '3'));
    expect(samples.status).not.toBe(0);
    expect(samples.stderr).toMatch(/unknown option '--samples'/);
  });

  it('sends the key as ask does and never writes or prints it; a failed item is "failed"; HTTP 401 stops the run', async () => {
    const echo =
      (status: number) =>
      (_: ChatBody, auth: string | undefined): Reply => ({
        status,
        body: JSON.stringify({ error: { message: `Incorrect API key provided: ${auth?.slice(7)}; header ${auth}` } }),
      });
    requests.length = 0;
    // A 400 fails that item only: verdict "failed", the reason redacted, exit status 1, no filtered set.
    server.handler = (body, auth) => {
      const h = itemOfPrompt(body.messages[0]!.content);
      return h.task === 1 && h.id === 'q2' ? echo(400)(body, auth) : completion(h.gold);
    };
    const out = join(dir, 'secret');
    const bad = await runCli(auditArgs(out, '--api-key-env', KEY_ENV, '--concurrency', '1', '--drop-flagged'));
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('1 item(s) failed after their retries (verdict "failed"); run again to ask them');
    expect(bad.stdout).toContain(
      '--drop-flagged: no filtered items written: 1 item(s) have no verdict; run again first',
    );
    const failedLine = JSON.parse(readFileSync(join(out, 'audit.jsonl'), 'utf8').split('\n')[1]!) as Record<
      string,
      unknown
    >;
    expect(failedLine.verdict).toBe('failed');
    expect(failedLine.error).toMatch(/HTTP 400: .*Incorrect API key provided: \*\*\*;/);
    expect(requests.every((q) => q.auth === `Bearer ${SECRET}`)).toBe(true);

    requests.length = 0;
    server.handler = echo(401);
    const stopped = await runCli(auditArgs(join(dir, 'secret401'), '--api-key-env', KEY_ENV, '--concurrency', '1'));
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toMatch(/HTTP 401: .*\*\*\*.*\nStopped: no request can succeed after this error/);
    expect(requests).toHaveLength(1);

    expectSecretRedacted(SECRET, dir, [bad.stdout, bad.stderr, stopped.stdout, stopped.stderr]);
  });
});
