// `intentsim tune --review DIR`'s library call: read a review's labels, propose windows
// (tune-windows.ts) and the rules' cut-offs (tune-cutoffs.ts), and write them as an item settings
// file that `pipeline` and `demo` accept
// (engine/items/intentionqa/item-settings-file.ts). Written to a temporary name and renamed.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { checkNoOverlap, checkPaths, type PathChecks } from '../../core/check-paths.js';
import {
  itemSettingsText,
  parseItemSettings,
  type ItemSettings,
  type NotTuned,
} from '../items/intentionqa/item-settings-file.js';
import { REVIEW_DB_FILE, ReviewStore } from './review-store.js';
import { readTuneItems, tuneWindows, type TuneOptions, type TuneResult } from './tune-windows.js';
import { tuneCutoffs, type CutoffProposal } from './tune-cutoffs.js';

export interface TuneReviewOptions extends TuneOptions {
  reviewDir: string;
  /** The reviewed items made again (same ids and options, more fields): read from here, not the review's copy. */
  itemsDir?: string;
  /** The settings file to write. */
  settingsOut: string;
}

export interface TuneReviewResult {
  result: TuneResult;
  /** The rules' cut-offs, one per rule whose reading the reviewed items carry. */
  cutoffs: CutoffProposal[];
  /** What the settings file sets: the proposed window of each task that has one, and each proposed cut-off. */
  settings: ItemSettings;
  /**
   * The tasks tune found no window for, and why: the settings file leaves them out and records
   * them (`notTuned`), so that `--settings` says it uses the default window for them.
   */
  notTuned: NotTuned;
  /** Whether the review's labels were made blind. */
  blind: boolean;
  /** The settings file written; null when no task has a proposal (nothing is written then). */
  file: string | null;
}

/**
 * The paths `tune` reads and writes (core/check-paths.ts): a settings file given as the review's
 * database (issue 45: `--settings-out R/review.sqlite` replaced every label with JSON) is refused.
 */
export function tunePaths(o: Pick<TuneReviewOptions, 'reviewDir' | 'settingsOut' | 'itemsDir'>): PathChecks {
  const db = join(o.reviewDir, REVIEW_DB_FILE);
  // The database where there is one; a missing folder, whose check says so; nothing for a folder
  // without a database, which ReviewStore.open refuses saying how to start a review.
  const input = existsSync(db)
    ? { inputFiles: { reviewDir: db } }
    : existsSync(o.reviewDir)
      ? {}
      : { inputDirs: { reviewDir: o.reviewDir } };
  const items = o.itemsDir === undefined ? {} : { itemsDir: o.itemsDir };
  return { ...input, inputDirs: { ...input.inputDirs, ...items }, outputFiles: { settingsOut: o.settingsOut } };
}

/**
 * Proposes windows and cut-offs and writes them as a settings file. When nothing has a proposal, nothing is
 * written (issue 45: a file with `"items": {}` made `--settings` use the very defaults tune had found
 * failing, silently): `file` is null and the caller says so.
 */
export async function tuneReview(options: TuneReviewOptions): Promise<TuneReviewResult> {
  checkPaths(tunePaths(options));
  const store = ReviewStore.open(options.reviewDir);
  let blind: boolean;
  let result: TuneResult;
  let cutoffs: CutoffProposal[];
  try {
    // Nor may it replace one of the reviewed items' files: the review names their folder.
    checkNoOverlap({
      inputDirs: {
        "the review's items folder": store.settings().itemsDir,
        ...(options.itemsDir === undefined ? {} : { itemsDir: options.itemsDir }),
      },
      outputFiles: { settingsOut: options.settingsOut },
    });
    blind = store.settings().blind === true;
    const items = readTuneItems(store, options.itemsDir);
    result = tuneWindows(items, options);
    cutoffs = tuneCutoffs(items, options);
  } finally {
    store.close();
  }
  const settings: ItemSettings = {};
  const notTuned: NotTuned = {};
  for (const t of result.tasks) {
    const field = t.task === 1 ? 'task1Window' : 'task2Window';
    if (t.proposed) settings[field] = { lo: t.proposed.lo, hi: t.proposed.hi };
    else notTuned[field] = t.noProposal ?? 'no proposal';
  }
  for (const c of cutoffs) {
    if (c.proposed) settings[c.setting] = c.proposed.value;
    else notTuned[c.setting] = c.noProposal ?? 'no proposal';
  }
  if (Object.keys(settings).length === 0) return { result, cutoffs, settings, notTuned, blind, file: null };
  const text = itemSettingsText(
    settings,
    {
      review: resolve(options.reviewDir),
      blind,
      maxFNeg: result.maxFNeg,
      bootstrap: result.bootstrap,
      seed: result.seed,
      tasks: result.tasks,
      ...(cutoffs.length > 0 ? { cutoffs } : {}),
    },
    notTuned,
  );
  // Never a file its own reader refuses: a window that is not -1 ≤ lo < hi ≤ 1 here is a bug.
  parseItemSettings(JSON.parse(text), options.settingsOut);
  await writeFileAtomic(options.settingsOut, text);
  return { result, cutoffs, settings, notTuned, blind, file: options.settingsOut };
}
