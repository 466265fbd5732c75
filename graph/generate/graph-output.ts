// Where a generator writes a graph: a SQLite store file (default), a JSONL edge list (`.jsonl`), or
// a Neo4j URL. Files appear whole or not at all: SQLite is built in a temporary file beside the
// target and renamed on commit; JSONL goes through an atomic writer. A file target is claimed until
// commit or abort (core/output-claim.ts: locked, temporary files of killed runs removed). Neo4j is
// written in place (upserts are idempotent, so a re-run converges).
import { openAtomicWriter, openTemporaryOutput, type AtomicWriter } from '../../core/atomic.js';
import { claimOutput } from '../../core/output-claim.js';
import { isNeo4jUri } from '../neo4j/neo4j-config.js';
import { openGraphWriter } from '../open-store.js';
import type { EdgeInput, GraphWriter } from '../graph-store.js';

export type GraphOutputKind = 'sqlite' | 'jsonl' | 'neo4j';

export interface GraphOutput {
  readonly kind: GraphOutputKind;
  readonly target: string;
  /** Nodes without edges are kept by SQLite and Neo4j; a JSONL edge list cannot hold them (counted). */
  writeNodes(texts: readonly string[]): Promise<void>;
  writeEdges(edges: readonly EdgeInput[]): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export function graphOutputKind(target: string): GraphOutputKind {
  if (isNeo4jUri(target)) return 'neo4j';
  return /\.jsonl$/i.test(target) ? 'jsonl' : 'sqlite';
}

/** `{"head", "tail", "relations"}`: the JSONL edge-list form that `graph import` reads. */
export function edgeToJsonl(edge: EdgeInput): string {
  return JSON.stringify({ head: edge.head, tail: edge.tail, relations: edge.senses });
}

export async function openGraphOutput(target: string): Promise<GraphOutput> {
  const kind = graphOutputKind(target);
  if (kind === 'neo4j')
    return writerOutput(
      kind,
      target,
      await openGraphWriter(target),
      async () => {},
      async () => {},
    );
  const claim = claimOutput(target, 'file');
  try {
    if (kind === 'jsonl') {
      const w: AtomicWriter = await openAtomicWriter(target);
      return {
        kind,
        target,
        async writeNodes() {},
        async writeEdges(edges) {
          let chunk = '';
          for (const e of edges) chunk += edgeToJsonl(e) + '\n';
          await w.write(chunk);
        },
        commit: () => w.commit().finally(() => claim.release()),
        abort: () => w.abort().finally(() => claim.release()),
      };
    }
    const output = await openTemporaryOutput(target);
    let writer: GraphWriter;
    try {
      writer = await openGraphWriter(output.tmp);
    } catch (err) {
      await output.abort();
      throw err;
    }
    return writerOutput(
      kind,
      target,
      writer,
      () => output.commit().finally(() => claim.release()),
      () => output.abort().finally(() => claim.release()),
    );
  } catch (err) {
    claim.release();
    throw err;
  }
}

function writerOutput(
  kind: GraphOutputKind,
  target: string,
  writer: GraphWriter,
  onCommit: () => Promise<void>,
  onAbort: () => Promise<void>,
): GraphOutput {
  let closed = false;
  const close = async () => {
    if (!closed) {
      closed = true;
      await writer.close();
    }
  };
  return {
    kind,
    target,
    async writeNodes(texts) {
      await writer.upsertNodes(texts);
    },
    async writeEdges(edges) {
      await writer.upsertEdges(edges);
    },
    async commit() {
      await close();
      await onCommit();
    },
    async abort() {
      await close().catch(() => undefined);
      await onAbort();
    },
  };
}
