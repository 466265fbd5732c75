import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { InputError } from '../core/errors.js';
import { RejectsSink } from '../core/rejects.js';
import { buildProgram } from '../cli/main.js';
import { importAserSqlite } from '../graph/import/import-aser-sqlite.js';
import { importJsonlEdges } from '../graph/import/import-jsonl.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import { RELATION_SENSES, type EdgeInput, type GraphStore } from '../graph/graph-store.js';
import { randomFixture } from './graph-store-contract.js';
import { crashingAfter } from './support/crashing-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (ext: string) => join(dir, `f${++n}.${ext}`);

// ---------------------------------------------------------------- fixtures

interface AserRelation {
  _id: string;
  hid: string;
  tid: string;
  senses?: Record<string, number | string | null>;
}

/** A tiny ASER-format dump: the real table and column names, plus columns the importer ignores. */
function writeAserDump(
  path: string,
  eventualities: Array<[id: string, words: string | null]>,
  relations: AserRelation[],
  { extraRelationColumns = '' }: { extraRelationColumns?: string } = {},
): string {
  const db = new Database(path);
  db.exec(`CREATE TABLE Eventualities (_id TEXT PRIMARY KEY, verbs TEXT, words TEXT, pattern TEXT, frequency REAL)`);
  db.exec(
    `CREATE TABLE Relations (_id TEXT PRIMARY KEY, hid TEXT, tid TEXT, ${RELATION_SENSES.map((s) => `${s} REAL`).join(', ')}${extraRelationColumns})`,
  );
  const ev = db.prepare('INSERT INTO Eventualities (_id, verbs, words, pattern, frequency) VALUES (?, ?, ?, ?, ?)');
  for (const [id, words] of eventualities) ev.run(id, 'v', words, 's-v', 3.0);
  const rel = db.prepare(
    `INSERT INTO Relations (_id, hid, tid, ${RELATION_SENSES.join(', ')}) VALUES (?, ?, ?, ${RELATION_SENSES.map(() => '?').join(', ')})`,
  );
  for (const r of relations) rel.run(r._id, r.hid, r.tid, ...RELATION_SENSES.map((s) => r.senses?.[s] ?? 0));
  db.close();
  return path;
}

const EVENTUALITIES: Array<[string, string]> = [
  ['e1', 'PersonX buy a phone'],
  ['e2', 'PersonX call friend'],
  ['e3', 'it rain'],
  ['e4', 'PersonX be happy'], // isolated
];
const RELATIONS: AserRelation[] = [
  { _id: 'r1', hid: 'e1', tid: 'e2', senses: { Result: 1, Co_Occurrence: 2 } },
  { _id: 'r2', hid: 'e2', tid: 'e1', senses: { Reason: 0.5 } },
  { _id: 'r3', hid: 'e3', tid: 'e3', senses: { Synchronous: 1 } },
  { _id: 'r4', hid: 'e1', tid: 'e3' }, // every sense 0: an edge without senses
];

/** Every edge of a store as text, for comparing two stores. */
async function edgeTexts(store: GraphStore): Promise<string[]> {
  const texts: string[] = [];
  for (const mode of ['incident'] as const) {
    const all = await store.lookupIds(await allTexts(store));
    const hoods = await store.neighbourhoods([...all.values()], mode);
    for (const h of hoods.values())
      for (const e of h.edges) texts.push(`${e.headText} → ${e.tailText} ${JSON.stringify(e.senses)}`);
  }
  return [...new Set(texts)].sort();
}

async function allTexts(store: GraphStore): Promise<string[]> {
  const { nodes } = await store.counts();
  const ids = Array.from({ length: nodes + 10 }, (_, i) => i + 1);
  return [...(await store.nodeTexts(ids)).values()];
}

