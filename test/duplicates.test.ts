// A key that must be unique is checked, and every rejects file keeps the rejected line as it was:
// a repeated question id in `catalog items`; a repeated Eventualities._id in an ASER dump (which
// would fan one relation out into an edge to each row); SessionIntentBench annotations and
// ShoppingBench targets rejected after parsing; products rejected after conceptualization.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { RejectRecord } from '../core/rejects.js';
import { buildCatalogIndex } from '../engine/catalog/build-catalog-index.js';
import { CatalogIndex } from '../engine/catalog/catalog-query.js';
import { buildProductItems } from '../engine/items/catalog/product-items.js';
import { assembleSib } from '../engine/items/sib/assemble-sib.js';
import { runEmbed } from '../engine/pipeline/run-embed.js';
import { writeDemo } from '../engine/demo/demo-world.js';
import { scoreShoppingBench } from '../engine/scoring/shoppingbench/score-run.js';
import { importGraph } from '../graph/import/import-graph.js';
import { openGraphStore } from '../graph/open-store.js';
import { RELATION_SENSES } from '../graph/graph-store.js';
import { openEncoder } from '../workers/open-encoder.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-duplicates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => join(dir, `${++n}-${name}`);

function lines(path: string, rows: unknown[]): string {
  writeFileSync(path, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  return path;
}

function rejectsOf(path: string): RejectRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as RejectRecord);
}

describe('unique keys', () => {
  it('catalog items: a repeated question id is an error, or a reject that keeps its line', async () => {
    const catalog = lines(fresh('catalog.jsonl'), [
      { id: 'p1', title: 'red phone case' },
      { id: 'p2', title: 'blue phone case' },
    ]);
    const encoder = await openEncoder({ encoder: 'offline-hashing-v1' });
    const out = fresh('cat');
    await buildCatalogIndex({ products: catalog, out, encoder });
    await encoder.close();
    const index = await CatalogIndex.open(out);
    const second = JSON.stringify({ id: 'q1', context: 'wants another case', product_id: 'p2' });
    const questions = lines(fresh('questions.jsonl'), [
      { id: 'q1', context: 'wants a case', product_id: 'p1' },
      second,
    ]);
    await expect(buildProductItems({ index, questions, out: fresh('items') })).rejects.toThrow(
      `${questions}:2 (field "id"): duplicate question id "q1" (first on line 1)`,
    );
    const items = fresh('items');
    const report = await buildProductItems({ index, questions, out: items, onError: 'skip' });
    expect(report.questions).toBe(1);
    expect(rejectsOf(join(items, 'rejects.jsonl'))).toEqual([
      {
        file: questions,
        line: 2,
        field: 'id',
        reason: 'duplicate question id "q1" (first on line 1)',
        input: second,
      },
    ]);
  });

  it('an ASER dump: a repeated Eventualities._id is an error naming it, or the later row is rejected (one edge, not two)', async () => {
    const src = fresh('aser.db');
    const db = new Database(src);
    // _id indexed but not unique, as a dump built without a primary key may be.
    db.exec('CREATE TABLE Eventualities (_id TEXT, words TEXT); CREATE INDEX ev_id ON Eventualities(_id)');
    db.exec(
      `CREATE TABLE Relations (_id TEXT PRIMARY KEY, hid TEXT, tid TEXT, ${RELATION_SENSES.map((s) => `${s} REAL`).join(', ')})`,
    );
    const ev = db.prepare('INSERT INTO Eventualities (_id, words) VALUES (?, ?)');
    ev.run('e1', 'PersonX buy a phone');
    ev.run('e2', 'PersonX call friend');
    ev.run('e3', 'it rain');
    ev.run('e2', 'PersonX call mom');
    db.prepare('INSERT INTO Relations (_id, hid, tid, Result) VALUES (?, ?, ?, 1)').run('r1', 'e1', 'e2');
    db.close();

    const failedTo = fresh('g.sqlite');
    await expect(importGraph({ to: failedTo, aserSqlite: src })).rejects.toThrow(
      `${src}:4 (field "Eventualities._id"): eventuality _id "e2" is also on row 2: a relation naming it would become an edge to each of them; give each eventuality its own _id`,
    );
    const failed = await openGraphStore(failedTo);
    expect(await failed.counts()).toMatchObject({ nodes: 0, edges: 0 });
    await failed.close();

    const to = fresh('g.sqlite');
    const rejects = fresh('rejects.jsonl');
    const result = await importGraph({ to, aserSqlite: src, onError: 'skip', rejects });
    expect(result.rejects?.count).toBe(1);
    expect(rejectsOf(rejects).map((r) => [r.line, r.field, JSON.parse(r.input)])).toEqual([
      [4, 'Eventualities._id', { rowid: 4, _id: 'e2', words: 'PersonX call mom' }],
    ]);
    const store = await openGraphStore(to);
    expect(await store.counts()).toMatchObject({ nodes: 3, edges: 1 });
    const phone = (await store.lookupIds(['PersonX buy a phone'])).get('PersonX buy a phone')!;
    const hood = (await store.neighbourhoods([phone], 'incident')).get(phone)!;
    expect(hood.edges.map((e) => `${e.headText} → ${e.tailText}`)).toEqual([
      'PersonX buy a phone → PersonX call friend',
    ]);
    await store.close();
  });
});

