// The Neo4j graph store: the GraphStore (and GraphWriter) contract of the embedded SQLite store,
// served by a Neo4j 5+ server through neo4j-driver. The data model and id allocation are described
// in neo4j-schema.ts, every query in neo4j-queries.ts, result decoding in neo4j-rows.ts, the
// transaction layer (managed transactions, retries) in neo4j-runner.ts, errors in neo4j-errors.ts.
//
// openNeo4jGraphStore opens a database for reading and refuses one that intentsim never
// initialised; openNeo4jGraphWriter creates the schema idempotently and is what
// `intentsim graph import --to bolt://…` uses (through graph/open-store.ts).
import { randomUUID } from 'node:crypto';
import neo4j, { type AuthToken } from 'neo4j-driver';
import { parsePurchaseEvent } from '../purchase-events.js';
import { redact } from '../../core/redact.js';
import { chunks } from '../chunks.js';
import { validateNodeTexts, validatedSenseMask } from '../writer-input.js';
import {
  RELATION_SENSES,
  type EdgeInput,
  type GraphCounts,
  type GraphEdge,
  type GraphStore,
  type GraphWriter,
  type Neighbourhood,
  type NeighbourhoodMode,
  type NodeId,
  type PurchaseEventNode,
  type RelationSense,
} from '../graph-store.js';
import { resolveNeo4jConnection, type Neo4jConnectionOptions, type ResolvedNeo4jConnection } from './neo4j-config.js';
import {
  mapNeo4jError,
  schemaMissingError,
  schemaVersionError,
  serverVersionError,
  unexpectedRowError,
  type Neo4jErrorContext,
} from './neo4j-errors.js';
import {
  ANY_EDGE_STATEMENT,
  AWAIT_INDEXES_STATEMENT,
  CONTENT_ID_KEY,
  EDGE_COUNT_KEY,
  INIT_EDGE_COUNT_STATEMENT,
  ID_ALLOCATOR_KEY,
  INIT_ID_ALLOCATOR_STATEMENT,
  MARK_SCHEMA_STATEMENT,
  MAX_EVENTUALITY_ID_STATEMENT,
  MIN_NEO4J_MAJOR_VERSION,
  READ_SCHEMA_MARKER_STATEMENT,
  SCHEMA_META_KEY,
  SCHEMA_STATEMENTS,
  SCHEMA_VERSION,
  SERVER_COMPONENTS_STATEMENT,
  parseServerComponents,
  type ServerVersion,
} from './neo4j-schema.js';
import {
  countEdgesQuery,
  countNodesQuery,
  countPurchaseNodesQuery,
  createNodesQuery,
  degreesQuery,
  lookupIdsQuery,
  neighbourhoodEdgePageQuery,
  neighbourhoodMembersQuery,
  neighbourhoodsQuery,
  nodeTextsQuery,
  purchaseEventsPageQuery,
  purchaseNodesByObjectQuery,
  readMetaQuery,
  reserveIdsQuery,
  upsertEdgesQuery,
  writeMetaQuery,
  addEdgeCountQuery,
  readEdgeCountQuery,
  type EdgeKey,
  type EdgeRow,
} from './neo4j-queries.js';
import {
  RowShapeError,
  countField,
  decodeDegreeRows,
  decodeEdgePageRows,
  decodeIdTextRows,
  decodeNeighbourhoodRow,
  decodePurchaseEventRows,
  decodePurchaseNodeRows,
  decodeTextIdRows,
  nodeIdField,
} from './neo4j-rows.js';
import { createDriverRunner, type CypherRunner, type CypherTransaction, type Statement } from './neo4j-runner.js';
import { UserError } from '../../core/errors.js';

export interface Neo4jStoreOptions extends Neo4jConnectionOptions {
  /** Ids per neighbourhood / degree query (one UNWIND batch); default 500. */
  neighbourhoodBatchSize?: number;
  /** Texts or ids per look-up query; default 10000. */
  lookupBatchSize?: number;
  /** Edges per write transaction (graph import's --batch is split into these); default 5000. */
  writeBatchSize?: number;
  /** Seconds to wait for new indexes to come online when creating the schema; default 600. */
  awaitIndexesSeconds?: number;
}

