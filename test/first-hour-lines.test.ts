// Lines a new user reads in the first hour, each true and each naming the way on (issue 47):
// `pipeline` without the model names `--encoder glove-100d`, and that way works; `catalog index`
// says it built its index (it writes index.hnsw) and then that it reused it; `review export` on a
// review without labels says there are none yet, and how to get them.
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../core/shared-files.js';
import { writeDemo } from '../engine/demo/demo-world.js';
import { openReview } from '../engine/review/open-review.js';
import { serveReview } from '../engine/review/review-server.js';
import { openGraphStore } from '../graph/open-store.js';
import { cli } from './support/cli.js';
import { GLOVE_TEST_CACHE, realGlovePackage } from './support/glove.js';
import { manyIntentionQaItems, writeItemsDir } from './support/review-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-first-hour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const glove = realGlovePackage('test/first-hour-lines.test.ts (the way on a missing model names: glove-100d)');

describe.skipIf(!glove)('pipeline without the sentence model', () => {
  it('stops naming --encoder glove-100d, and the same command with it runs', async () => {
    const world = join(dir, 'world');
    await writeDemo(world, { seed: 1 });
    const args = [
      join(projectRoot(), 'bin', 'intentsim.js'),
      'pipeline',
      '--graph',
      join(world, 'graph.sqlite'),
      '--products',
      join(world, 'products.jsonl'),
      '--assertions',
      join(world, 'assertions.jsonl'),
      '--concepts',
      join(world, 'concepts.jsonl'),
      '--out',
      join(dir, 'run'),
    ];
    // No model in the cache (the converted word vectors only) and the Hub not asked.
    const env = { ...process.env, HF_HUB_OFFLINE: '1', INTENTSIM_CACHE_DIR: GLOVE_TEST_CACHE };
    const failed = await promisify(execFile)(process.execPath, args, { env }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed!.stderr).toMatch(/^intentsim: Could not load the sentence model /);
    const way = /Without the model: add (--encoder glove-100d) \(/.exec(failed!.stderr);
    expect(way, failed!.stderr).not.toBeNull();
    expect(failed!.stderr).toContain(`its package ${glove!.name}@${glove!.version} is installed`);

    const { stdout } = await promisify(execFile)(process.execPath, [...args, ...way![1]!.split(' ')], { env });
    expect(stdout).toMatch(/items: Task 1 \d+, Task 2 \d+/);
    const manifest = JSON.parse(readFileSync(join(dir, 'run', 'manifest.json'), 'utf8')) as {
      encoder: { encoder: string };
    };
    expect(manifest.encoder.encoder).toBe('glove-100d');
  }, 180_000);
});

describe('catalog index', () => {
  it('says it built the index it writes, then that it reused it', async () => {
    const products = join(dir, 'products.jsonl');
    writeFileSync(
      products,
      ['USB cable', 'HDMI cable', 'Phone case', 'Coffee mug', 'Tea kettle']
        .map((title, i) => JSON.stringify({ id: `p${i}`, title }) + '\n')
        .join(''),
    );
    const out = join(dir, 'catalog');
    const args = ['catalog', 'index', '--products', products, '--out', out, '--encoder', 'offline-hashing-v1'];
    const first = await cli(args);
    expect(first).toContain(`; index built: ${join(out, 'index.hnsw')} → ${out}\n`);
    expect(existsSync(join(out, 'index.hnsw'))).toBe(true);
    expect(first).not.toContain('no saved index');
    expect(await cli(args)).toContain(`; index reused: ${join(out, 'index.hnsw')} → ${out}\n`);
  });
});

describe('review export', () => {
  it('on a review without labels says there are none yet, and how to get them', async () => {
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(8) });
    const review = join(dir, 'review');
    (await openReview({ itemsDir: items, reviewDir: review, annotators: ['a'] })).store.close();
    const printed = await cli(['review', 'export', '--review', review, '--out', join(dir, 'review-out')]);
    expect(printed).toContain(
      `0 judgements of 0 items; valid 0; no labels yet: \`intentsim review start --items ITEMS --out ${review}\` serves the labelling pages again`,
    );
    expect(printed).not.toContain('one annotator per item');
    const summary = readFileSync(join(dir, 'review-out', 'summary.md'), 'utf8');
    expect(summary).toContain('not measured (no labels yet)');
    expect(summary).toContain('Not measured: no labels yet.');
  });
});

describe('messages that stop a command name the way on', () => {
  it('review start on a port in use: give another, or 0', async () => {
    const items = writeItemsDir(join(dir, 'items-port'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(4) });
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    const { store } = await openReview({ itemsDir: items, reviewDir: join(dir, 'review-port'), annotators: ['a'] });
    try {
      await expect(serveReview({ store, host: '127.0.0.1', port })).rejects.toThrow(
        `cannot serve the review on 127.0.0.1:${port}: EADDRINUSE (another program, or another review, listens there): give another port, or 0 for any free one`,
      );
    } finally {
      store.close();
      taken.close();
    }
  });

  it('a file that is not a graph store: what a graph store is, and the command that writes one', async () => {
    const file = join(dir, 'not-a-store.sqlite');
    writeFileSync(file, 'this is not SQLite, only text long enough to have a header page'.repeat(20));
    await expect(openGraphStore(file)).rejects.toThrow(
      /not-a-store\.sqlite: not an intentsim graph store \(.*\); a graph store is the file `intentsim graph import --to FILE` writes$/,
    );
    // ASER's own dump given where a store is wanted: the import that makes one from it.
    const aser = join(dir, 'KG.db');
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(aser);
    db.exec('CREATE TABLE Eventualities (_id TEXT); CREATE TABLE Relations (_id TEXT)');
    db.close();
    await expect(openGraphStore(aser)).rejects.toThrow(
      `it looks like an ASER SQLite dump: import it into a store with \`intentsim graph import --to aser.sqlite --aser-sqlite ${aser}\``,
    );
  });
});
