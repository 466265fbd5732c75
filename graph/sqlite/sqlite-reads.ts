// The reads of the SQLite graph store (sqlite-store.ts): look-ups, neighbourhoods (incident and
// induced, at once or streamed), degrees, purchase-event reads and counts. Every read is batched:
// many texts / ids go to SQLite as one JSON array (json_each), so a call costs a handful of
// statements whatever its size.
import {
  RELATION_SENSES,
  type GraphCounts,
  type GraphEdge,
  type Neighbourhood,
  type NeighbourhoodMode,
  type NodeId,
  type PurchaseEventNode,
} from '../graph-store.js';
import { chunks } from '../chunks.js';
import type { MetaTable } from './sqlite-meta.js';
import { SENSE_COLUMNS, sensesFromRow, type Db, type Stmt } from './sqlite-schema.js';

/** A raw edge row: head, tail, then the fifteen sense columns. */
type RawEdgeRow = [number, number, ...(number | null)[]];
/** A raw edge row with texts: head, tail, head text, tail text, then the fifteen sense columns. */
type RawTextEdgeRow = [number, number, string, string, ...(number | null)[]];

const E_SENSE_COLUMNS = RELATION_SENSES.map((s) => `e."${s}"`).join(', ');

function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return a.head - b.head || a.tail - b.tail;
}

function uniqueIds(ids: readonly NodeId[]): NodeId[] {
  return [...new Set(ids)];
}

// Chunk size for one json_each array: large enough that a call is a few statements, small enough
// that one statement's result stays modest.
const CHUNK = 20_000;

/** What a writer's bulk load holds back from the tables and indexes (sqlite-bulk-load.ts): reads must see it. */
export interface PendingWrites {
  /** Moves the staged edges into `edges`: every edge read (and the edge count) calls it first. */
  mergeStagedEdges(): void;
  /** While the node-text index is deferred: every committed node's text → id (the bulk load's NodeTextTable). */
  deferredNodeIds(): Pick<ReadonlyMap<string, NodeId>, 'get'> | undefined;
}

export class SqliteReads {
  private readonly s: ReturnType<typeof prepareReads>;

  constructor(
    db: Db,
    private readonly meta: MetaTable,
    private readonly pending: PendingWrites,
  ) {
    this.s = prepareReads(db);
  }

  lookupIds(texts: readonly string[]): Map<string, NodeId> {
    const out = new Map<string, NodeId>();
    const deferredNodeIds = this.pending.deferredNodeIds();
    if (deferredNodeIds !== undefined) {
      // No text index yet, but the bulk load's text table holds every node (and only committed
      // ones: reads never run inside a write transaction).
      for (const text of texts) {
        const id = deferredNodeIds.get(text);
        if (id !== undefined) out.set(text, id);
      }
      return out;
    }
    for (const part of chunks([...new Set(texts)], CHUNK)) {
      for (const [id, text] of this.s.lookupIds.all(JSON.stringify(part)) as [number, string][]) out.set(text, id);
    }
    return out;
  }

  nodeTexts(ids: readonly NodeId[]): Map<NodeId, string> {
    const out = new Map<NodeId, string>();
    for (const part of chunks(uniqueIds(ids), CHUNK)) {
      for (const [id, text] of this.s.nodeTexts.all(JSON.stringify(part)) as [number, string][]) out.set(id, text);
    }
    return out;
  }

  neighbourhoods(ids: readonly NodeId[], mode: NeighbourhoodMode): Map<NodeId, Neighbourhood> {
    this.pending.mergeStagedEdges();
    const out = new Map<NodeId, Neighbourhood>();
    for (const part of chunks(uniqueIds(ids), 2_000)) {
      for (const [id, n] of this.neighbourhoodChunk(part, mode)) out.set(id, n);
    }
    return out;
  }