interface StoreSizes {
  neighbourhoodBatch: number;
  lookupBatch: number;
  writeBatch: number;
}

/** Members of N(v) handled per streamNeighbourhood query. */
const HEADS_PER_PAGE = 1000;
/** Smallest page streamNeighbourhood asks for, however small its batchSize (batches are cut from pages). */
const MIN_PAGE = 256;

/** Distinct ids that can be node ids at all (anything else is simply not a node). */
function candidateIds(ids: readonly NodeId[]): NodeId[] {
  return [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id >= 0);
}

export class Neo4jGraphStore implements GraphStore, GraphWriter {
  readonly kind = 'neo4j' as const;
  private closed = false;

  constructor(
    private readonly runner: CypherRunner,
    private readonly ctx: Neo4jErrorContext,
    private readonly writable: boolean,
    private readonly sizes: StoreSizes,
    /** The server's version, when known (null for a test runner). */
    readonly server: ServerVersion | null = null,
  ) {}

  // ---------------------------------------------------------------- plumbing

  private assertOpen(): void {
    if (this.closed) throw new Error(`the Neo4j store at ${this.ctx.displayUri} is closed`);
  }

  private async read<T>(work: (tx: CypherTransaction) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.decoding(() => this.runner.read(work));
  }

  private async write<T>(work: (tx: CypherTransaction) => Promise<T>): Promise<T> {
    this.assertOpen();
    if (!this.writable) {
      throw new UserError(
        `the Neo4j store at ${this.ctx.displayUri} is open for reading; writes go through openGraphWriter (graph import --to)`,
      );
    }
    return this.decoding(() => this.runner.write(work));
  }

