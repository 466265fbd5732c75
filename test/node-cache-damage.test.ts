// A node embedding cache whose SQLite file has a damaged page (issue 29, item 11): before, the first
// read that met the page failed with `internal error: SqliteError: database disk image is
// malformed` and no file name. Now the damaged file is moved aside with a note naming both paths,
// an empty cache takes its place, and the nodes are computed again.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeEmbeddingCache, type NodeContextKey, type NodeEmbedding } from '../embeddings/node-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-node-cache-damage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY: NodeContextKey = {
  encoder: 'enc',
  model: 'm',
  dtype: 'fp32',
  mode: 'induced',
  graph: 'sqlite:1n:0e:r1:id:x',
  templates: 't',
  dim: 8,
};

const entries = (n: number): Array<[string, NodeEmbedding]> =>
  Array.from({ length: n }, (_, i) => [
    `PersonX does thing number ${i} with a fairly long text to fill pages`,
    { sentences: 1 + (i % 3), vector: Float32Array.from({ length: 8 }, (_, j) => i + j / 8) },
  ]);

/** Overwrites the page `page` (1-based, 4096 bytes) with garbage from its start. */
function garblePage(path: string, page: number): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, (page - 1) * 4096);
  closeSync(fd);
}

function capturedNotes(work: () => void): string[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    work();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

describe('node embedding cache with a damaged page', () => {
  it('a read that meets the page moves the file aside, says so, and goes on with an empty cache', () => {
    const path = join(dir, 'a', 'node-embeddings.sqlite');
    const all = entries(3000);
    const cache = NodeEmbeddingCache.open(path, KEY);
    cache.putMany(all);
    cache.close();
    const pages = statSync(path).size / 4096;
    expect(pages).toBeGreaterThan(50);
    garblePage(path, Math.floor(pages / 2));

    let reopened!: NodeEmbeddingCache;
    let found!: Map<string, NodeEmbedding>;
    const notes = capturedNotes(() => {
      reopened = NodeEmbeddingCache.open(path, KEY);
      found = reopened.getMany(all.map(([t]) => t));
    });
    expect(found.size).toBe(0); // every node is computed again
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^note: .*node-embeddings\.sqlite: the node embedding cache is damaged \(database disk image is malformed\); moved it to .*node-embeddings\.sqlite\.damaged-\S+ \(delete it when you like\) and started an empty one: the nodes it held are computed again\n$/,
    );
    const aside = readdirSync(join(dir, 'a')).filter((f) => f.startsWith('node-embeddings.sqlite.damaged-'));
    expect(aside).toHaveLength(1);
    // The new cache works: rows put are read back exactly.
    reopened.putMany(all.slice(0, 10));
    const back = reopened.getMany(all.slice(0, 10).map(([t]) => t));
    expect(back.size).toBe(10);
    expect(back.get(all[3]![0])).toEqual(all[3]![1]);
    expect(reopened.count()).toBe(10);
    reopened.close();
  });

  it('a file that is not a database at all (header garbled) is moved aside at open', () => {
    const path = join(dir, 'b', 'node-embeddings.sqlite');
    const cache = NodeEmbeddingCache.open(path, KEY);
    cache.putMany(entries(100));
    cache.close();
    garblePage(path, 1);
    let reopened!: NodeEmbeddingCache;
    const notes = capturedNotes(() => (reopened = NodeEmbeddingCache.open(path, KEY)));
    expect(notes).toEqual([expect.stringMatching(/the node embedding cache is damaged \(.+\); moved it to /)]);
    expect(reopened.count()).toBe(0);
    reopened.close();
    expect(existsSync(path)).toBe(true);
  });
});
