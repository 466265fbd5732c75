// `review export`: the labels (labels.jsonl), the summary (summary.json, summary.md, summary.svg),
// optionally the items that passed in their input format (items/<file>, ready for `ask` and
// `score`) and the MTurk batch input CSV. Every file is written to a temporary name and renamed.
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { checkNoOverlap, checkPaths, type PathChecks } from '../../core/check-paths.js';
import { mturkBatchCsv } from './mturk.js';
import { checkSampleUnchanged } from './review-drift.js';
import { REVIEW_ITEM_FILES, type ReviewItem } from './review-items.js';
import { renderReviewMarkdown, renderReviewSvg } from './review-report.js';
import { REVIEW_DB_FILE, ReviewStore, type StoredLabel } from './review-store.js';
import { summarizeReview, type ReviewSummary } from './review-summary.js';
import { isKeepVote, labelFlags } from './item-measures.js';

export const REVIEW_EXPORT_FILES = {
  labels: 'labels.jsonl',
  summary: 'summary.json',
  report: 'summary.md',
  svg: 'summary.svg',
  keptDir: 'items',
} as const;

export interface ExportReviewOptions {
  reviewDir: string;
  out: string;
  /** `valid`: also write the items most judgements found valid (more than half), in their input format. */
  keep?: 'valid';
  /** Also write MTurk's batch input CSV of the sample to this file. */
  mturkCsv?: string;
}

export interface ExportReviewResult {
  summary: ReviewSummary;
  files: string[];
  /** Items kept per item file (with keep). */
  kept?: Record<string, number>;
}

/**
 * The paths `review export` reads and writes (core/check-paths.ts). The review's items folder is
 * an input too (checked once the review is open): `--keep valid` into the folder above it would
 * overwrite the items the review was drawn from.
 */
export function exportReviewPaths(o: Pick<ExportReviewOptions, 'reviewDir' | 'out' | 'keep' | 'mturkCsv'>): PathChecks {
  // The files written into out are named too, so that the CSV given as one of them is refused
  // (issue 45: `--mturk-csv O/labels.jsonl` was written over the labels).
  const inOut = (name: string) => ({ [`out/${name}`]: join(o.out, name) });
  return {
    inputFiles: { reviewDir: join(o.reviewDir, REVIEW_DB_FILE) },
    outputDirs: {
      out: o.out,
      ...(o.keep === 'valid' ? inOut(REVIEW_EXPORT_FILES.keptDir) : {}),
    },
    outputFiles: {
      ...inOut(REVIEW_EXPORT_FILES.labels),
      ...inOut(REVIEW_EXPORT_FILES.summary),
      ...inOut(REVIEW_EXPORT_FILES.report),
      ...inOut(REVIEW_EXPORT_FILES.svg),
      mturkCsv: o.mturkCsv,
    },
  };
}

export async function exportReview(options: ExportReviewOptions): Promise<ExportReviewResult> {
  checkPaths(exportReviewPaths(options));
  const store = ReviewStore.open(options.reviewDir);
  try {
    checkNoOverlap({
      inputDirs: { "the review's items folder": store.settings().itemsDir },
      outputDirs: { out: options.out },
      outputFiles: { mturkCsv: options.mturkCsv },
    });
    // The kept items are written from the lines the review stored: they must still be the folder's.
    if (options.keep === 'valid')
      await checkSampleUnchanged(store, store.settings().itemsDir, 'write the items that passed');
    const items = store.items();
    const labels = store.labels();
    const settings = store.settings();
    const summary = summarizeReview(items, labels, settings.itemsRead, settings.blind === true);
    const out = (f: string) => join(options.out, f);
    const files: string[] = [];
    const write = async (path: string, data: string) => {
      await writeFileAtomic(path, data);
      files.push(path);
    };
    await write(
      out(REVIEW_EXPORT_FILES.labels),
      labels.map((l) => JSON.stringify(labelRecord(l, items[l.position]!)) + '\n').join(''),
    );
    await write(out(REVIEW_EXPORT_FILES.summary), JSON.stringify(summary, null, 2) + '\n');
    await write(out(REVIEW_EXPORT_FILES.svg), renderReviewSvg(summary));
    await write(out(REVIEW_EXPORT_FILES.report), renderReviewMarkdown(summary, REVIEW_EXPORT_FILES.svg));
    let kept: Record<string, number> | undefined;
    if (options.keep === 'valid') {
      kept = {};
      const raw = store.rawLines();
      const keep = keptPositions(items, labels);
      for (const file of REVIEW_ITEM_FILES) {
        const positions = keep.filter((p) => items[p]!.file === file).sort((a, b) => items[a]!.line - items[b]!.line);
        if (!items.some((i) => i.file === file)) continue;
        kept[file] = positions.length;
        await write(join(out(REVIEW_EXPORT_FILES.keptDir), file), positions.map((p) => raw[p] + '\n').join(''));
      }
    }
    if (options.mturkCsv !== undefined)
      await write(options.mturkCsv, mturkBatchCsv(items, settings.blind ? { seed: settings.seed } : undefined));
    return { summary, files, kept };
  } finally {
    store.close();
  }
}

/**
 * Positions of the items more than half of whose judgements say valid with marks that agree: a
 * "valid" that leaves the gold unmarked, or marks a distractor too, is no vote (item-measures.ts).
 */
export function keptPositions(items: readonly ReviewItem[], labels: readonly StoredLabel[]): number[] {
  const valid = new Array<number>(items.length).fill(0);
  const all = new Array<number>(items.length).fill(0);
  for (const l of labels) {
    all[l.position]!++;
    if (isKeepVote(items[l.position]!, l)) valid[l.position]!++;
  }
  return valid.map((v, p) => (2 * v > all[p]! ? p : -1)).filter((p) => p >= 0);
}

function labelRecord(l: StoredLabel, item: ReviewItem) {
  return {
    item: item.key,
    id: item.id,
    file: item.file,
    task: item.task,
    difficulty: item.difficulty,
    relation: item.relation,
    gold: item.gold,
    annotator: l.annotator,
    correct: l.correct,
    validity: l.validity,
    flags: labelFlags(item, l),
    reasons: l.reasons,
    other_text: l.otherText,
    ms: l.ms,
    saved_at: l.savedAt,
    origin: l.origin,
  };
}
