// The command line names the flags a user typed, not the library's option fields (issue 29, "left
// open"): `apiKeyEnv names …` is printed as `--api-key-env names …`, `/x (nodeCacheDir): …` as
// `/x (--node-cache): …`, `settings.samples …` as `--samples …`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPaths, PathCheckError } from '../core/check-paths.js';
import { ConfigError } from '../core/errors.js';
import { buildProgram, formatFailure } from '../cli/main.js';
import { flagOf } from '../cli/option-flags.js';

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'intentsim-cli-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('library fields become flags in CLI errors', () => {
  it('a ConfigError names the flag of its field on the command line that ran', async () => {
    const ask = await buildProgram('ask');
    expect(
      formatFailure(new ConfigError('apiKeyEnv', 'names the environment variable MY_KEY, which is not set'), ask),
    ).toBe('intentsim: --api-key-env names the environment variable MY_KEY, which is not set\n');
    expect(formatFailure(new ConfigError('settings.maxTokens', 'must be a positive integer, got 0'), ask)).toBe(
      'intentsim: --max-completion-tokens must be a positive integer, got 0\n',
    );
    expect(formatFailure(new ConfigError('baseUrl', 'is not a URL: "x"'), ask)).toBe(
      'intentsim: --endpoint is not a URL: "x"\n',
    );
    // A field no flag sets keeps its name (the message is still true, if in the library's words).
    expect(formatFailure(new ConfigError('maxRetryWaitMs', 'must be ≥ 0, got -1'), ask)).toBe(
      'intentsim: maxRetryWaitMs must be ≥ 0, got -1\n',
    );
    expect(flagOf('nodeCacheDir', await buildProgram('embed'))).toBe('--node-cache');
    expect(flagOf('nodeCacheDir', await buildProgram('encode'))).toBeUndefined();
    // An old spelling, hidden from help, is never named: encode has no node cache, only the old --cache-dir.
    expect(flagOf('cacheDir', await buildProgram('encode'))).toBeUndefined();
    expect(flagOf('batch', await buildProgram('graph'))).toBeUndefined();
    expect(flagOf('noSuchField', await buildProgram('embed'))).toBeUndefined();
  });

  it('a path check names the flag that gave the path', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    let err: unknown;
    try {
      checkPaths({ outputDirs: { nodeCacheDir: join(file, 'cache') } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PathCheckError);
    expect((err as Error).message).toBe(
      `${file} (nodeCacheDir): is a file, so ${join(file, 'cache')} cannot be created; check the path`,
    );
    expect(formatFailure(err, await buildProgram('embed'))).toBe(
      `intentsim: ${file} (--node-cache): is a file, so ${join(file, 'cache')} cannot be created; check the path\n`,
    );
  });

  it('the command prints the flag', async () => {
    const items = join(dir, 'items.jsonl');
    writeFileSync(items, '{"id": "q1", "gold_ind": "A"}\n');
    const r = await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'bin', 'intentsim.js'),
        'ask',
        '--items',
        items,
        '--out',
        join(dir, 'o.jsonl'),
        '--endpoint',
        'http://127.0.0.1:9/v1',
        '--model',
        'm',
        '--samples',
        '3',
      ],
      { cwd: ROOT },
    ).catch((e: { code: number; stderr: string }) => e);
    expect(r.stderr).toBe('intentsim: --samples is for cot_sc; style zero_shot asks once per item\n');
  });
});
