import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserConcepts, loadUserConcepts } from '../engine/products/concepts.js';
import { OfflineConceptualizer, titleCandidates } from '../engine/products/concepts-offline.js';
import {
  CONCEPTUALIZE_PROMPT,
  OpenAiConceptualizer,
  conceptualizePrompt,
  parseCategoryAnswer,
} from '../engine/products/concepts-openai.js';
import { InputError } from '../core/errors.js';
import { MemoryGraph } from './support/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-concepts-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('user concepts file', () => {
  it('loads phrases and normalises them, with singular variants', async () => {
    const path = file(
      'c.jsonl',
      '{"id": "p1", "phrases": ["Phone Cases", "Mobile Accessory"]}\n\n{"id": "42", "phrases": ["The (Wireless) Earrings!"]}\n',
    );
    const c = await UserConcepts.load(path);
    const out = await c.conceptualize([
      { id: 'p1', title: 'x' },
      { id: '42', title: 'y' },
      { id: 'p3', title: 'z' },
    ]);
    expect(out[0]).toEqual({
      ok: true,
      concepts: {
        raw: ['Phone Cases', 'Mobile Accessory'],
        phrases: ['phone cases', 'phone case', 'mobile accessory'],
      },
    });
    expect(out[1]).toEqual({
      ok: true,
      concepts: { raw: ['The (Wireless) Earrings!'], phrases: ['earrings', 'earring'] },
    });
    expect(out[2]).toEqual({ ok: false, field: 'id', reason: `no concepts for product "p3" in ${path}` });
  });

  const bad: Array<[string, string, number, string, RegExp]> = [
    ['missing phrases', '{"id": "a"}', 1, 'phrases', /missing/],
    ['phrases not an array', '{"id": "a", "phrases": "x"}', 1, 'phrases', /expected an array/],
    ['empty phrases', '{"id": "a", "phrases": []}', 1, 'phrases', /at least one/],
    ['non-string phrase', '{"id": "a", "phrases": ["ok", 3]}', 1, 'phrases[1]', /expected a string/],
    [
      'phrase normalising to nothing',
      '{"id": "a", "phrases": ["ok", "(Black)"]}',
      1,
      'phrases[1]',
      /normalises to an empty phrase/,
    ],
    [
      'duplicate id',
      '{"id": "a", "phrases": ["x"]}\n{"id": "b", "phrases": ["y"]}\n{"id": "a", "phrases": ["z"]}',
      3,
      'id',
      /duplicate id "a" \(first on line 1\)/,
    ],
    ['missing id', '{"phrases": ["x"]}', 1, 'id', /missing/],
  ];
  for (const [name, text, line, field, reason] of bad) {
    it(`rejects ${name}, naming file, line and field`, async () => {
      const path = file(`bad-${name.replace(/\W+/g, '-')}.jsonl`, text + '\n');
      const err = await loadUserConcepts(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InputError);
      const e = err as InputError;
      expect(e.location).toEqual({ file: path, line, field });
      expect(e.reason).toMatch(reason);
    });
  }
});

