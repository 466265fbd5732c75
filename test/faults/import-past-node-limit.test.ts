// A bulk import killed with SIGKILL on either side of the deferred node limit (issue 48): the load
// defers the node-text index and numbers nodes from its off-heap text table up to the limit, then
// builds the index and goes on the general way. An import killed before the limit loses the table
// (the rerun fills one again from the committed nodes and goes on deferring), one killed past it has
// the index and goes on the general way: every kill point must resume (`intentsim graph import`, the
// default limit) to the store an uninterrupted import builds. The killed run is a child process that opens the store with a limit of
// 3,000 nodes (the CLI has no such option; or a limit above the graph's nodes) and kills itself with
// SIGKILL after its k-th committed batch, or after its last batch before the load ends (merge and
// index builds not done). A rerun fills its text table again only when it has lines left to import.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeScaleGraph } from '../../graph/generate/generate-scale.js';
import type { ImportSummary } from '../../graph/import/import-checkpoint.js';
import { faultsWorkspace, leftovers, runCli, runCliOk } from '../support/faults.js';

const ROOT = join(import.meta.dirname, '..', '..');
const LIMIT = 3_000;
const BATCH = 500;
const EDGES = 12_000;

const { dir } = faultsWorkspace('intentsim-import-limit-');
const edges = join(dir, 'edges.jsonl');
const killer = join(dir, 'import-and-kill.mjs');

beforeAll(async () => {
  await writeScaleGraph(edges, { nodes: 6_000, edges: EDGES, seed: 5, progress: false });
  const dist = (p: string) => JSON.stringify(new URL(`dist/${p}`, `file://${ROOT}/`).href);
  // argv: store, edge list, kill after this many committed batches (0: after the last one, before the
  // load ends), deferred node limit.
  writeFileSync(
    killer,
    `import { SqliteGraphStore } from ${dist('graph/sqlite/sqlite-store.js')};
import { importJsonlEdges } from ${dist('graph/import/import-jsonl.js')};
const [store, file, after, limit] = process.argv.slice(2);
const writer = SqliteGraphStore.open(store, { mode: 'write', deferredNodeLimit: Number(limit) });
let batches = 0;
const killing = new Proxy(writer, {
  get(target, prop) {
    if (prop === 'upsertEdges')
      return async (batch) => {
        await target.upsertEdges(batch);
        if (++batches === Number(after)) process.kill(process.pid, 'SIGKILL');
      };
    const v = Reflect.get(target, prop);
    return typeof v === 'function' ? v.bind(target) : v;
  },
});
await importJsonlEdges(killing, file, { batchSize: ${BATCH}, progress: false });
process.kill(process.pid, 'SIGKILL');
`,
  );
});

const importArgs = (to: string) => [
  'graph',
  'import',
  '--to',
  to,
  '--jsonl',
  edges,
  '--batch-records',
  String(BATCH),
  '--json',
];

/** Every graph table in key order, the counters, and the indexes and tables by name. */
function dump(store: string): unknown[] {
  const db = new Database(store, { readonly: true });
  try {
    const all = (sql: string) => db.prepare(sql).raw().all();
    return [
      all('SELECT id, text, purchase_objects FROM nodes ORDER BY id'),
      all('SELECT * FROM edges ORDER BY head, tail'),
      all('SELECT object, node_id FROM purchase_objects ORDER BY object, node_id'),
      all("SELECT key, value FROM meta WHERE key LIKE 'count.%' ORDER BY key"),
      all("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY type, name"),
      all("SELECT key FROM meta WHERE key LIKE 'bulk_load%'"),
    ];
  } finally {
    db.close();
  }
}

/** What the killed store holds: committed lines, nodes, whether the node-text index exists, whether the load is open. */
function stateOf(store: string) {
  const db = new Database(store, { readonly: true });
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get() as number | string | undefined;
    return {
      lines: Number(one("SELECT json_extract(value, '$.done') FROM meta WHERE key LIKE 'import:%'")),
      nodes: Number(one('SELECT count(*) FROM nodes')),
      nodeTextIndex: one("SELECT 1 FROM sqlite_master WHERE name = 'nodes_by_text'") !== undefined,
      loading: one("SELECT 1 FROM meta WHERE key = 'bulk_load'") !== undefined,
    };
  } finally {
    db.close();
  }
}

describe('graph import killed with SIGKILL before and past the deferred node limit', () => {
  let reference: unknown[];
  beforeAll(() => {
    runCliOk(importArgs(join(dir, 'ref.sqlite')));
    reference = dump(join(dir, 'ref.sqlite'));
  });

  const REFILL = /note: resuming an interrupted import: reading its [\d,]+ committed nodes back into its text table/;

  it.each([
    // after 2 batches: under the limit, the index deferred (the table dies with the process; the rerun
    // fills one again)
    { after: 2, limit: LIMIT, pastLimit: false, refill: true },
    // after 14 and 20 batches: the limit passed, the index built mid-load, the rest the general way
    { after: 14, limit: LIMIT, pastLimit: true, refill: false },
    { after: 20, limit: LIMIT, pastLimit: true, refill: false },
    // every batch committed, the load not ended: the staged edges not merged, the indexes not built
    { after: 0, limit: LIMIT, pastLimit: true, refill: false },
    // the same under the limit: the rerun merges and builds the index without filling a text table
    { after: 0, limit: 10 * LIMIT, pastLimit: false, refill: false },
  ])(
    'killed after batch $after (limit $limit, past it: $pastLimit): the rerun finishes the store of an uninterrupted import',
    ({ after, limit, pastLimit, refill }) => {
      const store = join(dir, `killed-${after}-${limit}.sqlite`);
      const killed = spawnSync(process.execPath, [killer, store, edges, String(after), String(limit)], {
        encoding: 'utf8',
      });
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const state = stateOf(store);
      // The import's checkpoint names the lines of the batches before the last committed one at least.
      const { lines } = state;
      expect(lines).toBeGreaterThanOrEqual(after === 0 ? EDGES - BATCH : (after - 1) * BATCH);
      expect(lines).toBeLessThanOrEqual(after === 0 ? EDGES : after * BATCH);
      expect(state).toMatchObject({ nodeTextIndex: pastLimit, loading: true });
      expect(state.nodes >= limit).toBe(pastLimit);

      const r = runCli(importArgs(store));
      expect([r.status, r.signal], r.stderr).toEqual([0, null]);
      expect(r.stderr).toMatch(/note: took over the lock .*no longer runs/);
      expect(REFILL.test(r.stderr), r.stderr).toBe(refill);
      expect(leftovers(dir).filter((name) => name.includes(`killed-${after}-${limit}.`))).toEqual([]);
      const summary = (JSON.parse(r.stdout) as { imports: ImportSummary[] }).imports[0]!;
      expect([summary.alreadyImported, summary.edgesWritten]).toEqual([lines, EDGES - lines]);
      expect(existsSync(`${store}-journal`)).toBe(false);
      expect(dump(store)).toEqual(reference);
    },
  );
});
