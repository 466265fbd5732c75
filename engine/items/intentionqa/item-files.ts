// The files of an IntentionQA items folder: apart from write-items.ts so that the command line can
// name them in its help without loading the writer (issue 50).

/** The item files, the dropped assertions, the summary and the report, by role. */
export const INTENTIONQA_FILES = {
  task1: 'intentionqa_task1.jsonl',
  task2: 'intentionqa_task2.jsonl',
  dropped: 'intentionqa_dropped.jsonl',
  summary: 'intentionqa_summary.json',
  report: 'intentionqa_report.md',
  svg: 'intentionqa_report.svg',
} as const;
