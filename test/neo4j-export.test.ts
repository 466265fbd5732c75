// `graph export --neo4j-admin`: exact file contents on a small graph (quoting of commas, quotes,
// line breaks), a round trip through a CSV parser on a random graph read from a SQLite store,
// and atomicity.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  csvDouble,
  csvString,
  csvStringArray,
  exportNeo4jAdmin,
  shellQuote,
  sqliteDumpSource,
  type DumpEdge,
  type DumpNode,
  type GraphDumpSource,
} from '../graph/export/neo4j-admin-export.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import { RELATION_SENSES, type SenseWeights } from '../graph/graph-store.js';
import { randomFixture } from './graph-store-contract.js';
import { cli } from './support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-neo4j-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function memorySource(nodes: DumpNode[], edges: DumpEdge[], failAfterNodes = false): GraphDumpSource {
  return {
    async *nodes(batchSize) {
      for (let i = 0; i < nodes.length; i += batchSize) yield nodes.slice(i, i + batchSize);
    },
    async *edges(batchSize) {
      if (failAfterNodes) throw new Error('source failed');
      for (let i = 0; i < edges.length; i += batchSize) yield edges.slice(i, i + batchSize);
    },
    counts: async () => ({ nodes: nodes.length, edges: edges.length }),
    close: async () => undefined,
  };
}

const read = (d: string, f: string) => readFileSync(join(d, f), 'utf8');