  /** Row-shape problems and a missing allocator become errors that say where and what to do. */
  private async decoding<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof QueryShapeError) throw unexpectedRowError(this.ctx, err.query, err.message);
      if (err instanceof MissingAllocatorError) throw schemaMissingError(this.ctx);
      throw err;
    }
  }

  /** Decodes rows; a row of the wrong shape becomes an error that says where and which query. */
  private decode<T>(query: string, run: () => T): T {
    try {
      return run();
    } catch (err) {
      if (err instanceof RowShapeError) throw unexpectedRowError(this.ctx, query, err.message);
      throw err;
    }
  }

  // ---------------------------------------------------------------- reads

  async lookupIds(texts: readonly string[]): Promise<Map<string, NodeId>> {
    const out = new Map<string, NodeId>();
    for (const part of chunks([...new Set(texts)], this.sizes.lookupBatch)) {
      const rows = await this.read((tx) => tx.run(lookupIdsQuery(part)));
      for (const [text, id] of this.decode('lookupIds', () => decodeTextIdRows(rows))) out.set(text, id);
    }
    return out;
  }

  async nodeTexts(ids: readonly NodeId[]): Promise<Map<NodeId, string>> {
    const out = new Map<NodeId, string>();
    for (const part of chunks(candidateIds(ids), this.sizes.lookupBatch)) {
      const rows = await this.read((tx) => tx.run(nodeTextsQuery(part)));
      for (const [id, text] of this.decode('nodeTexts', () => decodeIdTextRows(rows))) out.set(id, text);
    }
    return out;
  }

  async neighbourhoods(ids: readonly NodeId[], mode: NeighbourhoodMode): Promise<Map<NodeId, Neighbourhood>> {
    assertMode(mode);
    const out = new Map<NodeId, Neighbourhood>();
    for (const part of chunks(candidateIds(ids), this.sizes.neighbourhoodBatch)) {
      const query = neighbourhoodsQuery(part, mode);
      const rows = await this.read((tx) => tx.run(query));
      for (const row of rows) {
        const n = this.decode(query.name, () => decodeNeighbourhoodRow(row));
        out.set(n.node, n);
      }
    }
    return out;
  }

  /**
   * Walks the members of N(v) in ascending id order, a chunk of heads per query and a bounded page
   * of edges per query (keyset pagination), so that a hub's neighbourhood is never materialised at
   * once: memory is one page plus one batch. Each page is its own read transaction; pages of a hub
   * whose neighbourhood changes while it is streamed may mix before/after states (imports and reads
   * are not normally concurrent).
   */
  async *streamNeighbourhood(id: NodeId, mode: NeighbourhoodMode, batchSize = 10_000): AsyncIterable<GraphEdge[]> {
    assertMode(mode);
    if (!(batchSize >= 1)) throw new RangeError(`streamNeighbourhood: batchSize must be ≥ 1, got ${batchSize}`);
    if (!Number.isSafeInteger(id) || id < 0) return;
    const memberQuery = neighbourhoodMembersQuery(id);
    const memberRows = await this.read((tx) => tx.run(memberQuery));
    const first = memberRows[0];
    if (first === undefined) return;
    const neighbourIds = this.decode(memberQuery.name, () => {
      const list = first.neighbourIds;
      if (!Array.isArray(list)) throw new RowShapeError('neighbourIds is not a list');
      return list.map((n) => nodeIdField(n, 'neighbourIds[]'));
    });
    const heads = [...new Set([id, ...neighbourIds])].sort((a, b) => a - b);
    const pageLimit = Math.max(batchSize, MIN_PAGE);
    let buffer: GraphEdge[] = [];
    for (const chunk of chunks(heads, HEADS_PER_PAGE)) {
      let after: EdgeKey = { head: -1, tail: -1 };
      for (;;) {
        const query = neighbourhoodEdgePageQuery(id, mode, chunk, after, pageLimit);
        const rows = await this.read((tx) => tx.run(query));
        const edges = this.decode(query.name, () => decodeEdgePageRows(rows));
        buffer.push(...edges);
        while (buffer.length >= batchSize) {
          yield buffer.slice(0, batchSize);
          buffer = buffer.slice(batchSize);
        }
        if (edges.length < pageLimit) break;
        const last = edges[edges.length - 1]!;
        after = { head: last.head, tail: last.tail };
      }
    }
    if (buffer.length > 0) yield buffer;
  }

  async degrees(ids: readonly NodeId[]): Promise<Map<NodeId, { neighbours: number; incidentEdges: number }>> {
    const out = new Map<NodeId, { neighbours: number; incidentEdges: number }>();
    for (const part of chunks(candidateIds(ids), this.sizes.neighbourhoodBatch)) {
      const rows = await this.read((tx) => tx.run(degreesQuery(part)));
      for (const [id, d] of this.decode('degrees', () => decodeDegreeRows(rows))) out.set(id, d);
    }
    return out;
  }

  async purchaseNodesByObject(objects: readonly string[]): Promise<Map<string, NodeId[]>> {
    const out = new Map<string, NodeId[]>();
    for (const part of chunks([...new Set(objects)], this.sizes.lookupBatch)) {
      const rows = await this.read((tx) => tx.run(purchaseNodesByObjectQuery(part)));
      for (const [object, ids] of this.decode('purchaseNodesByObject', () => decodePurchaseNodeRows(rows)))
        out.set(object, ids);
    }
    return out;
  }

  async *purchaseEvents(batchSize = 10_000): AsyncIterable<PurchaseEventNode[]> {
    if (!(batchSize >= 1)) throw new RangeError(`purchaseEvents: batchSize must be ≥ 1, got ${batchSize}`);
    let after = -1;
    for (;;) {
      const rows = await this.read((tx) => tx.run(purchaseEventsPageQuery(after, batchSize)));
      const events = this.decode('purchaseEventsPage', () => decodePurchaseEventRows(rows));
      if (events.length === 0) return;
      yield events;
      if (events.length < batchSize) return;
      after = events[events.length - 1]!.id;
    }
  }

  /**
   * Node and purchase-node counts come from Neo4j's count store and the edge count from the edge
   * counter (constant time); a database without the counter (bulk-loaded without schema.cypher's
   * count, or written by another program) gets its edges counted by walking every relationship.
   */
  async counts(): Promise<GraphCounts> {
    return this.read(async (tx) => {
      const [nodes] = await tx.run(countNodesQuery());
      const [purchase] = await tx.run(countPurchaseNodesQuery());
      const [counter] = await tx.run(readEdgeCountQuery());
      const [edges] =
        counter?.edges === null || counter?.edges === undefined ? await tx.run(countEdgesQuery()) : [counter];
      return this.decode('counts', () => ({
        nodes: countField(nodes?.nodes, 'nodes'),
        edges: countField(edges?.edges, 'edges'),
        purchaseNodes: countField(purchase?.purchaseNodes, 'purchaseNodes'),
      }));
    });
  }

  // ---------------------------------------------------------------- writes

  async upsertNodes(texts: readonly string[]): Promise<Map<string, NodeId>> {
    validateNodeTexts(texts);
    const out = new Map<string, NodeId>();
    for (const part of chunks([...new Set(texts)], this.sizes.lookupBatch)) {
      const ids = await this.write(async (tx) => {
        await tx.run(renewContentIdQuery());
        return ensureNodes(tx, part);
      });
      for (const [text, id] of ids) out.set(text, id);
    }
    return out;
  }

  /**
   * Validates the whole batch first (a bad edge writes nothing), then writes it in transactions of
   * writeBatchSize edges: each creates the missing nodes and sets the edges' senses, idempotently.
   * Within a call, the last writing of a (head, tail) wins, as in the SQLite store.
   */
  async upsertEdges(edges: readonly EdgeInput[]): Promise<void> {
    const rows = validateEdges(edges);
    for (const part of chunks(rows, this.sizes.writeBatch)) {
      // Later writings of one (head, tail) replace earlier ones: keep the last, so that no two rows
      // of one UNWIND touch the same edge.
      const byPair = new Map<string, (typeof rows)[number]>();
      for (const row of part) {
        const key = `${row.head}\u0000${row.tail}`;
        byPair.delete(key);
        byPair.set(key, row);
      }
      const unique = [...byPair.values()];
      await this.write(async (tx) => {
        // Texts in order of first appearance, so that new nodes get ids in input order (as in SQLite).
        await tx.run(renewContentIdQuery());
        const texts = [...new Set(part.flatMap((e) => [e.head, e.tail]))];
        const ids = await ensureNodes(tx, texts);
        const edgeRows: EdgeRow[] = unique.map((e) => ({
          head: ids.get(e.head)!,
          tail: ids.get(e.tail)!,
          senses: e.senses,
        }));
        const [result] = await tx.run(upsertEdgesQuery(edgeRows));
        const created = decode('upsertEdges', () => countField(result?.created, 'created'));
        if (created > 0) await tx.run(addEdgeCountQuery(created));
      });
    }
  }

  /** Import checkpoints (graph/import/import-checkpoint.ts): kept on :IntentsimMeta nodes, so an interrupted `graph import --to bolt://…` resumes. */
  async readCheckpoint(key: string): Promise<string | undefined> {
    const rows = await this.read((tx) => tx.run(readMetaQuery(`import:${key}`)));
    const value = rows[0]?.value;
    return typeof value === 'string' ? value : undefined;
  }

  /**
   * The content id (neo4j-schema.ts): drawn when an intentsim writer created the schema and
   * redrawn by each of its write transactions; undefined for a database no intentsim writer has
   * opened since content ids were kept (then nothing derived from it is cached or shared).
   */
  async contentId(): Promise<string | undefined> {
    const rows = await this.read((tx) => tx.run(readMetaQuery(CONTENT_ID_KEY)));
    const value = rows[0]?.value;
    return typeof value === 'string' ? `id:${value}` : undefined;
  }

  async writeCheckpoint(key: string, value: string): Promise<void> {
    await this.write((tx) => tx.run(writeMetaQuery(`import:${key}`, value)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.runner.close();
  }
}

/** Draws a new content id (neo4j-schema.ts), inside a write transaction. */
function renewContentIdQuery(): ReturnType<typeof writeMetaQuery> {
  return writeMetaQuery(CONTENT_ID_KEY, randomUUID());
}

/** A RowShapeError with the name of the query whose rows were malformed. */
class QueryShapeError extends Error {
  constructor(
    readonly query: string,
    message: string,
  ) {
    super(message);
  }
}

function decode<T>(query: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof RowShapeError) throw new QueryShapeError(query, err.message);
    throw err;
  }
}

