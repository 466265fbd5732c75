// File-system and SQLite failures name the file and say what to do (core/file-errors.ts): the
// translation of each real failure (EISDIR, ENOENT, "database is locked", "database disk image is
// malformed", "attempt to write a readonly database", "Unexpected end of JSON input"), then each
// place that opens a file: the JSONL readers, the SQLite graph store, the node cache, an ASER dump,
// the catalogue and demo manifests, the sentences file of `encode`.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { FileError, fileError, readJsonFile } from '../core/file-errors.js';
import { readJsonl } from '../core/jsonl.js';
import { writeDemo } from '../engine/demo/demo-world.js';
import { runEmbed } from '../engine/pipeline/run-embed.js';
import { CatalogIndex } from '../engine/catalog/catalog-query.js';
import { importGraph } from '../graph/import/import-graph.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import { RELATION_SENSES } from '../graph/graph-store.js';
import { openEncoder } from '../workers/open-encoder.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');
const dir = mkdtempSync(join(tmpdir(), 'intentsim-file-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => join(dir, `${++n}-${name}`);

/** What `work` threw (it must throw). */
async function thrown(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

/** Overwrites 32 KiB from the fourth 4 KiB page on: the header still reads, later pages do not. */
function damage(file: string): void {
  const bytes = readFileSync(file);
  bytes.fill(0xff, 4096 * 3, Math.min(bytes.length, 4096 * 11));
  writeFileSync(file, bytes);
}

let world: string;
beforeAll(async () => {
  world = fresh('world');
  await writeDemo(world, { seed: 1 });
});

describe('fileError: every failure names the path and what to do', () => {
  it('EISDIR and ENOENT', async () => {
    const folder = fresh('folder');
    mkdirSync(folder);
    const isDir = fileError(await thrown(() => readFile(folder, 'utf8')), folder, { what: 'products file' });
    expect(isDir).toBeInstanceOf(FileError);
    expect((isDir as Error).message).toBe(
      `${folder} (products file): is a folder, not a file; give the path of a file`,
    );
    const missing = fresh('missing.jsonl');
    expect((fileError(await thrown(() => readFile(missing)), missing) as Error).message).toBe(
      `${missing}: no such file or folder; check the path`,
    );
  });

  it('"database is locked", "attempt to write a readonly database", "database disk image is malformed"', async () => {
    const db = fresh('locked.db');
    const holder = new Database(db);
    holder.exec('CREATE TABLE t (x)');
    holder.exec('BEGIN EXCLUSIVE');
    const other = new Database(db);
    other.pragma('busy_timeout = 0');
    const busy = await thrown(() => other.prepare('SELECT * FROM t').all());
    expect((busy as Error).message).toBe('database is locked');
    expect((fileError(busy, db, { what: 'node embedding cache' }) as Error).message).toBe(
      `${db} (node embedding cache): the database is locked by another process; ` +
        'wait for the other process (another run on the same file) to finish, or stop it, then run again',
    );
    holder.exec('ROLLBACK');
    holder.close();
    other.close();

    const reader = new Database(db, { readonly: true });
    const readonly = await thrown(() => reader.exec('INSERT INTO t VALUES (1)'));
    reader.close();
    expect((readonly as Error).message).toBe('attempt to write a readonly database');
    expect((fileError(readonly, db) as Error).message).toBe(
      `${db}: cannot write: the database is read-only; make the file and its folder writable (or choose another path)`,
    );

    const damaged = fresh('damaged.sqlite');
    copyFileSync(join(world, 'graph.sqlite'), damaged);
    damage(damaged);
    const raw = new Database(damaged, { readonly: true });
    const malformed = await thrown(() => raw.prepare('SELECT count(*) FROM nodes WHERE text > ?').get(''));
    raw.close();
    expect((malformed as Error).message).toBe('database disk image is malformed');
    expect((fileError(malformed, damaged, { ifDamaged: 'build it again' }) as Error).message).toBe(
      `${damaged}: the database is damaged (database disk image is malformed); build it again`,
    );
  });

  it('"Unexpected end of JSON input" (readJsonFile), and leaves other errors alone', async () => {
    const empty = fresh('manifest.json');
    writeFileSync(empty, '');
    const err = await thrown(() => readJsonFile(empty, { what: 'manifest', ifDamaged: 'delete it and run again' }));
    expect((err as Error).message).toBe(
      `${empty} (manifest): not valid JSON (Unexpected end of JSON input); delete it and run again`,
    );
    const bug = new RangeError('a bug');
    expect(fileError(bug, empty)).toBe(bug);
  });
});

describe('where files are opened', () => {
  it('the JSONL readers name a folder given as a file', async () => {
    const folder = fresh('products-folder');
    mkdirSync(folder);
    const err = await thrown(async () => {
      for await (const _ of readJsonl(folder, (j) => j)) void _;
    });
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(`${folder}: is a folder, not a file; give the path of a file`);
  });

  it('the SQLite graph store names itself when a page is damaged, and says what to do', async () => {
    const damaged = fresh('graph.sqlite');
    copyFileSync(join(world, 'graph.sqlite'), damaged);
    damage(damaged);
    const r = await run(
      process.execPath,
      [CLI, 'graph', 'neighbours', '--graph', damaged, '--text', 'PersonX buy a phone case'],
      {
        cwd: ROOT,
      },
    ).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(r?.code).toBe(1);
    expect(r?.stderr).toBe(
      `intentsim: ${damaged} (graph store): the database is damaged (database disk image is malformed); ` +
        'build it again (intentsim graph import, or graph generate)\n',
    );
  });

  it('the SQLite graph store names itself when a write is refused', async () => {
    const path = fresh('g.sqlite');
    const store = SqliteGraphStore.open(path, { mode: 'write' });
    // What a read-only file or file system does to every write.
    (store as unknown as { db: Database.Database }).db.pragma('query_only = 1');
    const err = await thrown(() => store.upsertEdges([{ head: 'a', tail: 'b', senses: { Result: 1 } }]));
    expect((err as Error).message).toBe(
      `${path} (graph store): cannot write: the database is read-only; make the file and its folder writable (or choose another path)`,
    );
    (store as unknown as { db: Database.Database }).db.pragma('query_only = 0');
    await store.close();
  });

  it('the node cache names itself when another process holds it locked', async () => {
    const cacheDir = fresh('cache');
    mkdirSync(cacheDir);
    const cache = join(cacheDir, 'node-embeddings.sqlite');
    const holder = new Database(cache);
    holder.exec('CREATE TABLE t (x)');
    holder.exec('BEGIN EXCLUSIVE');
    const encoder = await openEncoder({ encoder: 'offline-hashing-v1', warn: () => {} });
    try {
      const err = await thrown(() =>
        runEmbed({
          graph: join(world, 'graph.sqlite'),
          products: join(world, 'products.jsonl'),
          concepts: join(world, 'concepts.jsonl'),
          out: fresh('emb'),
          mode: 'induced',
          encoder,
          nodeCacheDir: cacheDir,
          progress: false,
        }),
      );
      expect((err as Error).message).toBe(
        `${cache} (node embedding cache): the database is locked by another process; ` +
          'wait for the other process (another run on the same file) to finish, or stop it, then run again',
      );
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('an ASER dump damaged past its header names the dump', async () => {
    const src = fresh('aser.db');
    const db = new Database(src);
    db.exec('CREATE TABLE Eventualities (_id TEXT PRIMARY KEY, words TEXT)');
    db.exec(
      `CREATE TABLE Relations (_id TEXT PRIMARY KEY, hid TEXT, tid TEXT, ${RELATION_SENSES.map((s) => `${s} REAL`).join(', ')})`,
    );
    const ev = db.prepare('INSERT INTO Eventualities (_id, words) VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < 3000; i++) ev.run(`e${i}`, `PersonX do thing number ${i}`);
    })();
    db.close();
    damage(src);
    const err = await thrown(() => importGraph({ to: fresh('g.sqlite'), aserSqlite: src }));
    expect(err).toBeInstanceOf(FileError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^${src.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(ASER dump\\): (the database is damaged|not a SQLite database)`,
      ),
    );
  });

  it('an empty catalogue manifest and an empty demo marker name themselves', async () => {
    const index = fresh('cat');
    mkdirSync(index);
    writeFileSync(join(index, 'manifest.json'), '');
    expect(((await thrown(() => CatalogIndex.open(index))) as Error).message).toBe(
      `${join(index, 'manifest.json')} (catalogue index manifest): not valid JSON (Unexpected end of JSON input); ` +
        'run catalog index again into this folder to rebuild it (finished chunks are reused)',
    );
    const demo = fresh('demo');
    mkdirSync(join(demo, 'world'), { recursive: true });
    writeFileSync(join(demo, 'world', 'world.json'), '{"seed": 1');
    const r = await run(process.execPath, [CLI, 'demo', '--out', demo, '--encoder', 'offline-hashing-v1'], {
      cwd: ROOT,
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(r?.code).toBe(1);
    expect(r?.stderr).toContain(
      `intentsim: ${join(demo, 'world', 'world.json')} (demo world marker): not valid JSON (`,
    );
    expect(r?.stderr).toContain('delete it: the demo writes the world again');
  });
});
