// The node-context job kind: one unit of `embed`'s context work (a group of nodes read with one
// neighbourhoods() call, or one hub, streamed; embeddings/context-embedder.ts) computed by a worker
// that has its own copy of the graph. The worker runs exactly what the coordinator would have run
// here (ContextEmbedder.computeUnit with the coordinator's settings), so the node vectors are the
// local run's, byte for byte. It refuses a job made for another model, graph or template set, and
// one whose node ids name other texts in its graph.
import { sha256OfJson } from '../../core/checksum.js';
import type {
  ContextNode,
  ContextUnit,
  ContextUnitCounts,
  ContextUnitResult,
  ContextUnitSettings,
} from '../../embeddings/context-embedder.js';
import type { NodeEmbedding } from '../../embeddings/node-cache.js';
import {
  checkModelField,
  finiteRowsFromBase64,
  float32ToBase64,
  MalformedJobError,
  MalformedResultError,
  resultFields,
  type ModelIdentity,
} from './job-payloads.js';

export const CONTEXT_JOB_NAME = 'node-context';

export interface ContextJob extends ContextUnitSettings {
  format: 1;
  model: ModelIdentity;
  /** graph/graph-identity.ts of the coordinator's graph: kind, counts and revision. */
  graph: string;
  /** TEMPLATES_FINGERPRINT of the coordinator: a worker with other sentence templates refuses. */
  templates: string;
  unit: ContextUnit;
}

/** A worker's answer: per node of the unit, its sentence count and, for those that have one, its vector. */
export interface ContextJobResult {
  dim: number;
  provider: string;
  /** |S(v)| per node, in unit order. */
  sentences: number[];
  /** Per node, in unit order, whether it has a vector (a row in `vectors`). */
  hasVector: boolean[];
  /** The rows of the nodes that have a vector, in unit order, float32, as base64. */
  vectors: string;
  counts: ContextUnitCounts;
}

/** The job's identities besides the model (which the encode kind shares): what a worker compares. */
export interface WorkerGraph {
  graph: string;
  templates: string;
}

export function contextJobId(job: ContextJob): string {
  return `ctx-${sha256OfJson(job).slice(0, 40)}`;
}

const COUNT_FIELDS = [
  'missingFromGraph',
  'streamedHubs',
  'cappedHubs',
  'edges',
  'sentenceOccurrences',
  'sentencesEncoded',
  'sentencesWithoutVector',
  'workChunks',
  'encodeMs',
] as const satisfies ReadonlyArray<keyof ContextUnitCounts>;

/** The job's fields checked one by one; the reason names the first one that is wrong. */
export function parseContextJob(data: unknown): ContextJob {
  const fail = (reason: string): never => {
    throw new MalformedJobError(CONTEXT_JOB_NAME, reason);
  };
  if (typeof data !== 'object' || data === null) return fail('the payload is not an object');
  const job = data as Record<string, unknown>;
  if (job.format !== 1) fail(`format must be 1, got ${JSON.stringify(job.format)}`);
  checkModelField(job.model, fail);
  for (const field of ['graph', 'templates'] as const)
    if (typeof job[field] !== 'string') fail(`${field} must be a string`);
  if (job.mode !== 'induced' && job.mode !== 'incident') fail('mode must be induced or incident');
  for (const field of ['batchSize', 'workSentences', 'streamEdges'] as const)
    if (!Number.isInteger(job[field]) || (job[field] as number) < 1) fail(`${field} must be a positive integer`);
  const unit = job.unit as Record<string, unknown> | null | undefined;
  if (typeof unit !== 'object' || unit === null) return fail('unit is missing');
  const isNode = (n: unknown): n is ContextNode =>
    typeof n === 'object' &&
    n !== null &&
    Number.isInteger((n as ContextNode).id) &&
    typeof (n as ContextNode).text === 'string';
  if (unit.kind === 'hub') {
    if (!isNode(unit.node)) fail('unit.node must be {id: integer, text: string}');
    if (unit.incidentOnly !== undefined && typeof unit.incidentOnly !== 'boolean')
      fail('unit.incidentOnly must be a boolean when given');
  } else if (unit.kind === 'group') {
    if (!Array.isArray(unit.nodes) || unit.nodes.length === 0) fail('unit.nodes must be a non-empty array');
    const bad = (unit.nodes as unknown[]).findIndex((n) => !isNode(n));
    if (bad >= 0) fail(`unit.nodes[${bad}] must be {id: integer, text: string}`);
  } else fail('unit.kind must be group or hub');
  return data as ContextJob;
}

