// The crash matrix (issue 16): `graph import`, `embed`, `pipeline` and `catalog index` are killed
// with SIGKILL at several points of their work (each point observed from outside: an import
// checkpoint past a line, node-cache rows, a saved file that appears), then run again. The rerun
// takes over the dead run's lock, removes its temporary files, recomputes nothing that the tool
// promises to keep (checked against what was on disk after the kill, through the rerun's manifest
// or summary), and writes byte for byte what an uninterrupted run writes. Inputs are small (the demo
// world, a generated 60k-edge graph, the tiny generated model) so that the whole matrix stays short.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeScaleGraph } from '../../graph/generate/generate-scale.js';
import type { EmbedManifest } from '../../engine/pipeline/run-embed.js';
import type { PipelineManifest } from '../../engine/pipeline/run-pipeline.js';
import type { CatalogManifest } from '../../engine/catalog/catalog-layout.js';
import type { ImportSummary } from '../../graph/import/import-checkpoint.js';
import {
  expectSameOutputs,
  faultsWorkspace,
  interruptWhen,
  leftovers,
  runCli,
  runCliOk,
  type CliRun,
} from '../support/faults.js';

const { dir, world, model } = faultsWorkspace('intentsim-crash-');
const edges = join(dir, 'edges.jsonl');
beforeAll(() => writeScaleGraph(edges, { nodes: 20_000, edges: 60_000, seed: 3, progress: false }));

const json = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;

/** One value read from a SQLite file that another process may be writing (undefined while it cannot be read). */
function peek(path: string, sql: string): number | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).pluck().get() as number | undefined;
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

/** Kills `args` with SIGKILL once `ready()` holds; fails if the run finished first. */
async function killWhen(args: string[], ready: () => boolean): Promise<void> {
  const r = await interruptWhen(args, ready, 'SIGKILL');
  expect(r.interrupted, `the run ended before the kill point:\n${r.stderr}`).toBe(true);
  expect(r.signal).toBe('SIGKILL');
}

/** The rerun after a kill: succeeds, took over the dead run's lock, and leaves no temporary file or lock. */
function expectCleanRerun(r: CliRun, out: string): void {
  expect([r.status, r.signal], r.stderr).toEqual([0, null]);
  expect(r.stderr).toMatch(/note: took over the lock .*no longer runs/);
  expect(leftovers(out)).toEqual([]);
}

const chunkSidecars = (out: string) =>
  existsSync(join(out, 'chunks')) ? readdirSync(join(out, 'chunks')).filter((n) => n.endsWith('.npy.json')) : [];

describe('graph import, killed after 10,000 and after 40,000 committed lines', () => {
  const args = (to: string) => ['graph', 'import', '--to', to, '--jsonl', edges, '--batch-records', '2000', '--json'];
  const checkpoint = (store: string) =>
    peek(store, "SELECT json_extract(value, '$.done') FROM meta WHERE key LIKE 'import:%'");
  /** Every table but meta (checkpoint times), in key order. */
  const dump = (store: string) => {
    const db = new Database(store, { readonly: true });
    try {
      return ['nodes', 'edges', 'purchase_objects'].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all());
    } finally {
      db.close();
    }
  };
  let reference: unknown;
  beforeAll(() => {
    runCliOk(args(join(dir, 'ref.sqlite')));
    reference = dump(join(dir, 'ref.sqlite'));
  });

  it.each([10_000, 40_000])(
    'after %i lines: the rerun writes only the rest, and the store equals an uninterrupted import',
    async (lines) => {
      const store = join(dir, `import-${lines}.sqlite`);
      await killWhen(args(store), () => (checkpoint(store) ?? 0) >= lines);
      const committed = checkpoint(store)!;
      expect(committed).toBeGreaterThanOrEqual(lines);
      expect(committed).toBeLessThan(60_000);
      const r = runCli(args(store));
      expectCleanRerun(r, dir);
      const summary = (JSON.parse(r.stdout) as { imports: ImportSummary[] }).imports[0]!;
      expect([summary.alreadyImported, summary.edgesWritten]).toEqual([committed, 60_000 - committed]);
      expect(dump(store)).toEqual(reference);
    },
  );
});

