// The files `items check` writes in its output folder: apart from check-items.ts so that the command
// line can name them in its help without loading the checks (issue 50).

/** The output files, by role. */
export const CHECK_FILES = {
  summary: 'check.json',
  flagged: 'flagged.jsonl',
  keptDir: 'items',
} as const;
