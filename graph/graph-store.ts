// The data model of an ASER-style eventuality graph, and the one interface (GraphStore) through
// which the rest of the engine reads it. Two implementations: the embedded SQLite store
// (graph/sqlite/sqlite-store.ts, the default) and the Neo4j store (graph/neo4j/neo4j-store.ts).

/** ASER's fifteen discourse relation senses, in ASER's own column order. */
export const RELATION_SENSES = [
  'Precedence',
  'Succession',
  'Synchronous',
  'Reason',
  'Result',
  'Condition',
  'Contrast',
  'Concession',
  'Conjunction',
  'Instantiation',
  'Restatement',
  'Alternative',
  'ChosenAlternative',
  'Exception',
  'Co_Occurrence',
] as const;

export type RelationSense = (typeof RELATION_SENSES)[number];

const SENSE_SET: ReadonlySet<string> = new Set(RELATION_SENSES);

export function isRelationSense(name: string): name is RelationSense {
  return SENSE_SET.has(name);
}

/** The senses present on one edge with their ASER weights (a sense is present when weight > 0). */
export type SenseWeights = Partial<Record<RelationSense, number>>;

/** A store-internal node id. Stable for the life of a store; not meaningful across stores. */
export type NodeId = number;

/** One directed edge (head → tail) with its texts and relation senses. */
export interface GraphEdge {
  head: NodeId;
  tail: NodeId;
  headText: string;
  tailText: string;
  senses: SenseWeights;
}

/**
 * Which edges make up the one-hop context of a node v, with N(v) = predecessors ∪ successors ∪ {v}:
 * - `induced`: every edge of the subgraph induced on N(v) (edges between two neighbours count);
 *   this is what the released IntentionQA code did (`G.subgraph(N(v))`).
 * - `incident`: only the edges that touch v.
 */
export type NeighbourhoodMode = 'induced' | 'incident';

export interface Neighbourhood {
  node: NodeId;
  text: string;
  /** Each edge once, ordered by (head, tail) ascending so that results are deterministic. */
  edges: GraphEdge[];
}

/** An edge to write, by node text (importers and generators produce these). */
export interface EdgeInput {
  head: string;
  tail: string;
  senses: SenseWeights;
}

export interface GraphCounts {
  nodes: number;
  edges: number;
  /** Nodes whose text parses as a purchase event (graph/purchase-events.ts). */
  purchaseNodes: number;
}

/** A node that parses as a purchase event, with every object phrase that some template reading gives. */
export interface PurchaseEventNode {
  id: NodeId;
  text: string;
  objects: string[];
}

/** Read access to an eventuality graph. Every method is batched: no per-row round trips in hot paths. */
export interface GraphStore {
  readonly kind: 'sqlite' | 'neo4j';
  /** Exact-text look-up of many texts in one call; texts that are not nodes are absent from the map. */
  lookupIds(texts: readonly string[]): Promise<Map<string, NodeId>>;
  /** Node texts by id; unknown ids are absent from the map. */
  nodeTexts(ids: readonly NodeId[]): Promise<Map<NodeId, string>>;
  /** One-hop neighbourhoods of many nodes in one call; unknown ids are absent from the map. */
  neighbourhoods(ids: readonly NodeId[], mode: NeighbourhoodMode): Promise<Map<NodeId, Neighbourhood>>;
  /**
   * The same edges as `neighbourhoods([id], mode)`, streamed in batches of at most `batchSize`,
   * for hub nodes whose neighbourhood should not be materialised at once.
   */
  streamNeighbourhood(id: NodeId, mode: NeighbourhoodMode, batchSize?: number): AsyncIterable<GraphEdge[]>;
  /** |N(v)| - 1 (distinct neighbours) and the number of incident edges, per node. */
  degrees(ids: readonly NodeId[]): Promise<Map<NodeId, { neighbours: number; incidentEdges: number }>>;
  /** Purchase-event nodes whose object is one of `objects`, per object (the matching index). */
  purchaseNodesByObject(objects: readonly string[]): Promise<Map<string, NodeId[]>>;
  /** Every purchase-event node, in batches, ordered by id. */
  purchaseEvents(batchSize?: number): AsyncIterable<PurchaseEventNode[]>;
  counts(): Promise<GraphCounts>;
  /**
   * The node count alone, where a store can give it without the work `counts` may do first (a SQLite
   * store in the middle of a bulk load merges its staged edges to count them: an importer resuming a
   * killed load would merge what it had staged, then merge the rest into a non-empty table).
   */
  nodeCount?(): Promise<number>;
  /**
   * A number that changes with every committed write (the SQLite store counts its write
   * transactions). Caches of derived data (node embeddings) key on it; a store that cannot tell
   * (Neo4j, written by other clients too) leaves it out, and such caches key on the counts only.
   */
  revision?(): Promise<number>;
  /**
   * What tells this store's content from any other's: a random id drawn at creation and redrawn by
   * every committed write (or, where the store has none, a hash of its content). Two stores share
   * it only when one is a copy of the other. Undefined when the store cannot tell (a Neo4j database
   * that no intentsim writer has marked): caches of derived data are then not shared.
   */
  contentId?(): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Write access, used by importers and generators. Re-writing an existing edge replaces its senses. */
export interface GraphWriter {
  /** Inserts nodes that do not exist yet; returns the ids of all given texts. */
  upsertNodes(texts: readonly string[]): Promise<Map<string, NodeId>>;
  /** Upserts edges (creating their nodes); idempotent: the same batch twice leaves one copy. */
  upsertEdges(edges: readonly EdgeInput[]): Promise<void>;
  close(): Promise<void>;
}
