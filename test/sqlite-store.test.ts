import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import { SCHEMA_VERSION, StalePurchaseIndexError, withSortOnDisk } from '../graph/sqlite/sqlite-schema.js';
import { openGraphStore, openGraphWriter } from '../graph/open-store.js';
import { parsePurchaseEvent } from '../graph/purchase-events.js';
import {
  HAND_GRAPH,
  ReferenceGraph,
  randomFixture,
  readView,
  runGraphStoreContract,
  type GraphFixture,
} from './graph-store-contract.js';
import { Rng } from '../core/rng.js';
import { lockPathFor } from '../core/output-lock.js';
import { RELATION_SENSES, type EdgeInput } from '../graph/graph-store.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-sqlite-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
const freshPath = () => join(dir, `store-${++fileNo}.sqlite`);

async function buildStore(fixture: GraphFixture, path = freshPath()): Promise<SqliteGraphStore> {
  const store = SqliteGraphStore.open(path, { mode: 'write' });
  if (fixture.isolated) await store.upsertNodes(fixture.isolated);
  // Two batches, so that the contract also covers edges written across transactions.
  const half = Math.floor(fixture.edges.length / 2);
  await store.upsertEdges(fixture.edges.slice(0, half));
  await store.upsertEdges(fixture.edges.slice(half));
  return store;
}

runGraphStoreContract('SQLite (write mode)', (fixture) => buildStore(fixture));

runGraphStoreContract('SQLite (reopened read-only)', async (fixture) => {
  const path = freshPath();
  await (await buildStore(fixture, path)).close();
  return readView(SqliteGraphStore.open(path, { mode: 'read' }));
});

// A bulk load stages edges and merges them at the first edge read: the contract (reads mid-load,
// writes after reads, re-written edges) must hold for a bulk-loading writer too.
runGraphStoreContract('SQLite (write mode, bulk load)', async (fixture) => {
  const store = SqliteGraphStore.open(freshPath(), { mode: 'write' });
  await store.beginBulkLoad();
  if (fixture.isolated) await store.upsertNodes(fixture.isolated);
  const half = Math.floor(fixture.edges.length / 2);
  await store.upsertEdges(fixture.edges.slice(0, half));
  await store.upsertEdges(fixture.edges.slice(half));
  return store;
});