  private neighbourhoodChunk(roots: NodeId[], mode: NeighbourhoodMode): Map<NodeId, Neighbourhood> {
    const json = JSON.stringify(roots);
    const texts = new Map<NodeId, string>();
    for (const [id, text] of this.s.nodeTexts.all(json) as [number, string][]) texts.set(id, text);

    // Step 1: the edges touching each root (out-edges by the primary key, in-edges by edges_by_tail).
    const incident = new Map<NodeId, GraphEdge[]>();
    for (const id of texts.keys()) incident.set(id, []);
    const toEdge = (r: RawTextEdgeRow): GraphEdge => {
      texts.set(r[0], r[2]);
      texts.set(r[1], r[3]);
      return { head: r[0], tail: r[1], headText: r[2], tailText: r[3], senses: sensesFromRow(r, 4) };
    };
    for (const r of this.s.outEdgesWithText.all(json) as RawTextEdgeRow[]) incident.get(r[0])!.push(toEdge(r));
    // A self-loop came with the out-edges already; take in-edges from other heads only.
    for (const r of this.s.inEdgesWithText.all(json) as RawTextEdgeRow[]) {
      if (r[0] !== r[1]) incident.get(r[1])!.push(toEdge(r));
    }

    const out = new Map<NodeId, Neighbourhood>();
    if (mode === 'incident') {
      for (const [id, edges] of incident)
        out.set(id, { node: id, text: texts.get(id)!, edges: edges.sort(compareEdges) });
      return out;
    }

    // Step 2 (induced): the edges between two neighbours a, b ∈ N(v) \ {v}. For each neighbour a,
    // either scan its out-edges (cheap when out-degree(a) ≤ |N(v)|) or probe the pairs (a, b) for
    // every b ∈ N(v) (cheap when a is a hub): a neighbour of a hub never costs the hub's whole list.
    // Out-degrees are counted up to a cap of max |N(v)| + 1, so counting never costs a hub's list either.
    // (Degrees are not kept as columns: updating them on every edge write cost ~40% of import speed.)
    const neighbours = new Map<NodeId, Set<NodeId>>();
    const allNeighbours = new Set<NodeId>();
    for (const [v, edges] of incident) {
      const set = new Set<NodeId>();
      for (const e of edges) {
        if (e.head !== v) set.add(e.head);
        if (e.tail !== v) set.add(e.tail);
      }
      neighbours.set(v, set);
      for (const u of set) allNeighbours.add(u);
    }
    let cap = 1;
    for (const set of neighbours.values()) cap = Math.max(cap, set.size + 1);
    const outDegree = new Map<NodeId, number>();
    for (const part of chunks([...allNeighbours], CHUNK)) {
      for (const [id, deg] of this.s.cappedOutDegrees.all(cap, JSON.stringify(part)) as [number, number][])
        outDegree.set(id, deg);
    }
    const scanHeads = new Set<NodeId>();
    const probePairs: [NodeId, NodeId][] = [];
    for (const set of neighbours.values()) {
      for (const a of set) {
        if ((outDegree.get(a) ?? 0) <= set.size) scanHeads.add(a);
        else for (const b of set) probePairs.push([a, b]);
      }
    }
    const scanned = new Map<NodeId, GraphEdge[]>();
    const makeEdge = (r: RawEdgeRow): GraphEdge => ({
      head: r[0],
      tail: r[1],
      headText: texts.get(r[0])!,
      tailText: texts.get(r[1])!,
      senses: sensesFromRow(r, 2),
    });
    const neighbourJson = JSON.stringify([...allNeighbours]);
    for (const part of chunks([...scanHeads], CHUNK)) {
      for (const r of this.s.outEdgesAmong.all(JSON.stringify(part), neighbourJson) as RawEdgeRow[]) {
        let list = scanned.get(r[0]);
        if (!list) scanned.set(r[0], (list = []));
        list.push(makeEdge(r));
      }
    }
    const probed = new Map<string, GraphEdge>();
    for (const part of chunks(probePairs, CHUNK)) {
      for (const r of this.s.edgesByPair.all(JSON.stringify(part)) as RawEdgeRow[])
        probed.set(`${r[0]},${r[1]}`, makeEdge(r));
    }

    for (const [v, edges] of incident) {
      const set = neighbours.get(v)!;
      const all = edges.slice();
      for (const a of set) {
        if ((outDegree.get(a) ?? 0) <= set.size) {
          for (const e of scanned.get(a) ?? []) if (set.has(e.tail)) all.push(e);
        } else {
          for (const b of set) {
            const e = probed.get(`${a},${b}`);
            if (e) all.push(e);
          }
        }
      }
      out.set(v, { node: v, text: texts.get(v)!, edges: all.sort(compareEdges) });
    }
    return out;
  }

