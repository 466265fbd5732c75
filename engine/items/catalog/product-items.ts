// "Which product would this customer buy?" items straight from a catalogue index (no ASER): the gold
// is a catalogue product, the three distractors are catalogue products whose title embedding lies in
// a cosine window around the gold's ([0.7, 0.9) by default, the IntentionQA Task-2 window), drawn
// with the engine's exact window sampler. The IntentionQA invariants hold: exactly four options with
// distinct (normalised) titles, one gold, gold positions balanced by BalancedPositions, seeded; a query that
// cannot get such an item is reported with its reason, never emitted short.
import { join } from 'node:path';
import { writeFileAtomic } from '../../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../../core/check-paths.js';
import { withClaimedOutput } from '../../../core/output-claim.js';
import { type OnError } from '../../../core/errors.js';
import { FieldReader, readJsonl, type InputLimits } from '../../../core/jsonl.js';
import { RejectsSink } from '../../../core/rejects.js';
import { BalancedPositions } from '../balanced-positions.js';
import { normalizeOptionText } from '../option-text.js';
import { LETTERS, type Letter } from '../intentionqa/intentionqa-prompts.js';
import { ExactScanRange, type RangeSearch } from '../../search/range-search.js';
import { Rng } from '../../../core/rng.js';
import { HnswRange } from '../../search/vector-index.js';
import { sampleWindow, type WindowMethod } from '../../search/windows.js';
import type { CatalogIndex } from '../../catalog/catalog-query.js';

export interface ProductQuestion {
  id: string;
  /** What is known about the customer (a need, an intention, a session summary). */
  context: string;
  productId: string;
}

export function parseProductQuestion(json: unknown, at: { file: string; line: number }): ProductQuestion {
  const r = new FieldReader(json, at);
  return { id: r.id('id'), context: r.string('context'), productId: r.id('product_id') };
}

export interface ProductItem {
  id: string;
  context: string;
  question: string;
  options: Record<Letter, string>;
  answer: Letter;
  gold: { id: string; title: string };
  distractors: Array<{ id: string; title: string; cosine: number; via: WindowMethod }>;
  window: { lo: number; hi: number };
  /** Drawn members refused (same title as the gold or as another option). */
  dropped: Array<{ id: string; cosine: number; reason: string }>;
  exact: boolean;
  prompt: string;
  /** Null for a trained model; else why the window's cosines mean nothing. */
  notMeaningfulBecause: string | null;
}

export interface ProductItemsOptions {
  index: CatalogIndex;
  questions: string;
  out: string;
  lo?: number;
  hi?: number;
  seed?: number;
  /** Exact scans up to this many products, HNSW candidates (verified exactly) above. */
  exactUpTo?: number;
  onError?: OnError;
  /** Limits on the questions file's lines and texts (core/jsonl-batches.ts). */
  limits?: InputLimits;
}

export interface ProductItemsReport {
  questions: number;
  items: number;
  notMade: Record<string, number>;
  goldPositions: Record<Letter, number>;
}

export const PRODUCT_QUESTION = 'Which product would this customer buy?';

export function productPrompt(context: string, options: Record<Letter, string>): string {
  return `Customer: ${context}\n${PRODUCT_QUESTION}\n${LETTERS.map((l) => `${l}. ${options[l]}`).join('\n')}\nAnswer:`;
}

/**
 * What buildProductItems reads and writes, checked before any work; `index` is the folder the
 * caller opens the CatalogIndex from (the CLI checks them all before it loads the index).
 */
export function productItemsPaths(o: { index?: string; questions: string; out: string }): PathChecks {
  return { inputDirs: { index: o.index }, inputFiles: { questions: o.questions }, outputDirs: { out: o.out } };
}

export async function buildProductItems(o: ProductItemsOptions): Promise<ProductItemsReport> {
  checkPaths(productItemsPaths({ questions: o.questions, out: o.out }));
  // o.out is claimed first (core/output-claim.ts): locked, temporary files of killed runs removed,
  // report.json removed until this run has finished.
  const completionFiles = [join(o.out, 'report.json')];
  return withClaimedOutput(o.out, 'folder', { completionFiles }, () => buildClaimed(o));
}