describe('SQLite store specifics', () => {
  it('persists across reopen and leaves one self-contained file', async () => {
    const path = freshPath();
    const w = await buildStore(HAND_GRAPH, path);
    const before = await w.counts();
    await w.close();
    expect(existsSync(path + '-wal')).toBe(false);
    const r = await openGraphStore(path);
    expect(r.kind).toBe('sqlite');
    expect(await r.counts()).toEqual(before);
    await r.close();
  });

  it('refuses writes in read-only mode and leaves the file unchanged', async () => {
    const path = freshPath();
    await (await buildStore(HAND_GRAPH, path)).close();
    const r = SqliteGraphStore.open(path);
    await expect(r.upsertEdges([{ head: 'p', tail: 'q', senses: { Result: 1 } }])).rejects.toThrow(/read-only/);
    await expect(r.upsertNodes(['p'])).rejects.toThrow(/read-only/);
    expect((await r.counts()).edges).toBe(8);
    await r.close();
  });

  it('says clearly when a file is missing, not a database, not a store, or of another schema version', async () => {
    await expect(openGraphStore(join(dir, 'missing.sqlite'))).rejects.toThrow(/no such graph store/);

    const text = join(dir, 'not-a-db.sqlite');
    writeFileSync(text, 'this is not a database, just some text that is long enough to fill a header page'.repeat(20));
    await expect(openGraphStore(text)).rejects.toThrow(/not an intentsim graph store \(not a SQLite database/);
    await expect(openGraphWriter(text)).rejects.toThrow(/not an intentsim graph store/);

    const other = join(dir, 'other.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE Eventualities (_id TEXT PRIMARY KEY, words TEXT)');
    db.close();
    await expect(openGraphStore(other)).rejects.toThrow(
      /not an intentsim graph store \(no meta table; tables: Eventualities\)/,
    );
    // Opening for writing must not scribble on somebody else's database either.
    await expect(openGraphWriter(other)).rejects.toThrow(/no meta table/);

    const future = freshPath();
    await (await buildStore(HAND_GRAPH, future)).close();
    const f = new Database(future);
    f.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION + 1));
    f.close();
    await expect(openGraphStore(future)).rejects.toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}, but this intentsim reads version ${SCHEMA_VERSION}`),
    );
  });

  it('refuses a store whose purchase index came from another parser, until reindexed', async () => {
    const path = freshPath();
    await (await buildStore(randomFixture(7, 30, 60), path)).close();
    const db = new Database(path);
    db.prepare("UPDATE meta SET value = 'some-older-parser' WHERE key = 'purchase_parser'").run();
    db.prepare('DELETE FROM purchase_objects').run(); // what a stale index may look like
    db.close();
    await expect(openGraphStore(path)).rejects.toBeInstanceOf(StalePurchaseIndexError);
    const w = SqliteGraphStore.open(path, { mode: 'write', allowStalePurchaseIndex: true });
    await w.reindexPurchases();
    await w.close();
    const r = SqliteGraphStore.open(path);
    const fixtureTexts = [...new Set(randomFixture(7, 30, 60).edges.flatMap((e) => [e.head, e.tail]))];
    const expected = fixtureTexts.filter((t) => parsePurchaseEvent(t).length > 0).length;
    expect((await r.counts()).purchaseNodes).toBe(expected);
    let events = 0;
    for await (const b of r.purchaseEvents()) events += b.length;
    expect(events).toBe(expected);
    await r.close();
  });

  it('rejects bad edges before writing anything from the batch', async () => {
    const store = await buildStore(HAND_GRAPH);
    const good = { head: 'new1', tail: 'new2', senses: { Result: 1 } };
    await expect(store.upsertEdges([good, { head: 'x', tail: '', senses: { Result: 1 } }])).rejects.toThrow(
      /empty tail/,
    );
    await expect(store.upsertEdges([good, { head: 'x', tail: 'y', senses: { Bogus: 1 } as never }])).rejects.toThrow(
      /unknown relation sense "Bogus"/,
    );
    await expect(store.upsertEdges([good, { head: 'x', tail: 'y', senses: { Result: 0 } }])).rejects.toThrow(
      /positive number/,
    );
    await expect(store.upsertEdges([good, { head: 'x', tail: 'y', senses: { Result: Number.NaN } }])).rejects.toThrow(
      /positive number/,
    );
    expect(await store.counts()).toMatchObject({ nodes: 7, edges: 8 });
    expect((await store.lookupIds(['new1'])).size).toBe(0);
    await store.close();
  });

  it('bulk loading builds the by-tail index at the end; an unfinished bulk load is refused by readers, finished by the next writer', async () => {
    const fixture = randomFixture(13, 40, 150);
    const path = freshPath();
    const w = SqliteGraphStore.open(path, { mode: 'write' });
    await w.upsertNodes(fixture.isolated!);
    await w.beginBulkLoad();
    await w.upsertEdges(fixture.edges.slice(0, 70));
    const indexes = () => {
      const db = new Database(path, { readonly: true });
      const names = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'edges_by_tail'")
        .pluck()
        .all();
      db.close();
      return names;
    };
    expect(indexes()).toEqual([]);
    // A crash now (the process dies without close, its lock left stale: removed here, as the next
    // process would take it over): readers refuse the store with a remedy …
    rmSync(lockPathFor(path, 'file'));
    await expect(openGraphStore(path)).rejects.toThrow(/an import into this store has not finished/);
    // … and the next writer (the resumed import) finishes the load when it closes.
    const resumed = SqliteGraphStore.open(path, { mode: 'write' });
    await resumed.beginBulkLoad();
    await resumed.upsertEdges(fixture.edges.slice(70));
    await resumed.close();
    await w.close();
    expect(indexes()).toEqual(['edges_by_tail']);
    const direct = await buildStore(fixture);
    const r = SqliteGraphStore.open(path);
    const ids = await r.lookupIds([...new Set(fixture.edges.map((e) => e.head))]);
    const directIds = await direct.lookupIds([...ids.keys()]);
    for (const mode of ['incident', 'induced'] as const) {
      const got = await r.neighbourhoods([...ids.values()], mode);
      const want = await direct.neighbourhoods([...directIds.values()], mode);
      for (const [text, id] of ids) {
        expect(got.get(id)!.edges.map((e) => [e.headText, e.tailText, e.senses])).toEqual(
          want.get(directIds.get(text)!)!.edges.map((e) => [e.headText, e.tailText, e.senses]),
        );
      }
    }
    expect(await r.counts()).toEqual(await direct.counts());
    await r.close();
    await direct.close();
  });

  it('a bulk load merges staged edges in key order, the last write of an edge winning within and across batches and merges', async () => {
    // Every edge is written several times with different senses, in shuffled batches, with a read
    // (which merges what is staged) between some of them: a merge in another order, or one that
    // lost or duplicated rows, changes the senses or the counts.
    const rng = new Rng(77);
    const texts = Array.from({ length: 60 }, (_, i) => `bulk node ${i}`);
    const writes: EdgeInput[] = [];
    for (let i = 0; i < 3000; i++) {
      writes.push({
        head: texts[rng.int(60)]!,
        tail: texts[rng.int(60)]!,
        senses: { [RELATION_SENSES[rng.int(RELATION_SENSES.length)]!]: 1 + rng.int(9) },
      });
    }
    const path = freshPath();
    const w = SqliteGraphStore.open(path, { mode: 'write' });
    await w.beginBulkLoad();
    const batches = [0, 400, 401, 1500, 2200, 3000];
    for (let b = 0; b + 1 < batches.length; b++) {
      await w.upsertEdges(writes.slice(batches[b], batches[b + 1]));
      if (b === 2)
        expect((await w.counts()).edges).toBe(
          new ReferenceGraph({ edges: writes.slice(0, batches[b + 1]) }).edges.size,
        );
    }
    await w.close();
    const ref = new ReferenceGraph({ edges: writes });
    const r = SqliteGraphStore.open(path);
    expect(await r.counts()).toMatchObject({ nodes: ref.nodes.size, edges: ref.edges.size });
    const ids = await r.lookupIds(texts);
    const got = await r.neighbourhoods([...ids.values()], 'incident');
    for (const t of texts) {
      if (!ids.has(t)) continue;
      expect(
        got
          .get(ids.get(t)!)!
          .edges.map((e) => `${e.headText}>${e.tailText}>${JSON.stringify(e.senses)}`)
          .sort(),
      ).toEqual(
        ref
          .neighbourhood(t, 'incident')
          .map((e) => `${e.head}>${e.tail}>${JSON.stringify(e.senses)}`)
          .sort(),
      );
    }
    const db = new Database(path, { readonly: true });
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE name IN ('edges_staged', 'edges_by_tail')").pluck().all(),
    ).toEqual(['edges_by_tail']);
    db.close();
    await r.close();
  });

  it('resolves texts correctly whichever look-up order the writer has adapted to (mostly new, mostly known, mixed)', async () => {
    // > 1,024 cache misses of each kind make the writer switch between insert-first and select-first.
    const path = freshPath();
    const first = SqliteGraphStore.open(path, { mode: 'write' });
    const known = Array.from({ length: 3000 }, (_, i) => `known ${i}`);
    await first.upsertNodes(known);
    await first.close();
    const rng = new Rng(21);
    const edges: EdgeInput[] = [];
    for (let i = 0; i < 2500; i++)
      edges.push({ head: known[rng.int(3000)]!, tail: known[rng.int(3000)]!, senses: { Result: 1 + (i % 3) } });
    for (let i = 0; i < 2500; i++) edges.push({ head: `new ${i}`, tail: known[rng.int(3000)]!, senses: { Reason: 1 } });
    for (let i = 0; i < 2500; i++)
      edges.push({ head: known[rng.int(3000)]!, tail: i % 2 ? `new ${i}` : `newer ${i}`, senses: { Contrast: 2 } });
    const second = SqliteGraphStore.open(path, { mode: 'write' }); // an empty text → id cache
    for (let i = 0; i < edges.length; i += 500) await second.upsertEdges(edges.slice(i, i + 500));
    await second.close();
    const ref = new ReferenceGraph({ edges, isolated: known });
    const r = SqliteGraphStore.open(path);
    expect(await r.counts()).toMatchObject({ nodes: ref.nodes.size, edges: ref.edges.size });
    const texts = [...ref.nodes];
    const ids = await r.lookupIds(texts);
    expect(ids.size).toBe(texts.length);
    expect(new Set(ids.values()).size).toBe(texts.length);
    const sample = texts.filter((_, i) => i % 37 === 0);
    const got = await r.neighbourhoods(
      sample.map((t) => ids.get(t)!),
      'incident',
    );
    for (const t of sample) {
      expect(
        got
          .get(ids.get(t)!)!
          .edges.map((e) => `${e.headText}>${e.tailText}>${JSON.stringify(e.senses)}`)
          .sort(),
      ).toEqual(
        ref
          .neighbourhood(t, 'incident')
          .map((e) => `${e.head}>${e.tail}>${JSON.stringify(e.senses)}`)
          .sort(),
      );
    }
    await r.close();
  });

  it('builds whole indexes with the sort on disk and helper threads, and puts both settings back after, even on an error', () => {
    const db = new Database(':memory:');
    const settings = () => ({
      tempStore: db.pragma('temp_store', { simple: true }) as number,
      threads: db.pragma('threads', { simple: true }) as number,
    });
    db.pragma('temp_store = MEMORY');
    const helpers = Math.min(4, availableParallelism() - 1);
    expect(withSortOnDisk(db, settings)).toEqual({ tempStore: 1, threads: helpers }); // 1 = FILE
    expect(settings()).toEqual({ tempStore: 2, threads: 0 }); // 2 = MEMORY
    expect(() =>
      withSortOnDisk(db, () => {
        throw new Error('build failed');
      }),
    ).toThrow('build failed');
    expect(settings()).toEqual({ tempStore: 2, threads: 0 });
    db.close();
  });

  it('uses the indexes for batched reads (no full scans)', async () => {
    const path = freshPath();
    await (await buildStore(HAND_GRAPH, path)).close();
    const db = new Database(path, { readonly: true });
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan(`SELECT n.id FROM json_each('["a"]') AS j JOIN nodes AS n ON n.text = j.value`)).toMatch(
      /SEARCH n USING (COVERING )?INDEX/,
    );
    expect(plan(`SELECT e.head FROM json_each('[1]') AS j JOIN edges AS e ON e.head = j.value`)).toMatch(
      /SEARCH e USING PRIMARY KEY/,
    );
    expect(plan(`SELECT e.head FROM json_each('[1]') AS j JOIN edges AS e ON e.tail = j.value`)).toMatch(
      /SEARCH e USING (COVERING )?INDEX edges_by_tail/,
    );
    db.close();
  });
});

describe('close, however it ends (issue 45, fault 19)', () => {
  it('releases the output lock when another connection keeps the database locked', async () => {
    const path = freshPath();
    const store = SqliteGraphStore.open(path, { mode: 'write' });
    await store.beginBulkLoad();
    const other = new Database(path);
    other.exec('BEGIN EXCLUSIVE');
    // Ending the bulk load waits out the busy timeout, then fails: the lock must go all the same.
    await expect(store.close()).rejects.toThrow(/database is locked|busy/i);
    expect(existsSync(lockPathFor(path, 'file'))).toBe(false);
    other.exec('ROLLBACK');
    other.close();
    // The unfinished bulk load is finished by the next writer.
    const again = SqliteGraphStore.open(path, { mode: 'write' });
    await again.close();
    expect(existsSync(lockPathFor(path, 'file'))).toBe(false);
  });
});