/** RFC 4180 with doubled quotes, the dialect neo4j-admin reads by default. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  expect(field).toBe('');
  expect(row).toEqual([]);
  return rows;
}

describe('neo4j-admin CSV export', () => {
  it('quotes strings (commas, quotes, line breaks, backslashes) and formats weights and arrays', () => {
    expect(csvString('plain')).toBe('"plain"');
    expect(csvString('a, "b"\nc\\d')).toBe('"a, ""b""\nc\\d"');
    expect(csvStringArray(['phone', 'phone case'], 'x')).toBe('"phone;phone case"');
    expect(csvStringArray([], 'x')).toBe('');
    expect(() => csvStringArray(['a;b'], 'node 3')).toThrow(
      /cannot export node 3: the purchase object "a;b" contains ";"/,
    );
    expect(csvDouble(0.1)).toBe('0.1');
    expect(csvDouble(1e-7)).toBe('1e-7');
    expect(csvDouble(3)).toBe('3');
    expect(() => csvDouble(Number.NaN)).toThrow(/not a finite number/);
    expect(shellQuote("/data/out dir/it's")).toBe("'/data/out dir/it'\\''s'");
    expect(shellQuote('/data/out')).toBe('/data/out');
  });

  it('writes exactly these files for a small graph', async () => {
    const out = join(dir, 'small');
    const nodes: DumpNode[] = [
      { id: 1, text: 'PersonX buy a phone', objects: ['phone'] },
      { id: 2, text: 'PersonX say "hi", loudly', objects: [] },
      { id: 3, text: 'line one\nline two', objects: [] },
      { id: 5, text: 'PersonY buy the phone case', objects: ['phone case', 'phone case'] },
    ];
    const edges: DumpEdge[] = [
      { head: 1, tail: 2, senses: { Result: 1, Precedence: 0.5 } },
      { head: 2, tail: 2, senses: { Co_Occurrence: 1e-7 } },
      { head: 3, tail: 1, senses: {} },
      { head: 5, tail: 1, senses: { Result: 2.25 } },
    ];
    const result = await exportNeo4jAdmin(memorySource(nodes, edges), out, { batchSize: 3, database: 'aser' });
    expect(read(out, 'nodes.csv')).toBe(
      [
        ':ID(Eventuality),id:long,text,purchaseObjects:string[],:LABEL',
        '1,1,"PersonX buy a phone","phone",Eventuality;PurchaseEvent',
        '2,2,"PersonX say ""hi"", loudly",,Eventuality',
        '3,3,"line one\nline two",,Eventuality',
        '5,5,"PersonY buy the phone case","phone case",Eventuality;PurchaseEvent',
        '',
      ].join('\n'),
    );
    expect(read(out, 'purchase-objects.csv')).toBe(
      ':ID(PurchaseObject),name,:LABEL\n0,"phone",PurchaseObject\n1,"phone case",PurchaseObject\n',
    );
    expect(read(out, 'object-of.csv')).toBe(
      ':START_ID(PurchaseObject),:END_ID(Eventuality),:TYPE\n0,1,OBJECT_OF\n1,5,OBJECT_OF\n',
    );
    const relHeader = ':START_ID(Eventuality),:END_ID(Eventuality),weight:double,:TYPE\n';
    expect(read(out, 'rel-Precedence.csv')).toBe(relHeader + '1,2,0.5,Precedence\n');
    expect(read(out, 'rel-Result.csv')).toBe(relHeader + '1,2,1,Result\n5,1,2.25,Result\n');
    expect(read(out, 'rel-Co_Occurrence.csv')).toBe(relHeader + '2,2,1e-7,Co_Occurrence\n');
    expect(read(out, 'rel-NoSense.csv')).toBe(':START_ID(Eventuality),:END_ID(Eventuality),:TYPE\n3,1,NoSense\n');
    expect(readdirSync(out).sort()).toEqual(
      [
        'neo4j-admin-import.sh',
        'nodes.csv',
        'object-of.csv',
        'purchase-objects.csv',
        'rel-Co_Occurrence.csv',
        'rel-NoSense.csv',
        'rel-Precedence.csv',
        'rel-Result.csv',
        'schema.cypher',
      ].sort(),
    );
    expect(result.command).toBe(
      [
        'neo4j-admin database import full aser',
        '--id-type=integer',
        "--array-delimiter=';'",
        '--multiline-fields=true',
        `--nodes=${out}/nodes.csv`,
        `--nodes=${out}/purchase-objects.csv`,
        `--relationships=${out}/object-of.csv`,
        `--relationships=${out}/rel-Precedence.csv`,
        `--relationships=${out}/rel-Result.csv`,
        `--relationships=${out}/rel-Co_Occurrence.csv`,
        `--relationships=${out}/rel-NoSense.csv`,
      ].join(' \\\n  '),
    );
    expect(result).toMatchObject({
      nodes: 4,
      edges: 4,
      relationships: { Precedence: 1, Result: 2, Co_Occurrence: 1, NoSense: 1 },
      purchaseObjects: 2,
      multilineFields: true,
      schemaCommand: `cypher-shell -d aser -f ${out}/schema.cypher`,
    });
    expect(read(out, 'schema.cypher')).toBe(
      [
        '// intentsim: run after `neo4j-admin database import full` (cypher-shell -f schema.cypher).',
        'CREATE CONSTRAINT eventuality_text_unique IF NOT EXISTS FOR (e:Eventuality) REQUIRE e.text IS UNIQUE',
        'CREATE CONSTRAINT eventuality_id_unique IF NOT EXISTS FOR (e:Eventuality) REQUIRE e.id IS UNIQUE',
        'CREATE CONSTRAINT purchase_object_name_unique IF NOT EXISTS FOR (o:PurchaseObject) REQUIRE o.name IS UNIQUE',
        'CREATE CONSTRAINT intentsim_meta_key_unique IF NOT EXISTS FOR (m:IntentsimMeta) REQUIRE m.key IS UNIQUE',
        'CREATE INDEX purchase_event_id IF NOT EXISTS FOR (e:PurchaseEvent) ON (e.id)',
        'CALL db.awaitIndexes(86400)',
        "MERGE (m:IntentsimMeta {key: 'schema'}) SET m.version = 1",
        "MERGE (c:IntentsimMeta {key: 'eventuality-id'}) ON CREATE SET c.next = 6 ON MATCH SET c.next = CASE WHEN c.next < 6 THEN 6 ELSE c.next END",
        "MERGE (c:IntentsimMeta {key: 'count.edges'}) SET c.count = 4",
        "MERGE (c:IntentsimMeta {key: 'content-id'}) SET c.value = randomUUID()",
        '',
      ].join(';\n'),
    );
    expect(read(out, 'neo4j-admin-import.sh')).toContain(result.command + '\n');
    // Same input, same bytes.
    const again = join(dir, 'small-again');
    await exportNeo4jAdmin(memorySource(nodes, edges), again, { batchSize: 2, database: 'aser' });
    for (const f of readdirSync(out).filter((f) => f.endsWith('.csv') || f.endsWith('.cypher')))
      expect(read(again, f), f).toBe(read(out, f));
  });

  it('omits --multiline-fields when no text has a line break', async () => {
    const out = join(dir, 'single-line');
    const result = await exportNeo4jAdmin(memorySource([{ id: 1, text: 'a', objects: [] }], []), out);
    expect(result.command).not.toContain('multiline');
    expect(result.command.split(' \\\n  ')[0]).toBe('neo4j-admin database import full neo4j');
  });

  it('round trip: a random SQLite store, exported and parsed back, is the same graph', async () => {
    const path = join(dir, 'roundtrip.sqlite');
    const fixture = randomFixture(9, 50, 200);
    const store = SqliteGraphStore.open(path, { mode: 'write' });
    await store.upsertNodes([...fixture.isolated!, 'PersonX buy a "quoted", phone']);
    await store.upsertEdges(fixture.edges);
    await store.upsertEdges([{ head: 'no sense head', tail: 'no sense tail', senses: {} }]);
    const counts = await store.counts();
    const ids = await store.lookupIds([
      ...new Set(fixture.edges.flatMap((e) => [e.head, e.tail])),
      ...fixture.isolated!,
      'no sense head',
      'no sense tail',
      'PersonX buy a "quoted", phone',
    ]);
    const expectedNeighbourhoods = await store.neighbourhoods([...ids.values()], 'incident');
    const purchase: Array<{ id: number; text: string; objects: string[] }> = [];
    for await (const b of store.purchaseEvents()) purchase.push(...b);
    await store.close();

    const out = join(dir, 'roundtrip');
    const source = sqliteDumpSource(path);
    let progressCalls = 0;
    const result = await exportNeo4jAdmin(source, out, { batchSize: 17, onProgress: () => progressCalls++ });
    await source.close();
    expect(progressCalls).toBeGreaterThan(2);
    expect({ nodes: result.nodes, edges: result.edges }).toEqual({ nodes: counts.nodes, edges: counts.edges });

    const nodeRows = parseCsv(read(out, 'nodes.csv'));
    expect(nodeRows[0]).toEqual([':ID(Eventuality)', 'id:long', 'text', 'purchaseObjects:string[]', ':LABEL']);
    const textById = new Map(nodeRows.slice(1).map((r) => [Number(r[0]), r[2]!]));
    expect([...textById.entries()].sort((a, b) => a[0] - b[0])).toEqual(
      [...ids.entries()].map(([t, id]) => [id, t]).sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    for (const r of nodeRows.slice(1)) expect(r[1]).toBe(r[0]);
    const gotPurchase = nodeRows
      .slice(1)
      .filter((r) => r[4] === 'Eventuality;PurchaseEvent')
      .map((r) => ({ id: Number(r[0]), text: r[2]!, objects: r[3]!.split(';') }));
    expect(gotPurchase).toEqual(purchase);
    expect(
      nodeRows
        .slice(1)
        .filter((r) => r[4] === 'Eventuality')
        .every((r) => r[3] === ''),
    ).toBe(true);

    // Relationships regrouped per (head, tail) must give back every edge with its senses.
    const edges = new Map<string, SenseWeights>();
    for (const type of [...RELATION_SENSES, 'NoSense']) {
      const file = join(out, `rel-${type}.csv`);
      if (!existsSync(file)) continue;
      const rows = parseCsv(readFileSync(file, 'utf8'));
      for (const r of rows.slice(1)) {
        const key = `${r[0]},${r[1]}`;
        const senses = edges.get(key) ?? {};
        if (type !== 'NoSense') senses[type as keyof SenseWeights] = Number(r[2]);
        expect(r[r.length - 1]).toBe(type);
        edges.set(key, senses);
      }
    }
    const expected = new Map<string, SenseWeights>();
    for (const n of expectedNeighbourhoods.values())
      for (const e of n.edges) expected.set(`${e.head},${e.tail}`, e.senses);
    expect(new Map([...edges].sort())).toEqual(new Map([...expected].sort()));
    expect(result.relationships.NoSense).toBe(1);
  });

  it('leaves no file behind when the source fails half-way', async () => {
    const out = join(dir, 'failed');
    await expect(exportNeo4jAdmin(memorySource([{ id: 1, text: 'a', objects: [] }], [], true), out)).rejects.toThrow(
      'source failed',
    );
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('intentsim graph export --neo4j-admin (CLI)', () => {
  it('exports a SQLite store and prints the import and schema commands', async () => {
    const path = join(dir, 'cli.sqlite');
    const store = SqliteGraphStore.open(path, { mode: 'write' });
    await store.upsertEdges([
      { head: 'PersonX buy a phone', tail: 'PersonX call mom', senses: { Result: 1 } },
      { head: 'PersonX call mom', tail: 'it rain', senses: {} },
    ]);
    await store.close();
    const out = join(dir, 'cli-out');
    const text = await cli(['graph', 'export', '--graph', path, '--neo4j-admin', out, '--database', 'aser']);
    expect(text).toContain(`${out}: 3 nodes, 2 edges (Result 1, NoSense 1)`);
    expect(text).toContain(`neo4j-admin database import full aser \\\n  --id-type=integer`);
    expect(text).toContain(`cypher-shell -d aser -f ${out}/schema.cypher`);
    expect(readdirSync(out).sort()).toEqual([
      'neo4j-admin-import.sh',
      'nodes.csv',
      'object-of.csv',
      'purchase-objects.csv',
      'rel-NoSense.csv',
      'rel-Result.csv',
      'schema.cypher',
    ]);
    const json = JSON.parse(await cli(['graph', 'export', '--graph', path, '--neo4j-admin', out, '--json'])) as {
      nodes: number;
      edges: number;
      command: string;
    };
    expect(json).toMatchObject({ nodes: 3, edges: 2 });
    expect(json.command.split(' \\\n  ')[0]).toBe('neo4j-admin database import full neo4j');
    await expect(cli(['graph', 'export', '--graph', 'bolt://u:pw@h:7687', '--neo4j-admin', out])).rejects.toThrow(
      /must be a SQLite graph store file, got a Neo4j URI \(bolt:\/\/\*\*\*@h:7687\)/,
    );
  });
});
