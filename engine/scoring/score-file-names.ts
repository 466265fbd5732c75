// The files `score` writes in its output folder: apart from score-files.ts so that the command line
// can name them in its help without loading the scoring (issue 50).

/** The output files, by role. */
export const SCORE_FILES = {
  scores: 'scores.jsonl',
  summary: 'summary.json',
  markdown: 'summary.md',
  chart: 'summary.svg',
} as const;
