import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import { InputError } from '../core/errors.js';
import {
  MatchStats,
  matchPhrases,
  matchPhrasesByTemplateProbing,
  matchProducts,
  matchToJsonl,
} from '../engine/products/match.js';
import { UserConcepts } from '../engine/products/concepts.js';
import { readProducts } from '../engine/products/products.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import { purchaseTemplates } from '../graph/purchase-events.js';
import { normalizePhrases } from '../engine/products/normalize.js';
import type { GraphStore, GraphWriter } from '../graph/graph-store.js';
import { MemoryGraph } from './support/memory-store.js';
import { cli } from './support/cli.js';
import { runCli } from './support/faults.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-match-'));
let storeCount = 0;

const OBJECTS = [
  'phone',
  'phone case',
  'case',
  'a phone',
  'had',
  'had a drink',
  'drink',
  '1 cup',
  'cup',
  'the the',
  'PersonX',
  'earring',
];
const SUBJECTS = ['PersonX', 'PersonY', 'PeopleX', 'PeopleY', 'PersonZ', ''];
const VERBS = ['buy', 'buys', 'has', 'have had', 'had had', 'bought', 'get', 'purchase', 'want', 'has got', ''];
const ARTICLES = ['a', 'an', 'the', '1', '2', '3', ''];

function randomNodeText(rng: Rng): string {
  const parts = [SUBJECTS, VERBS, ARTICLES, OBJECTS].map((pool) => pool[rng.int(pool.length)]!);
  return parts.filter((p) => p !== '').join(' ');
}

async function randomGraph(rng: Rng, writer: GraphWriter, nodes: number): Promise<string[]> {
  const texts = [...new Set(Array.from({ length: nodes }, () => randomNodeText(rng)))];
  await writer.upsertNodes(texts);
  // A few edges so that the store is a real graph.
  const edges = Array.from({ length: nodes }, () => ({
    head: texts[rng.int(texts.length)]!,
    tail: texts[rng.int(texts.length)]!,
    senses: { Co_Occurrence: 1 },
  })).filter((e) => e.head !== e.tail);
  await writer.upsertEdges(edges);
  return texts;
}

async function sqliteStore(name: string): Promise<SqliteGraphStore> {
  return SqliteGraphStore.open(join(dir, name), { mode: 'write' });
}

describe('matchPhrases (purchase index) equals template probing (the released way)', () => {
  const stores: Array<[string, () => Promise<GraphStore & GraphWriter>]> = [
    ['memory store', async () => new MemoryGraph()],
    ['SQLite store', () => sqliteStore(`probe-${++storeCount}.sqlite`)],
  ];
  for (const [name, open] of stores) {
    it(`on seeded random graphs (${name})`, async () => {
      for (const seed of [11, 12]) {
        const rng = new Rng(seed);
        const store = await open();
        const texts = await randomGraph(rng, store, 600);
        const phrases = [
          ...OBJECTS,
          'a',
          'an phone',
          'drink had',
          'phone phone',
          ...texts.slice(0, 30).map((t) => t.split(' ').slice(-2).join(' ')),
        ];
        const fast = await matchPhrases(store, phrases);
        const slow = await matchPhrasesByTemplateProbing(store, phrases);
        expect([...fast.keys()].sort()).toEqual([...new Set(phrases)].sort());
        let nonEmpty = 0;
        for (const p of new Set(phrases)) {
          expect(fast.get(p), p).toEqual(slow.get(p));
          if ((slow.get(p) ?? []).length > 0) nonEmpty += 1;
        }
        expect(nonEmpty).toBeGreaterThan(8);
        await store.close();
      }
    });
  }

  it('returns hand-checked nodes and texts, by ascending id', async () => {
    const g = new MemoryGraph();
    await g.upsertNodes([
      'PersonX buy a phone',
      'PersonX go home',
      'PeopleX buy phone',
      'buy 1 cup',
      'PersonX buy a phone case',
    ]);
    const m = await matchPhrases(g, ['phone', 'cup', '1 cup', 'phone case', 'laptop', 'phone']);
    expect(Object.fromEntries(m)).toEqual({
      phone: [
        { id: 1, text: 'PersonX buy a phone' },
        { id: 3, text: 'PeopleX buy phone' },
      ],
      cup: [{ id: 4, text: 'buy 1 cup' }],
      '1 cup': [{ id: 4, text: 'buy 1 cup' }],
      'phone case': [{ id: 5, text: 'PersonX buy a phone case' }],
      laptop: [],
    });
    expect(purchaseTemplates('phone')).toContain('PeopleX buy phone');
  });
});

