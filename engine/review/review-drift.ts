// Whether a review's sample is still what its items folder holds (issue 35): a review resumed after
// the folder changed (items removed, golds edited) went on silently, and `review export --keep
// valid` wrote items no longer in the folder, with their old golds. The review database keeps each
// sampled item's line as it was read; each is compared, by its SHA-256, with the line of the same
// item (file and id) in the folder now. Items added to the folder, or removed without having been
// sampled, leave the sample as it was and are no drift.
import { createHash } from 'node:crypto';
import { UserError } from '../../core/errors.js';
import { readReviewItems } from './review-items.js';
import type { ReviewStore } from './review-store.js';

export interface SampleDrift {
  /** Keys (`file#id`) of sampled items the folder no longer holds. */
  missing: string[];
  /** Keys of sampled items whose line in the folder differs from the line that was reviewed. */
  changed: string[];
}

function sha256(line: string): string {
  return createHash('sha256').update(line).digest('hex');
}

/** The sampled items that are missing from, or changed in, `itemsDir` (see the file comment). */
export async function sampleDrift(store: ReviewStore, itemsDir: string): Promise<SampleDrift> {
  const now = new Map<string, string>();
  try {
    for (const { item, raw } of (await readReviewItems(itemsDir)).items) now.set(item.key, sha256(raw));
  } catch (err) {
    // A folder without item files holds none of the sample: every item is missing. A folder that
    // cannot be read at all (bad JSON, …) stops with its own error.
    if (!(err instanceof UserError) || !/no item files to review/.test(err.message)) throw err;
  }
  const raw = store.rawLines();
  const drift: SampleDrift = { missing: [], changed: [] };
  store.items().forEach((item, position) => {
    const hash = now.get(item.key);
    if (hash === undefined) drift.missing.push(item.key);
    else if (hash !== sha256(raw[position]!)) drift.changed.push(item.key);
  });
  drift.missing.sort();
  drift.changed.sort();
  return drift;
}

function listed(keys: readonly string[]): string {
  const shown = keys.slice(0, 5).join(', ');
  return keys.length > 5 ? `${shown} and ${keys.length - 5} more` : shown;
}

/** Refuses a review whose sample drifted from its items folder, naming every kind of change and the items. */
export async function checkSampleUnchanged(store: ReviewStore, itemsDir: string, what: string): Promise<void> {
  const { missing, changed } = await sampleDrift(store, itemsDir);
  if (missing.length === 0 && changed.length === 0) return;
  const parts = [
    ...(missing.length > 0 ? [`${missing.length} sampled item(s) are no longer there (${listed(missing)})`] : []),
    ...(changed.length > 0
      ? [`${changed.length} sampled item(s) changed since they were sampled (${listed(changed)})`]
      : []),
  ];
  throw new UserError(
    `${store.dir}: the items folder ${itemsDir} changed since this review was started: ${parts.join('; ')}. ` +
      `Refusing to ${what}: restore those items, or start a new review in another folder`,
  );
}
