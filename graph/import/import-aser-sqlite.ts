// Imports ASER's own SQLite dump (the KG file ASER ships, e.g. KG.db):
//   Eventualities(_id TEXT PRIMARY KEY, words TEXT, …other columns, ignored)
//   Relations(_id TEXT PRIMARY KEY, hid TEXT, tid TEXT, Precedence REAL, …, Co_Occurrence REAL)
// Every eventuality becomes a node (isolated ones too: a matched node with no edge is a finding, not
// noise); every relation becomes an edge head → tail whose senses are the sense columns > 0, with
// their weights. Rows are read in rowid order, in batches; idempotent and resumable
// (graph/import/import-checkpoint.ts). Two eventualities with one _id are an error (a relation
// naming it would become an edge to each); under onError 'skip' the later rows are rejected and
// relations take the first.
import Database from 'better-sqlite3';
import { InputError } from '../../core/errors.js';
import { fileError, isSqliteFailure } from '../../core/file-errors.js';
import { describe } from '../../core/jsonl.js';
import { DEFAULT_MAX_TEXT_LENGTH, InputLimitError } from '../../core/jsonl-batches.js';
import { createProgress } from '../../core/progress.js';
import {
  CheckpointLog,
  DEFAULT_IMPORT_BATCH,
  emptySummary,
  supportsBulkLoad,
  type ImportSummary,
} from './import-checkpoint.js';
import type { ImportOptions } from './import-jsonl.js';
import {
  RELATION_SENSES,
  type EdgeInput,
  type GraphWriter,
  type RelationSense,
  type SenseWeights,
} from '../graph-store.js';

const KEY_COLUMNS = new Set(['_id', 'hid', 'tid']);

interface TableColumn {
  name: string;
  type: string;
}

/** Declared types that hold numbers (SQLite's type affinity rules: INT, REAL, FLOA, DOUB, NUMERIC, or none). */
function isNumericType(declared: string): boolean {
  const t = declared.toUpperCase();
  return t === '' || /INT|REAL|FLOA|DOUB|NUM|DEC/.test(t);
}

function columnsOf(db: Database.Database, table: string): TableColumn[] {
  return (db.prepare(`SELECT name, type FROM pragma_table_info(?)`).all(table) as TableColumn[]).map((c) => ({
    name: c.name,
    type: c.type ?? '',
  }));
}

/** True when some index (or the primary key) of `table` starts with `column`: joins on it are look-ups. */
function isIndexedOn(db: Database.Database, table: string, column: string): boolean {
  const indexes = db.prepare('SELECT name FROM pragma_index_list(?)').pluck().all(table) as string[];
  for (const index of indexes) {
    const first = db.prepare('SELECT name FROM pragma_index_info(?) WHERE seqno = 0').pluck().get(index) as
      string | undefined;
    if (first === column) return true;
  }
  return false;
}

interface SourceLayout {
  senses: RelationSense[];
  ignoredColumns: string[];
}

/** Checks the dump's tables and columns; whole-file problems are InputErrors without a line. */
function checkLayout(db: Database.Database, file: string): SourceLayout {
  const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  for (const table of ['Eventualities', 'Relations']) {
    if (!tables.has(table)) throw new InputError({ file, field: table }, `not an ASER SQLite dump: no table ${table}`);
  }
  const ev = new Set(columnsOf(db, 'Eventualities').map((c) => c.name));
  for (const col of ['_id', 'words']) {
    if (!ev.has(col))
      throw new InputError({ file, field: `Eventualities.${col}` }, `the Eventualities table has no column ${col}`);
  }
  const rel = columnsOf(db, 'Relations');
  const relNames = new Set(rel.map((c) => c.name));
  for (const col of KEY_COLUMNS) {
    if (!relNames.has(col))
      throw new InputError({ file, field: `Relations.${col}` }, `the Relations table has no column ${col}`);
  }
  const senses = RELATION_SENSES.filter((s) => relNames.has(s));
  const ignoredColumns: string[] = [];
  for (const c of rel) {
    if (KEY_COLUMNS.has(c.name) || (RELATION_SENSES as readonly string[]).includes(c.name)) continue;
    // A numeric column we do not know is most likely a relation sense of another ASER version:
    // importing without it would silently change the graph, so it is an error.
    if (isNumericType(c.type)) {
      throw new InputError(
        { file, field: `Relations.${c.name}` },
        `unknown relation sense column "${c.name}" (${c.type || 'no declared type'}); ASER's senses: ${RELATION_SENSES.join(', ')}`,
      );
    }
    ignoredColumns.push(c.name);
  }
  if (senses.length === 0)
    throw new InputError({ file, field: 'Relations' }, 'the Relations table has no relation sense column');
  if (!isIndexedOn(db, 'Eventualities', '_id')) {
    throw new InputError(
      { file, field: 'Eventualities._id' },
      `Eventualities._id has no index, so every relation would scan the whole table; add one first: ` +
        `sqlite3 ${JSON.stringify(file)} 'CREATE INDEX eventualities_id ON Eventualities(_id)'`,
    );
  }
  return { senses, ignoredColumns };
}