describe('rejects keep the line as it was', () => {
  it('score shoppingbench: a query with too many targets is a reject (with its line), not a crash', async () => {
    const tooMany = JSON.stringify({
      query_id: 'q2',
      reward: Array.from({ length: 17 }, (_, i) => ({ product_id: `p${i}`, title: 'shoe' })),
    });
    const targets = lines(fresh('targets.jsonl'), [
      { query_id: 'q1', reward: { product_id: 'p1', title: 'red shoe' } },
      tooMany,
    ]);
    const predictions = lines(fresh('predictions.jsonl'), [
      { query_id: 'q1', products: [{ product_id: 'p1', title: 'red shoe', price: 3 }] },
    ]);
    const encoder = await openEncoder({ encoder: 'offline-hashing-v1' });
    const out = fresh('scores');
    try {
      await expect(scoreShoppingBench({ predictions, targets, encoder })).rejects.toThrow(
        `${targets}:2 (field "reward"): 17 target products, more than 16`,
      );
      const result = await scoreShoppingBench({ predictions, targets, encoder, out, onError: 'skip' });
      expect(result.scores.map((s) => s.queryId)).toEqual(['q1']);
    } finally {
      await encoder.close();
    }
    expect(rejectsOf(join(out, 'rejects.jsonl'))).toEqual([
      { file: targets, line: 2, field: 'reward', reason: '17 target products, more than 16', input: tooMany },
    ]);
  });

  it('assemble sib: a second annotation of a task is rejected with its line', async () => {
    const examples = join(import.meta.dirname, '..', 'examples', 'sib');
    const first = readFileSync(join(examples, 'annotations.jsonl'), 'utf8').split('\n')[0]!;
    const again = JSON.stringify({ ...(JSON.parse(first) as object), note: 'entered twice' });
    const annotations = lines(fresh('annotations.jsonl'), [first, again]);
    const out = fresh('sib');
    await assembleSib({
      sessions: join(examples, 'sessions.jsonl'),
      annotations,
      out,
      seed: 1,
      styles: ['zero-shot'],
      encoder: null,
      onError: 'skip',
    });
    const [reject] = rejectsOf(join(out, 'sib-rejects.jsonl'));
    expect(reject).toMatchObject({ file: annotations, line: 2, field: 'leaf_id', input: again });
    expect(reject!.reason).toMatch(/^duplicate annotation of session ".*", leaf ".*", task \d \(first on line 1\)$/);
  });

  it('embed: a product without concepts is rejected with its line as it was', async () => {
    const world = fresh('world');
    await writeDemo(world, { seed: 1 });
    const productLines = readFileSync(join(world, 'products.jsonl'), 'utf8').split('\n').slice(0, 3);
    const odd = JSON.stringify({ id: 'no-concepts', title: 'Mystery Gadget', brand: 'Acme' });
    const products = lines(fresh('products.jsonl'), [...productLines, odd]);
    const out = fresh('emb');
    const manifest = await runEmbed({
      graph: join(world, 'graph.sqlite'),
      products,
      concepts: join(world, 'concepts.jsonl'),
      out,
      mode: 'induced',
      encoder: await openEncoder({ encoder: 'offline-hashing-v1' }),
      nodeCache: false,
      onError: 'skip',
      progress: false,
    });
    expect(manifest.counts.rejected).toBe(1);
    expect(rejectsOf(join(out, 'rejects.jsonl'))).toEqual([
      {
        file: products,
        line: 4,
        field: 'id',
        reason: `no concepts for product "no-concepts" in ${join(world, 'concepts.jsonl')}`,
        input: odd,
      },
    ]);
  });
});