describe('matchProducts', () => {
  it('keeps input order, matches each phrase, and turns a missing concept into an error naming the line', async () => {
    const g = new MemoryGraph();
    await g.upsertNodes(['PersonX buy a phone case', 'PersonX buy an earring', 'PeopleX buy earring']);
    const concepts = new UserConcepts(
      new Map([
        ['p1', ['Phone Cases', 'Mobile Accessory']],
        ['p3', ['Earrings']],
      ]),
      'c.jsonl',
    );
    const products = [
      { id: 'p1', title: 'Slim Case', file: 'p.jsonl', line: 1 },
      { id: 'p2', title: 'Mystery', file: 'p.jsonl', line: 2 },
      { id: 'p3', title: 'Stud Earrings', file: 'p.jsonl', line: 4 },
    ];
    const out = [];
    for await (const o of matchProducts(g, products, concepts, { batchSize: 2 })) out.push(o);
    expect(out.map((o) => o.product.id)).toEqual(['p1', 'p2', 'p3']);
    const [a, b, c] = out;
    expect(a!.ok && a!.match).toEqual({
      id: 'p1',
      title: 'Slim Case',
      concepts: 'user-file',
      phrases: [
        { phrase: 'phone cases', nodes: [] },
        { phrase: 'phone case', nodes: [{ id: 1, text: 'PersonX buy a phone case' }] },
        { phrase: 'mobile accessory', nodes: [] },
      ],
    });
    expect(b!.ok).toBe(false);
    const err = (b as { error: InputError }).error;
    expect(err).toBeInstanceOf(InputError);
    expect(err.location).toEqual({ file: 'p.jsonl', line: 2, field: 'id' });
    expect(c!.ok && c!.match.phrases).toEqual([
      { phrase: 'earrings', nodes: [] },
      {
        phrase: 'earring',
        nodes: [
          { id: 2, text: 'PersonX buy an earring' },
          { id: 3, text: 'PeopleX buy earring' },
        ],
      },
    ]);
    // Two batches → two index queries.
    expect(g.purchaseIndexCalls).toBe(2);
    expect(normalizePhrases(['Phone Cases'])).toEqual(['phone cases', 'phone case']);
  });

  it('remembers phrase matches across batches, with the same results as without the cache', async () => {
    const g = new MemoryGraph();
    await g.upsertNodes(['PersonX buy a phone case', 'PersonX buy an earring']);
    const concepts = new UserConcepts(
      new Map([
        ['a', ['Phone Case']],
        ['b', ['Earrings']],
        ['c', ['Phone Case', 'Earrings']],
      ]),
      'c.jsonl',
    );
    const products = ['a', 'b', 'c', 'a', 'b'].map((id, i) => ({ id, title: id, file: 'p', line: i + 1 }));
    const run = async (phraseCacheSize: number) => {
      const before = g.purchaseIndexCalls;
      const out = [];
      for await (const o of matchProducts(g, products, concepts, { batchSize: 2, phraseCacheSize }))
        out.push(o.ok ? o.match : null);
      return { out, calls: g.purchaseIndexCalls - before };
    };
    const cached = await run(100);
    const uncached = await run(0);
    expect(cached.out).toEqual(uncached.out);
    expect(uncached.calls).toBe(3);
    // Batch 1 (a, b) asks for every phrase there is; batches 2 (c, a) and 3 (b) need nothing new.
    expect(cached.calls).toBe(1);
    expect(cached.out[2]!.phrases.map((p) => [p.phrase, p.nodes.length])).toEqual([
      ['phone case', 1],
      ['earrings', 0],
      ['earring', 1],
    ]);
  });

  it('MatchStats counts products with a match, phrases and distinct nodes', () => {
    const s = new MatchStats();
    s.add({
      id: 'a',
      title: '',
      concepts: 'x',
      phrases: [
        { phrase: 'p', nodes: [{ id: 1, text: 't' }] },
        { phrase: 'q', nodes: [] },
      ],
    });
    s.add({ id: 'b', title: '', concepts: 'x', phrases: [{ phrase: 'q', nodes: [] }] });
    s.add({
      id: 'c',
      title: '',
      concepts: 'x',
      phrases: [
        {
          phrase: 'p',
          nodes: [
            { id: 1, text: 't' },
            { id: 2, text: 'u' },
          ],
        },
      ],
    });
    expect(s.toJSON()).toEqual({
      products: 3,
      rejected: 0,
      matchedProducts: 2,
      matchRate: 0.6667,
      phrases: 4,
      matchedPhrases: 2,
      distinctNodes: 2,
    });
  });

  it('writes one JSONL line per product with phrases, node texts and ids', () => {
    expect(
      matchToJsonl({
        id: 'p1',
        title: 'T',
        concepts: 'offline',
        phrases: [{ phrase: 'phone', nodes: [{ id: 3, text: 'PersonX buy a phone' }] }],
      }),
    ).toBe(
      '{"id":"p1","title":"T","concepts":"offline","phrases":[{"phrase":"phone","nodes":["PersonX buy a phone"],"nodeIds":[3]}]}\n',
    );
  });
});

