// No secret reaches a message, a log, a rejects file or a manifest: the redaction function
// (core/redact.ts) on its own, then secrets planted in a URL, in an environment variable holding an
// API key and in an endpoint's error body, with every output of the affected commands searched.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentSecrets, redact } from '../core/redact.js';
import { writeDemo } from '../engine/demo/demo-world.js';
import { FakeBoltServer } from './support/fake-bolt-server.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');
const dir = mkdtempSync(join(tmpdir(), 'intentsim-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI in a child process; never throws (the exit code is returned). */
async function intentsim(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, INTENTSIM_QUIET: '1', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
}

/** Every file under `root`, with its text. */
function filesUnder(root: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push([path, readFileSync(path).toString('latin1')]);
  }
  return out;
}

/** The outputs (and the files named) that contain `secret`: none, when redaction works. */
function leaks(secret: string, texts: Array<[string, string]>): string[] {
  return texts.filter(([, text]) => text.includes(secret)).map(([where]) => where);
}

describe('redact', () => {
  const none = {};

  it('removes URL user-info and credential query parameters', () => {
    expect(redact('http://neo4j:hunter2@127.0.0.1:1/x', [], none)).toBe('http://***@127.0.0.1:1/x');
    expect(redact('bolt://bob:p%40ss@host:7687/db', [], none)).toBe('bolt://***@host:7687/db');
    expect(redact('https://h/v1?api_key=abc123&model=m&token=t0k&password=pw#f', [], none)).toBe(
      'https://h/v1?api_key=***&model=m&token=***&password=***#f',
    );
    expect(redact('https://h/v1?access_token=abc&x=1', [], none)).toBe('https://h/v1?access_token=***&x=1');
    // Words that merely contain a credential word are left alone.
    expect(redact('max_tokens=50, keyed by model, --openai-key-env=OPENAI_API_KEY', [], none)).toBe(
      'max_tokens=50, keyed by model, --openai-key-env=OPENAI_API_KEY',
    );
  });

  it('removes HTTP credentials and API keys from header and body text', () => {
    expect(redact('{"error": "bad header Authorization: Bearer abc.def-123"}', [], none)).not.toMatch(/abc\.def-123/);
    expect(redact('sent "authorization": "Basic dXNlcjpwYXNz"', [], none)).not.toContain('dXNlcjpwYXNz');
    expect(redact('Incorrect API key provided: sk-proj-AbCdEf0123456789', [], none)).toBe(
      'Incorrect API key provided: sk-***',
    );
    expect(redact('x-api-key: k3y-value; other', [], none)).toBe('x-api-key: ***; other');
  });

  it('removes known secrets, plain and URL-encoded, the longest first', () => {
    expect(redact('auth failed for bolt://bob:pa ss@host:7687 with pa ss', ['pa ss'], none)).toBe(
      'auth failed for bolt://***@host:7687 with ***',
    );
    expect(redact('neo4j+s://u:p%2Fw@h and p/w and p%2Fw', ['p/w'], none)).toBe('neo4j+s://***@h and *** and ***');
    expect(redact('nothing secret here', ['', 'absent'], none)).toBe('nothing secret here');
    expect(redact('xabcx', ['ab', 'abc'], none)).toBe('x***x');
  });

  it('takes the credential values of the environment as known secrets', () => {
    const env = { NEO4J_PASSWORD: 'correct-horse', MY_SERVICE_TOKEN: 'tok-123456', SHORT_KEY: 'neo4j', HOME: '/root' };
    expect(environmentSecrets(env).sort()).toEqual(['correct-horse', 'tok-123456']);
    expect(redact('server said: correct-horse is wrong; tok-123456; neo4j at /root', [], env)).toBe(
      'server said: *** is wrong; ***; neo4j at /root',
    );
  });
});

describe('planted secrets never reach an output', () => {
  let world: string;
  beforeAll(async () => {
    world = join(dir, 'world');
    await writeDemo(world, { seed: 1 });
  });

  it('a password in a --graph URL: not in the error of an unsupported scheme', async () => {
    const secret = 'UrlPw-4b1d7c';
    const r = await intentsim(['graph', 'stats', '--graph', `http://neo4j:${secret}@127.0.0.1:1`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unsupported graph store URL scheme "http:"');
    expect(r.stderr).toContain('http://***@127.0.0.1:1');
    expect(
      leaks(secret, [
        ['stdout', r.stdout],
        ['stderr', r.stderr],
      ]),
    ).toEqual([]);
  });

  it('an API key from the environment, echoed by the endpoint in its error body: not on stderr or in the rejects', async () => {
    // The key is not shaped like any known key, so only its value can find it.
    const key = 'plantedKEY9f3e2d1c';
    let server: Server | undefined;
    try {
      server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              error: `invalid key ${key}; you sent authorization: ${String(req.headers.authorization)}`,
            }),
          );
        });
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as { port: number }).port;
      const products = join(dir, 'openai-products.jsonl');
      writeFileSync(products, readFileSync(join(world, 'products.jsonl'), 'utf8').split('\n').slice(0, 3).join('\n'));
      const out = join(dir, 'openai-out');
      const common = [
        'catalog',
        'match',
        '--graph',
        join(world, 'graph.sqlite'),
        '--products',
        products,
        '--conceptualizer',
        'openai',
        '--endpoint',
        `http://127.0.0.1:${port}/v1`,
        '--api-key-env',
        'PLANTED_CONCEPTS_CREDENTIAL',
        '--requests-per-minute',
        '60000',
      ];
      const env = { PLANTED_CONCEPTS_CREDENTIAL: key };
      const skipped = await intentsim([...common, '--out', join(out, 'm.jsonl'), '--on-error', 'skip'], env);
      expect(skipped.code).toBe(0);
      const rejects = readFileSync(join(out, 'm.jsonl.rejects.jsonl'), 'utf8');
      expect(rejects).toContain('HTTP 401');
      const failed = await intentsim([...common, '--out', join(out, 'f.jsonl')], env);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('HTTP 401');
      const outputs: Array<[string, string]> = [
        ['stdout (skip)', skipped.stdout],
        ['stderr (skip)', skipped.stderr],
        ['stdout (fail)', failed.stdout],
        ['stderr (fail)', failed.stderr],
        ...filesUnder(out),
      ];
      expect(leaks(key, outputs)).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    }
  });

  it('a Neo4j password in --graph: not in any file of a pipeline run, its manifests included', async () => {
    const password = 'boltPw-7e6a5f';
    const bolt = await new FakeBoltServer({ credentials: { user: 'neo4j', password } }).start();
    try {
      const uri = `bolt://neo4j:${password}@127.0.0.1:${bolt.port}`;
      const imported = await intentsim(['graph', 'import', '--to', uri, '--jsonl', join(world, 'edges.jsonl')]);
      expect(imported.code).toBe(0);
      const out = join(dir, 'bolt-run');
      const r = await intentsim([
        'pipeline',
        '--graph',
        uri,
        '--products',
        join(world, 'products.jsonl'),
        '--assertions',
        join(world, 'assertions.jsonl'),
        '--concepts',
        join(world, 'concepts.jsonl'),
        '--out',
        out,
        '--encoder',
        'offline-hashing-v1',
      ]);
      expect(r.code).toBe(0);
      const manifest = JSON.parse(readFileSync(join(out, 'embeddings', 'manifest.json'), 'utf8')) as {
        graph: { spec: string };
      };
      expect(manifest.graph.spec).toBe(`bolt://***@127.0.0.1:${bolt.port}`);
      const outputs: Array<[string, string]> = [
        ['import stdout', imported.stdout],
        ['import stderr', imported.stderr],
        ['pipeline stdout', r.stdout],
        ['pipeline stderr', r.stderr],
        ...filesUnder(out),
      ];
      expect(leaks(password, outputs)).toEqual([]);
    } finally {
      await bolt.stop();
    }
  });
});
