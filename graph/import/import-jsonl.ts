// Imports a JSONL edge list, one edge a line (the normalised-graph form of the IntentionQA pipeline):
//   {"head": "PersonX buy a phone", "tail": "PersonX call friend", "relations": {"Result": 1.0}}
// Streaming and batched; idempotent (upserts) and resumable (graph/import/import-checkpoint.ts).
import { stat } from 'node:fs/promises';
import { FieldReader, describe } from '../../core/jsonl.js';
import { readJsonlBatches, type InputLimits } from '../../core/jsonl-batches.js';
import type { OnError } from '../../core/errors.js';
import type { RejectsSink } from '../../core/rejects.js';
import { createProgress } from '../../core/progress.js';
import {
  CheckpointLog,
  DEFAULT_IMPORT_BATCH,
  emptySummary,
  supportsBulkLoad,
  type ImportSummary,
} from './import-checkpoint.js';
import {
  RELATION_SENSES,
  isRelationSense,
  type EdgeInput,
  type GraphStore,
  type GraphWriter,
  type SenseWeights,
} from '../graph-store.js';

export interface ImportOptions {
  onError?: OnError;
  /** Where rejected records go (required with onError 'skip'). */
  rejects?: RejectsSink;
  /** Records per write transaction (default 100,000). */
  batchSize?: number;
  /** Ignore checkpoints of an earlier run and write everything again. */
  restart?: boolean;
  /** Show a progress bar (default: on a terminal, off in tests). */
  progress?: boolean;
  /** Limits on the lines (JSONL) and on the node texts (both formats) of the input. */
  limits?: InputLimits;
}

/**
 * Turns one decoded JSONL line into an edge, or throws an InputError naming the field. A well-formed
 * line is taken on a lean path (no reader object, no entry arrays: at millions of lines these showed
 * in the profile); anything it does not accept goes through `checkEdgeLine`, which returns the same
 * edge or throws the precise error.
 */
export function parseEdgeLine(json: unknown, at: { file: string; line: number }): EdgeInput {
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const { head, tail, relations } = json as Record<string, unknown>;
    if (
      typeof head === 'string' &&
      typeof tail === 'string' &&
      typeof relations === 'object' &&
      relations !== null &&
      !Array.isArray(relations) &&
      head.trim() !== '' &&
      tail.trim() !== ''
    ) {
      let count = 0;
      let ok = true;
      for (const name of Object.keys(relations)) {
        const weight = (relations as Record<string, unknown>)[name];
        if (!(typeof weight === 'number' && weight > 0 && weight < Number.POSITIVE_INFINITY && isRelationSense(name))) {
          ok = false;
          break;
        }
        count += 1;
      }
      // Every key a sense and every value a weight: the decoded object is the senses, as it is.
      if (ok && count > 0) return { head, tail, senses: relations as SenseWeights };
    }
  }
  return checkEdgeLine(json, at);
}

/** The field-by-field reading of a line, which names the first bad field (exported for tests: the reference for `parseEdgeLine`). */
export function checkEdgeLine(json: unknown, at: { file: string; line: number }): EdgeInput {
  const r = new FieldReader(json, at);
  const head = r.string('head');
  const tail = r.string('tail');
  const relations = r.object('relations');
  const senses: SenseWeights = {};
  for (const [name, weight] of Object.entries(relations)) {
    const field = `relations.${name}`;
    if (!isRelationSense(name)) {
      throw r.error(field, `unknown relation sense "${name}" (ASER's senses: ${RELATION_SENSES.join(', ')})`);
    }
    if (typeof weight !== 'number' || !Number.isFinite(weight))
      throw r.error(field, `expected a positive number, got ${describe(weight)}`);
    if (weight <= 0) throw r.error(field, `must be > 0 (an absent sense is left out), got ${weight}`);
    senses[name] = weight;
  }
  if (Object.keys(senses).length === 0) throw r.error('relations', 'must name at least one relation sense');
  return { head, tail, senses };
}

export async function importJsonlEdges(
  writer: GraphWriter,
  file: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = Date.now();
  const batchSize = options.batchSize ?? DEFAULT_IMPORT_BATCH;
  if (!(Number.isInteger(batchSize) && batchSize >= 1))
    throw new RangeError(`batch size must be a positive integer, got ${batchSize}`);
  const summary = emptySummary('jsonl', file);
  const log = await CheckpointLog.open(writer, 'jsonl', file, options.restart ?? false);
  // A finished import is only validated again; an interrupted one resumes after its last commit.
  const writtenUpTo = log.resume.complete ? Number.POSITIVE_INFINITY : log.resume.done;
  const rejectedBefore = options.rejects?.count ?? 0;
  const nodesBefore = await nodeCount(writer);
  if (supportsBulkLoad(writer)) await writer.beginBulkLoad();

  const fileBytes = (await stat(file)).size;
  const progress = createProgress({ label: `import ${file}`, unit: 'edges', enabled: options.progress });
  let estimated = false;
  let batch: EdgeInput[] = [];
  let lastLine = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await writer.upsertEdges(batch);
    await log.record('edges', lastLine);
    summary.edgesWritten += batch.length;
    progress.increment(batch.length);
    batch = [];
  };
  try {
    const records = readJsonlBatches(file, parseEdgeLine, {
      ...options.limits,
      onError: options.onError,
      rejects: options.rejects,
      batchSize: Math.min(batchSize, 10_000),
    });
    for await (const read of records) {
      for (const { line, value } of read) {
        summary.records += 1;
        lastLine = line;
        if (line <= writtenUpTo) {
          summary.alreadyImported += 1;
          continue;
        }
        batch.push(value);
        if (batch.length >= batchSize) {
          if (!estimated) {
            // The total is unknown without reading the file twice: estimate it from the first batch.
            estimated = true;
            let bytes = 0;
            for (const e of batch) bytes += Buffer.byteLength(JSON.stringify(e)) + 1;
            progress.setTotal(Math.round(fileBytes / (bytes / batch.length)));
          }
          await flush();
        }
      }
    }
    await flush();
    await log.record('edges', lastLine, true);
  } finally {
    progress.stop();
  }
  summary.rejected = (options.rejects?.count ?? 0) - rejectedBefore;
  // An edge list names its nodes only inside edges, which the store creates as it writes them: the
  // nodes written are those the store has now and did not have before.
  const nodesAfter = await nodeCount(writer);
  if (nodesBefore !== undefined && nodesAfter !== undefined) summary.nodesWritten = nodesAfter - nodesBefore;
  summary.records += summary.rejected;
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

/**
 * How many nodes the store holds, where the writer can say (both stores' writers are GraphStores):
 * `nodeCount` where the store has it, so that a resumed bulk load does not merge its staged edges
 * before it goes on (see GraphStore.nodeCount).
 */
async function nodeCount(writer: GraphWriter): Promise<number | undefined> {
  const store = writer as GraphWriter & Partial<Pick<GraphStore, 'counts' | 'nodeCount'>>;
  if (typeof store.nodeCount === 'function') return store.nodeCount();
  return typeof store.counts === 'function' ? (await store.counts()).nodes : undefined;
}
