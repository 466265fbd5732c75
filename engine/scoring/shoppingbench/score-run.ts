// `intentsim score shoppingbench`: reads targets and predictions, embeds every distinct title once,
// scores every target query, and writes per-query scores (JSONL), summary.json and summary.md.
import { join } from 'node:path';
import type { SentenceEncoder } from '../../../embeddings/sentence-encoder.js';
import { writeFileAtomic } from '../../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../../core/check-paths.js';
import { ConfigError, type OnError } from '../../../core/errors.js';
import { readJsonl, type InputLimits } from '../../../core/jsonl.js';
import { createProgress } from '../../../core/progress.js';
import { RejectsSink } from '../../../core/rejects.js';
import { parsePredictionRecord } from './parse-predictions.js';
import { parseTargetRecord } from './parse-targets.js';
import { scoreQuery, type QueryScore } from './score-query.js';
import { summarize, summaryMarkdown, type IntentSummary } from './shoppingbench-summary.js';
import { TitleEmbeddings } from './title-embeddings.js';
import type { PredictedProduct, TargetQuery } from './shoppingbench-types.js';

export interface ScoreRunOptions {
  predictions: string;
  targets: string;
  /** Output folder; nothing is written when absent (the caller prints the summary). */
  out?: string;
  encoder: SentenceEncoder;
  /** Why the similarities carry no meaning (random weights, stand-in), or undefined for a real model. */
  notMeaningfulBecause?: string;
  /** What to keep in mind about meaningful similarities from another model than Sentence-BERT (glove-100d). */
  similarityNote?: string;
  onError?: OnError;
  /** Limits on the input files' lines and texts (core/jsonl-batches.ts). */
  limits?: InputLimits;
  batchSize?: number;
  progress?: boolean;
}

export interface ScoreRunResult {
  scores: QueryScore[];
  summary: IntentSummary[];
  markdown: string;
  distinctTitles: number;
  /** Prediction lines whose query id is not among the targets (reported, not scored). */
  unknownPredictionIds: string[];
  rejected: number;
}

/** What scoreShoppingBench reads and writes, checked before any work (the CLI checks them before it opens the model). */
export function scorePaths(o: Pick<ScoreRunOptions, 'predictions' | 'targets' | 'out'>): PathChecks {
  return { inputFiles: { predictions: o.predictions, targets: o.targets }, outputDirs: { out: o.out } };
}

export async function scoreShoppingBench(o: ScoreRunOptions): Promise<ScoreRunResult> {
  checkPaths(scorePaths(o));
  const onError = o.onError ?? 'fail';
  const rejects = o.out ? new RejectsSink(join(o.out, 'rejects.jsonl')) : undefined;
  if (onError === 'skip' && !rejects)
    throw new ConfigError('onError', '"skip" needs out (the folder that receives rejects.jsonl)');
  const readOptions = { ...o.limits, onError, rejects };

  const targets: TargetQuery[] = [];
  const queryIds = new Set<string>();
  const unique = { of: (q: { queryId: string }) => q.queryId, field: 'query_id', what: 'query id' };
  for await (const { value } of readJsonl(o.targets, parseTargetRecord, { ...readOptions, unique })) {
    queryIds.add(value.queryId);
    targets.push(value);
  }

  const predictions = new Map<string, PredictedProduct[]>();
  const unknownPredictionIds: string[] = [];
  for await (const { value } of readJsonl(o.predictions, parsePredictionRecord, { ...readOptions, unique })) {
    if (!queryIds.has(value.queryId)) unknownPredictionIds.push(value.queryId);
    else predictions.set(value.queryId, value.products);
  }

  // Every title that can be compared: the predicted ones and the targets' acceptable ones.
  const titles = new Set<string>();
  for (const q of targets) {
    const products = predictions.get(q.queryId) ?? [];
    if (products.length === 0) continue;
    for (const t of q.targets) for (const title of t.titles) titles.add(title);
    // A product that is the target of every pairing scores 1 by id: its title is never compared.
    for (const p of products)
      if (p.title.trim() !== '' && !q.targets.every((t) => t.productId === p.productId)) titles.add(p.title);
  }
  const progress = createProgress({ label: 'embedding titles', unit: 'titles', enabled: o.progress });
  const embeddings = await TitleEmbeddings.build(titles, o.encoder, { batchSize: o.batchSize, progress });
  progress.stop();

  const scores = targets.map((q) => scoreQuery(q, predictions.get(q.queryId), embeddings.similarity));
  const summary = summarize(scores);
  const withoutVector = embeddings.withoutVector;
  const encoderLine =
    `${o.encoder.name} (${o.encoder.provider}), ${embeddings.size} distinct titles` +
    (withoutVector > 0 ? ` (${withoutVector} without a vector: title_sim 0)` : '') +
    (o.notMeaningfulBecause ? ` — NOT MEANINGFUL: ${o.notMeaningfulBecause}` : '') +
    (o.similarityNote ? ` — NOT SENTENCE-BERT: ${o.similarityNote}` : '');
  const markdown = summaryMarkdown(summary, scores, encoderLine);

  if (o.out) {
    await writeFileAtomic(
      join(o.out, 'scores.jsonl'),
      scores.map((s) => JSON.stringify(s)).join('\n') + (scores.length ? '\n' : ''),
    );
    const json = {
      predictions: o.predictions,
      targets: o.targets,
      encoder: {
        name: o.encoder.name,
        provider: o.encoder.provider,
        dim: o.encoder.dim,
        meaningful: o.notMeaningfulBecause === undefined,
        notMeaningfulBecause: o.notMeaningfulBecause ?? null,
        similarityNote: o.similarityNote ?? null,
      },
      distinctTitles: embeddings.size,
      titlesWithoutVector: withoutVector,
      summary,
      unknownPredictionIds,
      rejected: rejects?.count ?? 0,
    };
    await writeFileAtomic(join(o.out, 'summary.json'), JSON.stringify(json, null, 2) + '\n');
    await writeFileAtomic(join(o.out, 'summary.md'), markdown);
    await rejects?.close();
  }
  return {
    scores,
    summary,
    markdown,
    distinctTitles: embeddings.size,
    unknownPredictionIds,
    rejected: rejects?.count ?? 0,
  };
}
