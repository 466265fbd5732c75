// Damaged derived files (issue 16, item 1): every kind of file a rerun reuses — saved window ranges,
// the pipeline's HNSW index, catalog chunks, the catalog's HNSW index, node-cache rows — is damaged
// four ways (64 bytes garbled in the middle, the first 4 KB zeroed, cut to half, overwritten at
// random with the same size). Each time the rerun says why it recomputes (one `note:` line and the
// manifest) and writes exactly the outputs of an undamaged run; where nothing can be recomputed
// (`catalog query`), the error names the file. Every command runs in a child process, so that a
// native crash (hnswlib reading a garbled index) shows as a signal, which fails the test; the
// window ranges, read by JavaScript alone, are checked in this process.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { clusteredVectors } from '../../bench/support/clustered-vectors.js';
import { sidecarPath } from '../../core/sidecar.js';
import { MatrixRanges, loadRanges, openOrComputeRanges } from '../../engine/search/matrix-ranges.js';
import { UnitVectors } from '../../engine/search/unit-vectors.js';
import { rowChecksum } from '../../embeddings/node-cache.js';
import type { PipelineManifest } from '../../engine/pipeline/run-pipeline.js';
import type { EmbedManifest } from '../../engine/pipeline/run-embed.js';
import type { CatalogManifest } from '../../engine/catalog/catalog-layout.js';
import {
  DAMAGE_KINDS,
  damageBytes,
  damageFile,
  expectSameOutputs,
  faultsWorkspace,
  leftovers,
  runCli,
  runCliOk,
  type CliRun,
} from '../support/faults.js';

const { dir, world, model } = faultsWorkspace('intentsim-damage-');

const json = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;
const notes = (r: CliRun) => r.stderr.split('\n').filter((l) => l.startsWith('note: '));

/** A run that recomputed after damage: exit 0 (no signal), one note naming `file`, nothing left behind. */
function expectRecomputed(r: CliRun, file: string, action: RegExp, out: string): void {
  expect([r.status, r.signal]).toEqual([0, null]);
  const lines = notes(r);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`note: ${file}: `);
  expect(lines[0]).toMatch(/\(damaged file\)/);
  expect(lines[0]).toMatch(action);
  expect(leftovers(out)).toEqual([]);
}

function pipelineArgs(out: string, extra: string[] = []): string[] {
  return [
    'pipeline',
    ...['--graph', join(world, 'graph.sqlite'), '--products', join(world, 'products.jsonl')],
    ...['--assertions', join(world, 'assertions.jsonl'), '--concepts', join(world, 'concepts.jsonl')],
    ...[
      '--out',
      out,
      '--seed',
      '1',
      '--encoder',
      'offline-hashing-v1',
      '--model-cache',
      join(dir, 'pipeline-cache'),
      '--node-cache',
      join(dir, 'pipeline-cache'),
    ],
    ...extra,
  ];
}

describe('window ranges (window-ranges.bin), damaged four ways', () => {
  // In this process: the ranges are read with readFile and decoded in JavaScript (no native reader).
  const vectors = UnitVectors.fromVectorSet(clusteredVectors({ count: 600, dim: 16, clusters: 8, seed: 7 }));
  const anchors = Array.from(vectors.validRows).filter((r) => r % 3 === 0);
  const reference = join(dir, 'ranges-ref.bin');
  beforeAll(async () => {
    await openOrComputeRanges(reference, vectors, anchors, 0.6, { threads: 1 });
  });

  it.each(DAMAGE_KINDS)(
    '%s: computed again, saying why; the ranges (and the file) are those of an undamaged run',
    async (damage) => {
      const path = join(dir, `ranges-${damage}.bin`);
      cpSync(reference, path);
      cpSync(sidecarPath(reference), sidecarPath(path));
      damageFile(path, damage);
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      let opened, written;
      try {
        opened = await openOrComputeRanges(path, vectors, anchors, 0.6, { threads: 1 });
      } finally {
        written = stderr.mock.calls.map((c) => String(c[0]));
        stderr.mockRestore();
      }
      expect(opened.recomputed).toMatch(/\(damaged file\)$/);
      expect(written).toEqual([`note: ${path}: ${opened.recomputed}; computing the window ranges again\n`]);
      const want = await loadRanges(reference, vectors, anchors, 0.6);
      if (!(want instanceof MatrixRanges)) throw new Error(want.stale);
      for (const key of ['slotOfRow', 'offsets', 'rows', 'scores'] as const)
        expect(Array.from(opened.ranges.data[key])).toEqual(Array.from(want.data[key]));
      expect(readFileSync(path)).toEqual(readFileSync(reference));
      expect(readFileSync(sidecarPath(path), 'utf8')).toBe(readFileSync(sidecarPath(reference), 'utf8'));
    },
  );
});