describe('offline conceptualizer: candidates from the title', () => {
  it('takes the first segment up to an attachment word; 2-grams and 1-grams from the head backwards', () => {
    expect(titleCandidates('Zentrix Slim Phone Case for iPhone 13, Shockproof (Black)')).toEqual({
      candidates: ['phone case', 'case', 'slim phone', 'phone', 'zentrix slim', 'slim', 'zentrix', 'shockproof'],
      head: ['phone case', 'case'],
    });
  });

  it('skips digits, colours, packaging and function words; keeps later segments after the first', () => {
    expect(titleCandidates('Anker 20W USB-C Charger, 2 Pack - Black')).toEqual({
      candidates: ['usbc charger', 'charger', 'usbc', 'anker'],
      head: ['usbc charger', 'charger'],
    });
    expect(titleCandidates('Set of 2 Coffee Mugs with Lid')).toEqual({
      candidates: ['coffee mugs', 'mugs', 'coffee'],
      head: ['coffee mugs', 'mugs'],
    });
  });

  it('finds a head in a later segment when the first has none, and gives nothing for a title of noise', () => {
    expect(titleCandidates('2 Pack, Leather Wallet')).toEqual({
      candidates: ['leather wallet', 'wallet', 'leather'],
      head: ['leather wallet', 'wallet'],
    });
    expect(titleCandidates('2 Pack - Black (XL)')).toEqual({ candidates: [], head: [] });
  });

  it('prefers candidates that have purchase nodes, then fills with the head phrases', async () => {
    const g = new MemoryGraph();
    await g.upsertNodes(['PersonX buy a phone', 'PersonX buy a slim phone', 'PersonX buy a mug', 'PersonX go home']);
    const c = new OfflineConceptualizer(g);
    const out = await c.conceptualize([
      { id: 'a', title: 'Zentrix Slim Phone Case for iPhone 13' },
      { id: 'b', title: 'Set of 2 Coffee Mugs with Lid' },
      { id: 'c', title: 'Nothing Here At All' },
      { id: 'd', title: '2 Pack - Black' },
    ]);
    // a: matched "slim phone", "phone" (preference order), then head "phone case".
    expect(out[0]).toEqual({
      ok: true,
      concepts: { raw: ['slim phone', 'phone', 'phone case'], phrases: ['slim phone', 'phone', 'phone case'] },
    });
    // b: "mugs" matches through its singular "mug"; head fill adds "coffee mugs".
    expect(out[1]).toEqual({
      ok: true,
      concepts: { raw: ['mugs', 'coffee mugs'], phrases: ['mugs', 'mug', 'coffee mugs', 'coffee mug'] },
    });
    // c: nothing matches: the head phrases only ("at" is a function word, so "all" has no 2-gram).
    expect(out[2]).toEqual({ ok: true, concepts: { raw: ['all'], phrases: ['all'] } });
    expect(out[3]).toEqual({ ok: false, field: 'title', reason: 'no candidate category phrase in the title' });
    // One index query for the whole batch; a second batch of known candidates needs none.
    expect(g.purchaseIndexCalls).toBe(1);
    expect(await c.conceptualize([{ id: 'a2', title: 'Zentrix Slim Phone Case for iPhone 13' }])).toEqual([out[0]]);
    expect(g.purchaseIndexCalls).toBe(1);
  });
});

