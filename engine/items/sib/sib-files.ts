// The files `items sib` writes in its output folder: apart from assemble-sib.ts so that the command
// line can name them in its help without loading the assembly (issue 50).

/** The output files, by role. */
export const SIB_OUTPUT_FILES = {
  tasks: 'sib-tasks.jsonl',
  distractors: 'sib-distractors.jsonl',
  summary: 'sib-summary.json',
  rejects: 'sib-rejects.jsonl',
} as const;