function assertMode(mode: NeighbourhoodMode): void {
  if (mode !== 'induced' && mode !== 'incident')
    throw new Error(`neighbourhood mode must be "induced" or "incident", got "${String(mode)}"`);
}

interface ValidEdge {
  head: string;
  tail: string;
  senses: Array<{ sense: RelationSense; weight: number }>;
}

/** The whole batch validated (graph/writer-input.ts, as in the SQLite store), each edge's senses in RELATION_SENSES order. */
function validateEdges(edges: readonly EdgeInput[]): ValidEdge[] {
  const weights = new Array<number>(RELATION_SENSES.length).fill(0);
  return edges.map((e) => {
    const mask = validatedSenseMask(e, weights);
    const senses: ValidEdge['senses'] = [];
    RELATION_SENSES.forEach((sense, c) => {
      if ((mask & (1 << c)) !== 0) senses.push({ sense, weight: weights[c]! });
    });
    return { head: e.head, tail: e.tail, senses };
  });
}

/**
 * The ids of `texts` (distinct), creating the missing nodes inside the caller's write transaction:
 * look up, reserve fresh ids for the missing ones, MERGE them (see neo4j-schema.ts, "Node ids").
 * Everything is recomputed from the transaction's own reads, so a retried transaction starts clean.
 */
