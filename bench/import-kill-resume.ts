// A bulk import killed with SIGKILL at several points and resumed, against an uninterrupted import of
// the same edge list (issue 48: "a SIGKILL of the 52M import at any point resumes to the same
// content"). test/faults/import-past-node-limit.test.ts kills at chosen batches of a small graph; this
// kills the real CLI process at chosen times of a large one, where the load takes minutes, its
// off-heap text table holds tens of millions of nodes and the index builds sort through temporary
// files.
//
// 1. `intentsim graph import` of the edge list into a fresh store, uninterrupted: its wall time T.
// 2. The same import into a second store, killed with SIGKILL after KILL_AFTER[k] × T of its own
//    running time, k = 1, 2, …; after each kill the store's state is read (lines committed, nodes,
//    whether the staged edges were merged, whether the node-text and by-tail indexes exist, whether
//    the bulk load is still open), then the import is run again (it skips what was committed; with
//    lines left, it first fills its text table again from the committed nodes). The default shares
//    aim at the load, its end and the index builds; where each kill fell depends on how long a rerun
//    takes to take the load over, and the table says it.
// 3. The last run goes to the end. Both stores' content hashes (sqlite-content-hash.ts: every node
//    and edge), counters and index lists must be equal.
//
// INTENTSIM_BENCH_KILL_AFTER=0.85,0.5 sets the shares (or merge+S, index+S: see KILL_AFTER);
// INTENTSIM_BENCH_KILL_REFERENCE=SECONDS:HASH (an earlier run's uninterrupted import of the same edge
// list: its wall seconds and content hash, or the hash's first 16 hex digits or more, as the table
// shows them) skips the uninterrupted import, so that another kill point costs one import, not two;
// the counters and indexes are then not compared.
//
// Sizes: --quick 200k edges; default 2M; --large 52M edges (83.2M nodes generated, 52.9M stored: ASER
// 2.0's core size, as bench/scale.ts --large). The edge list is generated as bench/scale.ts does,
// unless INTENTSIM_BENCH_KILL_EDGES names one already made (generation takes minutes at 52M).
// Run: node dist/bench/import-kill-resume.js [--quick | --large]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { projectRoot, sharedEventualitiesFile } from '../core/shared-files.js';
import { sqliteContentHash } from '../graph/sqlite/sqlite-content-hash.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { runAlone } from './support/run-alone.js';

/**
 * When each killed run is killed: after a share of the uninterrupted import's wall time (`0.35`), or
 * S seconds into a phase of the load's end (`merge+30`, `index+30`), which a time share hits only by
 * luck. The phases are read from the process's open files (Linux /proc): `merge` starts when the edge
 * list has been closed for PHASE_SETTLE_MS (after the last batch, the writer's close merges the
 * staged edges), `index` when SQLite's sorter first opens a temporary file (`etilqs_…`, only index
 * builds sort on disk: sqlite-schema.ts withSortOnDisk), which is the node-text index's build when the
 * load deferred it. The table's columns say where each kill fell. (Until 2026-11-29 a rerun after a
 * kill mid-load merged what the dead writer had staged before it went on, and `merge` could fire
 * there: the importer counted the store's nodes through counts(), which merges staged edges.)
 */
type KillPoint = { share: number } | { phase: 'merge' | 'index'; seconds: number };
const KILL_AFTER: KillPoint[] = (process.env.INTENTSIM_BENCH_KILL_AFTER ?? '0.35,0.45,0.3').split(',').map((entry) => {
  const phase = /^(merge|index)\+(\d+(?:\.\d+)?)$/.exec(entry);
  if (phase) return { phase: phase[1] as 'merge' | 'index', seconds: Number(phase[2]) };
  if (!(Number(entry) > 0))
    throw new Error(`INTENTSIM_BENCH_KILL_AFTER: ${entry} is neither a positive share nor merge+S or index+S`);
  return { share: Number(entry) };
});
const PHASE_SETTLE_MS = 2_000;
const PHASE_POLL_MS = 250;

const describeKill = (kill: KillPoint, total: number) =>
  'share' in kill ? `${Math.round(kill.share * total)} s` : `${kill.seconds} s into the ${kill.phase} phase`;

