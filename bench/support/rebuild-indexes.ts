// Run by bench/scale.ts as a child process after the import stage: times the two index builds that
// end a bulk load (sqlite-bulk-load.ts), the node-text index and the edges' by-tail index, each
// dropped and built again over the imported store, with the writer's settings (cache, memory map,
// the sort through temporary files). The import runs them back to back inside its own process; this
// gives each its own seconds, which the import stage's figures cannot. The store's rows do not change.
// Then the store's content hash (sqlite-content-hash.ts: every node and edge), so that another import
// of the same edge list (e.g. one killed and resumed) can be compared with this one.
// Usage: node dist/bench/support/rebuild-indexes.js STORE   → JSON on stdout
import Database from 'better-sqlite3';
import { EDGES_BY_TAIL, NODES_BY_TEXT, withSortOnDisk } from '../../graph/sqlite/sqlite-schema.js';
import { sqliteContentHash } from '../../graph/sqlite/sqlite-content-hash.js';

const store = process.argv[2];
if (!store) throw new Error('usage: rebuild-indexes.js STORE');
const db = new Database(store);
db.pragma('cache_size = -262144');
db.pragma('mmap_size = 1073741824');
db.pragma('synchronous = NORMAL');

function rebuild(name: string, create: string): { seconds: number; cpuSeconds: number } {
  db.exec(`DROP INDEX ${name}`);
  const started = performance.now();
  const cpu = process.cpuUsage();
  withSortOnDisk(db, () => db.transaction(() => db.exec(create))());
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

const timings = {
  nodesByText: rebuild('nodes_by_text', NODES_BY_TEXT),
  edgesByTail: rebuild('edges_by_tail', EDGES_BY_TAIL),
};
const contentHash = sqliteContentHash(db);
db.close();
process.stdout.write(JSON.stringify({ ...timings, contentHash }) + '\n');