/** Why a worker whose graph is `own` must not run `job`, or undefined when it may. */
export function graphMismatch(job: Pick<ContextJob, 'graph' | 'templates'>, own: WorkerGraph): string | undefined {
  if (job.graph !== own.graph) return `refused: the job wants graph ${job.graph}, this worker has ${own.graph}`;
  if (job.templates !== own.templates)
    return `refused: the job wants sentence templates ${job.templates}, this worker has ${own.templates}`;
  return undefined;
}

/**
 * Why the worker's graph does not hold the unit's nodes as the job names them, or undefined when it
 * does: the same counts and revision can still be another graph, but not with every id's text equal.
 */
export function nodeTextMismatch(
  nodes: readonly ContextNode[],
  texts: ReadonlyMap<number, string>,
): string | undefined {
  for (const n of nodes) {
    const here = texts.get(n.id);
    if (here !== undefined && here !== n.text)
      return `refused: node ${n.id} is ${JSON.stringify(n.text)} in the job, ${JSON.stringify(here)} in this worker's graph`;
  }
  return undefined;
}

export function encodeContextResult(result: ContextUnitResult, dim: number, provider: string): ContextJobResult {
  const withVector = result.embeddings.filter((e) => e.vector !== null);
  const rows = new Float32Array(withVector.length * dim);
  withVector.forEach((e, i) => rows.set(e.vector!, i * dim));
  return {
    dim,
    provider,
    sentences: result.embeddings.map((e) => e.sentences),
    hasVector: result.embeddings.map((e) => e.vector !== null),
    vectors: float32ToBase64(rows),
    counts: result.counts,
  };
}

/**
 * A worker's answer (anything Redis held) as the unit's result, checked field by field against the
 * unit's size and the dimension expected, every vector value and count finite; `MalformedResultError`
 * says what is wrong.
 */
export function decodeContextResult(raw: unknown, nodes: number, dim: number): ContextUnitResult {
  const fail = (what: string): never => {
    throw new MalformedResultError(what);
  };
  const r = resultFields(raw, {
    dim: 'integer',
    provider: 'string',
    sentences: 'array',
    hasVector: 'array',
    vectors: 'string',
    counts: 'object',
  });
  const result = r as unknown as ContextJobResult;
  if (result.dim !== dim) fail(`dimension ${result.dim}, expected ${dim}`);
  if (result.sentences.length !== nodes || result.hasVector.length !== nodes)
    fail(
      `${result.sentences.length} sentence counts and ${result.hasVector.length} vector flags, expected ${nodes} nodes`,
    );
  const badCount = result.sentences.findIndex((n) => !Number.isSafeInteger(n) || n < 0);
  if (badCount >= 0) fail(`sentences[${badCount}] must be a whole number ≥ 0`);
  const badFlag = result.hasVector.findIndex((v) => typeof v !== 'boolean');
  if (badFlag >= 0) fail(`hasVector[${badFlag}] must be true or false`);
  const rows = result.hasVector.filter(Boolean).length;
  const vectors = finiteRowsFromBase64(result.vectors, rows, dim);
  let row = 0;
  const embeddings = result.sentences.map((sentences, i): NodeEmbedding => {
    if (!result.hasVector[i]) return { sentences, vector: null };
    const vector = vectors.slice(row * dim, (row + 1) * dim);
    row += 1;
    return { sentences, vector };
  });
  const counts = {} as ContextUnitCounts;
  for (const field of COUNT_FIELDS) {
    const value = (result.counts as unknown as Record<string, unknown>)[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      fail(value === undefined ? `counts.${field} is missing` : `counts.${field} must be a finite number ≥ 0`);
    counts[field] = value as number;
  }
  return { embeddings, counts };
}