describe('the pipeline over damaged saved searches', () => {
  it.each([
    { file: 'window-ranges.bin', extra: [], action: /computing the window ranges again$/, damages: ['garble-middle'] },
    {
      file: 'products.hnsw',
      extra: ['--exactness', 'index'],
      action: /rebuilding the HNSW index$/,
      damages: DAMAGE_KINDS,
    },
  ] as const)(
    '$file: computed again, saying why, for each damage; the items are those of an undamaged run',
    ({ file, extra, action, damages }) => {
      const reference = join(dir, `ref-${file}`);
      runCliOk(pipelineArgs(reference, [...extra]));
      expect(json<PipelineManifest>(join(reference, 'manifest.json')).counts.task1Items).toBeGreaterThan(100);
      for (const damage of damages) {
        const out = join(dir, `${file}-${damage}`);
        cpSync(reference, out, { recursive: true });
        damageFile(join(out, 'embeddings', file), damage);
        const r = runCli(pipelineArgs(out, [...extra]));
        expectRecomputed(r, join(out, 'embeddings', file), action, out);
        const manifest = json<PipelineManifest>(join(out, 'manifest.json'));
        expect(manifest.reusedSearch).toBeNull();
        expect(manifest.searchComputedBecause).toMatch(/\(damaged file\)$/);
        expectSameOutputs(out, reference);
      }
    },
  );
});

describe('catalog chunks and the catalog HNSW index, damaged four ways', () => {
  const reference = join(dir, 'catalog-ref');
  const indexArgs = (out: string) => [
    'catalog',
    'index',
    ...['--products', join(world, 'products.jsonl'), '--out', out],
    ...['--model-dir', model, '--device', 'cpu', '--chunk-products', '64'],
  ];
  const queryArgs = (out: string) => [
    'catalog',
    'query',
    '--index',
    out,
    '--text',
    'waterproof hiking boots',
    '--model-dir',
    model,
  ];
  beforeAll(() => {
    runCliOk(indexArgs(reference));
  });
  /** The reference index's chunks of 64 products (the demo world's catalogue, whatever its size). */
  const catalogChunks = () => json<CatalogManifest>(join(reference, 'manifest.json')).chunks!;

  it('one chunk damaged each way: exactly those four are encoded again, saying why; the index equals an undamaged one', () => {
    const out = join(dir, 'catalog-chunks');
    cpSync(reference, out, { recursive: true });
    DAMAGE_KINDS.forEach((damage, i) => damageFile(join(out, 'chunks', `chunk-00000${i}.npy`), damage));
    const query = runCli(queryArgs(out));
    expect([query.status, query.signal]).toEqual([1, null]);
    expect(query.stderr).toMatch(
      /^intentsim: .*chunk-000000\.npy: content does not match its recorded SHA-256 \(damaged file\); rerun `intentsim catalog index`/,
    );
    const r = runCli(indexArgs(out));
    expect([r.status, r.signal]).toEqual([0, null]);
    expect(notes(r)).toEqual(
      DAMAGE_KINDS.map((_, i) =>
        expect.stringMatching(
          new RegExp(`^note: .*chunk-00000${i}\\.npy: .*\\(damaged file\\); encoding the chunk again$`),
        ),
      ),
    );
    const reuse = json<CatalogManifest>(join(out, 'manifest.json')).reuse!;
    expect([reuse.chunksReused, reuse.chunksEncoded, Object.keys(reuse.chunksReencoded).length]).toEqual([
      catalogChunks() - 4,
      4,
      4,
    ]);
    expect(reuse.indexBuiltBecause).toBeNull(); // the vectors are the same again, so is the saved index
    expectSameOutputs(out, reference);
    expect(leftovers(out)).toEqual([]);
  });

  it.each(DAMAGE_KINDS)(
    'index.hnsw %s: query stops with an error naming it; a rerun of catalog index rebuilds it',
    (damage) => {
      const out = join(dir, `catalog-index-${damage}`);
      cpSync(reference, out, { recursive: true });
      damageFile(join(out, 'index.hnsw'), damage);
      const query = runCli(queryArgs(out));
      expect([query.status, query.signal]).toEqual([1, null]);
      expect(query.stderr).toMatch(
        new RegExp(
          `^intentsim: ${join(out, 'index.hnsw')}: .*\\(damaged file\\) \\(rerun \`intentsim catalog index\` with the same options to rebuild it\\)\\n$`,
        ),
      );
      const r = runCli(indexArgs(out));
      expectRecomputed(r, join(out, 'index.hnsw'), /rebuilding the HNSW index$/, out);
      const reuse = json<CatalogManifest>(join(out, 'manifest.json')).reuse!;
      expect([reuse.chunksReused, reuse.chunksEncoded]).toEqual([catalogChunks(), 0]);
      expect(reuse.indexBuiltBecause).toMatch(/\(damaged file\)$/);
      expectSameOutputs(out, reference);
    },
  );
});