describe('readProducts', () => {
  it('streams {id, title} with file, line and the line itself (for a later reject), and names the line and field of a bad or repeated product', async () => {
    const path = join(dir, 'read-products.jsonl');
    writeFileSync(
      path,
      '{"id": "7", "title": "Seven", "extra": 1}\n\n{"id": "b", "title": "Bee"}\n{"id": "7", "title": "Again"}\n',
    );
    const got: Array<{ id: string; title: string; file: string; line: number; text?: string }> = [];
    const err = await (async () => {
      try {
        for await (const p of readProducts(path)) got.push(p);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(got).toEqual([
      { id: '7', title: 'Seven', file: path, line: 1, text: '{"id": "7", "title": "Seven", "extra": 1}' },
      { id: 'b', title: 'Bee', file: path, line: 3, text: '{"id": "b", "title": "Bee"}' },
    ]);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).location).toEqual({ file: path, line: 4, field: 'id' });
    expect((err as InputError).reason).toBe('duplicate product id "7" (first on line 1)');
  });
});

describe('intentsim graph match (CLI)', () => {
  it('matches a catalogue with user concepts; skips and records a product without concepts', async () => {
    const graphPath = join(dir, 'cli.sqlite');
    const w = await sqliteStore('cli.sqlite');
    await w.upsertEdges([
      { head: 'PersonX buy a phone case', tail: 'PersonX drop PersonX phone', senses: { Reason: 2 } },
      { head: 'PersonX buy an earring', tail: 'PersonX go to a party', senses: { Reason: 1 } },
    ]);
    await w.close();
    const products = join(dir, 'products.jsonl');
    writeFileSync(
      products,
      [
        '{"id":"p1","title":"Slim Phone Case"}',
        '{"id":"p2","title":"Mystery"}',
        '{"id":"p3","title":"Earrings"}',
        '{"title":"no id"}',
      ].join('\n') + '\n',
    );
    const concepts = join(dir, 'concepts.jsonl');
    writeFileSync(concepts, '{"id":"p1","phrases":["Phone Cases"]}\n{"id":"p3","phrases":["Earrings","Jewelry"]}\n');
    const out = join(dir, 'matches.jsonl');
    const summary = await cli([
      'catalog',
      'match',
      '--graph',
      graphPath,
      '--products',
      products,
      '--concepts',
      concepts,
      '--out',
      out,
      '--on-error',
      'skip',
      '--json',
    ]);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; phrases: Array<{ phrase: string; nodes: string[] }> });
    expect(lines.map((l) => l.id)).toEqual(['p1', 'p3']);
    expect(lines[0]!.phrases).toEqual([
      { phrase: 'phone cases', nodes: [], nodeIds: [] },
      { phrase: 'phone case', nodes: ['PersonX buy a phone case'], nodeIds: [1] },
    ]);
    expect(lines[1]!.phrases.map((p) => [p.phrase, p.nodes])).toEqual([
      ['earrings', []],
      ['earring', ['PersonX buy an earring']],
      ['jewelry', []],
    ]);
    expect(JSON.parse(summary)).toMatchObject({
      products: 2,
      rejected: 2,
      matchedProducts: 2,
      matchRate: 1,
      concepts: 'user-file',
    });
    const rejects = readFileSync(`${out}.rejects.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; field: string });
    expect(rejects.map((r) => [r.line, r.field]).sort()).toEqual([
      [2, 'id'],
      [4, 'id'],
    ]);
  });

  it('a product without a concepts line after many written matches: the error names it, no temporary file is left', async () => {
    // Lines already written but not yet flushed when the run stops: abort() once crashed the
    // process with ERR_STREAM_DESTROYED and left the temporary file (issue 16). In a child process,
    // so that such a crash fails this test instead of the test runner.
    const sub = mkdtempSync(join(dir, 'abort-'));
    const ids = Array.from({ length: 60 }, (_, i) => `p${i + 1}`);
    const products = join(sub, 'products.jsonl');
    writeFileSync(products, ids.map((id) => JSON.stringify({ id, title: `Slim Phone Case ${id}` }) + '\n').join(''));
    const concepts = join(sub, 'concepts.jsonl');
    writeFileSync(
      concepts,
      ids
        .slice(0, 59)
        .map((id) => JSON.stringify({ id, phrases: ['phone case'] }) + '\n')
        .join(''),
    );
    const args = [
      'catalog',
      'match',
      '--graph',
      join(dir, 'cli.sqlite'),
      '--products',
      products,
      '--concepts',
      concepts,
    ];
    const r = runCli([...args, '--out', join(sub, 'matches.jsonl')]);
    expect([r.status, r.signal]).toEqual([1, null]);
    expect(r.stderr).toBe(`intentsim: ${products}:60 (field "id"): no concepts for product "p60" in ${concepts}\n`);
    expect(readdirSync(sub).sort()).toEqual(['concepts.jsonl', 'products.jsonl']);
  });

  it('fails without --on-error skip, leaving no output file', async () => {
    const products = join(dir, 'products2.jsonl');
    writeFileSync(products, '{"id":"p2","title":"Mystery"}\n');
    const concepts = join(dir, 'concepts2.jsonl');
    writeFileSync(concepts, '{"id":"other","phrases":["x"]}\n');
    const out = join(dir, 'matches2.jsonl');
    await expect(
      cli([
        'catalog',
        'match',
        '--graph',
        join(dir, 'cli.sqlite'),
        '--products',
        products,
        '--concepts',
        concepts,
        '--out',
        out,
      ]),
    ).rejects.toThrow(/products2\.jsonl:1 \(field "id"\): no concepts for product "p2"/);
    expect(existsSync(out)).toBe(false);
  });
});