/** Files a process has open (the targets of /proc/PID/fd), or [] once it has gone. */
function openFiles(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/**
 * Calls `reached` once the import process `pid` is in `phase` (see KILL_AFTER); returns a function
 * that stops watching. The edge list is read twice per run (its checksum, then the records), closed
 * for a moment between: hence the settling time.
 */
function watchPhase(pid: number, phase: 'merge' | 'index', edgeList: string, reached: () => void): () => void {
  let seenOpen = false;
  let closedSince: number | undefined;
  const inPhase = (files: string[]): boolean => {
    if (phase === 'index') return files.some((f) => basename(f).startsWith('etilqs_'));
    if (files.includes(edgeList)) {
      seenOpen = true;
      closedSince = undefined;
      return false;
    }
    if (!seenOpen) return false;
    closedSince ??= Date.now();
    return Date.now() - closedSince >= PHASE_SETTLE_MS;
  };
  const timer = setInterval(() => {
    if (!inPhase(openFiles(pid))) return;
    clearInterval(timer);
    reached();
  }, PHASE_POLL_MS);
  return () => clearInterval(timer);
}

/** An earlier uninterrupted import of the same edge list: its wall seconds and content hash (or its start). */
function reference(): { seconds: number; hash: string } | undefined {
  const given = process.env.INTENTSIM_BENCH_KILL_REFERENCE;
  if (!given) return undefined;
  const [seconds, hash] = given.split(':');
  if (!Number(seconds) || !/^[0-9a-f]{16,64}$/.test(hash ?? ''))
    throw new Error(`INTENTSIM_BENCH_KILL_REFERENCE must be SECONDS:HASH (16 to 64 hex digits), got ${given}`);
  return { seconds: Number(seconds), hash: hash! };
}

const CLI = join(projectRoot(), 'bin', 'intentsim.js');

interface Size {
  edges: number;
  nodes: number;
}

function sizeFor(o: BenchOptions): Size {
  if (o.quick) return { edges: 200_000, nodes: 320_000 };
  // 1.6 generated nodes an edge, as bench/scale.ts --large: about as many stored nodes as edges.
  return o.large ? { edges: 52_000_000, nodes: 83_200_000 } : { edges: 2_000_000, nodes: 3_200_000 };
}

/** A CLI run: its exit (code or signal) and wall seconds; killed with SIGKILL at `kill` if given. */
async function runCli(
  args: readonly string[],
  kill?: { afterSeconds: number } | { phase: 'merge' | 'index'; seconds: number; edgeList: string },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; seconds: number; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  let timer: NodeJS.Timeout | undefined;
  const killLater = (seconds: number) => (timer = setTimeout(() => child.kill('SIGKILL'), seconds * 1000));
  let stopWatching = () => {};
  if (kill && 'afterSeconds' in kill) killLater(kill.afterSeconds);
  else if (kill) stopWatching = watchPhase(child.pid!, kill.phase, kill.edgeList, () => killLater(kill.seconds));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c, s) => resolve([c, s]));
  });
  clearTimeout(timer);
  stopWatching();
  return { code, signal, seconds: (performance.now() - started) / 1000, stderr };
}

/** What a store holds after a kill: where the import stood. */
function stateOf(store: string): Record<string, string | number> {
  // Not read-only: a kill inside a transaction (the merge, an index build) leaves a hot journal, which
  // only a connection that may write can roll back (the rerun would do the same first).
  const db = new Database(store);
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get() as number | string | undefined;
    const has = (name: string) => (one(`SELECT 1 FROM sqlite_master WHERE name = '${name}'`) ? 'yes' : 'no');
    return {
      lines_committed: Number(one("SELECT json_extract(value, '$.done') FROM meta WHERE key LIKE 'import:%'") ?? 0),
      nodes: Number(one('SELECT count(*) FROM nodes')),
      // The load's end merges the staged edges first (one transaction), then builds the two indexes.
      staged_edges_merged:
        has('staged_edge_runs') === 'yes' && one('SELECT 1 FROM staged_edge_runs LIMIT 1') ? 'no' : 'yes',
      nodes_by_text: has('nodes_by_text'),
      edges_by_tail: has('edges_by_tail'),
      bulk_load_open: one("SELECT 1 FROM meta WHERE key = 'bulk_load'") ? 'yes' : 'no',
    };
  } finally {
    db.close();
  }
}

