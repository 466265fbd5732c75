// The Neo4j data model of the eventuality graph, and the statements that create it idempotently.
//
//   (:Eventuality {id: INTEGER, text: STRING, purchaseObjects: LIST<STRING>?})
//       one node per eventuality; `id` is the store's NodeId (see "Node ids" below);
//       `purchaseObjects` is parsePurchaseEvent(text), set only when non-empty, in which case the
//       node also carries the label :PurchaseEvent.
//   (:Eventuality)-[:Precedence {weight: FLOAT}]->(:Eventuality), …, [:Co_Occurrence {weight}]
//       one relationship type per ASER relation sense (RELATION_SENSES), at most one relationship
//       of each type per (head, tail); a GraphEdge is the set of those relationships.
//   (:Eventuality)-[:NoSense]->(:Eventuality)
//       an edge that ASER records with every sense weight 0 (the importers keep such edges, and the
//       SQLite store counts them as edges, so N(v) includes their endpoints): it has no sense
//       relationship to carry it, so it gets this one, without weight. An edge has either sense
//       relationships or one NoSense relationship, never both.
//   (:PurchaseObject {name: STRING})-[:OBJECT_OF]->(:Eventuality)
//       the object → purchase-event index. Neo4j's range indexes answer `n.list = $x` but not
//       `$x IN n.list`, so a list property alone would make purchaseNodesByObject a label scan;
//       a uniquely-constrained PurchaseObject node per object phrase makes it an index seek.
//   (:IntentsimMeta {key: 'schema', version: INTEGER}) marks an initialised database;
//   (:IntentsimMeta {key: 'eventuality-id', next: INTEGER}) is the id allocator;
//   (:IntentsimMeta {key: 'count.edges', count: INTEGER}) counts distinct (head, tail) edges, so
//       that counts() need not walk every relationship (Neo4j's count store counts relationships,
//       not pairs). The writer adds the edges each batch creates; it is exact as long as every
//       write goes through this store (one writer at a time: two concurrent transactions creating
//       the same new edge would both count it). Without it, counts() walks the relationships.
//   (:IntentsimMeta {key: 'content-id', value: STRING}) a random id, drawn when the schema is
//       created and redrawn by every write transaction of this store, so that caches of derived
//       data (node embeddings) and queue workers never take one database's content for another's
//       (graph/graph-identity.ts). A write by another client (cypher-shell, another program)
//       does not redraw it and cannot be detected.
//
// Node ids. NodeId must be a number that is stable for the life of the store. Neo4j's own
// elementId is a string and may be reused after deletion, so the store allocates its own: a write
// transaction that creates k nodes first reserves the range [next, next + k) by incrementing the
// allocator node's `next` (which write-locks it until commit, so concurrent writers get disjoint
// ranges), then MERGEs each node on its text and sets the reserved id only ON CREATE. If another
// writer created the same text meanwhile, MERGE finds its node and the reserved id is simply
// unused: ids are unique (a constraint enforces it) but may have gaps. A rolled-back transaction
// also rolls back its reservation.
import { RELATION_SENSES } from '../graph-store.js';
import { UserError } from '../../core/errors.js';

export const EVENTUALITY_LABEL = 'Eventuality';
export const PURCHASE_EVENT_LABEL = 'PurchaseEvent';
export const PURCHASE_OBJECT_LABEL = 'PurchaseObject';
export const OBJECT_OF_TYPE = 'OBJECT_OF';
export const META_LABEL = 'IntentsimMeta';
export const SCHEMA_META_KEY = 'schema';
export const ID_ALLOCATOR_KEY = 'eventuality-id';
export const EDGE_COUNT_KEY = 'count.edges';
export const CONTENT_ID_KEY = 'content-id';

/** Bumped when the data model changes incompatibly; a store refuses a database with another version. */
export const SCHEMA_VERSION = 1;

/** The relationship type of an edge without any sense (see above). */
export const NO_SENSE_TYPE = 'NoSense';

/** Every relationship type that makes up an edge: the fifteen senses, then NoSense. */
export const EDGE_TYPES: readonly string[] = [...RELATION_SENSES, NO_SENSE_TYPE];

/** `Precedence|Succession|…|Co_Occurrence|NoSense`, for patterns like `-[r:…]-` that walk edges. */
export const EDGE_TYPES_PATTERN = EDGE_TYPES.join('|');

/**
 * Constraints and indexes, each created only if missing (so running them again is harmless). Each
 * must run in its own transaction: Neo4j does not mix schema and data changes in one.
 * `IF NOT EXISTS` and `FOR … REQUIRE` need Neo4j 5 (see MIN_NEO4J_MAJOR_VERSION).
 */