function writeJsonl(path: string, lines: unknown[]): string {
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

function edgeLine(e: EdgeInput): { head: string; tail: string; relations: Record<string, number> } {
  return { head: e.head, tail: e.tail, relations: e.senses as Record<string, number> };
}

async function expectInputError(
  p: Promise<unknown>,
  location: { file: string; line?: number; field?: string },
  reason: RegExp,
): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  expect((err as InputError).location).toEqual(location);
  expect((err as InputError).reason).toMatch(reason);
}

// ---------------------------------------------------------------- ASER SQLite dump

describe('ASER SQLite dump import', () => {
  it('imports every eventuality as a node and every relation as an edge with its senses > 0', async () => {
    const src = writeAserDump(fresh('db'), EVENTUALITIES, RELATIONS);
    const store = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    const summary = await importAserSqlite(store, src, { batchSize: 2 });
    expect(summary).toMatchObject({
      records: 8,
      nodesWritten: 4,
      edgesWritten: 4,
      rejected: 0,
      edgesWithoutSenses: 1,
      alreadyImported: 0,
      ignoredColumns: [],
    });
    expect(await store.counts()).toMatchObject({ nodes: 4, edges: 4 });
    expect(await edgeTexts(store)).toEqual(
      [
        'PersonX buy a phone → PersonX call friend {"Result":1,"Co_Occurrence":2}',
        'PersonX call friend → PersonX buy a phone {"Reason":0.5}',
        'it rain → it rain {"Synchronous":1}',
        'PersonX buy a phone → it rain {}',
      ].sort(),
    );
    expect((await store.lookupIds(['PersonX be happy'])).size).toBe(1);
    await store.close();
  });

  it('names file, rowid and field of a bad row', async () => {
    const file = fresh('db');
    writeAserDump(file, EVENTUALITIES, [...RELATIONS, { _id: 'r5', hid: 'e1', tid: 'nope', senses: { Result: 1 } }]);
    const store = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    await expectInputError(
      importAserSqlite(store, file),
      { file, line: 5, field: 'Relations.tid' },
      /relation _id "r5": no eventuality with _id "nope"/,
    );

    const textWeight = writeAserDump(fresh('db'), EVENTUALITIES, [
      { _id: 'r1', hid: 'e1', tid: 'e2', senses: { Result: 'high' } },
    ]);
    await expectInputError(
      importAserSqlite(store, textWeight),
      { file: textWeight, line: 1, field: 'Relations.Result' },
      /expected a number, got text "high"/,
    );

    const negative = writeAserDump(fresh('db'), EVENTUALITIES, [
      { _id: 'r1', hid: 'e1', tid: 'e2', senses: { Precedence: -1 } },
    ]);
    await expectInputError(
      importAserSqlite(store, negative),
      { file: negative, line: 1, field: 'Relations.Precedence' },
      /weight ≥ 0, got -1/,
    );

    const emptyWords = writeAserDump(
      fresh('db'),
      [
        ['e1', 'ok'],
        ['e2', '  '],
      ],
      [],
    );
    await expectInputError(
      importAserSqlite(store, emptyWords),
      { file: emptyWords, line: 2, field: 'Eventualities.words' },
      /eventuality _id "e2": expected a non-empty text/,
    );
    await store.close();
  });

  it('refuses an unknown sense column before writing anything, and a file that is not an ASER dump', async () => {
    const file = writeAserDump(fresh('db'), EVENTUALITIES, RELATIONS, { extraRelationColumns: ', Causation REAL' });
    const path = fresh('sqlite');
    const store = SqliteGraphStore.open(path, { mode: 'write' });
    await expectInputError(
      importAserSqlite(store, file),
      { file, field: 'Relations.Causation' },
      /unknown relation sense column "Causation"/,
    );
    expect(await store.counts()).toMatchObject({ nodes: 0, edges: 0 });

    const withText = writeAserDump(fresh('db'), EVENTUALITIES, RELATIONS, { extraRelationColumns: ', note TEXT' });
    const summary = await importAserSqlite(store, withText);
    expect(summary.ignoredColumns).toEqual(['note']);

    const other = fresh('db');
    new Database(other).exec('CREATE TABLE Eventualities (_id TEXT PRIMARY KEY, words TEXT)');
    await expectInputError(
      importAserSqlite(store, other),
      { file: other, field: 'Relations' },
      /not an ASER SQLite dump: no table Relations/,
    );

    const noIndex = fresh('db');
    const db = new Database(noIndex);
    db.exec(
      `CREATE TABLE Eventualities (_id TEXT, words TEXT); CREATE TABLE Relations (_id TEXT, hid TEXT, tid TEXT, Result REAL)`,
    );
    db.close();
    await expectInputError(
      importAserSqlite(store, noIndex),
      { file: noIndex, field: 'Eventualities._id' },
      /has no index/,
    );
    await store.close();
  });

  it('with on-error skip, counts bad rows, writes them to the rejects file and imports the rest', async () => {
    const file = writeAserDump(
      fresh('db'),
      [...EVENTUALITIES, ['e5', null]],
      [
        ...RELATIONS,
        { _id: 'r5', hid: 'ghost', tid: 'e1', senses: { Result: 1 } },
        { _id: 'r6', hid: 'e1', tid: 'e5', senses: { Result: 1 } },
      ],
    );
    const rejectsPath = fresh('jsonl');
    const rejects = new RejectsSink(rejectsPath);
    const store = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    const summary = await importAserSqlite(store, file, { onError: 'skip', rejects });
    await rejects.close();
    expect(summary).toMatchObject({ records: 11, nodesWritten: 4, edgesWritten: 4, rejected: 3 });
    expect(await store.counts()).toMatchObject({ nodes: 4, edges: 4 });
    const lines = readFileSync(rejectsPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.line, l.field])).toEqual([
      [5, 'Eventualities.words'],
      [5, 'Relations.hid'],
      [6, 'Relations.tid'],
    ]);
    expect(lines.every((l) => l.file === file)).toBe(true);
    expect(JSON.parse(lines[1]!.input as string)).toMatchObject({ _id: 'r5', hid: 'ghost', tid: 'e1', Result: 1 });
    expect(lines[2]!.reason).toMatch(/eventuality "e5" has no text/);
    await store.close();
  });

  it('is idempotent and resumes after a crash without writing finished batches again', async () => {
    const fixture = randomFixture(5, 40, 120);
    const texts = [...new Set(fixture.edges.flatMap((e) => [e.head, e.tail]))];
    const idOf = new Map(texts.map((t, i) => [t, `ev${i}`]));
    const src = writeAserDump(
      fresh('db'),
      texts.map((t) => [idOf.get(t)!, t]),
      fixture.edges.map((e, i) => ({
        _id: `rel${i}`,
        hid: idOf.get(e.head)!,
        tid: idOf.get(e.tail)!,
        senses: e.senses as Record<string, number>,
      })),
    );
    const records = texts.length + fixture.edges.length;

    const reference = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    await importAserSqlite(reference, src, { batchSize: 10 });
    const expected = await edgeTexts(reference);
    const expectedCounts = await reference.counts();
    await reference.close();

    const path = fresh('sqlite');
    const store = SqliteGraphStore.open(path, { mode: 'write' });
    await expect(importAserSqlite(crashingAfter(store, 4), src, { batchSize: 10 })).rejects.toThrow('simulated crash');
    const resumed = await importAserSqlite(store, src, { batchSize: 10 });
    // Three batches of 10 relations were committed before the crash.
    expect(resumed.edgesWritten).toBe(fixture.edges.length - 30);
    expect(resumed.nodesWritten).toBe(0);
    expect(resumed.alreadyImported).toBe(texts.length + 30);
    expect(await edgeTexts(store)).toEqual(expected);
    expect(await store.counts()).toEqual(expectedCounts);

    const again = await importAserSqlite(store, src, { batchSize: 10 });
    expect(again).toMatchObject({ records, nodesWritten: 0, edgesWritten: 0, alreadyImported: records });
    const restarted = await importAserSqlite(store, src, { batchSize: 10, restart: true });
    expect(restarted.edgesWritten).toBe(fixture.edges.length);
    expect(await store.counts()).toEqual(expectedCounts);
    expect(await edgeTexts(store)).toEqual(expected);
    await store.close();
  });
});