describe('node-cache rows, damaged four ways, and a NaN vector under a valid checksum', () => {
  it('each damaged row is refused and its node computed again; the embeddings equal an undamaged run', () => {
    const cache = join(dir, 'node-cache');
    const args = (out: string) => [
      'embed',
      ...['--graph', join(world, 'graph.sqlite'), '--products', join(world, 'products.jsonl')],
      ...['--concepts', join(world, 'concepts.jsonl'), '--out', out, '--model-cache', cache, '--node-cache', cache],
      ...['--model-dir', model, '--device', 'cpu'],
    ];
    const reference = join(dir, 'embed-ref');
    runCliOk(args(reference));
    const db = new Database(join(cache, 'node-embeddings.sqlite'));
    const rows = db
      .prepare(
        'SELECT node_text, sentences, vector FROM node_embeddings WHERE vector IS NOT NULL ORDER BY node_text LIMIT 5',
      )
      .all() as Array<{ node_text: string; sentences: number; vector: Buffer }>;
    const update = db.prepare('UPDATE node_embeddings SET vector = ?, checksum = ? WHERE node_text = ?');
    DAMAGE_KINDS.forEach((damage, i) => {
      const r = rows[i]!;
      update.run(
        Buffer.from(damageBytes(r.vector, damage)),
        rowChecksum(r.node_text, r.sentences, r.vector),
        r.node_text,
      );
    });
    const nan = Buffer.from(rows[4]!.vector);
    nan.writeFloatLE(Number.NaN, 4);
    update.run(nan, rowChecksum(rows[4]!.node_text, rows[4]!.sentences, nan), rows[4]!.node_text);
    db.close();

    const out = join(dir, 'embed-damaged');
    const r = runCli(args(out));
    expect([r.status, r.signal]).toEqual([0, null]);
    expect(notes(r)).toEqual([
      expect.stringMatching(
        /node-embeddings\.sqlite: refused 5 damaged cached node embedding\(s\) \(4 checksum-mismatch, 1 not-finite\); computed them again$/,
      ),
    ]);
    const manifest = json<EmbedManifest>(join(out, 'manifest.json'));
    expect(manifest.nodeCache!.refusedRows).toEqual({
      'no-checksum': 0,
      'checksum-mismatch': 4,
      'wrong-size': 0,
      'not-finite': 1,
    });
    expect(manifest.counts.context.computed).toBe(5);
    expectSameOutputs(out, reference);
    // The recomputed rows replaced the damaged ones: intact again, the vectors of the reference run.
    const after = new Database(join(cache, 'node-embeddings.sqlite'), { readonly: true });
    const get = after.prepare('SELECT sentences, vector, checksum FROM node_embeddings WHERE node_text = ?');
    for (const r of rows) {
      const now = get.get(r.node_text) as { sentences: number; vector: Buffer; checksum: Buffer };
      expect(now.vector).toEqual(r.vector);
      expect(now.checksum).toEqual(rowChecksum(r.node_text, r.sentences, r.vector));
    }
    after.close();
  });
});