type EventualityRow = [rowid: number, id: unknown, words: unknown];

/** True when an index of Eventualities (its primary key, or a UNIQUE index on _id alone) keeps _id unique. */
function idIsUnique(db: Database.Database): boolean {
  const indexes = db.prepare('SELECT name, "unique" FROM pragma_index_list(?)').all('Eventualities') as Array<{
    name: string;
    unique: number;
  }>;
  return indexes.some(({ name, unique }) => {
    if (!unique) return false;
    const columns = db.prepare('SELECT name FROM pragma_index_info(?)').pluck().all(name) as string[];
    return columns.length === 1 && columns[0] === '_id';
  });
}

/** A row whose _id an earlier row has: the _id and the first row's rowid. */
interface RepeatedId {
  id: unknown;
  first: number;
}

/** Rows whose _id an earlier row has, by rowid; none to look for when an index keeps _id unique. */
function repeatedIds(db: Database.Database): Map<number, RepeatedId> {
  const repeats = new Map<number, RepeatedId>();
  if (idIsUnique(db)) return repeats;
  const groups = db
    .prepare(
      'SELECT _id, group_concat(rowid) FROM Eventualities WHERE _id IS NOT NULL GROUP BY _id HAVING count(*) > 1',
    )
    .raw()
    .all() as Array<[unknown, string]>;
  for (const [id, rowids] of groups) {
    const [first, ...later] = rowids
      .split(',')
      .map(Number)
      .sort((a, b) => a - b);
    for (const rowid of later) repeats.set(rowid, { id, first: first! });
  }
  return repeats;
}

function repeatedIdError(file: string, rowid: number, repeat: RepeatedId): InputError {
  return new InputError(
    { file, line: rowid, field: 'Eventualities._id' },
    `eventuality _id ${JSON.stringify(repeat.id)} is also on row ${repeat.first}: a relation naming it would become ` +
      'an edge to each of them; give each eventuality its own _id',
  );
}