// ---------------------------------------------------------------- JSONL edge lists

describe('JSONL edge-list import', () => {
  it('imports edges with their senses; a re-written edge keeps its last senses', async () => {
    const file = writeJsonl(fresh('jsonl'), [
      { head: 'a', tail: 'b', relations: { Result: 1 } },
      '',
      { head: 'b', tail: 'b', relations: { Synchronous: 2, Reason: 0.25 }, note: 'extra fields are ignored' },
      { head: 'a', tail: 'b', relations: { Contrast: 3 } },
    ]);
    const store = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    const summary = await importJsonlEdges(store, file, { batchSize: 2 });
    // The nodes written are the distinct texts new to the store (the summary said 0 before).
    expect(summary).toMatchObject({ records: 3, nodesWritten: 2, edgesWritten: 3, rejected: 0 });
    expect(await store.counts()).toMatchObject({ nodes: 2, edges: 2 });
    expect(await edgeTexts(store)).toEqual(['a → b {"Contrast":3}', 'b → b {"Synchronous":2,"Reason":0.25}']);
    const more = writeJsonl(fresh('jsonl'), [{ head: 'b', tail: 'c', relations: { Result: 1 } }]);
    expect(await importJsonlEdges(store, more)).toMatchObject({ nodesWritten: 1, edgesWritten: 1 });
    await store.close();
  });

  it('names file, line and field of a bad line', async () => {
    const store = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    const cases: Array<[unknown, string | undefined, RegExp]> = [
      [
        { head: 'a', tail: 'b', relations: { Causation: 1 } },
        'relations.Causation',
        /unknown relation sense "Causation"/,
      ],
      [{ head: 'a', tail: 'b', relations: { Result: 0 } }, 'relations.Result', /must be > 0/],
      [{ head: 'a', tail: 'b', relations: { Result: -2 } }, 'relations.Result', /must be > 0/],
      [
        { head: 'a', tail: 'b', relations: { Result: '1' } },
        'relations.Result',
        /expected a positive number, got the string "1"/,
      ],
      [{ head: '', tail: 'b', relations: { Result: 1 } }, 'head', /must not be empty/],
      [{ head: 'a', relations: { Result: 1 } }, 'tail', /missing/],
      [{ head: 'a', tail: 'b', relations: {} }, 'relations', /at least one relation sense/],
      [{ head: 'a', tail: 'b', relations: [1] }, 'relations', /expected an object/],
      ['{"head": "a", ', undefined, /invalid JSON/],
    ];
    for (const [bad, field, reason] of cases) {
      const file = writeJsonl(fresh('jsonl'), [{ head: 'x', tail: 'y', relations: { Result: 1 } }, '', bad]);
      await expectInputError(
        importJsonlEdges(store, file),
        field === undefined ? { file, line: 3 } : { file, line: 3, field },
        reason,
      );
    }
    await store.close();
  });

  it('with on-error skip, counts bad lines and writes them to the rejects file', async () => {
    const file = writeJsonl(fresh('jsonl'), [
      { head: 'a', tail: 'b', relations: { Result: 1 } },
      { head: 'a', tail: 'c', relations: { Bogus: 1 } },
      'not json',
      { head: 'c', tail: 'a', relations: { Precedence: 2 } },
    ]);
    const rejectsPath = fresh('jsonl');
    const rejects = new RejectsSink(rejectsPath);
    const store = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    const summary = await importJsonlEdges(store, file, { onError: 'skip', rejects });
    await rejects.close();
    expect(summary).toMatchObject({ records: 4, edgesWritten: 2, rejected: 2 });
    expect(await edgeTexts(store)).toEqual(['a → b {"Result":1}', 'c → a {"Precedence":2}']);
    const lines = readFileSync(rejectsPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        file,
        line: 2,
        field: 'relations.Bogus',
        input: JSON.stringify({ head: 'a', tail: 'c', relations: { Bogus: 1 } }),
      }),
      expect.objectContaining({ file, line: 3, input: 'not json' }),
    ]);
    await store.close();
  });

  it('builds the same graph as writing the edges directly, idempotently, and resumes after a crash', async () => {
    const fixture = randomFixture(9, 50, 180);
    const file = writeJsonl(fresh('jsonl'), fixture.edges.map(edgeLine));
    const direct = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    await direct.upsertEdges(fixture.edges);
    const expected = await edgeTexts(direct);
    const expectedCounts = await direct.counts();
    await direct.close();

    const store = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    await expect(importJsonlEdges(crashingAfter(store, 3), file, { batchSize: 25 })).rejects.toThrow('simulated crash');
    expect((await store.counts()).edges).toBeLessThan(expectedCounts.edges);
    const resumed = await importJsonlEdges(store, file, { batchSize: 25 });
    expect(resumed.alreadyImported).toBe(50);
    expect(resumed.edgesWritten).toBe(fixture.edges.length - 50);
    expect(await edgeTexts(store)).toEqual(expected);
    expect(await store.counts()).toEqual(expectedCounts);

    const again = await importJsonlEdges(store, file, { batchSize: 25 });
    expect(again).toMatchObject({ edgesWritten: 0, alreadyImported: fixture.edges.length });
    await importJsonlEdges(store, file, { batchSize: 7, restart: true });
    expect(await store.counts()).toEqual(expectedCounts);
    expect(await edgeTexts(store)).toEqual(expected);
    await store.close();
  });

  it('starts over when the file changed since its checkpoint', async () => {
    const file = writeJsonl(fresh('jsonl'), [{ head: 'a', tail: 'b', relations: { Result: 1 } }]);
    const store = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    await importJsonlEdges(store, file);
    writeJsonl(file, [
      { head: 'a', tail: 'b', relations: { Result: 1 } },
      { head: 'b', tail: 'c', relations: { Result: 2 } },
    ]);
    const second = await importJsonlEdges(store, file);
    expect(second).toMatchObject({ edgesWritten: 2, alreadyImported: 0 });
    expect((await store.counts()).edges).toBe(2);
    await store.close();
  });

  it('starts over when the file was edited with the same size and modification time (issue 45)', async () => {
    const file = writeJsonl(fresh('jsonl'), [
      { head: 'a', tail: 'b', relations: { Result: 1 } },
      { head: 'b', tail: 'c', relations: { Result: 2 } },
    ]);
    // A whole second: utimes keeps it exactly (a Date's milliseconds may come back as .999).
    const mtime = 1_700_000_000;
    utimesSync(file, mtime, mtime);
    const store = SqliteGraphStore.open(fresh('sqlite'), { mode: 'write' });
    expect(await importJsonlEdges(store, file)).toMatchObject({ edgesWritten: 2, alreadyImported: 0 });
    // The same bytes but one weight, and the old modification time put back.
    writeJsonl(file, [
      { head: 'a', tail: 'b', relations: { Result: 7 } },
      { head: 'b', tail: 'c', relations: { Result: 2 } },
    ]);
    utimesSync(file, mtime, mtime);
    expect(statSync(file).mtimeMs).toBe(mtime * 1000);
    const second = await importJsonlEdges(store, file);
    expect(second).toMatchObject({ edgesWritten: 2, alreadyImported: 0 });
    const weights = (await edgeTexts(store)).join('\n');
    expect(weights).toContain('"Result":7');
    // Unchanged, it resumes (nothing written again).
    expect(await importJsonlEdges(store, file)).toMatchObject({ edgesWritten: 0, alreadyImported: 2 });
    await store.close();
  });
});

