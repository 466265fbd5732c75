// A SQLite graph store edited by another client (issue 35, fault 6): the sqlite3 shell or a script
// that changes texts or weights and keeps the counts must change the store's identity, so that
// `embed` computes the changed nodes again instead of serving the old ones from its cache. The
// store's change triggers (graph/sqlite/sqlite-schema.ts) do it for any client; a store made before
// them is identified by a hash of its content until it is opened for writing.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildProgram } from '../cli/main.js';
import { graphIdentity } from '../graph/graph-identity.js';
import type { EdgeInput } from '../graph/graph-store.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import type { EmbedManifest } from '../engine/pipeline/run-embed.js';

const work = mkdtempSync(join(tmpdir(), 'intentsim-outside-edit-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const EDGES: EdgeInput[] = [
  { head: 'PersonX buy a phone', tail: 'PersonX call PersonY', senses: { Result: 1 } },
  { head: 'PersonX buy a phone', tail: 'PersonX be happy', senses: { Precedence: 2 } },
  { head: 'PersonX call PersonY', tail: 'PersonX be happy', senses: { Conjunction: 1 } },
  { head: 'PersonX buy the phone case', tail: 'PersonX protect phone', senses: { Reason: 1, Result: 0.5 } },
];

async function sqliteStore(name: string): Promise<string> {
  const path = join(work, name);
  const store = SqliteGraphStore.open(path, { mode: 'write' });
  await store.upsertEdges(EDGES);
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

/** Another client's edit: a second connection, not intentsim's writer. */
function edit(path: string, sql: string): void {
  const db = new Database(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

describe('SQLite graph identity after another client’s edit', () => {
  it('changes with texts, weights or purchase objects edited in place (same counts)', async () => {
    const path = await sqliteStore('edited.sqlite');
    const seen = [await identityOf(path)];
    expect(seen[0]).toMatch(/^sqlite:5n:4e:r1:id:/);
    for (const sql of [
      "UPDATE nodes SET text = 'PersonX call PersonZ' WHERE text = 'PersonX call PersonY'",
      'UPDATE edges SET "Result" = 3 WHERE "Result" = 1',
      "DELETE FROM purchase_objects; INSERT INTO purchase_objects (object, node_id) VALUES ('phone', 1)",
      'DELETE FROM edges WHERE "Conjunction" IS NOT NULL',
    ]) {
      edit(path, sql);
      seen.push(await identityOf(path));
    }
    // Each edit gave a new identity (counts and revision alike where the edit kept them).
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen[3]).toMatch(/^sqlite:5n:4e:r1:id:/);
    // Reads do not change it; intentsim's own write changes it once, as before.
    expect(await identityOf(path)).toBe(seen[4]);
  });

  // The repro with the sqlite3 shell itself, where it is installed.
  const shell = (() => {
    try {
      execFileSync('sqlite3', ['-version']);
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!shell)('changes with an edit by the sqlite3 shell', async () => {
    const path = await sqliteStore('shell.sqlite');
    const before = await identityOf(path);
    execFileSync('sqlite3', [path, "UPDATE nodes SET text = upper(text) WHERE text = 'PersonX be happy'"]);
    const after = await identityOf(path);
    expect(after).toMatch(/^sqlite:5n:4e:r1:id:/);
    expect(after).not.toBe(before);
  });

  it('a store made before the triggers: hashed while read-only, given triggers and a new id on a writable open', async () => {
    const path = await sqliteStore('old.sqlite');
    const withId = await identityOf(path);
    const db = new Database(path);
    const triggers = db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").pluck().all() as string[];
    expect(triggers).toHaveLength(9);
    for (const t of triggers) db.exec(`DROP TRIGGER ${t}`);
    db.close();
    const hashed = await identityOf(path);
    expect(hashed).toMatch(/^sqlite:5n:4e:r1:sha256:[0-9a-f]{64}$/);
    edit(path, "UPDATE nodes SET text = 'PersonX call PersonZ' WHERE text = 'PersonX call PersonY'");
    const edited = await identityOf(path);
    expect(edited).toMatch(/^sqlite:5n:4e:r1:sha256:/);
    expect(edited).not.toBe(hashed);
    // A writable open adds the triggers and redraws the id (an old edit cannot be told from none).
    await SqliteGraphStore.open(path, { mode: 'write' }).close();
    const migrated = await identityOf(path);
    expect(migrated).toMatch(/^sqlite:5n:4e:r1:id:/);
    expect(migrated).not.toBe(withId);
    edit(path, "UPDATE nodes SET text = 'PersonX call PersonW' WHERE text = 'PersonX call PersonZ'");
    expect(await identityOf(path)).not.toBe(migrated);
  });
});

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

describe('embed after another client edited the graph (the issue 35 repro)', () => {
  it('computes the edited graph’s nodes instead of serving the old ones from the cache', async () => {
    const edgeLine = (e: EdgeInput) => JSON.stringify({ head: e.head, tail: e.tail, relations: e.senses });
    writeFileSync(join(work, 'edges.jsonl'), EDGES.map(edgeLine).join('\n') + '\n');
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
    const graph = join(work, 'G.sqlite');
    await cli('graph', 'import', '--to', graph, '--jsonl', join(work, 'edges.jsonl'));
    const embed = async (cacheDir: string, out: string) => {
      await cli(
        ...['embed', '--graph', graph, '--products', join(work, 'products.jsonl')],
        ...['--concepts', join(work, 'concepts.jsonl'), '--model-dir', model, '--device', 'cpu'],
        ...['--model-cache', join(work, cacheDir), '--node-cache', join(work, cacheDir), '--out', join(work, out)],
      );
      const manifest = JSON.parse(readFileSync(join(work, out, 'manifest.json'), 'utf8')) as EmbedManifest;
      return { context: manifest.counts.context, npy: readFileSync(join(work, out, 'embeddings.npy')) };
    };
    const before = await embed('C', 'out1');
    expect(before.context).toMatchObject({ fromCache: 0, computed: 2 });
    // The context of both purchase nodes changes; the counts stay.
    edit(
      graph,
      "UPDATE nodes SET text = 'PersonX call a friend' WHERE text = 'PersonX call PersonY';" +
        "UPDATE nodes SET text = 'PersonX keep the phone safe' WHERE text = 'PersonX protect phone'",
    );
    const after = await embed('C', 'out2');
    // Before the fix: { fromCache: 2, computed: 0 }, and the old embeddings.
    expect(after.context).toMatchObject({ fromCache: 0, computed: 2 });
    const fresh = await embed('fresh', 'out3');
    expect(after.npy.equals(fresh.npy)).toBe(true);
    expect(after.npy.equals(before.npy)).toBe(false);
  }, 60_000);
});

describe('a committed own_write row (issue 45, fault 11)', () => {
  it('does not turn off the detection of outside edits; a writer removes it and redraws the id', async () => {
    const path = await sqliteStore('own-write.sqlite');
    const before = await identityOf(path);
    expect(before).toMatch(/^sqlite:5n:4e:r1:id:/);
    // Another client commits the marker intentsim only ever holds inside its own transactions,
    // then edits a node's text: the triggers skip the edit, the identity must change anyway.
    edit(path, "INSERT INTO meta (key, value) VALUES ('own_write', '1')");
    const marked = await identityOf(path);
    edit(path, "UPDATE nodes SET text = 'PersonX call PersonZ' WHERE text = 'PersonX call PersonY'");
    const edited = await identityOf(path);
    expect(marked).toMatch(/^sqlite:5n:4e:r1:sha256:/);
    expect(edited).toMatch(/^sqlite:5n:4e:r1:sha256:/);
    expect(edited).not.toBe(marked);
    // Opened for writing: the marker goes, the content id is redrawn, and the triggers work again.
    await SqliteGraphStore.open(path, { mode: 'write' }).close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT count(*) FROM meta WHERE key = 'own_write'").pluck().get()).toBe(0);
    db.close();
    const rewritten = await identityOf(path);
    expect(rewritten).toMatch(/^sqlite:5n:4e:r1:id:/);
    expect(rewritten).not.toBe(before);
    edit(path, 'UPDATE edges SET "Result" = 5 WHERE "Result" = 1');
    expect(await identityOf(path)).not.toBe(rewritten);
  });
});