  async *streamNeighbourhood(id: NodeId, mode: NeighbourhoodMode, batchSize = 10_000): AsyncIterable<GraphEdge[]> {
    if (!(batchSize >= 1)) throw new RangeError(`streamNeighbourhood: batchSize must be ≥ 1, got ${batchSize}`);
    this.pending.mergeStagedEdges();
    const rootText = this.s.nodeText.pluck().get(id) as string | undefined;
    if (rootText === undefined) return;
    // Incident edges in (head, tail) order: in-edges with head < v, then v's out-edges (self-loop
    // included), then in-edges with head > v. Keyset pagination keeps no statement open between
    // batches, so the caller may use the store while it consumes the stream.
    if (mode === 'incident') {
      let buffer: GraphEdge[] = [];
      const pages: Array<{ stmt: Stmt; from: number; to: number }> = [
        { stmt: this.s.inEdgesPage, from: -1, to: id - 1 },
        { stmt: this.s.outEdgesPage, from: -1, to: Number.MAX_SAFE_INTEGER },
        { stmt: this.s.inEdgesPage, from: id, to: Number.MAX_SAFE_INTEGER },
      ];
      for (const page of pages) {
        let after = page.from;
        for (;;) {
          const rows = page.stmt.all(id, after, page.to, batchSize) as RawTextEdgeRow[];
          for (const r of rows) {
            buffer.push({ head: r[0], tail: r[1], headText: r[2], tailText: r[3], senses: sensesFromRow(r, 4) });
          }
          if (buffer.length >= batchSize) {
            yield buffer.slice(0, batchSize);
            buffer = buffer.slice(batchSize);
          }
          if (rows.length < batchSize) break;
          const last = rows[rows.length - 1]!;
          after = page.stmt === this.s.outEdgesPage ? last[1] : last[0];
        }
      }
      while (buffer.length > 0) {
        yield buffer.slice(0, batchSize);
        buffer = buffer.slice(batchSize);
      }
      return;
    }

    // Induced: collect N(v) as ids (a hub's neighbour ids fit in memory even when its edges would
    // not), then walk the heads of N(v) in ascending order and keep the out-edges whose tail is in N(v).
    const members = new Set<NodeId>([id]);
    for (const stmt of [this.s.neighbourIdsOut, this.s.neighbourIdsIn]) {
      let after = -1;
      for (;;) {
        const rows = stmt.pluck().all(id, after, 50_000) as number[];
        for (const n of rows) members.add(n);
        if (rows.length < 50_000) break;
        after = rows[rows.length - 1]!;
      }
    }
    const sorted = [...members].sort((a, b) => a - b);
    const texts = new Map<NodeId, string>();
    for (const part of chunks(sorted, CHUNK)) {
      for (const [nid, text] of this.s.nodeTexts.all(JSON.stringify(part)) as [number, string][]) texts.set(nid, text);
    }
    let buffer: GraphEdge[] = [];
    for (const head of sorted) {
      const outDeg = this.s.cappedOutDegree.pluck().get(head, members.size + 1) as number;
      let rows: RawEdgeRow[];
      if (outDeg <= members.size) {
        rows = (this.s.outEdgesOf.all(head) as RawEdgeRow[]).filter((r) => members.has(r[1]));
      } else {
        rows = [];
        for (const part of chunks(sorted, CHUNK)) {
          rows.push(...(this.s.edgesByPair.all(JSON.stringify(part.map((t) => [head, t]))) as RawEdgeRow[]));
        }
        rows.sort((a, b) => a[1] - b[1]);
      }
      for (const r of rows) {
        buffer.push({
          head: r[0],
          tail: r[1],
          headText: texts.get(r[0])!,
          tailText: texts.get(r[1])!,
          senses: sensesFromRow(r, 2),
        });
      }
      while (buffer.length >= batchSize) {
        yield buffer.slice(0, batchSize);
        buffer = buffer.slice(batchSize);
      }
    }
    if (buffer.length > 0) yield buffer;
  }

  degrees(ids: readonly NodeId[]): Map<NodeId, { neighbours: number; incidentEdges: number }> {
    this.pending.mergeStagedEdges();
    const out = new Map<NodeId, { neighbours: number; incidentEdges: number }>();
    for (const part of chunks(uniqueIds(ids), 2_000)) {
      const json = JSON.stringify(part);
      const sets = new Map<NodeId, { neighbours: Set<NodeId>; edges: number }>();
      for (const id of this.s.existingIds.pluck().all(json) as number[])
        sets.set(id, { neighbours: new Set(), edges: 0 });
      for (const [v, tail] of this.s.outIds.all(json) as [number, number][]) {
        const d = sets.get(v)!;
        d.edges += 1;
        if (tail !== v) d.neighbours.add(tail);
      }
      for (const [v, head] of this.s.inIds.all(json) as [number, number][]) {
        if (head === v) continue; // the self-loop was counted with the out-edges
        const d = sets.get(v)!;
        d.edges += 1;
        d.neighbours.add(head);
      }
      for (const [id, d] of sets) out.set(id, { neighbours: d.neighbours.size, incidentEdges: d.edges });
    }
    return out;
  }

  purchaseNodesByObject(objects: readonly string[]): Map<string, NodeId[]> {
    const out = new Map<string, NodeId[]>();
    for (const part of chunks([...new Set(objects)], CHUNK)) {
      for (const [object, id] of this.s.purchaseByObject.all(JSON.stringify(part)) as [string, number][]) {
        let list = out.get(object);
        if (!list) out.set(object, (list = []));
        list.push(id);
      }
    }
    return out;
  }

  async *purchaseEvents(batchSize = 10_000): AsyncIterable<PurchaseEventNode[]> {
    let after = -1;
    for (;;) {
      const rows = this.s.purchasePage.all(after, batchSize) as [number, string, string][];
      if (rows.length === 0) return;
      yield rows.map(([id, text, objects]) => ({ id, text, objects: JSON.parse(objects) as string[] }));
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1]![0];
    }
  }

  counts(): GraphCounts {
    this.pending.mergeStagedEdges();
    return this.meta.counts();
  }
}

