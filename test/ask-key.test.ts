// Which `ask` runs need an API key (cli/options/chat-options.ts): a local server needs none, so the
// command runs without OPENAI_API_KEY; OpenAI's API and a variable named by --api-key-env do, and
// the error names the flag, not the library field.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from './support/faults.js';
import { chatKeyEnv } from '../cli/options/chat-options.js';
import { ChatCompletionsClient } from '../core/chat-completions.js';

let server: Server;
let baseUrl = '';
let dir: string;
const auths: Array<string | undefined> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-ask-key-'));
  const item = {
    id: 'q1',
    item_a_name: 'Product A',
    item_b_name: 'Product B',
    relation: 'usedFor',
    assertion: 'PersonX bought a product of Item A and a product of Item B because of a reason.',
    gold_ind: 'A',
    options: { A: 'because a.', B: 'because b.', C: 'because c.', D: 'because d.' },
    task: 1,
    difficulty: 'easy',
    prompts: { zero_shot: 'zero-shot prompt of item q1', cot: 'CoT prompt of item q1' },
  };
  writeFileSync(join(dir, 'items.jsonl'), JSON.stringify(item) + '\n');
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      auths.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: 'assistant', content: 'A' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  baseUrl = `http://127.0.0.1:${address.port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI with an environment that holds no OpenAI key (or the one given). */
function runCli(args: string[], openAiKey?: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, INTENTSIM_CACHE_DIR: join(dir, 'cache-root') };
  delete env.OPENAI_API_KEY;
  if (openAiKey !== undefined) env.OPENAI_API_KEY = openAiKey;
  delete env.INTENTSIM_ASK_KEY_TEST_UNSET;
  return startCli(args, env).ended;
}

const askArgs = (out: string, endpoint: string, ...more: string[]) => [
  'ask',
  ...['--items', join(dir, 'items.jsonl'), '--out', join(dir, out), '--endpoint', endpoint],
  ...['--model', 'local-model', '--no-cache', ...more],
];

describe('ask: the API key', () => {
  it('a local server needs no key: the run asks it without an Authorization header', async () => {
    auths.length = 0;
    const r = await runCli(askArgs('local.jsonl', baseUrl));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(auths).toEqual([undefined]);
    expect(JSON.parse(readFileSync(join(dir, 'local.jsonl'), 'utf8')) as { response: string }).toMatchObject({
      response: 'A',
    });
  });

  it('an OpenAI key in the environment is never sent to another endpoint unless its variable is named', async () => {
    auths.length = 0;
    const r = await runCli(askArgs('local-with-key.jsonl', baseUrl), 'sk-openai-never-elsewhere');
    expect(r.status).toBe(0);
    expect(auths).toEqual([undefined]);
    auths.length = 0;
    const named = await runCli(
      askArgs('local-named.jsonl', baseUrl, '--api-key-env', 'OPENAI_API_KEY'),
      'sk-openai-named',
    );
    expect(named.status).toBe(0);
    expect(auths).toEqual(['Bearer sk-openai-named']);
  });

  it('the chat client reads the default variable for api.openai.com only', () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-default-variable';
    try {
      const keyOf = (c: ChatCompletionsClient) => (c as unknown as { apiKey: string | undefined }).apiKey;
      expect(keyOf(new ChatCompletionsClient({ baseUrl: 'https://api.openai.com/v1' }))).toBe('sk-default-variable');
      expect(keyOf(new ChatCompletionsClient({ baseUrl: 'http://127.0.0.1:8000/v1' }))).toBeUndefined();
      expect(keyOf(new ChatCompletionsClient({ baseUrl: 'https://example.org/v1', apiKeyEnv: 'OPENAI_API_KEY' }))).toBe(
        'sk-default-variable',
      );
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it('a variable named by --api-key-env must be set, and the error names the flag', async () => {
    auths.length = 0;
    const r = await runCli(askArgs('named.jsonl', baseUrl, '--api-key-env', 'INTENTSIM_ASK_KEY_TEST_UNSET'));
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'intentsim: --api-key-env names the environment variable INTENTSIM_ASK_KEY_TEST_UNSET, which is not set\n',
    );
    expect(auths).toEqual([]);
  });

  it("OpenAI's API needs a key: without one, the error says which variable and which flag", () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => chatKeyEnv({ endpoint: 'https://api.openai.com/v1' })).toThrow(
        'api.openai.com needs an API key: set OPENAI_API_KEY, or name another variable with --api-key-env',
      );
      expect(chatKeyEnv({ endpoint: 'http://127.0.0.1:8000/v1' })).toBeUndefined();
      expect(chatKeyEnv({ endpoint: 'http://localhost:11434/v1' })).toBeUndefined();
      process.env.OPENAI_API_KEY = 'sk-test';
      expect(chatKeyEnv({ endpoint: 'https://api.openai.com/v1' })).toBe('OPENAI_API_KEY');
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });
});