describe('OpenAI-compatible conceptualizer', () => {
  it('uses the Table 5 prompt word for word', () => {
    const table = readFileSync(new URL('../engine/products/concepts-openai.ts', import.meta.url), 'utf8');
    expect(table).toContain(CONCEPTUALIZE_PROMPT);
    expect(conceptualizePrompt('Zentrix $& Case')).toBe(
      'Product name: Zentrix $& Case; What is the category of the product? Generate three possible categories, each in 2 words, separated by a comma.',
    );
  });

  it('parses comma lists, numbered lines, quotes and trailing periods into at most three phrases', () => {
    expect(parseCategoryAnswer('Phone Case, Mobile Accessory, Protective Cover')).toEqual([
      'Phone Case',
      'Mobile Accessory',
      'Protective Cover',
    ]);
    expect(parseCategoryAnswer('1. Phone Case\n2. "Mobile Accessory"\n3) Protective Cover.')).toEqual([
      'Phone Case',
      'Mobile Accessory',
      'Protective Cover',
    ]);
    expect(parseCategoryAnswer('- Earrings\n- Jewelry\n\n- Fashion, Gifts')).toEqual([
      'Earrings',
      'Jewelry',
      'Fashion',
    ]);
    expect(parseCategoryAnswer('Categories: Coffee Mug, Drinkware')).toEqual(['Coffee Mug', 'Drinkware']);
    expect(parseCategoryAnswer(' , \n')).toEqual([]);
  });

  const secret = 'sk-test-SECRET-123';
  let server: Server;
  let baseUrl = '';
  const requests: Array<{
    auth: string | undefined;
    body: { model: string; messages: Array<{ content: string }>; max_tokens: number; temperature: number };
    at: number;
  }> = [];
  // Scripted responses per title: a list of [status, body, headers] consumed in order.
  const script = new Map<string, Array<[number, string, Record<string, string>?]>>();

  const ok = (content: string): [number, string] => [
    200,
    JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }),
  ];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(data) as (typeof requests)[number]['body'];
        requests.push({ auth: req.headers.authorization, body, at: Date.now() });
        const title = /^Product name: (.*); What is/.exec(body.messages[0]!.content)![1]!;
        const steps = script.get(title) ?? [];
        const [status, text, headers] = steps.shift() ?? ok('Thing One, Thing Two, Thing Three');
        res.writeHead(status, { 'content-type': 'application/json', ...(headers ?? {}) });
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    baseUrl = `http://127.0.0.1:${address.port}/v1`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const noSleep = async () => {};

  it('sends the prompt with the key from the environment, retries transient errors, caches answers', async () => {
    process.env.INTENTSIM_TEST_KEY = secret;
    requests.length = 0;
    script.set('Retry Me Phone Case', [
      [429, '{"error": "slow down"}', { 'retry-after': '0' }],
      [503, 'unavailable'],
      ok('Phone Cases, Mobile Accessory, Protective Cover'),
    ]);
    const cacheFile = join(dir, 'openai-cache.jsonl');
    const sleeps: number[] = [];
    const c = await OpenAiConceptualizer.open({
      baseUrl: baseUrl + '/',
      model: 'test-model',
      apiKeyEnv: 'INTENTSIM_TEST_KEY',
      cacheFile,
      backoffMs: 10,
      // 0.01 ms apart: the limiter's own waits stay far below the 10 ms backoff that is checked.
      requestsPerMinute: 6_000_000,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const out = await c.conceptualize([{ id: 'p', title: 'Retry Me Phone Case' }]);
    expect(out[0]).toEqual({
      ok: true,
      concepts: {
        raw: ['Phone Cases', 'Mobile Accessory', 'Protective Cover'],
        phrases: ['phone cases', 'phone case', 'mobile accessory', 'protective cover'],
      },
    });
    expect(requests).toHaveLength(3);
    expect(requests.every((r) => r.auth === `Bearer ${secret}`)).toBe(true);
    expect(requests[0]!.body).toMatchObject({ model: 'test-model', max_tokens: 50, temperature: 0 });
    expect(requests[0]!.body.messages[0]!.content).toBe(conceptualizePrompt('Retry Me Phone Case'));
    // Backoff doubles per retry (10 ms, 20 ms); the rate limiter adds waits of at most 0.01 ms.
    expect(sleeps.filter((ms) => ms >= 10)).toEqual([10, 20]);
    expect(c.name).toBe('openai:test-model');

    // The cache answers the same title without a request, in this run and the next.
    const again = await c.conceptualize([{ id: 'q', title: 'Retry Me Phone Case' }]);
    expect(again[0]).toEqual(out[0]);
    expect(requests).toHaveLength(3);
    const reopened = await OpenAiConceptualizer.open({
      baseUrl,
      model: 'test-model',
      apiKeyEnv: 'INTENTSIM_TEST_KEY',
      cacheFile,
      sleep: noSleep,
    });
    expect(await reopened.conceptualize([{ id: 'r', title: 'Retry Me Phone Case' }])).toEqual(out);
    expect(reopened.cacheHits).toBe(1);
    expect(requests).toHaveLength(3);
    // Another model is another cache key.
    const other = await OpenAiConceptualizer.open({
      baseUrl,
      model: 'other-model',
      apiKeyEnv: 'INTENTSIM_TEST_KEY',
      cacheFile,
      sleep: noSleep,
    });
    await other.conceptualize([{ id: 'r', title: 'Retry Me Phone Case' }]);
    expect(requests).toHaveLength(4);
    expect(readFileSync(cacheFile, 'utf8')).not.toContain(secret);
  });

  it('fails a product at once on a non-transient error and after the retry budget on transient ones, never naming the key', async () => {
    process.env.INTENTSIM_TEST_KEY = secret;
    requests.length = 0;
    script.set('Bad Request', [[400, '{"error": "bad"}']]);
    script.set(
      'Always Busy',
      Array.from({ length: 10 }, (): [number, string] => [500, 'boom']),
    );
    script.set('Empty Answer', [ok(' , ')]);
    const c = await OpenAiConceptualizer.open({
      baseUrl,
      model: 'm',
      apiKeyEnv: 'INTENTSIM_TEST_KEY',
      maxRetries: 2,
      backoffMs: 1,
      sleep: noSleep,
    });
    const out = await c.conceptualize([
      { id: 'a', title: 'Bad Request' },
      { id: 'b', title: 'Always Busy' },
      { id: 'c', title: 'Empty Answer' },
    ]);
    expect(out[0]).toMatchObject({ ok: false, field: 'title' });
    expect(out[1]).toMatchObject({ ok: false, field: 'title' });
    expect(out[2]).toMatchObject({ ok: false, field: 'title' });
    const reasons = out.map((o) => (o.ok ? '' : o.reason));
    expect(reasons[0]).toMatch(/HTTP 400/);
    expect(reasons[1]).toMatch(/HTTP 500.*gave up after 3 attempts/);
    expect(reasons[2]).toMatch(/no usable category/);
    for (const r of reasons) expect(r).not.toContain(secret);
    const perTitle = (t: string) => requests.filter((r) => r.body.messages[0]!.content.includes(t)).length;
    expect(perTitle('Bad Request')).toBe(1);
    expect(perTitle('Always Busy')).toBe(3);
  });

  it('spaces request starts by the rate limit and shares one request between equal titles', async () => {
    requests.length = 0;
    const batch = [
      { id: 'a', title: 'Rate One' },
      { id: 'b', title: 'Rate Two' },
      { id: 'c', title: 'Rate Three' },
      { id: 'd', title: 'Rate One' },
    ];
    // The waits the limiter asks for: the 2nd and 3rd start 50 and 100 ms after the 1st.
    const waits: number[] = [];
    const recorded = await OpenAiConceptualizer.open({
      baseUrl,
      model: 'm1',
      requestsPerMinute: 1200,
      concurrency: 4,
      sleep: async (ms) => void waits.push(ms),
    });
    await recorded.conceptualize(batch);
    expect(requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
    const [w1, w2] = waits.sort((a, b) => a - b);
    expect(w1).toBeGreaterThan(35);
    expect(w1).toBeLessThanOrEqual(50);
    expect(w2).toBeGreaterThan(85);
    expect(w2).toBeLessThanOrEqual(100);
    // With the real clock, three requests at 1200/min take at least 100 ms.
    const real = await OpenAiConceptualizer.open({ baseUrl, model: 'm2', requestsPerMinute: 1200, concurrency: 4 });
    const t0 = Date.now();
    await real.conceptualize(batch);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(95);
    expect(real.requestsSent).toBe(3);
  });

  it('ignores a torn last cache line and reports it', async () => {
    const cacheFile = join(dir, 'torn-cache.jsonl');
    writeFileSync(
      cacheFile,
      JSON.stringify({ model: 'm', title: 'Kept', phrases: ['Kept Thing'], answer: 'Kept Thing' }) + '\n',
    );
    appendFileSync(cacheFile, '{"model": "m", "title": "Tor');
    const c = await OpenAiConceptualizer.open({ baseUrl, model: 'm', cacheFile, sleep: noSleep });
    expect(c.cacheLinesIgnored).toBe(1);
    requests.length = 0;
    await c.conceptualize([{ id: 'x', title: 'Kept' }]);
    expect(requests).toHaveLength(0);
    expect(existsSync(cacheFile)).toBe(true);
  });
});
