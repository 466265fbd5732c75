// SessionIntentBench assembly: sessions JSONL in, task records and distractor-backed items out.
//
// Streaming: sessions are read one line at a time and handled in chunks of `chunkSessions`; memory
// holds one chunk, the catalogue with its vectors, the comparison pool (bounded) and the annotations
// (made by people, so few) — never the sessions file. When T3 negatives are on, the sessions file is
// read twice: a first pass fills a seeded reservoir of comparisons from all sessions, so that the
// first session can draw from the last one as well as the other way round.
//
// Outputs in `out`, each written to a temporary file and renamed into place when complete:
//   sib-tasks.jsonl        one record per (trajectory, task) — task-records.ts (written by task-json.ts)
//   sib-distractors.jsonl  distractor-backed items — distractors.ts
//   sib-summary.json       counts, settings, failures and unused annotations (written last)
//   sib-rejects.jsonl      only with onError 'skip' and something rejected
// `out` is claimed first (core/output-claim.ts): locked, temporary files of killed runs removed,
// and sib-summary.json removed until this run has finished.
//
// Stages: openSibResources (annotations, distractor sources, output sinks; committed or aborted
// once), the per-session steps without I/O (sib-chunk.ts) and the summary (sib-summary.ts).
import { join } from 'node:path';
import type { SentenceEncoder, VectorSet } from '../../../embeddings/sentence-encoder.js';
import { openAtomicWriter, writeFileAtomic } from '../../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../../core/check-paths.js';
import { ConfigError, type OnError } from '../../../core/errors.js';
import { withClaimedOutput } from '../../../core/output-claim.js';
import { readJsonl, type InputLimits, type ReadJsonlOptions } from '../../../core/jsonl.js';
import { createProgress } from '../../../core/progress.js';
import { CountingRejects, RejectsSink } from '../../../core/rejects.js';
import { Rng } from '../../../core/rng.js';
import { loadAnnotations, type AnnotationIndex } from './annotations.js';
import { BalancedPositions } from '../balanced-positions.js';
import { loadCatalog } from './sib-catalog.js';
import {
  DEFAULT_WINDOWS,
  type ComparisonEntry,
  type DistractorSources,
  type DistractorWindows,
} from './distractors.js';
import { collapseWhitespace } from './product-block.js';
import { DEFAULT_SERVE_RULES, productText, type ServeRules } from './serve-rules.js';
import { parseSession } from './session-reader.js';
import { chunkQueryTexts, selectSession, sessionItemLines, sessionTaskLines } from './sib-chunk.js';
import { SibSummaryBuilder, type SibSummary } from './sib-summary.js';
import type { PromptStyle, SibSession, TaskNumber } from './sib-types.js';
import { EngineWindowSampler, type CosineWindowSampler } from './window-sampler.js';
import { SIB_OUTPUT_FILES } from './sib-files.js';

export type { SibSummary };

/** Comparisons kept for T3 negatives when AssembleSibOptions.comparisonPool is not given. */
const DEFAULT_COMPARISON_POOL = 5000;

export { SIB_OUTPUT_FILES };

