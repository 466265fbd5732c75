// The bulk-load path of the SQLite store (deferred node-text index, node ids numbered by the writer,
// edges staged as packed runs and merged at the end) must build, byte for byte in every table, the
// store that the general path (one upsert at a time into the indexed tables) builds from the same
// writes — including after crashes, rolled-back transactions, and in stores of schema version 1.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import { lockPathFor } from '../core/output-lock.js';
import { importAserSqlite } from '../graph/import/import-aser-sqlite.js';
import { importJsonlEdges } from '../graph/import/import-jsonl.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import { RELATION_SENSES, type EdgeInput, type GraphWriter } from '../graph/graph-store.js';
import { ReferenceGraph, randomFixture } from './graph-store-contract.js';
import { crashingAfter, withUpsertEdges } from './support/crashing-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-import-fast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
const fresh = (ext: string) => join(dir, `f${++fileNo}.${ext}`);

/** Every row of every table that holds graph data, and the counters: two stores are equal when these are. */
function dump(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const all = (sql: string) => db.prepare(sql).raw().all();
    return {
      nodes: all('SELECT id, text, purchase_objects FROM nodes ORDER BY id'),
      edges: all(`SELECT * FROM edges ORDER BY head, tail`),
      purchaseObjects: all('SELECT object, node_id FROM purchase_objects ORDER BY object, node_id'),
      counters: all("SELECT key, value FROM meta WHERE key LIKE 'count.%' ORDER BY key"),
      // Indexes and tables by name (an unfinished load would leave its staging behind).
      schema: all("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY type, name"),
      bulkLoadKeys: all("SELECT key FROM meta WHERE key LIKE 'bulk_load%'"),
    };
  } finally {
    db.close();
  }
}

function indexNames(path: string): string[] {
  const db = new Database(path, { readonly: true });
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
    .pluck()
    .all() as string[];
  db.close();
  return names;
}

