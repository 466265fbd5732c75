// A task's distractors for one assertion before the gold is placed, or the reason there are none.
import type { DrawResult } from '../../search/windows.js';
import type { DistractorRecord, DroppedAssertion, SamplingRecord } from './item-types.js';
import { VALIDITY_FILTERS, type ValidityFilter } from './validity-filters.js';

export const DISTRACTORS_PER_ITEM = 3;

export interface Draft {
  distractors: DistractorRecord[];
  hadFalseNegative: boolean;
  selection: SamplingRecord;
  /** The gold intention's fit to the item's pair (rule-readings.ts); absent without fit vectors. */
  goldFit?: number;
}

export type DraftResult = ({ ok: true; draft: Draft } | { ok: false; dropped: DroppedAssertion }) & {
  /** Whether the window was enumerated (its range query is then cached for the other task). */
  enumerated: boolean;
};

/** One assertion's draws: dropped before either task, or one DraftResult per task. */
export interface AssertionDraft {
  index: number;
  dropped?: DroppedAssertion;
  tasks: Array<{ task: 1 | 2; result: DraftResult }>;
}

export function countReasons(refused: ReadonlyArray<{ reason: string }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of refused) out[r.reason] = (out[r.reason] ?? 0) + 1;
  return out;
}

/**
 * The validity filter that emptied a window: when the draw fell short of three distractors but would
 * have had them without the validity filters' refusals, the filter that refused most (ties: the
 * first in VALIDITY_FILTERS); otherwise undefined (the window itself was short).
 */
export function emptiedBy(r: Pick<DrawResult, 'chosen' | 'dropped'>): ValidityFilter | undefined {
  const counts = countReasons(r.dropped);
  let best: ValidityFilter | undefined;
  let filtered = 0;
  for (const f of VALIDITY_FILTERS) {
    const n = counts[f] ?? 0;
    filtered += n;
    if (n > 0 && (best === undefined || n > counts[best]!)) best = f;
  }
  return best !== undefined && r.chosen.length + filtered >= DISTRACTORS_PER_ITEM ? best : undefined;
}

/** The drop record for a window that gave fewer than three valid distractors. */
export function shortWindow(id: string, task: 1 | 2, r: DrawResult, windowText: string): DroppedAssertion {
  const refused = countReasons(r.dropped);
  const found = r.chosen.length;
  const reason = emptiedBy(r) ?? (found === 0 && r.dropped.length === 0 ? 'window-empty' : 'too-few-distractors');
  const parts = [`${found} valid distractor${found === 1 ? '' : 's'} in ${windowText}`];
  if (r.members !== undefined) parts.push(`${r.members} eligible member${r.members === 1 ? '' : 's'}`);
  if (r.dropped.length > 0)
    parts.push(
      `refused: ${Object.entries(refused)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}`,
    );
  if (!r.exact) parts.push('enumerated through the approximate index');
  return { id, task, reason, detail: parts.join('; '), members: r.members ?? null, refused };
}
