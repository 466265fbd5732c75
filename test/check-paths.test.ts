// Every command checks every input path and output location before any work (core/check-paths.ts):
// a missing input or an output that cannot be written fails at once, names the path and the option
// field, and nothing is computed or written first — not stage 1 of a pipeline, not the first of two
// import files, not the model (each command below is given a model folder that does not exist: the
// path error must come first).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPaths } from '../core/check-paths.js';
import { FileError } from '../core/file-errors.js';
import { writeDemo } from '../engine/demo/demo-world.js';
import { runPipeline } from '../engine/pipeline/run-pipeline.js';
import { importGraph } from '../graph/import/import-graph.js';
import { openEncoder } from '../workers/open-encoder.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');
const dir = mkdtempSync(join(tmpdir(), 'intentsim-check-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => join(dir, `${++n}-${name}`);

async function failure(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, INTENTSIM_QUIET: '1' } }).then(
    () => {
      throw new Error(`intentsim ${args.join(' ')} succeeded`);
    },
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
}

let world: string;
let aFile: string;
const noModel = () => ['--model-dir', join(dir, 'no-such-model')];
beforeAll(async () => {
  world = fresh('world');
  await writeDemo(world, { seed: 1 });
  aFile = fresh('a-file.txt');
  writeFileSync(aFile, 'x');
});

describe('checkPaths', () => {
  it('says what is wrong with each kind of path, naming the field', () => {
    const missing = join(dir, 'missing.jsonl');
    const message = (checks: Parameters<typeof checkPaths>[0]) => {
      try {
        checkPaths(checks);
      } catch (err) {
        expect(err).toBeInstanceOf(FileError);
        return (err as Error).message;
      }
      return 'no error';
    };
    expect(message({ inputFiles: { assertions: missing } })).toBe(
      `${missing} (assertions): no such file; check the path`,
    );
    expect(message({ inputFiles: { products: dir } })).toBe(
      `${dir} (products): is a folder, not a file; give the path of a file`,
    );
    expect(message({ inputDirs: { index: aFile } })).toBe(
      `${aFile} (index): is a file, not a folder; give the path of a folder`,
    );
    expect(message({ outputDirs: { out: aFile } })).toBe(
      `${aFile} (out): is a file, not a folder; give the path of a folder (it is created if missing)`,
    );
    expect(message({ outputDirs: { out: join(aFile, 'sub', 'dir') } })).toBe(
      `${aFile} (out): is a file, so ${join(aFile, 'sub', 'dir')} cannot be created; check the path`,
    );
    expect(message({ outputFiles: { output: dir } })).toBe(
      `${dir} (output): is a folder, not a file; give the path of a file`,
    );
    // What exists, and what can be created, passes; an absent option is not checked.
    expect(
      message({
        inputFiles: { products: aFile, concepts: undefined },
        outputDirs: { out: join(dir, 'new', 'folder') },
        outputFiles: { output: join(dir, 'new', 'file.npy') },
      }),
    ).toBe('no error');
    expect(existsSync(join(dir, 'new'))).toBe(false);
  });
});

describe('every command checks its paths before any work', () => {
  it('pipeline: a missing assertions file fails before stage 1 writes or embeds anything', async () => {
    const out = fresh('run');
    const missing = join(dir, 'assertions-missing.jsonl');
    await expect(
      runPipeline({
        embed: {
          graph: join(world, 'graph.sqlite'),
          products: join(world, 'products.jsonl'),
          concepts: join(world, 'concepts.jsonl'),
          mode: 'induced',
          encoder: await openEncoder({ encoder: 'offline-hashing-v1', warn: () => {} }),
        },
        assertions: missing,
        items: {},
        out,
        onError: 'fail',
      }),
    ).rejects.toThrow(`${missing} (assertions): no such file; check the path`);
    expect(existsSync(out)).toBe(false);
  });

  it('graph import: a missing second file fails before the first is imported', async () => {
    const to = fresh('g.sqlite');
    const missing = join(dir, 'edges-missing.jsonl');
    await expect(importGraph({ to, jsonl: [join(world, 'edges.jsonl'), missing] })).rejects.toThrow(
      `${missing} (jsonl[1]): no such file; check the path`,
    );
    expect(existsSync(to)).toBe(false);
  });

  it('the commands that open a model check their paths first', async () => {
    const missing = join(dir, 'missing.jsonl');
    const cases: Array<[string[], string]> = [
      [['encode', '--in', missing, '--out', fresh('v.npy'), ...noModel()], `${missing} (--in): no such file`],
      [['encode', '--in', aFile, '--out', dir, ...noModel()], `${dir} (--out): is a folder, not a file`],
      [
        ['catalog', 'index', '--products', missing, '--out', fresh('cat'), ...noModel()],
        `${missing} (--products): no such file`,
      ],
      [
        [
          'items',
          'sib',
          '--sessions',
          join(ROOT, 'examples', 'sib', 'sessions.jsonl'),
          '--annotations',
          missing,
          '--catalog',
          join(ROOT, 'examples', 'sib', 'catalog.jsonl'),
          '--out',
          fresh('sib'),
          ...noModel(),
        ],
        `${missing} (--annotations): no such file`,
      ],
      [
        ['score', 'shoppingbench', '--predictions', aFile, '--targets', missing, ...noModel()],
        `${missing} (--targets): no such file`,
      ],
      [
        [
          'embed',
          '--graph',
          join(world, 'graph.sqlite'),
          '--products',
          join(world, 'products.jsonl'),
          '--out',
          aFile,
          ...noModel(),
        ],
        `${aFile} (--out): is a file, not a folder`,
      ],
      [
        [
          'pipeline',
          '--graph',
          join(world, 'graph.sqlite'),
          '--products',
          join(world, 'products.jsonl'),
          '--assertions',
          missing,
          '--out',
          fresh('run'),
          ...noModel(),
        ],
        `${missing} (--assertions): no such file`,
      ],
      [
        ['items', 'catalog', '--index', fresh('no-index'), '--questions', aFile, '--out', fresh('items')],
        '(--index): no such folder',
      ],
      [
        [
          'catalog',
          'match',
          '--graph',
          join(world, 'graph.sqlite'),
          '--products',
          join(world, 'products.jsonl'),
          '--out',
          dir,
        ],
        `${dir} (--out): is a folder, not a file`,
      ],
      [
        ['demo', '--out', join(aFile, 'demo')],
        `${aFile} (--out): is a file, so ${join(aFile, 'demo')} cannot be created`,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await failure(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toContain(message);
      expect(r.stderr, args.join(' ')).not.toMatch(/model|internal error/i);
    }
    // Nothing was written next to the inputs either.
    expect(readdirSync(world).sort()).toEqual([
      'assertions.jsonl',
      'concepts.jsonl',
      'edges.jsonl',
      'graph.sqlite',
      'products.jsonl',
    ]);
  });
});
