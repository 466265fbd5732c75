// What `score intentionqa` and `score sib` write, each file atomically, the summary last: one line
// per question (scores.jsonl), the tables as JSON (summary.json) and Markdown (summary.md), and
// their chart (summary.svg).
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';

export const SCORE_FILES = {
  scores: 'scores.jsonl',
  summary: 'summary.json',
  markdown: 'summary.md',
  chart: 'summary.svg',
} as const;

export interface ScoreOutputs {
  scores: readonly object[];
  summary: object;
  markdown: string;
  chart: string;
}

export async function writeScoreFiles(out: string, o: ScoreOutputs): Promise<Record<keyof typeof SCORE_FILES, string>> {
  const files = {
    scores: join(out, SCORE_FILES.scores),
    summary: join(out, SCORE_FILES.summary),
    markdown: join(out, SCORE_FILES.markdown),
    chart: join(out, SCORE_FILES.chart),
  };
  await writeFileAtomic(files.scores, o.scores.map((s) => JSON.stringify(s) + '\n').join(''));
  await writeFileAtomic(files.chart, o.chart);
  await writeFileAtomic(files.markdown, o.markdown);
  await writeFileAtomic(files.summary, JSON.stringify(o.summary, null, 2) + '\n');
  return files;
}

/** A fraction as the papers print it: a percentage with two decimals; "–" when undefined. */
export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : (value * 100).toFixed(2);
}