describe('embed, killed after 40 and after 120 cached nodes', () => {
  const cacheOf = (out: string) => join(out, 'cache', 'node-embeddings.sqlite');
  const args = (out: string) => [
    'embed',
    ...['--graph', join(world, 'graph.sqlite'), '--products', join(world, 'products.jsonl')],
    ...[
      '--concepts',
      join(world, 'concepts.jsonl'),
      '--out',
      join(out, 'embeddings'),
      '--model-cache',
      join(out, 'cache'),
      '--node-cache',
      join(out, 'cache'),
    ],
    ...['--model-dir', model, '--device', 'cpu', '--chunk-products', '40', '--chunk-sentences', '64'],
  ];
  const reference = join(dir, 'embed-ref');
  beforeAll(() => runCliOk(args(reference)));

  it.each([40, 120])(
    'after %i nodes: no cached node is computed again; the outputs equal an uninterrupted run',
    async (nodes) => {
      const out = join(dir, `embed-${nodes}`);
      const count = () => peek(cacheOf(out), 'SELECT count(*) FROM node_embeddings') ?? 0;
      await killWhen(args(out), () => count() >= nodes);
      const cached = count();
      const r = runCli(args(out));
      expectCleanRerun(r, out);
      const manifest = json<EmbedManifest>(join(out, 'embeddings', 'manifest.json'));
      const total = json<EmbedManifest>(join(reference, 'embeddings', 'manifest.json')).counts.distinctMatchedNodes;
      expect(cached).toBeLessThan(total);
      expect([manifest.counts.context.fromCache, manifest.counts.context.computed]).toEqual([cached, total - cached]);
      expectSameOutputs(join(out, 'embeddings'), join(reference, 'embeddings'));
    },
  );
});

describe('pipeline, killed while embedding and after the window ranges are saved', () => {
  const args = (out: string) => [
    'pipeline',
    ...['--graph', join(world, 'graph.sqlite'), '--products', join(world, 'products.jsonl')],
    ...['--assertions', join(world, 'assertions.jsonl'), '--concepts', join(world, 'concepts.jsonl')],
    ...['--out', out, '--seed', '1', '--encoder', 'offline-hashing-v1', '--chunk-products', '40'],
  ];
  const reference = join(dir, 'pipeline-ref');
  beforeAll(() => runCliOk(args(reference)));

  it('while embedding: the rerun reuses every cached node; the outputs equal an uninterrupted run', async () => {
    const out = join(dir, 'pipeline-embedding');
    const cache = join(out, 'cache', 'node-embeddings.sqlite');
    const count = () => peek(cache, 'SELECT count(*) FROM node_embeddings') ?? 0;
    await killWhen(args(out), () => count() >= 60);
    const cached = count();
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
    const r = runCli(args(out));
    expectCleanRerun(r, out);
    expect(json<EmbedManifest>(join(out, 'embeddings', 'manifest.json')).counts.context.fromCache).toBe(cached);
    expectSameOutputs(out, reference);
  });

  it('after the window ranges are saved: the rerun reloads them; the outputs equal an uninterrupted run', async () => {
    const out = join(dir, 'pipeline-items');
    await killWhen(args(out), () => existsSync(join(out, 'embeddings', 'window-ranges.bin.json')));
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
    const r = runCli(args(out));
    expectCleanRerun(r, out);
    const manifest = json<PipelineManifest>(join(out, 'manifest.json'));
    expect(manifest.reusedSearch).toBe(join(out, 'embeddings', 'window-ranges.bin'));
    const embed = json<EmbedManifest>(join(out, 'embeddings', 'manifest.json'));
    expect(embed.counts.context.computed).toBe(0);
    expectSameOutputs(out, reference);
  });
});

describe('catalog index, killed after 6 and after 16 finished chunks', () => {
  const args = (out: string) => [
    'catalog',
    'index',
    ...['--products', join(world, 'products.jsonl'), '--out', out],
    ...['--model-dir', model, '--device', 'cpu', '--chunk-products', '16'],
  ];
  const reference = join(dir, 'catalog-ref');
  beforeAll(() => runCliOk(args(reference)));

  it.each([6, 16])(
    'after %i chunks: no finished chunk is encoded again; the folder equals an uninterrupted run',
    async (chunks) => {
      const out = join(dir, `catalog-${chunks}`);
      await killWhen(args(out), () => chunkSidecars(out).length >= chunks);
      const finished = chunkSidecars(out).length;
      expect(existsSync(join(out, 'manifest.json'))).toBe(false);
      const r = runCli(args(out));
      expectCleanRerun(r, out);
      const reuse = json<CatalogManifest>(join(out, 'manifest.json')).reuse!;
      const total = json<CatalogManifest>(join(reference, 'manifest.json')).chunks!; // ⌈products / 16⌉
      expect([reuse.chunksReused, reuse.chunksEncoded]).toEqual([finished, total - finished]);
      expect(reuse.chunksReencoded).toEqual({});
      expectSameOutputs(out, reference);
    },
  );
});