/** The store the general path builds: no bulk load, batch by batch into the indexed tables. */
async function generalPathStore(
  batches: ReadonlyArray<readonly EdgeInput[]>,
  nodesFirst: readonly string[] = [],
): Promise<string> {
  const path = fresh('sqlite');
  const store = SqliteGraphStore.open(path, { mode: 'write' });
  if (nodesFirst.length > 0) await store.upsertNodes(nodesFirst);
  for (const batch of batches) await store.upsertEdges(batch);
  await store.close();
  return path;
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function writeJsonl(edges: readonly EdgeInput[]): string {
  const file = fresh('jsonl');
  writeFileSync(
    file,
    edges.map((e) => JSON.stringify({ head: e.head, tail: e.tail, relations: e.senses })).join('\n') + '\n',
  );
  return file;
}

/** A random graph with hubs, self-loops, reciprocal and re-written edges, purchase-event texts. */
function randomEdges(seed: number): EdgeInput[] {
  const fixture = randomFixture(seed, 300, 2500);
  const rng = new Rng(`import-fast/${seed}`);
  const edges = [...fixture.edges];
  // Re-writes with other senses late in the file, so that the last write is in a later batch.
  for (let i = 0; i < 200; i++) {
    const e = edges[rng.int(edges.length)]!;
    edges.push({
      head: e.head,
      tail: e.tail,
      senses: { [RELATION_SENSES[rng.int(RELATION_SENSES.length)]!]: 1 + rng.int(7) },
    });
  }
  return edges;
}

/** Checks, after the writer's first edge batch, that the load is on the fast path: no node-text index yet. */
function watchingFirstBatch(
  writer: SqliteGraphStore,
  path: string,
  seen: { indexesDuringLoad?: string[] },
): GraphWriter {
  return withUpsertEdges(writer, async (edges) => {
    await writer.upsertEdges(edges);
    seen.indexesDuringLoad ??= indexNames(path);
  });
}

describe('bulk load into an empty store (fast path)', () => {
  it('builds exactly the store of the general path from a JSONL file (random graphs, seeded)', async () => {
    for (const seed of [3, 4]) {
      const edges = randomEdges(seed);
      const file = writeJsonl(edges);
      const expected = dump(await generalPathStore(chunked(edges, 97)));

      const path = fresh('sqlite');
      const store = SqliteGraphStore.open(path, { mode: 'write' });
      const seen: { indexesDuringLoad?: string[] } = {};
      const summary = await importJsonlEdges(watchingFirstBatch(store, path, seen), file, { batchSize: 97 });
      await store.close();
      expect(summary.edgesWritten).toBe(edges.length);
      // The fast path ran: neither the node-text index nor the by-tail index existed during the load.
      expect(seen.indexesDuringLoad).not.toContain('nodes_by_text');
      expect(seen.indexesDuringLoad).not.toContain('edges_by_tail');
      const got = dump(path);
      expect(got).toEqual(expected);
      expect(indexNames(path)).toEqual(expect.arrayContaining(['nodes_by_text', 'edges_by_tail']));
      // And both agree with the obvious model of the graph.
      const ref = new ReferenceGraph({ edges });
      expect(got.counters).toEqual([
        ['count.edges', String(ref.edges.size)],
        ['count.nodes', String(ref.nodes.size)],
        ['count.purchase_nodes', expect.any(String) as unknown as string],
      ]);
    }
  });

  it('stays idempotent: re-importing the file writes nothing, and a restarted import (general path now) changes nothing', async () => {
    const edges = randomEdges(5);
    const file = writeJsonl(edges);
    const path = fresh('sqlite');
    let store = SqliteGraphStore.open(path, { mode: 'write' });
    await importJsonlEdges(store, file, { batchSize: 300 });
    await store.close();
    const first = dump(path);

    store = SqliteGraphStore.open(path, { mode: 'write' });
    const again = await importJsonlEdges(store, file, { batchSize: 300 });
    expect(again).toMatchObject({ edgesWritten: 0, alreadyImported: edges.length });
    const restarted = await importJsonlEdges(store, file, { batchSize: 300, restart: true });
    expect(restarted.edgesWritten).toBe(edges.length);
    await store.close();
    expect(dump(path)).toEqual(first);
  });

  /**
   * An import (batches of 250) whose writer "crashed" at its 4th batch: nothing closed it, and its
   * lock is stale (removed here, as the next process would take it over). `expected`: the store the
   * general path builds from the same edges.
   */
  async function crashedLoad() {
    const edges = randomEdges(6);
    const file = writeJsonl(edges);
    const expected = dump(await generalPathStore([edges]));
    const path = fresh('sqlite');
    const crashed = SqliteGraphStore.open(path, { mode: 'write' });
    await expect(importJsonlEdges(crashingAfter(crashed, 4), file, { batchSize: 250 })).rejects.toThrow(
      'simulated crash',
    );
    rmSync(lockPathFor(path, 'file'));
    return { file, expected, path, crashed };
  }

  it('resumes after a crash mid-load: readers refuse the store until a writer finishes it, and the result is the general path’s', async () => {
    const { file, expected, path, crashed } = await crashedLoad();
    expect(indexNames(path)).not.toContain('nodes_by_text');
    expect(() => SqliteGraphStore.open(path, { mode: 'read' })).toThrow(/an import into this store has not finished/);

    // The next writer fills a text table again from the committed nodes and goes on deferring the index.
    const resumed = SqliteGraphStore.open(path, { mode: 'write' });
    expect(indexNames(path)).not.toContain('nodes_by_text');
    const committed = dump(path).nodes as Array<[number, string]>;
    const some = [committed[0]![1], committed[committed.length - 1]![1], 'no such node'];
    expect([...(await resumed.lookupIds(some)).entries()]).toEqual([
      [some[0], committed[0]![0]],
      [some[1], committed[committed.length - 1]![0]],
    ]);
    const summary = await importJsonlEdges(resumed, file, { batchSize: 250 });
    expect(summary.alreadyImported).toBe(750);
    await resumed.close();
    expect(dump(path)).toEqual(expected);
    await crashed.close();
    expect(dump(path)).toEqual(expected);
  });

  it('goes on staging when it resumes: what the crashed run staged is merged once, at the end, with the rest', async () => {
    const { file, expected, path, crashed } = await crashedLoad();
    const committedNodes = (dump(path).nodes as unknown[]).length;
    const resumed = SqliteGraphStore.open(path, { mode: 'write' });
    // At the resumed import's first batch: nothing merged yet (a merge there would fill `edges` and
    // leave the rest to be merged into a non-empty table, as a node count through counts() once did).
    let atFirstBatch: { edges: number; stagedRuns: number } | undefined;
    const watched = withUpsertEdges(resumed, async (edges) => {
      if (atFirstBatch === undefined) {
        const db = new Database(path, { readonly: true });
        atFirstBatch = {
          edges: db.prepare('SELECT count(*) FROM edges').pluck().get() as number,
          stagedRuns: db.prepare('SELECT count(DISTINCT run) FROM staged_edge_runs').pluck().get() as number,
        };
        db.close();
      }
      await resumed.upsertEdges(edges);
    });
    const summary = await importJsonlEdges(watched, file, { batchSize: 250 });
    expect(atFirstBatch).toEqual({ edges: 0, stagedRuns: 3 });
    expect(summary.nodesWritten).toBe((dump(path).nodes as unknown[]).length - committedNodes);
    expect(summary.nodesWritten).toBeGreaterThan(0);
    await resumed.close();
    expect(dump(path)).toEqual(expected);
    await crashed.close();
  });

  it('resumes a crashed load the general way when its nodes have reached the limit of the writer that takes over', async () => {
    const { file, expected, path, crashed } = await crashedLoad();
    const nodes = (dump(path).nodes as unknown[]).length;
    const resumed = SqliteGraphStore.open(path, { mode: 'write', deferredNodeLimit: nodes });
    expect(indexNames(path)).toContain('nodes_by_text');
    await importJsonlEdges(resumed, file, { batchSize: 250 });
    await resumed.close();
    expect(dump(path)).toEqual(expected);
    await crashed.close();
  });

  it('writes the load through a rollback journal and goes back to WAL at its end; with the file open elsewhere it stays in WAL', async () => {
    const edges = randomEdges(12);
    const file = writeJsonl(edges);
    const expected = dump(await generalPathStore([edges]));
    for (const fileOpenElsewhere of [false, true]) {
      const path = fresh('sqlite');
      const store = SqliteGraphStore.open(path, { mode: 'write' });
      // A reader in WAL mode (reading the -shm) keeps the writer from leaving WAL.
      const other = fileOpenElsewhere ? new Database(path) : undefined;
      other?.prepare('SELECT count(*) FROM meta').get();
      const walDuringLoad: boolean[] = [];
      const watched = withUpsertEdges(store, async (batch) => {
        await store.upsertEdges(batch);
        walDuringLoad.push(existsSync(`${path}-wal`));
      });
      await importJsonlEdges(watched, file, { batchSize: 300 });
      expect(walDuringLoad.length).toBeGreaterThan(1);
      expect(new Set(walDuringLoad)).toEqual(new Set([fileOpenElsewhere]));
      await store.endBulkLoad();
      // Back in WAL mode for the writes that follow: the file header's read/write versions say 2.
      const header = readFileSync(path).subarray(18, 20);
      expect([...header]).toEqual([2, 2]);
      other?.close();
      await store.close();
      expect(dump(path)).toEqual(expected);
    }
  });

  it('builds the node-text index mid-load once the load passes its node limit, then goes on the general way', async () => {
    const edges = randomEdges(7);
    const file = writeJsonl(edges);
    const expected = dump(await generalPathStore([edges]));
    const path = fresh('sqlite');
    const store = SqliteGraphStore.open(path, { mode: 'write', deferredNodeLimit: 40 });
    const seen: { indexesDuringLoad?: string[] } = {};
    await importJsonlEdges(watchingFirstBatch(store, path, seen), file, { batchSize: 100 });
    // The first batch of 100 edges created more than 40 nodes: the index was built after it.
    expect(seen.indexesDuringLoad).toContain('nodes_by_text');
    await store.close();
    expect(dump(path)).toEqual(expected);
  });

  it('forgets exactly the nodes of a rolled-back transaction, so that later writes number nodes as if it never happened', async () => {
    const edges = randomEdges(8);
    const [first, failing, last] = [edges.slice(0, 800), edges.slice(800, 1600), edges.slice(1600)];
    const expected = dump(await generalPathStore([first, last]));

    const path = fresh('sqlite');
    const store = SqliteGraphStore.open(path, { mode: 'write' });
    await store.beginBulkLoad();
    await store.upsertEdges(first);
    // Make the next transaction fail at its last step (writing its new nodes), after ids were handed out.
    const raw = new Database(path);
    raw.exec(
      "CREATE TRIGGER poison BEFORE INSERT ON nodes WHEN NEW.text = 'poison' BEGIN SELECT RAISE(ABORT, 'poisoned node'); END",
    );
    await expect(
      store.upsertEdges([...failing, { head: 'poison', tail: 'also new', senses: { Result: 1 } }]),
    ).rejects.toThrow(/poisoned node/);
    raw.exec('DROP TRIGGER poison');
    raw.close();
    // `last` reuses texts that first appeared in the failed batch: they must get fresh ids now.
    await store.upsertEdges(last);
    expect((await store.lookupIds(['poison', 'also new'])).size).toBe(0);
    await store.close();
    expect(dump(path)).toEqual(expected);
  });

  it('writes from an ASER dump the store that the general path builds from the same nodes and edges', async () => {
    const edges = randomEdges(9);
    const texts = [...new Set(edges.flatMap((e) => [e.head, e.tail]))];
    const src = fresh('db');
    const db = new Database(src);
    db.exec('CREATE TABLE Eventualities (_id TEXT PRIMARY KEY, words TEXT)');
    db.exec(
      `CREATE TABLE Relations (_id TEXT PRIMARY KEY, hid TEXT, tid TEXT, ${RELATION_SENSES.map((s) => `${s} REAL`).join(', ')})`,
    );
    const ev = db.prepare('INSERT INTO Eventualities VALUES (?, ?)');
    const idOf = new Map(texts.map((t, i) => [t, `e${i}`]));
    const rel = db.prepare(`INSERT INTO Relations VALUES (?, ?, ?, ${RELATION_SENSES.map(() => '?').join(', ')})`);
    db.transaction(() => {
      texts.forEach((t, i) => ev.run(`e${i}`, t));
      edges.forEach((e, i) =>
        rel.run(`r${i}`, idOf.get(e.head), idOf.get(e.tail), ...RELATION_SENSES.map((s) => e.senses[s] ?? 0)),
      );
    })();
    db.close();

    const expected = dump(await generalPathStore(chunked(edges, 500), texts));
    const path = fresh('sqlite');
    const store = SqliteGraphStore.open(path, { mode: 'write' });
    await importAserSqlite(store, src, { batchSize: 500 });
    await store.close();
    expect(dump(path)).toEqual(expected);
  });
});

describe('older stores', () => {
  /** An empty store laid out as schema version 1 (the text index is the inline constraint `text UNIQUE`). */
  async function emptyVersion1Store(): Promise<string> {
    const path = fresh('sqlite');
    await SqliteGraphStore.open(path, { mode: 'write' }).close();
    const db = new Database(path);
    db.exec(`DROP TABLE nodes;
      CREATE TABLE nodes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE, purchase_objects TEXT);
      CREATE INDEX nodes_purchase ON nodes(id) WHERE purchase_objects IS NOT NULL;
      UPDATE meta SET value = '1' WHERE key = 'schema_version';`);
    db.close();
    return path;
  }

  it('a schema version 1 store opens, imports (without deferring its inline text index) and reads the same', async () => {
    const edges = randomEdges(10);
    const file = writeJsonl(edges);
    const expected = dump(await generalPathStore([edges]));
    const path = await emptyVersion1Store();
    const writer = SqliteGraphStore.open(path, { mode: 'write' });
    await importJsonlEdges(writer, file, { batchSize: 400 });
    await writer.close();
    const got = dump(path);
    expect({ ...got, schema: undefined }).toEqual({ ...expected, schema: undefined });
    expect(indexNames(path)).not.toContain('nodes_by_text');
    const reader = SqliteGraphStore.open(path);
    expect(reader.metadata().schemaVersion).toBe(1);
    const ids = await reader.lookupIds([edges[0]!.head, 'no such node']);
    expect([...ids.keys()]).toEqual([edges[0]!.head]);
    await reader.close();
  });

  it('a bulk load staged by an earlier intentsim (one row per edge) is merged by the next writer, the last write of an edge winning', async () => {
    const path = fresh('sqlite');
    const w = SqliteGraphStore.open(path, { mode: 'write' });
    const ids = await w.upsertNodes(['a', 'b', 'c']);
    await w.close();
    const [a, b, c] = [ids.get('a')!, ids.get('b')!, ids.get('c')!];
    const db = new Database(path);
    db.exec(`DROP INDEX edges_by_tail;
      CREATE TABLE edges_staged (head INTEGER NOT NULL, tail INTEGER NOT NULL, ${RELATION_SENSES.map((s) => `"${s}" REAL`).join(', ')});
      INSERT INTO meta (key, value) VALUES ('bulk_load', '2024-01-01T00:00:00Z');`);
    const stage = db.prepare('INSERT INTO edges_staged (head, tail, "Result", "Reason") VALUES (?, ?, ?, ?)');
    stage.run(a, b, 1, null);
    stage.run(b, c, null, 2);
    stage.run(a, b, null, 3); // written later: replaces the first
    db.close();
    expect(() => SqliteGraphStore.open(path)).toThrow(/has not finished/);
    const resumed = SqliteGraphStore.open(path, { mode: 'write' });
    await resumed.upsertEdges([{ head: 'c', tail: 'a', senses: { Contrast: 4 } }]); // staged the current way
    await resumed.close();
    const r = SqliteGraphStore.open(path);
    const hoods = await r.neighbourhoods([a], 'induced');
    expect(hoods.get(a)!.edges.map((e) => `${e.headText}>${e.tailText} ${JSON.stringify(e.senses)}`)).toEqual([
      'a>b {"Reason":3}',
      'b>c {"Reason":2}',
      'c>a {"Contrast":4}',
    ]);
    expect(await r.counts()).toMatchObject({ nodes: 3, edges: 3 });
    await r.close();
    expect(dump(path).schema).not.toContainEqual(['table', 'edges_staged']);
  });
});
