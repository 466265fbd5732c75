// "Which product would this customer buy?" items straight from a catalogue index (no ASER): the gold
// is a catalogue product, the three distractors are catalogue products whose title embedding lies in
// a cosine window around the gold's, drawn with the engine's exact window sampler. The window and
// the centering default to the index encoder's calibration, the IntentionQA Task-2 one
// (calibration.ts): [0.7, 0.9) uncentered for Sentence-BERT; for glove-100d, whose raw cosines all
// sit near 0.9, [0.4, 0.9) on centered vectors. The IntentionQA invariants hold: exactly four options with
// distinct (normalised) titles, one gold, gold positions balanced by BalancedPositions, seeded; a query that
// cannot get such an item is reported with its reason, never emitted short.
import { join } from 'node:path';
import { writeFileAtomic } from '../../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../../core/check-paths.js';
import { withClaimedOutput } from '../../../core/output-claim.js';
import { ConfigError, type OnError } from '../../../core/errors.js';
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
import { centerVectors } from '../../search/centering.js';
import { UnitVectors } from '../../search/unit-vectors.js';
import { calibrationFor } from '../intentionqa/calibration.js';

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

/** The window an item was drawn from; `centered` only when the cosines are of centered vectors. */
export interface ProductItemWindow {
  lo: number;
  hi: number;
  centered?: true;
}

export interface ProductItem {
  id: string;
  context: string;
  question: string;
  options: Record<Letter, string>;
  answer: Letter;
  gold: { id: string; title: string };
  distractors: Array<{ id: string; title: string; cosine: number; via: WindowMethod }>;
  window: ProductItemWindow;
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
  /** The window [lo, hi) (default: the index encoder's Task-2 window, calibrationFor). */
  lo?: number;
  hi?: number;
  /** Subtract the mean catalogue vector before cosines (default: the index encoder's calibration). */
  center?: boolean;
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
  const calibration = calibrationFor(o.index.manifest.model);
  const lo = o.lo ?? calibration.task2Window.lo;
  const hi = o.hi ?? calibration.task2Window.hi;
  const center = o.center ?? calibration.center;
  if (!(lo <= hi)) throw new ConfigError('lo', `(${lo}) must not exceed hi (${hi})`);
  const seed = o.seed ?? 1;
  const stored = o.index.vectors.unit;
  // Centered cosines are not the HNSW index's (built on the stored vectors): they are scanned exactly.
  const unit = center
    ? UnitVectors.fromVectorSet(centerVectors({ ids: [...stored.ids], dim: stored.dim, data: stored.data }).centered)
    : stored;
  const titles = o.index.vectors.titles;
  const search: RangeSearch =
    !center && unit.validRows.length > (o.exactUpTo ?? 10_000)
      ? new HnswRange(o.index.requireHnsw())
      : new ExactScanRange(unit);
  const window: ProductItemWindow = center ? { lo, hi, centered: true } : { lo, hi };
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
      window,
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
        ...(center ? { centered: true } : {}),
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