async function ensureNodes(tx: CypherTransaction, texts: readonly string[]): Promise<Map<string, NodeId>> {
  if (texts.length === 0) return new Map();
  const existingRows = await tx.run(lookupIdsQuery(texts));
  const ids = decode('lookupIds', () => decodeTextIdRows(existingRows));
  const missing = texts.filter((text) => !ids.has(text));
  if (missing.length > 0) {
    const reserved = await tx.run(reserveIdsQuery(missing.length));
    if (reserved.length === 0) throw new MissingAllocatorError();
    const first = decode('reserveIds', () => nodeIdField(reserved[0]!.first, 'first'));
    const created = await tx.run(
      createNodesQuery(
        missing.map((text, i) => ({ text, id: first + i, objects: [...new Set(parsePurchaseEvent(text))] })),
      ),
    );
    for (const [text, id] of decode('createNodes', () => decodeTextIdRows(created))) ids.set(text, id);
  }
  for (const text of texts) {
    if (!ids.has(text))
      throw new QueryShapeError(
        'createNodes',
        `no id came back for the node text ${JSON.stringify(text.slice(0, 80))}`,
      );
  }
  return ids;
}

/** The id allocator node is missing: the database was not initialised by openNeo4jGraphWriter. */
class MissingAllocatorError extends Error {
  constructor() {
    super('the id allocator node is missing');
  }
}

// ---------------------------------------------------------------- opening

/** A driver, checked to answer and to be new enough, with the runner and error context around it. */
interface Connection {
  config: ResolvedNeo4jConnection;
  ctx: Neo4jErrorContext;
  runner: CypherRunner;
  server: ServerVersion;
}