/** The content hash, the counters and the schema's names: what must be equal after a resumed import. */
function contentOf(store: string): { hash: string; counters: string; schema: string } {
  const db = new Database(store, { readonly: true });
  try {
    const all = (sql: string) => JSON.stringify(db.prepare(sql).raw().all());
    return {
      hash: sqliteContentHash(db),
      counters: all("SELECT key, value FROM meta WHERE key LIKE 'count.%' ORDER BY key"),
      schema: all("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY type, name"),
    };
  } finally {
    db.close();
  }
}

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const size = sizeFor(opts);
  const seed = opts.seed ?? 1;
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-kill-'));
  const rows: BenchRow[] = [];
  const notes: string[] = [`load average at the start ${loadavg()[0]!.toFixed(2)}`];
  try {
    const givenEdges = process.env.INTENTSIM_BENCH_KILL_EDGES;
    let edges = givenEdges;
    if (edges) notes.push(`edge list: ${edges} (INTENTSIM_BENCH_KILL_EDGES, made beforehand)`);
    else {
      edges = join(dir, 'graph.jsonl');
      const text = sharedEventualitiesFile();
      const gen = await runCli([
        ...['graph', 'generate', '--nodes', String(size.nodes), '--edges', String(size.edges)],
        ...['--products', '1000', '--assertions', '1000', '--seed', String(seed), '--out', edges],
        ...(text ? ['--text-source', text] : []),
      ]);
      if (gen.code !== 0) throw new Error(`graph generate failed: ${gen.stderr}`);
      notes.push(
        `edge list: graph generate --nodes ${size.nodes} --edges ${size.edges} --seed ${seed} (${gen.seconds.toFixed(0)} s)`,
      );
    }
    const importInto = (store: string) => ['graph', 'import', '--jsonl', edges!, '--to', store];

    const clean = join(dir, 'clean.sqlite');
    const given = reference();
    let total = given?.seconds ?? 0;
    if (given)
      notes.push(
        `uninterrupted import not run: ${given.seconds} s and content sha256:${given.hash} from INTENTSIM_BENCH_KILL_REFERENCE`,
      );
    else {
      const uninterrupted = await runCli(importInto(clean));
      if (uninterrupted.code !== 0) throw new Error(`the uninterrupted import failed: ${uninterrupted.stderr}`);
      total = uninterrupted.seconds;
      rows.push({ run: 'uninterrupted import', seconds: Math.round(total), ...stateOf(clean) });
    }

    const killed = join(dir, 'killed.sqlite');
    let finished = false;
    for (const [k, kill] of KILL_AFTER.entries()) {
      const r = await runCli(
        importInto(killed),
        'share' in kill ? { afterSeconds: kill.share * total } : { ...kill, edgeList: resolve(edges) },
      );
      finished = r.signal !== 'SIGKILL';
      if (finished && r.code !== 0) throw new Error(`import run ${k + 1} failed: ${r.stderr}`);
      const what = finished
        ? `finished before its kill at ${describeKill(kill, total)}`
        : `SIGKILL after ${describeKill(kill, total)}`;
      rows.push({ run: `run ${k + 1}: ${what}`, seconds: Math.round(r.seconds), ...stateOf(killed) });
      if (finished) break;
    }
    if (!finished) {
      const last = await runCli(importInto(killed));
      if (last.code !== 0) throw new Error(`the resumed import failed: ${last.stderr}`);
      rows.push({ run: 'resumed to the end', seconds: Math.round(last.seconds), ...stateOf(killed) });
    }

    const b = contentOf(killed);
    const a = given ? { hash: given.hash, counters: b.counters, schema: b.schema } : contentOf(clean);
    const same = b.hash.startsWith(a.hash) && a.counters === b.counters && a.schema === b.schema;
    rows.push({
      run: 'content: killed and resumed against uninterrupted',
      content_hash: `${b.hash.slice(0, 16)}… / ${a.hash.slice(0, 16)}…`,
      counters_and_indexes: given
        ? '(not compared: no store)'
        : a.counters === b.counters && a.schema === b.schema
          ? 'equal'
          : 'DIFFER',
      meets: same ? 'yes' : 'NO',
    });
    notes.push(`content sha256: resumed ${b.hash}, uninterrupted ${a.hash}`);
    notes.push(
      `${givenEdges ? 'the given edge list' : `${size.edges} edges`}; kills after ${KILL_AFTER.map((k) => ('share' in k ? `${k.share} ×` : `${k.phase}+${k.seconds} s`)).join(', ')} (a share of the uninterrupted import's wall time, or seconds into a phase of the load's end), each run timed from its own start; content = SHA-256 of every node and edge (graph/sqlite/sqlite-content-hash.ts), the count.* counters and the schema's tables and indexes by name`,
      `load average at the end ${loadavg()[0]!.toFixed(2)}`,
    );
    if (!same) throw new Error(`the resumed store differs from the uninterrupted one: ${JSON.stringify({ a, b })}`);
  } finally {
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
  return { name: 'Import killed with SIGKILL and resumed', rows, notes };
}

await runAlone(import.meta.url, 'import-kill-resume', run);