export const SCHEMA_STATEMENTS: readonly string[] = [
  `CREATE CONSTRAINT eventuality_text_unique IF NOT EXISTS FOR (e:${EVENTUALITY_LABEL}) REQUIRE e.text IS UNIQUE`,
  `CREATE CONSTRAINT eventuality_id_unique IF NOT EXISTS FOR (e:${EVENTUALITY_LABEL}) REQUIRE e.id IS UNIQUE`,
  `CREATE CONSTRAINT purchase_object_name_unique IF NOT EXISTS FOR (o:${PURCHASE_OBJECT_LABEL}) REQUIRE o.name IS UNIQUE`,
  `CREATE CONSTRAINT intentsim_meta_key_unique IF NOT EXISTS FOR (m:${META_LABEL}) REQUIRE m.key IS UNIQUE`,
  // purchaseEvents() pages through purchase events in id order: a range index on the
  // :PurchaseEvent label makes that an ordered index scan over those nodes only.
  `CREATE INDEX purchase_event_id IF NOT EXISTS FOR (e:${PURCHASE_EVENT_LABEL}) ON (e.id)`,
];

/** Waits until the indexes behind the constraints are online (they build in the background), up to the given seconds. */
export const AWAIT_INDEXES_STATEMENT = 'CALL db.awaitIndexes($timeoutSeconds)';

/** Marks the database as initialised with this schema version (a plain data write, after the schema statements). */
export const MARK_SCHEMA_STATEMENT = `MERGE (m:${META_LABEL} {key: $key}) SET m.version = $version`;

/** Reads the schema marker; no row or a null version means "not initialised". */
export const READ_SCHEMA_MARKER_STATEMENT = `OPTIONAL MATCH (m:${META_LABEL} {key: $key}) RETURN m.version AS version`;

/**
 * The largest id present. `MATCH … WHERE e.id IS NOT NULL … ORDER BY e.id DESC LIMIT 1` on the
 * uniquely-indexed id is a backwards index scan that stops after one entry, not a label scan.
 */
export const MAX_EVENTUALITY_ID_STATEMENT = [
  `MATCH (e:${EVENTUALITY_LABEL}) WHERE e.id IS NOT NULL`,
  'RETURN e.id AS id ORDER BY e.id DESC LIMIT 1',
].join('\n');

/**
 * Creates the id allocator if it is missing and moves it past `$floor` (largest id + 1) if it lags,
 * so that a database loaded by `neo4j-admin database import` (with or without the allocator node)
 * still hands out fresh ids.
 */
export const INIT_ID_ALLOCATOR_STATEMENT = [
  `MERGE (c:${META_LABEL} {key: $key})`,
  'ON CREATE SET c.next = $floor',
  'ON MATCH SET c.next = CASE WHEN c.next IS NULL OR c.next < $floor THEN $floor ELSE c.next END',
  'RETURN c.next AS next',
].join('\n');

/** Neo4j 5 introduced `CREATE CONSTRAINT … IF NOT EXISTS FOR … REQUIRE`, `elementId` and the subquery forms used here. */
export const MIN_NEO4J_MAJOR_VERSION = 5;

export const SERVER_COMPONENTS_STATEMENT =
  'CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition';

export interface ServerVersion {
  /** As reported, e.g. `5.26.1`, `2025.01.0`, `5.27-aura`. */
  version: string;
  major: number;
  edition: string;
}

/** Picks the kernel component out of `dbms.components()` rows and parses its major version. */
export function parseServerComponents(rows: ReadonlyArray<Record<string, unknown>>): ServerVersion {
  const kernel = rows.find((row) => row.name === 'Neo4j Kernel') ?? rows[0];
  const versions = kernel?.versions;
  const version = Array.isArray(versions) && typeof versions[0] === 'string' ? versions[0] : undefined;
  if (version === undefined) throw new UserError('dbms.components() did not report a Neo4j version');
  const major = Number(/^(\d+)/.exec(version)?.[1]);
  if (!Number.isFinite(major)) throw new UserError(`cannot parse the Neo4j version "${version}"`);
  return { version, major, edition: typeof kernel?.edition === 'string' ? kernel.edition : 'unknown' };
}

/** Any edge relationship at all (to tell an empty database, whose edge counter can start at 0). */
export const ANY_EDGE_STATEMENT = `MATCH (:${EVENTUALITY_LABEL})-[r:${EDGE_TYPES_PATTERN}]->(:${EVENTUALITY_LABEL}) RETURN 1 AS found LIMIT 1`;

/** Creates the edge counter at 0 (only called on a database without edges). */
export const INIT_EDGE_COUNT_STATEMENT = `MERGE (c:${META_LABEL} {key: $key}) ON CREATE SET c.count = 0`;