/** Where output lines go: an atomic file writer in normal runs, a counting sink in benchmarks. */
export interface LineSink {
  write(chunk: string): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface AssembleSibOptions {
  sessions: string;
  annotations?: string;
  catalog?: string;
  out: string;
  /** Trajectories per session, sampled with the seed; undefined = all. */
  perSession?: number;
  seed: number | string;
  styles: readonly PromptStyle[];
  /** Embeds queries, catalogue titles and comparisons; null = no distractor-backed items. */
  encoder: SentenceEncoder | null;
  windows?: DistractorWindows;
  /** The rules that refuse a candidate serving the query (default DEFAULT_SERVE_RULES). */
  serveRules?: ServeRules;
  /** Size of the comparison reservoir T3 negatives draw from (default 5000). */
  comparisonPool?: number;
  /** Sessions per chunk: the unit of streaming and of encoder batches (default 32). */
  chunkSessions?: number;
  onError?: OnError;
  /** Limits on the input files' lines and texts (core/jsonl-batches.ts). */
  limits?: InputLimits;
  progress?: boolean;
  /** Replaces the two JSONL outputs (benchmarks); the summary is still written to out. */
  sinks?: { tasks: LineSink; distractors: LineSink };
  /** Builds the window sampler over a vector set (default: engine/search/windows.ts over an exact scan). */
  samplerFor?: (vectors: VectorSet) => CosineWindowSampler;
}

/** Encodes texts in one call and returns them by text (rows are views into one buffer). */
async function embedTexts(encoder: SentenceEncoder, texts: readonly string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (texts.length === 0) return out;
  const data = await encoder.encode(texts);
  const dim = encoder.dim;
  if (data.length !== texts.length * dim)
    throw new Error(`encoder ${encoder.name} returned ${data.length} values for ${texts.length}×${dim}`);
  texts.forEach((text, i) => out.set(text, data.subarray(i * dim, (i + 1) * dim)));
  return out;
}

async function embedVectorSet(encoder: SentenceEncoder, ids: string[], texts: string[]): Promise<VectorSet> {
  const data = ids.length === 0 ? new Float32Array(0) : await encoder.encode(texts);
  return { ids, dim: encoder.dim, data };
}

/**
 * First pass for T3 negatives: a reservoir (algorithm R, seeded) of the comparisons of all valid
 * sessions, then duplicates of a text dropped (first kept), so that a common comparison is not
 * drawn more often than a rare one.
 */
export async function collectComparisonPool(options: AssembleSibOptions, capacity: number): Promise<ComparisonEntry[]> {
  const rng = Rng.derive(options.seed, 'comparison-pool');
  const reservoir: ComparisonEntry[] = [];
  const seenSessions = new Set<string>();
  let n = 0;
  const onError = options.onError ?? 'fail';
  const records = readJsonl(options.sessions, parseSession, {
    ...options.limits,
    onError,
    rejects: onError === 'skip' ? new CountingRejects() : undefined,
  });
  const progress = createProgress({
    label: 'sib comparison pool (first pass)',
    unit: 'sessions',
    enabled: options.progress,
  });
  try {
    for await (const { value: session } of records) {
      progress.increment();
      if (seenSessions.has(session.sessionId)) continue; // the second pass reports it
      seenSessions.add(session.sessionId);
      for (const node of session.nodes) {
        if (node.step < 2 || node.comparison === null) continue;
        const entry = {
          id: `${session.sessionId}/${node.id}`,
          sessionId: session.sessionId,
          nodeId: node.id,
          text: node.comparison,
        };
        if (n < capacity) reservoir.push(entry);
        else {
          const j = rng.int(n + 1);
          if (j < capacity) reservoir[j] = entry;
        }
        n += 1;
      }
    }
  } finally {
    progress.stop();
  }
  const seenTexts = new Set<string>();
  return reservoir.filter((e) => {
    const key = collapseWhitespace(e.text);
    if (seenTexts.has(key)) return false;
    seenTexts.add(key);
    return true;
  });
}

/**
 * What an assembly holds from the first session to the last: the annotations, the distractor
 * sources (catalogue and comparison pool, embedded once) and the output sinks. `close` aborts the
 * sinks unless `commit` ran.
 */
interface SibResources {
  annotations: AnnotationIndex | null;
  sources: DistractorSources | null;
  catalogSize: number;
  poolSize: number;
  taskSink: LineSink;
  itemSink: LineSink | null;
  commit(): Promise<void>;
  close(): Promise<void>;
}

async function openSibResources(options: AssembleSibOptions, readOptions: ReadJsonlOptions): Promise<SibResources> {
  const annotations: AnnotationIndex | null = options.annotations
    ? await loadAnnotations(options.annotations, readOptions)
    : null;
  const encoder = options.encoder;
  const samplerFor = options.samplerFor ?? ((v: VectorSet) => new EngineWindowSampler(v));

  let sources: DistractorSources | null = null;
  let catalogSize = 0;
  let poolSize = 0;
  if (encoder !== null) {
    let catalog: DistractorSources['catalog'] = null;
    if (options.catalog) {
      const products = await loadCatalog(options.catalog, readOptions);
      // Embedded by what a reader sees of a product (title and attributes): the serve rules compare
      // products with valued attributes, which often live in the attributes only.
      const vectors = await embedVectorSet(
        encoder,
        products.map((p) => p.id),
        products.map(productText),
      );
      const byId = new Map(
        products.map((p, i) => [p.id, vectors.data.subarray(i * vectors.dim, (i + 1) * vectors.dim)]),
      );
      catalog = { products: new Map(products.map((p) => [p.id, p])), sampler: samplerFor(vectors), vectors: byId };
      catalogSize = products.length;
    }
    const pool = await collectComparisonPool(options, options.comparisonPool ?? DEFAULT_COMPARISON_POOL);
    poolSize = pool.length;
    const poolVectors = await embedVectorSet(
      encoder,
      pool.map((e) => e.id),
      pool.map((e) => e.text),
    );
    sources = {
      catalog,
      comparisons: { entries: new Map(pool.map((e) => [e.id, e])), sampler: samplerFor(poolVectors) },
      windows: options.windows ?? DEFAULT_WINDOWS,
      rules: options.serveRules ?? DEFAULT_SERVE_RULES,
      seed: options.seed,
      styles: options.styles,
      positions: BalancedPositions.fromStream(Rng.derive(options.seed, 'next-product-positions')),
      vectorOf: () => {
        throw new Error('vectorOf used outside a chunk');
      },
    };
  }

  const taskSink: LineSink =
    options.sinks?.tasks ?? (await openAtomicWriter(join(options.out, SIB_OUTPUT_FILES.tasks)));
  let itemSink: LineSink | null = null;
  try {
    if (sources !== null)
      itemSink =
        options.sinks?.distractors ?? (await openAtomicWriter(join(options.out, SIB_OUTPUT_FILES.distractors)));
  } catch (err) {
    await taskSink.abort();
    throw err;
  }
  let committed = false;
  return {
    annotations,
    sources,
    catalogSize,
    poolSize,
    taskSink,
    itemSink,
    async commit() {
      await taskSink.commit();
      await itemSink?.commit();
      committed = true;
    },
    async close() {
      if (committed) return;
      await taskSink.abort();
      await itemSink?.abort();
    },
  };
}

/** What assembleSib reads and writes, checked before any work (the CLI checks them before it opens the model). */
export function sibPaths(o: Pick<AssembleSibOptions, 'sessions' | 'annotations' | 'catalog' | 'out'>): PathChecks {
  return {
    inputFiles: { sessions: o.sessions, annotations: o.annotations, catalog: o.catalog },
    outputDirs: { out: o.out },
  };
}

export async function assembleSib(options: AssembleSibOptions): Promise<SibSummary> {
  checkPaths(sibPaths(options));
  const completionFiles = [join(options.out, SIB_OUTPUT_FILES.summary)];
  return withClaimedOutput(options.out, 'folder', { completionFiles }, () => assembleClaimed(options));
}

async function assembleClaimed(options: AssembleSibOptions): Promise<SibSummary> {
  const onError = options.onError ?? 'fail';
  const chunkSessions = options.chunkSessions ?? 32;
  if (options.perSession !== undefined && !(Number.isInteger(options.perSession) && options.perSession >= 1)) {
    throw new ConfigError('perSession', `must be a whole number ≥ 1, got ${options.perSession}`);
  }
  if (options.styles.length === 0) throw new ConfigError('styles', 'must name at least one prompt style');
  const rejects = new RejectsSink(join(options.out, SIB_OUTPUT_FILES.rejects));
  const readOptions = { ...options.limits, onError, rejects };
  const resources = await openSibResources(options, readOptions);
  const { annotations, sources, taskSink, itemSink } = resources;
  const encoder = options.encoder;
  const summary = new SibSummaryBuilder({
    inputs: { sessions: options.sessions, annotations: options.annotations ?? null, catalog: options.catalog ?? null },
    settings: {
      seed: options.seed,
      styles: options.styles.slice(),
      per_session: options.perSession ?? null,
      encoder: encoder?.name ?? null,
      windows: sources ? sources.windows : null,
      serve_rules: sources ? sources.rules : null,
      comparison_pool: sources ? (options.comparisonPool ?? DEFAULT_COMPARISON_POOL) : null,
    },
    distractors: sources ? { catalogueProducts: resources.catalogSize, comparisonPool: resources.poolSize } : null,
    outputs: { tasks: SIB_OUTPUT_FILES.tasks, distractors: sources ? SIB_OUTPUT_FILES.distractors : null },
  });
  const labelOf = (sessionId: string, leafId: string, task: TaskNumber) =>
    annotations?.take(sessionId, leafId, task) ?? null;
  const progress = createProgress({ label: 'sib assemble', unit: 'sessions', enabled: options.progress });

  // Output is written session by session (a session of the paper's shape is ~500 tasks, a few MB of
  // prompts); only the encoder call spans the chunk.
  const writeLines = async (sink: LineSink, lines: string[]) => {
    if (lines.length > 0) await sink.write(lines.join('\n') + '\n');
  };
  const handleChunk = async (chunk: SibSession[]) => {
    const selected = chunk.map((session) => selectSession(session, options.perSession, options.seed));
    for (const s of selected) {
      const tasks = sessionTaskLines(s, options.styles, labelOf);
      summary.addSession(s.session, s.trajectories, tasks.written, annotations);
      await writeLines(taskSink, tasks.lines);
    }
    if (sources !== null) {
      const vectors = await embedTexts(encoder!, chunkQueryTexts(selected));
      const chunkSources: DistractorSources = { ...sources, vectorOf: (text) => vectors.get(text)! };
      for (const s of selected) {
        const items = sessionItemLines(s, chunkSources);
        for (const outcome of items.outcomes) summary.addItems(outcome);
        await writeLines(itemSink!, items.lines);
      }
    }
    progress.increment(chunk.length);
  };

  try {
    try {
      let chunk: SibSession[] = [];
      const unique = { of: (s: SibSession) => s.sessionId, field: 'session_id', what: 'session id' };
      for await (const { value: session } of readJsonl(options.sessions, parseSession, { ...readOptions, unique })) {
        chunk.push(session);
        if (chunk.length >= chunkSessions) {
          await handleChunk(chunk);
          chunk = [];
        }
      }
      if (chunk.length > 0) await handleChunk(chunk);
    } finally {
      progress.stop();
    }
    await resources.commit();
  } finally {
    await resources.close();
  }
  await rejects.close();
  const result = summary.finish(annotations, rejects, SIB_OUTPUT_FILES.rejects);
  await writeFileAtomic(join(options.out, SIB_OUTPUT_FILES.summary), JSON.stringify(result, null, 2) + '\n');
  return result;
}