export async function importAserSqlite(
  writer: GraphWriter,
  file: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = Date.now();
  const onError = options.onError ?? 'fail';
  if (onError === 'skip' && !options.rejects) throw new Error('importAserSqlite: onError "skip" needs a rejects sink');
  const batchSize = options.batchSize ?? DEFAULT_IMPORT_BATCH;
  if (!(Number.isInteger(batchSize) && batchSize >= 1))
    throw new RangeError(`batch size must be a positive integer, got ${batchSize}`);
  const maxTextLength = options.limits?.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH;
  const summary = emptySummary('aser-sqlite', file);
  const log = await CheckpointLog.open(writer, 'aser-sqlite', file, options.restart ?? false);

  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (err) {
    throw new InputError(
      { file },
      `cannot open as an ASER SQLite dump: ${(err as Error).message} (ASER's KG.db is one; JSONL edge lists are imported as jsonl)`,
    );
  }

  // A bad row stops the import, or (with --on-error skip) is counted and written to the rejects file.
  const bad = async (err: InputError, row: Record<string, unknown>) => {
    if (onError === 'fail') throw err;
    summary.rejected += 1;
    await options.rejects!.reject(err, JSON.stringify(row));
  };

  try {
    const { senses, ignoredColumns } = checkLayout(db, file);
    summary.ignoredColumns = ignoredColumns;
    const repeats = repeatedIds(db);
    // Found before anything is written: with onError 'fail' the import stops at the first.
    if (onError === 'fail' && repeats.size > 0) {
      const rowid = Math.min(...repeats.keys());
      throw repeatedIdError(file, rowid, repeats.get(rowid)!);
    }
    if (supportsBulkLoad(writer)) await writer.beginBulkLoad();
    const resume = log.resume;
    // Where each phase's writes resume: a finished phase is validated again but not written.
    const eventualitiesDone =
      resume.complete || resume.phase === 'relations'
        ? Number.POSITIVE_INFINITY
        : resume.phase === 'eventualities'
          ? resume.done
          : 0;
    const relationsDone = resume.complete ? Number.POSITIVE_INFINITY : resume.phase === 'relations' ? resume.done : 0;

    // ---- phase 1: eventualities → nodes
    const evPage = db
      .prepare('SELECT rowid, _id, words FROM Eventualities WHERE rowid > ? ORDER BY rowid LIMIT ?')
      .raw();
    const evTotal = (db.prepare('SELECT max(rowid) FROM Eventualities').pluck().get() as number | null) ?? 0;
    let progress = createProgress({ label: 'eventualities', total: evTotal, unit: 'nodes', enabled: options.progress });
    try {
      let after = 0;
      for (;;) {
        const rows = evPage.all(after, batchSize) as EventualityRow[];
        if (rows.length === 0) break;
        const texts: string[] = [];
        for (const [rowid, id, words] of rows) {
          summary.records += 1;
          const repeat = repeats.get(rowid);
          if (repeat) {
            await bad(repeatedIdError(file, rowid, repeat), { rowid, _id: id, words });
            continue;
          }
          if (typeof words !== 'string' || words.trim() === '') {
            await bad(
              new InputError(
                { file, line: rowid, field: 'Eventualities.words' },
                `eventuality _id ${JSON.stringify(id)}: expected a non-empty text, got ${describe(words)}`,
              ),
              { rowid, _id: id, words },
            );
            continue;
          }
          if (words.length > maxTextLength) {
            await bad(
              new InputLimitError(
                { file, line: rowid, field: 'Eventualities.words' },
                `eventuality _id ${JSON.stringify(id)}: ${longText(words, maxTextLength)}`,
                'maxTextLength',
              ),
              { rowid, _id: id, words: `${words.slice(0, 1000)}… (${words.length} characters)` },
            );
            continue;
          }
          if (rowid <= eventualitiesDone) summary.alreadyImported += 1;
          else texts.push(words);
        }
        after = rows[rows.length - 1]![0];
        if (texts.length > 0) {
          await writer.upsertNodes(texts);
          await log.record('eventualities', after);
          summary.nodesWritten += texts.length;
        }
        progress.increment(rows.length);
      }
    } finally {
      progress.stop();
    }

    // ---- phase 2: relations → edges (texts by joining on the ASER ids)
    // Each row brings only what an edge needs: the two texts, whether each end exists, the weights
    // (their JavaScript types tell numbers from text or blobs). The relation's own ids are read again
    // only for a bad row, to name it. Reading the rows was most of this phase's time (38 columns and
    // 3 id strings a row before); pages of at most 10,000 rows keep them short-lived, while writes
    // still go in batches of `batchSize`.
    // With repeated _ids (only under onError 'skip'), each end joins the first row of its _id, as
    // phase 1 kept it; otherwise a plain join on the _id index.
    const end = (alias: string, ref: string) =>
      repeats.size === 0
        ? `Eventualities AS ${alias} ON ${alias}._id = r.${ref}`
        : `Eventualities AS ${alias} ON ${alias}.rowid = (SELECT min(rowid) FROM Eventualities WHERE _id = r.${ref})`;
    const relPage = db
      .prepare(
        `SELECT r.rowid, h.words, t.words, h._id IS NOT NULL, t._id IS NOT NULL, ${senses.map((s) => `r."${s}"`).join(', ')}
         FROM Relations AS r
         LEFT JOIN ${end('h', 'hid')}
         LEFT JOIN ${end('t', 'tid')}
         WHERE r.rowid > ? ORDER BY r.rowid LIMIT ?`,
      )
      .raw();
    const relIds = db.prepare('SELECT _id, hid, tid FROM Relations WHERE rowid = ?').raw();
    const idsOf = (rowid: number): RelationIds => {
      const [id, hid, tid] = relIds.get(rowid) as [unknown, unknown, unknown];
      return { id, hid, tid };
    };
    const relTotal = (db.prepare('SELECT max(rowid) FROM Relations').pluck().get() as number | null) ?? 0;
    const pageSize = Math.min(batchSize, 10_000);
    progress = createProgress({ label: 'relations', total: relTotal, unit: 'edges', enabled: options.progress });
    try {
      let after = 0;
      let edges: EdgeInput[] = [];
      const flush = async () => {
        if (edges.length === 0) return;
        await writer.upsertEdges(edges);
        await log.record('relations', after);
        summary.edgesWritten += edges.length;
        edges = [];
      };
      for (;;) {
        const rows = relPage.all(after, pageSize) as unknown[][];
        if (rows.length === 0) break;
        for (const row of rows) {
          summary.records += 1;
          const edge = parseRelationRow(row, senses, file, idsOf, maxTextLength);
          if (edge instanceof InputError) {
            await bad(edge, relationRowObject(row, senses, idsOf));
            continue;
          }
          if (Object.keys(edge.senses).length === 0) summary.edgesWithoutSenses += 1;
          if ((row[0] as number) <= relationsDone) summary.alreadyImported += 1;
          else edges.push(edge);
        }
        after = rows[rows.length - 1]![0] as number;
        if (edges.length >= batchSize) await flush();
        progress.increment(rows.length);
      }
      await flush();
    } finally {
      progress.stop();
    }
    await log.record('relations', Number.MAX_SAFE_INTEGER, true);
  } catch (err) {
    // The store names itself in its errors; a SQLite failure that does not is the dump's.
    throw isSqliteFailure(err)
      ? fileError(err, file, {
          what: 'ASER dump',
          ifDamaged: 'get a sound copy of the dump (check it with sqlite3 FILE "PRAGMA integrity_check")',
        })
      : err;
  } finally {
    db.close();
  }
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

/** Where the sense columns start in a Relations page row. */
const SENSES_AT = 5;

/** A relation's own ids, read again only to name a bad row. */
interface RelationIds {
  id: unknown;
  hid: unknown;
  tid: unknown;
}

/** SQLite's name for the storage class of a non-null, non-numeric value better-sqlite3 returned. */
function storageClass(value: unknown): string {
  return typeof value === 'string' ? 'text' : 'blob';
}

/** One Relations row as an edge, or the InputError that says what is wrong with it. */
function parseRelationRow(
  row: unknown[],
  senses: readonly RelationSense[],
  file: string,
  idsOf: (rowid: number) => RelationIds,
  maxTextLength: number,
): EdgeInput | InputError {
  const [rowid, headWords, tailWords, headFound, tailFound] = row as [number, unknown, unknown, number, number];
  const where = (field: string) => ({ file, line: rowid, field: `Relations.${field}` });
  const label = () => `relation _id ${JSON.stringify(idsOf(rowid).id)}`;
  for (const [field, words, found] of [
    ['hid', headWords, headFound],
    ['tid', tailWords, tailFound],
  ] as const) {
    const ref = () => JSON.stringify(idsOf(rowid)[field]);
    if (typeof words === 'string' && found && words.trim() !== '') {
      if (words.length <= maxTextLength) continue;
      // Its eventuality was rejected for its length: the edge would create the node anyway.
      return new InputLimitError(
        where(field),
        `${label()}: eventuality ${ref()} has ${longText(words, maxTextLength)}`,
        'maxTextLength',
      );
    }
    if (!found) return new InputError(where(field), `${label()}: no eventuality with _id ${ref()}`);
    return new InputError(where(field), `${label()}: eventuality ${ref()} has no text (words is ${describe(words)})`);
  }
  const weights: SenseWeights = {};
  for (let i = 0; i < senses.length; i++) {
    const value = row[SENSES_AT + i];
    const sense = senses[i]!;
    if (value === null) continue;
    if (typeof value !== 'number')
      return new InputError(
        where(sense),
        `${label()}: expected a number, got ${storageClass(value)} ${JSON.stringify(value)}`,
      );
    if (!Number.isFinite(value) || value < 0)
      return new InputError(where(sense), `${label()}: expected a weight ≥ 0, got ${value}`);
    if (value > 0) weights[sense] = value;
  }
  return { head: headWords as string, tail: tailWords as string, senses: weights };
}

/** The reason a text is too long, as the JSONL reader words it. */
function longText(words: string, max: number): string {
  return `a text of ${words.length} characters, more than the limit of ${max} (maxTextLength)`;
}

function relationRowObject(
  row: unknown[],
  senses: readonly RelationSense[],
  idsOf: (rowid: number) => RelationIds,
): Record<string, unknown> {
  const { id, hid, tid } = idsOf(row[0] as number);
  const obj: Record<string, unknown> = { rowid: row[0], _id: id, hid, tid };
  senses.forEach((s, i) => (obj[s] = row[SENSES_AT + i]));
  return obj;
}
