// The files `audit` writes and the judge's default settings: apart from audit.ts so that the command
// line can name them in its help without loading the audit (issue 50).
import type { GenerationSettings } from './generation-settings.js';

/** The files in an audit's output folder. */
export const AUDIT_FILES = {
  audit: 'audit.jsonl',
  summary: 'audit_summary.json',
  summaryMarkdown: 'audit_summary.md',
  rejects: 'audit.rejects.jsonl',
  /** With dropFlagged: the kept items, in the input's file names. */
  keptDir: 'items',
} as const;

/** A judge answers once per item, as deterministically as the server allows; 50 tokens hold any list of letters. */
export const DEFAULT_JUDGE_SETTINGS: GenerationSettings = { temperature: 0, maxTokens: 50, samples: 1 };
