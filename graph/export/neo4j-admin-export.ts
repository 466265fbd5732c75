// `intentsim graph export --neo4j-admin DIR`: writes a graph as the CSV files that
// `neo4j-admin database import full` reads — the fast path into Neo4j for hundreds of millions of
// rows (it writes the store files directly, with the database offline, instead of running
// transactions). The files follow the data model of neo4j-schema.ts exactly, so that after the
// import and DIR/schema.cypher (constraints, indexes, schema marker, id allocator) the database is
// what `graph import --to bolt://…` would have produced, ids included.
//
// Files (every one with its header line; ids are integers, in ID spaces per label):
//   nodes.csv             :ID(Eventuality),id:long,text,purchaseObjects:string[],:LABEL
//   purchase-objects.csv  :ID(PurchaseObject),name,:LABEL
//   object-of.csv         :START_ID(PurchaseObject),:END_ID(Eventuality),:TYPE
//   rel-<Sense>.csv       :START_ID(Eventuality),:END_ID(Eventuality),weight:double,:TYPE   (one per sense present)
//   rel-NoSense.csv       :START_ID(Eventuality),:END_ID(Eventuality),:TYPE                 (edges without senses)
//   schema.cypher         run with cypher-shell after the import
//   neo4j-admin-import.sh the import command line (also printed)
//
// Weights are `double`, not `float`: neo4j-admin's float is 32-bit and would round ASER's weights.
// CSV: every string field is quoted, a quote inside is doubled (RFC 4180, neo4j-admin's default
// since 5.0: no backslash escapes); a field with a line break needs --multiline-fields=true, which
// the printed command adds only when some text has one (it makes the import slower).
// Output is deterministic (nodes by id, edges by (head, tail)) and atomic (temporary files renamed
// into place once everything is written).
import { resolve, join } from 'node:path';
import Database from 'better-sqlite3';
import { openAtomicWriter, writeFileAtomic, type AtomicWriter } from '../../core/atomic.js';
import { SqliteGraphStore } from '../sqlite/sqlite-store.js';
import { SENSE_COLUMNS, sensesFromRow } from '../sqlite/sqlite-schema.js';
import { RELATION_SENSES, type NodeId, type RelationSense, type SenseWeights } from '../graph-store.js';
import {
  EDGE_COUNT_KEY,
  EVENTUALITY_LABEL,
  ID_ALLOCATOR_KEY,
  META_LABEL,
  CONTENT_ID_KEY,
  NO_SENSE_TYPE,
  OBJECT_OF_TYPE,
  PURCHASE_EVENT_LABEL,
  PURCHASE_OBJECT_LABEL,
  SCHEMA_META_KEY,
  SCHEMA_STATEMENTS,
  SCHEMA_VERSION,
} from '../neo4j/neo4j-schema.js';
import { UserError } from '../../core/errors.js';
import type { PathChecks } from '../../core/check-paths.js';

export interface DumpNode {
  id: NodeId;
  text: string;
  /** The node's purchase-event objects as the store recorded them ([] for other nodes). */
  objects: readonly string[];
}

export interface DumpEdge {
  head: NodeId;
  tail: NodeId;
  senses: SenseWeights;
}

/** Everything in a graph, in a stable order: nodes by id, edges by (head, tail). */
export interface GraphDumpSource {
  nodes(batchSize: number): AsyncIterable<DumpNode[]>;
  edges(batchSize: number): AsyncIterable<DumpEdge[]>;
  counts(): Promise<{ nodes: number; edges: number }>;
  close(): Promise<void>;
}

/** neo4j-admin's default array delimiter; an object phrase containing it cannot be written. */
export const ARRAY_DELIMITER = ';';

export interface Neo4jAdminExportOptions {
  /** The database name in the printed command; default `neo4j`. */
  database?: string;
  /** Rows read per batch from the source; default 50000. */
  batchSize?: number;
  /** Called after each batch with the rows (nodes or edges) written so far. */
  onProgress?: (rows: number) => void;
}

