// `intentsim tune --review DIR`'s library call: read a review's labels, propose windows
// (tune-windows.ts) and write them as an item settings file that `pipeline` and `demo` accept
// (engine/items/intentionqa/item-settings-file.ts). Written to a temporary name and renamed.
import { resolve } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { itemSettingsText, type ItemSettings } from '../items/intentionqa/item-settings-file.js';
import { ReviewStore } from './review-store.js';
import { readTuneItems, tuneWindows, type TuneOptions, type TuneResult } from './tune-windows.js';

export interface TuneReviewOptions extends TuneOptions {
  reviewDir: string;
  /** The settings file to write. */
  settingsOut: string;
}

export interface TuneReviewResult {
  result: TuneResult;
  /** What the settings file sets: the proposed window of each task that has one. */
  settings: ItemSettings;
  /** Whether the review's labels were made blind. */
  blind: boolean;
  file: string;
}

export async function tuneReview(options: TuneReviewOptions): Promise<TuneReviewResult> {
  const store = ReviewStore.open(options.reviewDir);
  let blind: boolean;
  let result: TuneResult;
  try {
    blind = store.settings().blind === true;
    result = tuneWindows(readTuneItems(store), options);
  } finally {
    store.close();
  }
  const settings: ItemSettings = {};
  for (const t of result.tasks) {
    if (t.proposed) settings[t.task === 1 ? 'task1Window' : 'task2Window'] = { lo: t.proposed.lo, hi: t.proposed.hi };
  }
  const text = itemSettingsText(settings, {
    review: resolve(options.reviewDir),
    blind,
    maxFNeg: result.maxFNeg,
    bootstrap: result.bootstrap,
    seed: result.seed,
    tasks: result.tasks,
  });
  await writeFileAtomic(options.settingsOut, text);
  return { result, settings, blind, file: options.settingsOut };
}
