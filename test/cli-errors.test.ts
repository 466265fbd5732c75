// How the command line reports an error that ends a command: a UserError (and a system error about
// a file) by its message alone, on one line; anything else, a bug, with its stack.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, InputError, UserError } from '../core/errors.js';
import { ModelNotFoundError } from '../embeddings/model-resolution.js';
import { DeviceUnavailableError } from '../embeddings/execution-providers.js';
import { formatFailure } from '../cli/main.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');
const dir = mkdtempSync(join(tmpdir(), 'intentsim-cli-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function failure(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [CLI, ...args], { cwd: ROOT }).then(
    () => {
      throw new Error(`intentsim ${args.join(' ')} succeeded`);
    },
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
}

describe('formatFailure', () => {
  it('prints a user error as its message alone, on one line', () => {
    expect(formatFailure(new InputError({ file: 'p.jsonl', line: 3, field: 'title' }, 'must be a string'))).toBe(
      'intentsim: p.jsonl:3 (field "title"): must be a string\n',
    );
    expect(formatFailure(new ConfigError('sampling', 'must be "uniform" or "lowest", got "x"'))).toBe(
      'intentsim: sampling must be "uniform" or "lowest", got "x"\n',
    );
    expect(formatFailure(new UserError('graph import: give --aser-sqlite FILE or --jsonl FILE…'))).toBe(
      'intentsim: graph import: give --aser-sqlite FILE or --jsonl FILE…\n',
    );
  });

  it('counts the user-facing errors of the library as user errors', () => {
    const notFound = new ModelNotFoundError('m', 'fp32', []);
    expect(notFound).toBeInstanceOf(UserError);
    // The library's message speaks of fields; the CLI adds what to do, in flags and commands.
    expect(notFound.message).not.toMatch(/--|intentsim /);
    const printed = formatFailure(notFound);
    expect(printed.startsWith(`intentsim: ${notFound.message}\nWithout the model: add --encoder glove-100d (`)).toBe(
      true,
    );
    expect(printed).toContain('\nHow to supply a local copy:\n');
    expect(printed).toContain('then --model-dir DIR');
    const device = new DeviceUnavailableError('cuda', [
      { provider: 'cuda', ok: false, reason: 'library missing', ms: 1 },
    ]);
    expect(device.message).not.toContain('--device');
    expect(formatFailure(device)).toBe(
      `intentsim: ${device.message}\n  Use --device auto to fall back to the CPU, or --device cpu.\n`,
    );
    expect(new InputError({ file: 'f' }, 'r')).toBeInstanceOf(UserError);
    expect(new ConfigError('f', 'r')).toBeInstanceOf(UserError);
  });

  it('prints an operating-system error about a file by its message', () => {
    const err = Object.assign(new Error("ENOENT: no such file or directory, open 'x/manifest.json'"), {
      code: 'ENOENT',
      syscall: 'open',
    });
    expect(formatFailure(err)).toBe("intentsim: ENOENT: no such file or directory, open 'x/manifest.json'\n");
  });

  it('prints anything else with its stack: it is a bug', () => {
    const bug = new TypeError('cannot read properties of undefined');
    const printed = formatFailure(bug);
    expect(printed).toBe(`intentsim: internal error: ${bug.stack}\n`);
    expect(printed).toMatch(/^intentsim: internal error: TypeError: cannot read properties of undefined\n {4}at /);
    expect(printed.split('\n').length).toBeGreaterThan(3);
    expect(formatFailure('thrown string')).toBe('intentsim: internal error: thrown string\n');
  });
});

describe('bin/intentsim.js', () => {
  it('--version (and -V) prints the version in package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect((await run(process.execPath, [CLI, '--version'])).stdout).toBe(`${version}\n`);
    expect((await run(process.execPath, [CLI, '-V'])).stdout).toBe(`${version}\n`);
  });

  it('prints a user error on one line and exits with 1', async () => {
    const { code, stdout, stderr } = await failure(['graph', 'generate', '--out', join(dir, 'g')]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('intentsim: graph generate: give --demo, or --nodes N and --edges M (see --help)\n');
  });

  it('prints a missing index on one line', async () => {
    const { code, stderr } = await failure([
      'items',
      'catalog',
      '--index',
      join(dir, 'none'),
      '--questions',
      join(ROOT, 'package.json'),
      '--out',
      join(dir, 'o'),
    ]);
    expect(code).toBe(1);
    expect(stderr).toBe(`intentsim: ${join(dir, 'none')} (--index): no such folder; check the path\n`);
  });

  it('names the flag of a bad option value (commander checks flags)', async () => {
    const { code, stderr } = await failure([
      'graph',
      'import',
      '--to',
      join(dir, 's.sqlite'),
      '--jsonl',
      'e',
      '--on-error',
      'ignore',
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /option '--on-error <mode>' argument 'ignore' is invalid\. Allowed choices are fail, skip\./,
    );
  });
});

describe('stdout closed early (issue 35, fault 14)', () => {
  it('`graph stats | true`: no stack trace, the exit code of SIGPIPE', async () => {
    const graph = join(dir, 'pipe.sqlite');
    await run(process.execPath, [CLI, 'graph', 'generate', '--nodes', '40', '--edges', '60', '--out', graph]);
    // The reader is gone before the command writes: its first write fails with EPIPE.
    const child = spawn(process.execPath, [CLI, 'graph', 'stats', '--graph', graph], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });
});

describe('an output over an input, on the command line (issue 35)', () => {
  it('names both paths by the flags of the command that ran; nothing is written', async () => {
    const run35 = join(dir, 'run35');
    const items = join(run35, 'items');
    mkdirSync(items, { recursive: true });
    writeFileSync(join(items, 'intentionqa_task1.jsonl'), '{"id":"q1"}\n');
    const { code, stderr } = await failure([
      ...['audit', '--items', items, '--out', run35],
      ...['--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', '--no-cache'],
    ]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `intentsim: ${run35} (--out): the output holds the input ${items} (--items): writing into it could ` +
        'replace or remove the input; give an output outside every input (nothing was written)\n',
    );
    expect(readFileSync(join(items, 'intentionqa_task1.jsonl'), 'utf8')).toBe('{"id":"q1"}\n');
    const review = await failure(['review', 'start', '--items', items, '--out', items]);
    expect(review.stderr).toContain(`${items} (--out): the output is the input ${items} (--items)`);
  });
});