async function buildClaimed(o: ProductItemsOptions): Promise<ProductItemsReport> {
  const lo = o.lo ?? 0.7;
  const hi = o.hi ?? 0.9;
  const seed = o.seed ?? 1;
  const unit = o.index.vectors.unit;
  const titles = o.index.vectors.titles;
  const search: RangeSearch =
    unit.validRows.length > (o.exactUpTo ?? 10_000) ? new HnswRange(o.index.requireHnsw()) : new ExactScanRange(unit);
  const placer = BalancedPositions.perBlock(seed, 'catalog-product');
  const rejects = new RejectsSink(join(o.out, 'rejects.jsonl'));
  const items: string[] = [];
  const notMade: string[] = [];
  const reasons: Record<string, number> = {};
  const positions: Record<Letter, number> = { A: 0, B: 0, C: 0, D: 0 };
  let questions = 0;
  const skip = (q: ProductQuestion, reason: string, detail: Record<string, unknown> = {}) => {
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    notMade.push(JSON.stringify({ id: q.id, product_id: q.productId, reason, ...detail }));
  };
  for await (const { value: q } of readJsonl(o.questions, parseProductQuestion, {
    ...o.limits,
    unique: { of: (question) => question.id, field: 'id', what: 'question id' },
    onError: o.onError ?? 'fail',
    rejects,
  })) {
    questions += 1;
    const gold = unit.row(q.productId);
    if (gold === undefined) {
      skip(q, 'gold-not-in-catalogue');
      continue;
    }
    const goldTitle = normalizeOptionText(titles[gold]!);
    const taken = new Set([goldTitle]);
    const sample = sampleWindow({ row: gold }, search, {
      lo,
      hi,
      loInclusive: true,
      hiInclusive: false,
      k: 3,
      sampling: 'uniform',
      rng: Rng.derive(seed, `catalog-item/${q.id}`),
      accept: (row) => {
        const t = normalizeOptionText(titles[row]!);
        if (t === goldTitle) return 'same-title-as-gold';
        if (taken.has(t)) return 'same-title-as-another-option';
        taken.add(t);
        return true;
      },
    });
    if (sample.rows.length < 3) {
      skip(q, 'window-too-thin', { window: [lo, hi], found: sample.rows.length, members: sample.members ?? null });
      continue;
    }
    const position = placer.next();
    const distractors = sample.rows.map((row, i) => ({
      id: unit.ids[row]!,
      title: titles[row]!,
      cosine: sample.scores[i]!,
      via: sample.via[i]!,
    }));
    const order = distractors.map((d) => d.title);
    order.splice(position, 0, titles[gold]!);
    const options = Object.fromEntries(LETTERS.map((l, i) => [l, order[i]!])) as Record<Letter, string>;
    const answer = LETTERS[position]!;
    positions[answer] += 1;
    const item: ProductItem = {
      id: q.id,
      context: q.context,
      question: PRODUCT_QUESTION,
      options,
      answer,
      gold: { id: q.productId, title: titles[gold]! },
      distractors,
      window: { lo, hi },
      dropped: sample.dropped.map((d) => ({ id: d.id, cosine: d.score, reason: d.reason })),
      exact: sample.exact,
      prompt: productPrompt(q.context, options),
      notMeaningfulBecause: o.index.manifest.notMeaningfulBecause,
    };
    items.push(JSON.stringify(item));
  }
  await rejects.close();
  const report: ProductItemsReport = { questions, items: items.length, notMade: reasons, goldPositions: positions };
  await writeFileAtomic(join(o.out, 'items.jsonl'), items.map((l) => l + '\n').join(''));
  await writeFileAtomic(join(o.out, 'not-made.jsonl'), notMade.map((l) => l + '\n').join(''));
  await writeFileAtomic(
    join(o.out, 'report.json'),
    JSON.stringify(
      {
        ...report,
        window: [lo, hi],
        seed,
        rejected: rejects.count,
        notMeaningfulBecause: o.index.manifest.notMeaningfulBecause,
        similarityNote: o.index.manifest.similarityNote ?? null,
      },
      null,
      2,
    ) + '\n',
  );
  return report;
}
