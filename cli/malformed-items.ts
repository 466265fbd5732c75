// How a command that reads IntentionQA items says which it set apart as malformed (not four options
// with distinct texts): a count per reason kind, and the first few by file, line and id.

const SHOWN = 3;

export function malformedItemsLine(
  malformed: ReadonlyArray<{ file?: string; line: number; id: string; reason: string }>,
): string | undefined {
  if (malformed.length === 0) return undefined;
  const shown = malformed
    .slice(0, SHOWN)
    .map((m) => `${m.file === undefined ? 'line ' : `${m.file}:`}${m.line} "${m.id}": ${m.reason}`)
    .join('; ');
  return (
    `${malformed.length} malformed item(s) set apart (an item needs four options with distinct texts): ${shown}` +
    (malformed.length > SHOWN ? `; … ${malformed.length - SHOWN} more` : '')
  );
}
