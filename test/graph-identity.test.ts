// Graph identity (issue 29, item 1): two graphs with the same node and edge counts must not share
// one identity, so that node embeddings cached for one are never served for the other. Tested on
// the real SQLite store (and `embed` end to end through the CLI: the repro), and on the
// Neo4j store's logic through the simulated server.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildProgram } from '../cli/main.js';
import { graphIdentity } from '../graph/graph-identity.js';
import { RELATION_SENSES, type EdgeInput, type RelationSense } from '../graph/graph-store.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import { initNeo4jSchema, neo4jStoreOnRunner } from '../graph/neo4j/neo4j-store.js';
import type { Neo4jErrorContext } from '../graph/neo4j/neo4j-errors.js';
import type { EmbedManifest } from '../engine/pipeline/run-embed.js';
import { Neo4jSimulator } from './support/neo4j-simulator.js';

const work = mkdtempSync(join(tmpdir(), 'intentsim-identity-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<string> {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  try {
    await (await buildProgram()).exitOverride().parseAsync(['node', 'intentsim', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out.join('');
}

const EDGES: EdgeInput[] = [
  { head: 'PersonX buy a phone', tail: 'PersonX call PersonY', senses: { Result: 1 } },
  { head: 'PersonX buy a phone', tail: 'PersonX be happy', senses: { Precedence: 2 } },
  { head: 'PersonX call PersonY', tail: 'PersonX be happy', senses: { Conjunction: 1 } },
  { head: 'PersonX buy the phone case', tail: 'PersonX protect phone', senses: { Reason: 1, Result: 0.5 } },
];

/** The same heads and tails, every sense renamed to the next one (the repro). */
function renamed(edges: readonly EdgeInput[]): EdgeInput[] {
  return edges.map((e) => {
    const senses: Partial<Record<RelationSense, number>> = {};
    for (const [s, w] of Object.entries(e.senses)) {
      senses[RELATION_SENSES[(RELATION_SENSES.indexOf(s as RelationSense) + 1) % RELATION_SENSES.length]!] = w;
    }
    return { ...e, senses };
  });
}

async function sqliteStore(name: string, edges: readonly EdgeInput[]): Promise<string> {
  const path = join(work, name);
  const store = SqliteGraphStore.open(path, { mode: 'write' });
  await store.upsertEdges(edges);
  await store.close();
  return path;
}

async function identityOf(path: string): Promise<string | undefined> {
  const store = SqliteGraphStore.open(path);
  try {
    return await graphIdentity(store);
  } finally {
    await store.close();
  }
}

describe('SQLite graph identity', () => {
  it('differs between two stores with the same counts and revision but other content', async () => {
    const a = await identityOf(await sqliteStore('a.sqlite', EDGES));
    const b = await identityOf(await sqliteStore('b.sqlite', renamed(EDGES)));
    expect(a).toMatch(/^sqlite:5n:4e:r1:id:[0-9a-f-]{36}$/);
    expect(b).toMatch(/^sqlite:5n:4e:r1:id:/);
    expect(a).not.toBe(b);
    // Even two imports of the same edges are two stores: only a copy shares the identity.
    expect(await identityOf(await sqliteStore('a2.sqlite', EDGES))).not.toBe(a);
  });

  it('is kept by a copy and changed by every write, also one that leaves the counts as they were', async () => {
    const path = await sqliteStore('c.sqlite', EDGES);
    const before = await identityOf(path);
    copyFileSync(path, join(work, 'c-copy.sqlite'));
    expect(await identityOf(join(work, 'c-copy.sqlite'))).toBe(before);
    const store = SqliteGraphStore.open(path, { mode: 'write' });
    await store.upsertEdges([{ ...EDGES[0]!, senses: { Result: 7 } }]); // same pair: counts unchanged
    expect((await store.counts()).edges).toBe(4);
    const written = await graphIdentity(store);
    await store.close();
    expect(written).not.toBe(before);
    expect(await identityOf(path)).toBe(written);
    expect(await identityOf(join(work, 'c-copy.sqlite'))).toBe(before);
  });

  it('hashes the content of a store made before content ids were kept, until a write gives it one', async () => {
    const strip = (path: string) => {
      const db = new Database(path);
      db.prepare("DELETE FROM meta WHERE key = 'content_id'").run();
      db.close();
      return path;
    };
    const a1 = strip(await sqliteStore('old-a1.sqlite', EDGES));
    const a2 = strip(await sqliteStore('old-a2.sqlite', EDGES));
    const b = strip(await sqliteStore('old-b.sqlite', renamed(EDGES)));
    const hashed = await identityOf(a1);
    expect(hashed).toMatch(/^sqlite:5n:4e:r1:sha256:[0-9a-f]{64}$/);
    expect(await identityOf(a2)).toBe(hashed); // the same content
    expect(await identityOf(b)).not.toBe(hashed); // other senses
    const store = SqliteGraphStore.open(a1, { mode: 'write' });
    await store.upsertNodes(['PersonX sleep']);
    await store.close();
    expect(await identityOf(a1)).toMatch(/^sqlite:6n:4e:r2:id:/);
  });
});

describe('embed on two graphs with the same counts, one cache (the issue 29 repro)', () => {
  it('computes the second graph’s nodes instead of taking the first one’s from the cache', async () => {
    const edgeLine = (e: EdgeInput) => JSON.stringify({ head: e.head, tail: e.tail, relations: e.senses });
    writeFileSync(join(work, 'edges.jsonl'), EDGES.map(edgeLine).join('\n') + '\n');
    writeFileSync(join(work, 'edges-renamed.jsonl'), renamed(EDGES).map(edgeLine).join('\n') + '\n');
    writeFileSync(
      join(work, 'products.jsonl'),
      [JSON.stringify({ id: 'p1', title: 'Smart Phone' }), JSON.stringify({ id: 'p2', title: 'Phone Case' })].join(
        '\n',
      ) + '\n',
    );
    writeFileSync(
      join(work, 'concepts.jsonl'),
      [JSON.stringify({ id: 'p1', phrases: ['phone'] }), JSON.stringify({ id: 'p2', phrases: ['phone case'] })].join(
        '\n',
      ) + '\n',
    );
    const model = join(work, 'model');
    await cli('model', 'make-test', '--out', model);
    await cli('graph', 'import', '--to', join(work, 'A.sqlite'), '--jsonl', join(work, 'edges.jsonl'));
    await cli('graph', 'import', '--to', join(work, 'B.sqlite'), '--jsonl', join(work, 'edges-renamed.jsonl'));
    const embed = async (graph: string, cacheDir: string, out: string) => {
      await cli(
        ...['embed', '--graph', join(work, graph), '--products', join(work, 'products.jsonl')],
        ...['--concepts', join(work, 'concepts.jsonl'), '--model-dir', model, '--device', 'cpu'],
        ...['--model-cache', join(work, cacheDir), '--node-cache', join(work, cacheDir), '--out', join(work, out)],
      );
      const manifest = JSON.parse(readFileSync(join(work, out, 'manifest.json'), 'utf8')) as EmbedManifest;
      return { context: manifest.counts.context, npy: readFileSync(join(work, out, 'embeddings.npy')) };
    };
    const a = await embed('A.sqlite', 'C', 'outA');
    expect(a.context).toMatchObject({ fromCache: 0, computed: 2 });
    const b = await embed('B.sqlite', 'C', 'outB');
    // Before: { fromCache: 2, computed: 0 }, and B's embeddings.npy equal to A's.
    expect(b.context).toMatchObject({ fromCache: 0, computed: 2 });
    const fresh = await embed('B.sqlite', 'fresh', 'outBfresh');
    expect(b.npy.equals(fresh.npy)).toBe(true);
    expect(b.npy.equals(a.npy)).toBe(false);
    // A rerun on B does take B's nodes from the cache.
    expect((await embed('B.sqlite', 'C', 'outB2')).context).toMatchObject({ fromCache: 2, computed: 0 });
  }, 60_000);
});

describe('Neo4j graph identity (simulated server)', () => {
  const ctx: Neo4jErrorContext = { displayUri: 'bolt://simulated:7687', database: undefined, secrets: [] };

  it('is drawn when the schema is created and redrawn by every write transaction', async () => {
    const sim = new Neo4jSimulator({ seed: 3 });
    await initNeo4jSchema(sim, ctx);
    const store = neo4jStoreOnRunner(sim, { writable: true, ctx });
    const created = await graphIdentity(store);
    expect(created).toMatch(/^neo4j:0n:0e:id:[0-9a-f-]{36}$/);
    await initNeo4jSchema(sim, ctx); // opening again keeps it
    expect(await graphIdentity(store)).toBe(created);
    await store.upsertEdges(EDGES);
    const first = await graphIdentity(store);
    await store.upsertEdges([{ ...EDGES[0]!, senses: { Result: 7 } }]); // same counts
    const second = await graphIdentity(store);
    expect(new Set([created, first, second]).size).toBe(3);
    expect(second).toMatch(/^neo4j:5n:4e:id:/);
  });

  it('is unknown for a database no intentsim writer has marked', async () => {
    const sim = new Neo4jSimulator({ seed: 4 });
    expect(await graphIdentity(neo4jStoreOnRunner(sim, { writable: false, ctx }))).toBeUndefined();
  });
});