export interface Neo4jAdminExport {
  dir: string;
  /** Files written, relative to dir, in command-line order. */
  files: string[];
  nodes: number;
  edges: number;
  /** Relationships per type (an edge with k senses is k relationships). */
  relationships: Partial<Record<RelationSense | typeof NO_SENSE_TYPE, number>>;
  purchaseObjects: number;
  multilineFields: boolean;
  /** The `neo4j-admin database import full …` command line. */
  command: string;
  /** What to run after the import. */
  schemaCommand: string;
}

/** One CSV field holding a string: always quoted, quotes doubled. */
export function csvString(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

/** A `string[]` field: the elements joined by the array delimiter, quoted as one field. */
export function csvStringArray(values: readonly string[], what: string): string {
  for (const v of values) {
    if (v.includes(ARRAY_DELIMITER)) {
      throw new UserError(
        `cannot export ${what}: the purchase object ${JSON.stringify(v)} contains "${ARRAY_DELIMITER}", neo4j-admin's array delimiter`,
      );
    }
  }
  return values.length === 0 ? '' : csvString(values.join(ARRAY_DELIMITER));
}

/** A weight as neo4j-admin parses a double: JS's shortest round-trip form (e.g. `0.1`, `1e-7`). */
export function csvDouble(value: number): string {
  if (!Number.isFinite(value)) throw new UserError(`cannot export the weight ${value}: not a finite number`);
  return String(value);
}

/** Quotes a word for a POSIX shell when it has anything but safe characters. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

const NODES_HEADER = `:ID(${EVENTUALITY_LABEL}),id:long,text,purchaseObjects:string[],:LABEL\n`;
const OBJECTS_HEADER = `:ID(${PURCHASE_OBJECT_LABEL}),name,:LABEL\n`;
const OBJECT_OF_HEADER = `:START_ID(${PURCHASE_OBJECT_LABEL}),:END_ID(${EVENTUALITY_LABEL}),:TYPE\n`;
const SENSE_HEADER = `:START_ID(${EVENTUALITY_LABEL}),:END_ID(${EVENTUALITY_LABEL}),weight:double,:TYPE\n`;
const NO_SENSE_HEADER = `:START_ID(${EVENTUALITY_LABEL}),:END_ID(${EVENTUALITY_LABEL}),:TYPE\n`;

/** Collects one file's text in chunks, so that a file is written in few large writes. */
class CsvFile {
  rows = 0;
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(
    readonly name: string,
    private readonly writer: AtomicWriter,
  ) {}

  static async open(dir: string, name: string, header: string): Promise<CsvFile> {
    const file = new CsvFile(name, await openAtomicWriter(join(dir, name)));
    await file.writer.write(header);
    return file;
  }

  async row(line: string): Promise<void> {
    this.rows += 1;
    this.pending.push(line, '\n');
    this.pendingLength += line.length + 1;
    if (this.pendingLength >= 1 << 20) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    await this.writer.write(text);
  }

  async commit(): Promise<void> {
    await this.flush();
    await this.writer.commit();
  }

  async abort(): Promise<void> {
    await this.writer.abort();
  }
}

/** The paths `graph export` reads and writes (core/check-paths.ts). */
export function neo4jAdminExportPaths(graph: string, neo4jAdmin: string): PathChecks {
  return { inputFiles: { graph }, outputDirs: { neo4jAdmin } };
}

export async function exportNeo4jAdmin(
  source: GraphDumpSource,
  dirArg: string,
  options: Neo4jAdminExportOptions = {},
): Promise<Neo4jAdminExport> {
  const dir = resolve(dirArg);
  const batchSize = options.batchSize ?? 50_000;
  const database = options.database ?? 'neo4j';
  const nodesFile = await CsvFile.open(dir, 'nodes.csv', NODES_HEADER);
  const objectOfFile = await CsvFile.open(dir, 'object-of.csv', OBJECT_OF_HEADER);
  const senseFiles = new Map<string, CsvFile>();
  const open: CsvFile[] = [nodesFile, objectOfFile];
  const objectIds = new Map<string, number>();
  let multiline = false;
  let nodes = 0;
  let edges = 0;
  let maxId = 0;
  const relFile = async (type: string): Promise<CsvFile> => {
    let file = senseFiles.get(type);
    if (file === undefined) {
      file = await CsvFile.open(dir, `rel-${type}.csv`, type === NO_SENSE_TYPE ? NO_SENSE_HEADER : SENSE_HEADER);
      senseFiles.set(type, file);
      open.push(file);
    }
    return file;
  };
  try {
    for await (const batch of source.nodes(batchSize)) {
      for (const node of batch) {
        if (/[\r\n]/.test(node.text)) multiline = true;
        const objects = [...new Set(node.objects)];
        const labels =
          objects.length > 0 ? `${EVENTUALITY_LABEL}${ARRAY_DELIMITER}${PURCHASE_EVENT_LABEL}` : EVENTUALITY_LABEL;
        await nodesFile.row(
          `${node.id},${node.id},${csvString(node.text)},${csvStringArray(objects, `node ${node.id}`)},${labels}`,
        );
        for (const object of objects) {
          if (/[\r\n]/.test(object)) multiline = true;
          let objectId = objectIds.get(object);
          if (objectId === undefined) objectIds.set(object, (objectId = objectIds.size));
          await objectOfFile.row(`${objectId},${node.id},${OBJECT_OF_TYPE}`);
        }
        maxId = Math.max(maxId, node.id);
      }
      nodes += batch.length;
      options.onProgress?.(nodes);
    }
    for await (const batch of source.edges(batchSize)) {
      for (const edge of batch) {
        let any = false;
        for (const sense of RELATION_SENSES) {
          const w = edge.senses[sense];
          if (w === undefined) continue;
          any = true;
          await (await relFile(sense)).row(`${edge.head},${edge.tail},${csvDouble(w)},${sense}`);
        }
        if (!any) await (await relFile(NO_SENSE_TYPE)).row(`${edge.head},${edge.tail},${NO_SENSE_TYPE}`);
      }
      edges += batch.length;
      options.onProgress?.(nodes + edges);
    }
    // Purchase objects last: their ids were assigned in order of first appearance above.
    const objectsFile = await CsvFile.open(dir, 'purchase-objects.csv', OBJECTS_HEADER);
    open.push(objectsFile);
    for (const [object, id] of objectIds) await objectsFile.row(`${id},${csvString(object)},${PURCHASE_OBJECT_LABEL}`);
    for (const file of open) await file.commit();
  } catch (err) {
    for (const file of open) await file.abort();
    throw err;
  }

  const relTypes = [...RELATION_SENSES, NO_SENSE_TYPE].filter((t) => senseFiles.has(t));
  const files = ['nodes.csv', 'purchase-objects.csv', 'object-of.csv', ...relTypes.map((t) => `rel-${t}.csv`)];
  const command = [
    // The database name comes first: since Neo4j 5.19 it must precede the repeatable options.
    `neo4j-admin database import full ${shellQuote(database)}`,
    '--id-type=integer',
    `--array-delimiter=${shellQuote(ARRAY_DELIMITER)}`,
    ...(multiline ? ['--multiline-fields=true'] : []),
    `--nodes=${shellQuote(join(dir, 'nodes.csv'))}`,
    `--nodes=${shellQuote(join(dir, 'purchase-objects.csv'))}`,
    `--relationships=${shellQuote(join(dir, 'object-of.csv'))}`,
    ...relTypes.map((t) => `--relationships=${shellQuote(join(dir, `rel-${t}.csv`))}`),
  ].join(' \\\n  ');
  const schemaCommand = `cypher-shell -d ${shellQuote(database)} -f ${shellQuote(join(dir, 'schema.cypher'))}`;
  await writeFileAtomic(join(dir, 'schema.cypher'), schemaScript(maxId + 1, edges));
  await writeFileAtomic(
    join(dir, 'neo4j-admin-import.sh'),
    '#!/bin/sh\n# Run with the Neo4j server stopped (or the target database absent), then start it and run:\n' +
      `#   ${schemaCommand}\nset -e\n${command}\n`,
  );
  const relationships: Neo4jAdminExport['relationships'] = {};
  for (const t of relTypes) relationships[t as RelationSense] = senseFiles.get(t)!.rows;
  return {
    dir,
    files: [...files, 'schema.cypher', 'neo4j-admin-import.sh'],
    nodes,
    edges,
    relationships,
    purchaseObjects: objectIds.size,
    multilineFields: multiline,
    command,
    schemaCommand,
  };
}

/**
 * What initNeo4jSchema does, as a cypher-shell script: constraints and indexes, wait for them, mark
 * the database, start the id allocator after the largest exported id, and set the edge counter to
 * the number of edges exported. The numbers are ones this program computed, not input text.
 */
export function schemaScript(nextId: number, edges: number): string {
  return (
    [
      '// intentsim: run after `neo4j-admin database import full` (cypher-shell -f schema.cypher).',
      ...SCHEMA_STATEMENTS,
      'CALL db.awaitIndexes(86400)',
      `MERGE (m:${META_LABEL} {key: '${SCHEMA_META_KEY}'}) SET m.version = ${SCHEMA_VERSION}`,
      `MERGE (c:${META_LABEL} {key: '${ID_ALLOCATOR_KEY}'}) ON CREATE SET c.next = ${nextId} ON MATCH SET c.next = CASE WHEN c.next < ${nextId} THEN ${nextId} ELSE c.next END`,
      `MERGE (c:${META_LABEL} {key: '${EDGE_COUNT_KEY}'}) SET c.count = ${edges}`,
      // Each load of the export is a database of its own: a fresh content id (neo4j-schema.ts).
      `MERGE (c:${META_LABEL} {key: '${CONTENT_ID_KEY}'}) SET c.value = randomUUID()`,
    ].join(';\n') + ';\n'
  );
}

// ---------------------------------------------------------------- the SQLite store as a source

/**
 * Reads a SQLite graph store (graph/sqlite/sqlite-store.ts) page by page with keyset pagination. The file
 * is first opened through SqliteGraphStore, which checks its format, schema version and that its
 * purchase index matches the current parser; then its tables are read directly (GraphStore has no
 * "every node" iteration, and this is the only caller that needs one).
 */
export function sqliteDumpSource(path: string): GraphDumpSource {
  const checked = SqliteGraphStore.open(path, { mode: 'read' });
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const nodePage = db.prepare('SELECT id, text, purchase_objects FROM nodes WHERE id > ? ORDER BY id LIMIT ?').raw();
  const edgePage = db
    .prepare(`SELECT head, tail, ${SENSE_COLUMNS} FROM edges WHERE (head, tail) > (?, ?) ORDER BY head, tail LIMIT ?`)
    .raw();
  return {
    async *nodes(batchSize) {
      let after = -1;
      for (;;) {
        const rows = nodePage.all(after, batchSize) as Array<[number, string, string | null]>;
        if (rows.length === 0) return;
        yield rows.map(([id, text, objects]) => ({
          id,
          text,
          objects: objects === null ? [] : (JSON.parse(objects) as string[]),
        }));
        after = rows[rows.length - 1]![0];
      }
    },
    async *edges(batchSize) {
      let afterHead = -1;
      let afterTail = -1;
      for (;;) {
        const rows = edgePage.all(afterHead, afterTail, batchSize) as Array<[number, number, ...(number | null)[]]>;
        if (rows.length === 0) return;
        yield rows.map((row) => ({ head: row[0], tail: row[1], senses: sensesFromRow(row, 2) }));
        const last = rows[rows.length - 1]!;
        afterHead = last[0];
        afterTail = last[1];
      }
    },
    async counts() {
      const { nodes, edges } = await checked.counts();
      return { nodes, edges };
    },
    async close() {
      db.close();
      await checked.close();
    },
  };
}
