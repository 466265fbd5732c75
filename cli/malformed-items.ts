// How a command that reads IntentionQA items says which it set apart as malformed (not four options
// with distinct texts), and so did not ask, judge or sample: a count per kind, and the first few by
// file, line, id and reason.
import { malformedCounts } from '../engine/scoring/intentionqa/intentionqa-item-file.js';

const SHOWN = 3;

/** `malformed, not asked: 99 (70 with fewer than 4 options, …): FILE:LINE "id": reason; …`, or undefined when none. */
export function malformedItemsLine(
  malformed: ReadonlyArray<{ file?: string; line: number; id: string; reason: string }>,
  notDone: 'asked' | 'judged' | 'sampled',
): string | undefined {
  if (malformed.length === 0) return undefined;
  const kinds = Object.entries(malformedCounts(malformed)).map(([kind, n]) => `${n} with ${kind}`);
  const shown = malformed
    .slice(0, SHOWN)
    .map((m) => `${m.file === undefined ? 'line ' : `${m.file}:`}${m.line} "${m.id}": ${m.reason}`)
    .join('; ');
  return (
    `malformed, not ${notDone}: ${malformed.length} (${kinds.join(', ')}; an item needs four options with distinct texts): ${shown}` +
    (malformed.length > SHOWN ? `; … ${malformed.length - SHOWN} more` : '')
  );
}
