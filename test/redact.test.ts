// URL user-info is masked whatever characters the password holds: everything from `://` to the last
// `@` (issue 29, item 6). The old pattern stopped at `/ # ? @` and spaces and printed the rest.
import { describe, expect, it } from 'vitest';
import { publicUrl } from '../core/chat-completions.js';
import { redact, redactUrl } from '../core/redact.js';

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
