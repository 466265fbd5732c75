// `review start`'s storage step: create the review folder with a sample of the items, or resume the
// one already there. A review belongs to one items folder and one sample; asking an existing review
// for another folder or another sample is refused, naming both, instead of mixing labels.
import { resolve } from 'node:path';
import { checkPaths, resolvedPath, type PathChecks } from '../../core/check-paths.js';
import { ConfigError, UserError } from '../../core/errors.js';
import { MTURK_ANNOTATOR_PREFIX } from './mturk.js';
import { checkSampleUnchanged } from './review-drift.js';
import type { MalformedItem } from '../scoring/intentionqa/intentionqa-item-file.js';
import { readReviewItems } from './review-items.js';
import { ReviewStore, type Annotator } from './review-store.js';
import { sampleItems, STRATUM_FIELDS, type StratumField } from './sample-items.js';

export interface OpenReviewOptions {
  itemsDir: string;
  reviewDir: string;
  /** How many items to sample; undefined = all (or, on resume, what the review was started with). */
  sample?: number;
  /** Strata of the sample; undefined = none (or, on resume, as started). */
  stratify?: readonly StratumField[];
  /** Seed of the sample; undefined = 1 (or, on resume, as started). */
  seed?: number;
  /** Annotator names; new ones are added to a resumed review. Default: one, `annotator`, for a new review. */
  annotators?: readonly string[];
  /** A blind review (the page shows no gold); undefined = false (or, on resume, as started). */
  blind?: boolean;
}

export interface OpenedReview {
  store: ReviewStore;
  annotators: Annotator[];
  /** True when the review folder already held this review. */
  resumed: boolean;
  /** A new review: the IntentionQA items set apart as malformed (not four distinct options), not sampled. */
  malformed: MalformedItem[];
}

const ANNOTATOR_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The paths `review start` reads and writes (core/check-paths.ts): the review folder holds its own resume state. */
export function openReviewPaths(o: Pick<OpenReviewOptions, 'itemsDir' | 'reviewDir'>): PathChecks {
  return { inputDirs: { itemsDir: o.itemsDir }, outputDirs: { reviewDir: o.reviewDir } };
}

export async function openReview(options: OpenReviewOptions): Promise<OpenedReview> {
  checkPaths(openReviewPaths(options));
  if (options.annotators?.length === 0) throw new ConfigError('annotators', 'must name at least one annotator');
  for (const name of options.annotators ?? []) {
    if (!ANNOTATOR_NAME.test(name)) {
      throw new ConfigError('annotators', `"${name}" is not a name of letters, digits, _ . - (at most 64)`);
    }
    // MTurk workers are annotators mturk-<WorkerId> (mturk.ts): a page annotator may not share their labels.
    if (name.startsWith(MTURK_ANNOTATOR_PREFIX))
      throw new ConfigError(
        'annotators',
        `"${name}": names starting with ${MTURK_ANNOTATOR_PREFIX} are MTurk workers'`,
      );
  }
  for (const f of options.stratify ?? []) {
    if (!STRATUM_FIELDS.includes(f))
      throw new ConfigError('stratify', `"${f}" is not one of ${STRATUM_FIELDS.join(', ')}`);
  }
  const itemsDir = resolve(options.itemsDir);
  if (ReviewStore.exists(options.reviewDir)) {
    const store = ReviewStore.open(options.reviewDir);
    try {
      const settings = store.settings();
      // Compared as the file system resolves them: a link to the same folder is the same items (issue 45).
      if (resolvedPath(settings.itemsDir) !== resolvedPath(itemsDir)) {
        throw new UserError(
          `${options.reviewDir} reviews items from ${settings.itemsDir}, not ${itemsDir}: ` +
            'use another review folder for other items',
        );
      }
      const asked = { sample: options.sample, stratify: options.stratify?.join(','), seed: options.seed };
      const held = { sample: settings.sample, stratify: settings.stratify.join(','), seed: settings.seed };
      for (const k of ['sample', 'stratify', 'seed'] as const) {
        if (asked[k] !== undefined && asked[k] !== held[k]) {
          throw new UserError(
            `${options.reviewDir} was started with ${k} ${String(held[k] ?? 'all')}, not ${String(asked[k])}: ` +
              'rerun without it to resume, or use another review folder to draw another sample',
          );
        }
      }
      if (options.blind !== undefined && options.blind !== (settings.blind ?? false)) {
        throw new UserError(
          `${options.reviewDir} was started ${settings.blind ? 'blind' : 'not blind'}: ` +
            'a review is blind from its first label to its last; use another review folder',
        );
      }
      await checkSampleUnchanged(store, itemsDir, 'resume it');
      return { store, annotators: store.addAnnotators(options.annotators ?? []), resumed: true, malformed: [] };
    } catch (err) {
      store.close();
      throw err;
    }
  }
  const { items: all, malformed } = await readReviewItems(itemsDir);
  const settings = {
    itemsDir,
    itemsRead: all.length,
    sample: options.sample,
    stratify: options.stratify ?? [],
    seed: options.seed ?? 1,
    ...(options.blind ? { blind: true } : {}),
  };
  const positions = sampleItems(
    all.map((s) => s.item),
    settings,
  );
  const store = ReviewStore.create(
    options.reviewDir,
    settings,
    positions.map((p) => all[p]!),
  );
  return { store, annotators: store.addAnnotators(options.annotators ?? ['annotator']), resumed: false, malformed };
}