function prepareReads(db: Db) {
  const ids = 'SELECT value FROM json_each(?)';
  return {
    lookupIds: db.prepare(`SELECT n.id, n.text FROM json_each(?) AS j JOIN nodes AS n ON n.text = j.value`).raw(),
    nodeTexts: db.prepare(`SELECT n.id, n.text FROM json_each(?) AS j JOIN nodes AS n ON n.id = j.value`).raw(),
    nodeText: db.prepare('SELECT text FROM nodes WHERE id = ?'),
    existingIds: db.prepare(`SELECT n.id FROM json_each(?) AS j JOIN nodes AS n ON n.id = j.value`),
    cappedOutDegree: db.prepare('SELECT count(*) FROM (SELECT 1 FROM edges WHERE head = ? LIMIT ?)'),
    cappedOutDegrees: db
      .prepare(
        `SELECT j.value, (SELECT count(*) FROM (SELECT 1 FROM edges AS e WHERE e.head = j.value LIMIT ?)) FROM json_each(?) AS j`,
      )
      .raw(),
    outEdgesWithText: db
      .prepare(
        `SELECT e.head, e.tail, h.text, t.text, ${E_SENSE_COLUMNS}
         FROM json_each(?) AS j JOIN edges AS e ON e.head = j.value
         JOIN nodes AS h ON h.id = e.head JOIN nodes AS t ON t.id = e.tail`,
      )
      .raw(),
    inEdgesWithText: db
      .prepare(
        `SELECT e.head, e.tail, h.text, t.text, ${E_SENSE_COLUMNS}
         FROM json_each(?) AS j JOIN edges AS e ON e.tail = j.value
         JOIN nodes AS h ON h.id = e.head JOIN nodes AS t ON t.id = e.tail`,
      )
      .raw(),
    outEdgesAmong: db
      .prepare(
        `SELECT e.head, e.tail, ${E_SENSE_COLUMNS}
         FROM json_each(?) AS j CROSS JOIN edges AS e ON e.head = j.value
         WHERE +e.tail IN (${ids})`,
      )
      .raw(),
    edgesByPair: db
      .prepare(
        `SELECT e.head, e.tail, ${E_SENSE_COLUMNS}
         FROM json_each(?) AS j CROSS JOIN edges AS e
           ON e.head = j.value ->> 0 AND e.tail = j.value ->> 1`,
      )
      .raw(),
    outEdgesOf: db.prepare(`SELECT head, tail, ${SENSE_COLUMNS} FROM edges WHERE head = ? ORDER BY tail`).raw(),
    // Keyset pages for streamNeighbourhood: (node, after, upTo, limit).
    outEdgesPage: db
      .prepare(
        `SELECT e.head, e.tail, h.text, t.text, ${E_SENSE_COLUMNS}
         FROM edges AS e JOIN nodes AS h ON h.id = e.head JOIN nodes AS t ON t.id = e.tail
         WHERE e.head = ? AND e.tail > ? AND e.tail <= ? ORDER BY e.tail LIMIT ?`,
      )
      .raw(),
    inEdgesPage: db
      .prepare(
        `SELECT e.head, e.tail, h.text, t.text, ${E_SENSE_COLUMNS}
         FROM edges AS e JOIN nodes AS h ON h.id = e.head JOIN nodes AS t ON t.id = e.tail
         WHERE e.tail = ? AND e.head > ? AND e.head <= ? AND e.head <> e.tail ORDER BY e.head LIMIT ?`,
      )
      .raw(),
    neighbourIdsOut: db.prepare('SELECT tail FROM edges WHERE head = ? AND tail > ? ORDER BY tail LIMIT ?'),
    neighbourIdsIn: db.prepare('SELECT head FROM edges WHERE tail = ? AND head > ? ORDER BY head LIMIT ?'),
    outIds: db.prepare(`SELECT e.head, e.tail FROM json_each(?) AS j JOIN edges AS e ON e.head = j.value`).raw(),
    inIds: db.prepare(`SELECT e.tail, e.head FROM json_each(?) AS j JOIN edges AS e ON e.tail = j.value`).raw(),
    purchaseByObject: db
      .prepare(
        `SELECT p.object, p.node_id FROM json_each(?) AS j JOIN purchase_objects AS p ON p.object = j.value
         ORDER BY p.object, p.node_id`,
      )
      .raw(),
    purchasePage: db
      .prepare(
        'SELECT id, text, purchase_objects FROM nodes WHERE purchase_objects IS NOT NULL AND id > ? ORDER BY id LIMIT ?',
      )
      .raw(),
  };
}