async function connect(url: string | undefined, options: Neo4jStoreOptions): Promise<Connection> {
  const config = resolveNeo4jConnection({ ...options, uri: url ?? options.uri });
  const ctx: Neo4jErrorContext = {
    displayUri: config.displayUri,
    database: config.database,
    secrets: config.secrets,
    ...(config.auth ? { user: config.auth.user } : {}),
  };
  let driver: ReturnType<typeof neo4j.driver>;
  try {
    driver = neo4j.driver(
      config.uri,
      config.auth ? neo4j.auth.basic(config.auth.user, config.auth.password) : NO_AUTH,
      {
        maxConnectionPoolSize: config.maxConnectionPoolSize,
        fetchSize: config.fetchSize,
        maxTransactionRetryTime: config.maxTransactionRetryTimeMs,
        connectionTimeout: config.connectionTimeoutMs,
        // Ids and counts come back as JS numbers (they stay far below 2^53).
        disableLosslessIntegers: true,
        userAgent: 'intentsim',
      },
    );
  } catch (err) {
    // The driver refuses the URL itself (e.g. `?…` parameters on a bolt:// URL): a user's error.
    const reason = (err as Error).message.replace(/\s*Given URL:[\s\S]*$/, '').replace(/\.+$/, '');
    throw new UserError(
      `the Neo4j driver refuses the URL ${ctx.displayUri} (${redact(reason, ctx.secrets)}); ` +
        '`?` parameters are for neo4j:// routing only: give the password in NEO4J_PASSWORD',
      { cause: err },
    );
  }
  const runner = createDriverRunner(driver, {
    database: config.database,
    fetchSize: config.fetchSize,
    errorContext: ctx,
  });
  try {
    await driver.verifyConnectivity({ database: config.database });
    const components = await runner.read((tx) => tx.run(statement('serverComponents', SERVER_COMPONENTS_STATEMENT)));
    const server = parseServerComponents(components);
    if (server.major < MIN_NEO4J_MAJOR_VERSION) throw serverVersionError(ctx, server.version);
    return { config, ctx, runner, server };
  } catch (err) {
    await driver.close().catch(() => undefined);
    throw mapNeo4jError(err, ctx);
  }
}

/** What neo4j.auth.none() returns (not in the driver's type declarations): connect without authentication. */
const NO_AUTH = { scheme: 'none' } as AuthToken;

function statement(name: string, text: string, params: Record<string, unknown> = {}): Statement {
  return { name, text, params };
}

