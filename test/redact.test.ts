// URL user-info is masked whatever characters the password holds: everything from `://` to the last
// `@` (issue 29, item 6). The old pattern stopped at `/ # ? @` and spaces and printed the rest.
import { describe, expect, it } from 'vitest';
import { ChatCompletionsClient, completionsUrl, publicUrl } from '../core/chat-completions.js';
import { redact, redactUrl, secretForms } from '../core/redact.js';
import { FakeChatServer } from './support/fake-chat-server.js';

const none = {};
const SCHEMES = ['redis', 'rediss', 'neo4j', 'bolt', 'http', 'https'];
/** Passwords holding each reserved character, and base64 ones. */
const PASSWORDS = [
  'ab/cd',
  'Neo4j/Secret#PW',
  'wh?at',
  'p@ss',
  'two words',
  '100%zz',
  '50%2F50',
  'base64/Secret+Pw==',
  'a/b#c?d@e f%g+h=',
  '@@',
  'ss@',
];

describe('redact: URL user-info with reserved characters', () => {
  for (const scheme of SCHEMES)
    for (const password of PASSWORDS)
      for (const user of ['', 'neo4j'])
        it(`${scheme}://${user}:${password}@host`, () => {
          const url = `${scheme}://${user}:${password}@host.example:6379/0`;
          expect(redact(url, [], none)).toBe(`${scheme}://***@host.example:6379/0`);
          expect(redact(`queue ${url}: unreachable`, [], none)).toBe(
            `queue ${scheme}://***@host.example:6379/0: unreachable`,
          );
          const shown = redactUrl(url, [], none);
          expect(shown.startsWith(`${scheme}://***`)).toBe(true);
          for (const part of password.split(/[/#?@ %+=]/).filter((p) => p.length >= 2))
            expect(shown.slice(scheme.length)).not.toContain(part);
        });

  it('masks up to the last @ of a line, and no further than the line', () => {
    expect(redact('redis://:p@ss@h:1 and redis://:x@y@h:2', [], none)).toBe('redis://***@h:2');
    expect(redact('redis://:p@ss@h:1\nredis://:x/y@h:2', [], none)).toBe('redis://***@h:1\nredis://***@h:2');
    expect(redact('redis://h:1 without user-info', [], none)).toBe('redis://h:1 without user-info');
    // An empty authority has no user-info: stack traces through node_modules/@scope stay readable.
    const stack = 'at file:///work/node_modules/@vitest/runner/dist/chunk.js:302:11';
    expect(redact(stack, [], none)).toBe(stack);
  });

  it('redactUrl masks the whole of a URL that does not parse, and leaves paths to redact', () => {
    expect(redactUrl('http://u:secret@h:99999/', [], none)).toBe('http://***');
    expect(redactUrl('bolt://u:p/q@[bad', [], none)).toBe('bolt://***');
    expect(redactUrl('redis://:s3cret@[::1', [], none)).toBe('redis://***');
    expect(redactUrl('graphs/a@b.sqlite', [], none)).toBe('graphs/a@b.sqlite');
    expect(redactUrl('redis://127.0.0.1:6379', [], none)).toBe('redis://127.0.0.1:6379');
  });

  it('publicUrl masks a password that parses as a port and a path', () => {
    // `https://u:123/abc@h` parses as host u, port 123, path /abc@h: the password would be shown.
    expect(publicUrl('https://u:123/abc@h.example/v1')).toBe('https://***@h.example/v1');
    expect(publicUrl('https://u:pw@h.example/v1?key=1')).toBe('https://h.example/v1');
    expect(publicUrl('http://u:secret@h:99999/')).toBe('http://***');
  });
});

describe('redact: every form a known key takes (issue 35, fault 13)', () => {
  const KEY = 'sk-"quoted"\\back\\slash-é-ü/end';
  // What a server may echo: raw, inside a JSON string (escaped, also ensure_ascii and twice), URL-encoded.
  const echoed = [
    KEY,
    JSON.stringify(KEY).slice(1, -1),
    JSON.stringify(KEY)
      .slice(1, -1)
      .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    JSON.stringify(JSON.stringify(KEY).slice(1, -1)).slice(1, -1),
    encodeURIComponent(KEY),
    encodeURIComponent(KEY).toLowerCase(),
  ];

  it.each(echoed.map((form, i) => [i, form]))('form %i is masked inside a JSON body', (_, form) => {
    const body = `{"error":{"message":"Incorrect API key provided: ${form}. Check it."}}`;
    expect(redact(body, [KEY], none)).toBe('{"error":{"message":"Incorrect API key provided: ***. Check it."}}');
  });

  it('an endpoint that echoes the key in its JSON error body: no form of it in the error', async () => {
    const key = 'k3y"with\\quote-and-backslash';
    const server = await new FakeChatServer().start();
    server.handler = () => ({
      status: 401,
      body: JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }),
    });
    try {
      const client = new ChatCompletionsClient({ baseUrl: server.baseUrl, apiKey: key, maxRetries: 0 });
      const err = await client.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toContain('Incorrect API key provided: ***');
      for (const form of secretForms(key)) expect(err?.message).not.toContain(form);
      expect(err?.message).not.toContain('k3y');
    } finally {
      await server.stop();
    }
  });
});

describe('redact: a key echoed base64-encoded (issue 45, fault 13)', () => {
  const key = 'k3y-Secret/Value+42';
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  it('masks the whole encoding, padded or not, base64url and URL-encoded', () => {
    for (const form of [
      b64(key),
      b64(key).replace(/=+$/, ''),
      Buffer.from(key).toString('base64url'),
      encodeURIComponent(b64(key)),
    ]) {
      const out = redact(`{"echo":"${form}"}`, [key], none);
      expect(out, form).toBe('{"echo":"***"}');
    }
  });
  it('masks the key inside a longer encoded value, at each of the three byte alignments', () => {
    for (const prefix of ['', 'u:', 'us:', 'use:']) {
      const encoded = b64(`${prefix}${key}|tail`);
      const out = redact(`echo ${encoded}`, [key], none);
      // What is left of the encoding cannot give the key back: decode every run of base64 left.
      const runs = out.match(/[A-Za-z0-9+/=]{8,}/g) ?? [];
      for (const run of runs) expect(Buffer.from(run, 'base64').toString('latin1'), prefix).not.toContain('Secret');
      expect(out, prefix).toContain('***');
    }
  });
  it('masks the base64 form of an environment secret', () => {
    const out = redact(`body ${b64('env-secret-123')}`, [], { OPENAI_API_KEY: 'env-secret-123' });
    expect(out).toBe('body ***');
  });
});

describe('the request URL of an endpoint with a query string (issue 45, fault 11)', () => {
  it('appends /chat/completions to the path, before the query string', async () => {
    expect(completionsUrl('http://h/v1?api-key=X').href).toBe('http://h/v1/chat/completions?api-key=X');
    expect(completionsUrl('http://h/v1/?a=1&b=2#frag').href).toBe('http://h/v1/chat/completions?a=1&b=2');
    expect(completionsUrl('http://h').href).toBe('http://h/chat/completions');
    const server = await new FakeChatServer().start();
    try {
      const client = new ChatCompletionsClient({ baseUrl: `${server.baseUrl}?api-version=2024`, maxRetries: 0 });
      await client.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions?api-version=2024']);
    } finally {
      await server.stop();
    }
  });
});