// ---------------------------------------------------------------- the CLI

describe('intentsim graph import / stats', () => {
  let out = '';
  const run = async (...args: string[]) => {
    out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    try {
      await (await buildProgram()).exitOverride().parseAsync(['node', 'intentsim', ...args]);
    } finally {
      spy.mockRestore();
    }
    return out;
  };
  afterEach(() => vi.restoreAllMocks());

  it('imports JSONL files and an ASER dump, then reports counts', async () => {
    const storePath = fresh('sqlite');
    const jsonl = writeJsonl(fresh('jsonl'), [
      { head: 'x', tail: 'y', relations: { Result: 1 } },
      { head: 'y', tail: 'z', relations: { Bogus: 1 } },
    ]);
    const rejectsPath = fresh('jsonl');
    const summary = JSON.parse(
      await run(
        'graph',
        'import',
        '--to',
        storePath,
        '--jsonl',
        jsonl,
        '--on-error',
        'skip',
        '--rejects',
        rejectsPath,
        '--batch-records',
        '1',
        '--json',
      ),
    ) as { imports: Array<Record<string, unknown>>; rejects: { count: number; path: string } };
    expect(summary.imports[0]).toMatchObject({ format: 'jsonl', source: resolve(jsonl), edgesWritten: 1, rejected: 1 });
    expect(summary.rejects).toEqual({ count: 1, path: rejectsPath });
    expect(existsSync(rejectsPath)).toBe(true);

    const aser = writeAserDump(fresh('db'), EVENTUALITIES, RELATIONS);
    const text = await run('graph', 'import', '--to', storePath, '--aser-sqlite', aser);
    expect(text).toContain('written: 4 nodes, 4 edges');

    const stats = JSON.parse(await run('graph', 'stats', '--graph', storePath, '--json')) as Record<string, unknown>;
    expect(stats).toMatchObject({ kind: 'sqlite', nodes: 6, edges: 5 });
    expect(Object.keys((stats.metadata as { imports: object }).imports).sort()).toEqual([
      `aser-sqlite:${resolve(aser)}`,
      `jsonl:${resolve(jsonl)}`,
    ]);
    expect(await run('graph', 'stats', '--graph', storePath)).toMatch(/nodes: 6\n {2}edges: 5\n/);
  });

  it('fails with the file, line and field of a bad line by default', async () => {
    const jsonl = writeJsonl(fresh('jsonl'), [{ head: 'x', tail: 'y', relations: { Causation: 1 } }]);
    await expect(run('graph', 'import', '--to', fresh('sqlite'), '--jsonl', jsonl)).rejects.toThrow(
      `${jsonl}:1 (field "relations.Causation")`,
    );
  });

  it('needs an input, and says which', async () => {
    await expect(run('graph', 'import', '--to', fresh('sqlite'))).rejects.toThrow(
      /give --aser-sqlite FILE or --jsonl FILE/,
    );
  });

  it('sends a Neo4j URL to the Neo4j store, and rejects unknown URL schemes', async () => {
    // The URL reaches the Neo4j store (nothing listens on port 1, so it fails to connect).
    const err = await run('graph', 'stats', '--graph', 'bolt://127.0.0.1:1').then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toMatch(/bolt:\/\/127\.0\.0\.1:1/);
    await expect(run('graph', 'stats', '--graph', 'http://example.org/g')).rejects.toThrow(
      /unsupported graph store URL scheme "http:"/,
    );
  });

  it('teaches in --help: formats and examples', async () => {
    const importCmd = (await buildProgram()).commands
      .find((c) => c.name() === 'graph')!
      .commands.find((c) => c.name() === 'import')!;
    const help = importCmd.helpInformation();
    expect(help).toContain('--aser-sqlite');
    expect(help).toContain('"relations": {"Result": 1.0}}');
    expect(help).toContain('ChosenAlternative');
    expect(help).toContain('intentsim graph import --to aser.sqlite --aser-sqlite KG.db');
    expect(help).toContain('--on-error');
  });
});