function sizesFrom(options: Neo4jStoreOptions): StoreSizes {
  const size = (name: string, value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${name} must be a positive integer, got ${value}`);
    return value;
  };
  return {
    neighbourhoodBatch: size('neighbourhoodBatchSize', options.neighbourhoodBatchSize, 500),
    lookupBatch: size('lookupBatchSize', options.lookupBatchSize, 10_000),
    writeBatch: size('writeBatchSize', options.writeBatchSize, 5_000),
  };
}

/** Refuses a database without the intentsim schema marker, or with another schema version. */
export async function checkNeo4jSchema(runner: CypherRunner, ctx: Neo4jErrorContext): Promise<void> {
  const rows = await runner.read((tx) =>
    tx.run(statement('readSchemaMarker', READ_SCHEMA_MARKER_STATEMENT, { key: SCHEMA_META_KEY })),
  );
  const version = rows[0]?.version;
  if (version === null || version === undefined) throw schemaMissingError(ctx);
  if (version !== SCHEMA_VERSION) throw schemaVersionError(ctx, version, SCHEMA_VERSION);
}

/**
 * Creates the constraints and indexes (each `IF NOT EXISTS`, each in its own transaction: Neo4j
 * does not mix schema and data changes), waits for them to come online, marks the database and
 * sets up the id allocator and (on a database without edges) the edge counter. Safe to run any number of times, also on a database loaded by
 * `neo4j-admin database import`.
 */
export async function initNeo4jSchema(
  runner: CypherRunner,
  ctx: Neo4jErrorContext,
  awaitIndexesSeconds = 600,
): Promise<void> {
  const marker = await runner.read((tx) =>
    tx.run(statement('readSchemaMarker', READ_SCHEMA_MARKER_STATEMENT, { key: SCHEMA_META_KEY })),
  );
  const found = marker[0]?.version;
  if (found !== null && found !== undefined && found !== SCHEMA_VERSION)
    throw schemaVersionError(ctx, found, SCHEMA_VERSION);
  for (const [i, text] of SCHEMA_STATEMENTS.entries()) {
    await runner.write((tx) => tx.run(statement(`schema.${i}`, text)));
  }
  await runner.read((tx) =>
    tx.run(statement('awaitIndexes', AWAIT_INDEXES_STATEMENT, { timeoutSeconds: neo4j.int(awaitIndexesSeconds) })),
  );
  await runner.write(async (tx) => {
    await tx.run(
      statement('markSchema', MARK_SCHEMA_STATEMENT, { key: SCHEMA_META_KEY, version: neo4j.int(SCHEMA_VERSION) }),
    );
    const maxRows = await tx.run(statement('maxEventualityId', MAX_EVENTUALITY_ID_STATEMENT));
    const maxId = maxRows[0] === undefined ? 0 : nodeIdField(maxRows[0].id, 'id');
    // Ids start at 1, like the SQLite store's rowids.
    const floor = Math.max(maxId + 1, 1);
    await tx.run(
      statement('initIdAllocator', INIT_ID_ALLOCATOR_STATEMENT, { key: ID_ALLOCATOR_KEY, floor: neo4j.int(floor) }),
    );
    // A database without a content id (created before they were kept, or by another program) gets one.
    const [content] = await tx.run(readMetaQuery(CONTENT_ID_KEY));
    if (typeof content?.value !== 'string') await tx.run(renewContentIdQuery());
    // The edge counter can only start where the count is known for free: on a database without edges.
    const [counter] = await tx.run(readEdgeCountQuery());
    if (counter?.edges === null || counter?.edges === undefined) {
      const any = await tx.run(statement('anyEdge', ANY_EDGE_STATEMENT));
      if (any.length === 0)
        await tx.run(statement('initEdgeCount', INIT_EDGE_COUNT_STATEMENT, { key: EDGE_COUNT_KEY }));
    }
  });
}

/** Opens a Neo4j database for reading (`--graph bolt://…`). */
export async function openNeo4jGraphStore(
  url: string | undefined,
  options: Neo4jStoreOptions = {},
): Promise<Neo4jGraphStore> {
  return openStore(url, options, false, checkNeo4jSchema);
}

/** Opens a Neo4j database for writing (`graph import --to bolt://…`), creating the schema if needed. */
export async function openNeo4jGraphWriter(
  url: string | undefined,
  options: Neo4jStoreOptions = {},
): Promise<Neo4jGraphStore> {
  return openStore(url, options, true, async (runner, ctx) => {
    try {
      await initNeo4jSchema(runner, ctx, options.awaitIndexesSeconds);
    } catch (err) {
      throw err instanceof RowShapeError ? unexpectedRowError(ctx, 'maxEventualityId', err.message) : err;
    }
  });
}

/** Connects, then checks or creates the schema with `prepareSchema`; when that fails, the connection is closed again. */
async function openStore(
  url: string | undefined,
  options: Neo4jStoreOptions,
  writable: boolean,
  prepareSchema: (runner: CypherRunner, ctx: Neo4jErrorContext) => Promise<void>,
): Promise<Neo4jGraphStore> {
  const sizes = sizesFrom(options);
  const { ctx, runner, server } = await connect(url, options);
  try {
    await prepareSchema(runner, ctx);
  } catch (err) {
    await runner.close().catch(() => undefined);
    throw err;
  }
  return new Neo4jGraphStore(runner, ctx, writable, sizes, server);
}

/**
 * A store on any CypherRunner (tests use one without a server). `writable` stores expect the schema
 * to exist (run initNeo4jSchema first).
 */
export function neo4jStoreOnRunner(
  runner: CypherRunner,
  options: { writable: boolean; ctx?: Neo4jErrorContext } & Pick<
    Neo4jStoreOptions,
    'neighbourhoodBatchSize' | 'lookupBatchSize' | 'writeBatchSize'
  >,
): Neo4jGraphStore {
  const ctx = options.ctx ?? { displayUri: 'bolt://test', database: undefined, secrets: [] };
  return new Neo4jGraphStore(runner, ctx, options.writable, sizesFrom(options));
}
