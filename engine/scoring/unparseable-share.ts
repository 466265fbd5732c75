// When most answers could not be read, a score near 0 says nothing about the model: it says the
// responses are in another format than the parser of --style reads (a CoT run answered with bare
// letters scored 0.00 % with no word of why). So a scorer reports a large unparseable share, with
// the format the style expects, next to the score.
import type { AnswerStyle, Benchmark } from './answer-styles.js';

/** From this share of the scored answers being unparseable on, the score is said to mislead. */
export const UNPARSEABLE_WARNING_SHARE = 0.2;

/** What the parser of each style reads, in words (answer-parsers.ts). */
const EXPECTED_FORMAT: Record<Benchmark, Partial<Record<AnswerStyle, string>>> = {
  intentionqa: {
    zero_shot: 'the answer letter first, e.g. "B" or "B." (the first character after stripping ".")',
    cot: 'a line "STEP 2: B" (the first non-space character after the first "STEP 2:"); bare letters are --style zero_shot\'s format',
    cot_sc:
      'a list of CoT samples, each with a line "STEP 2: B" (the first non-space character after the first "STEP 2:")',
  },
  sib: {
    zero_shot: 'the answer letter only, e.g. "B" or "B." (the first character after stripping ".")',
    five_shot: 'the answer letter only, e.g. "B" or "B." (the first character after stripping ".")',
    cot: 'the reasoning, then the answer letter alone on the last line',
  },
};

/** One scored column's counts: the answers read, and those that were none of the question's letters. */
export interface ParsedShareCounts {
  /** Answers scored (the unparseable ones included: they are scored as wrong). */
  scored: number;
  unparseable: number;
}

/**
 * The warning for a run whose unparseable answers are at least UNPARSEABLE_WARNING_SHARE of the
 * scored ones (over all its columns), naming the format `style` expects; undefined otherwise.
 */
export function unparseableWarning(
  benchmark: Benchmark,
  style: AnswerStyle,
  counts: readonly ParsedShareCounts[],
): string | undefined {
  const scored = counts.reduce((n, c) => n + c.scored, 0);
  const unparseable = counts.reduce((n, c) => n + c.unparseable, 0);
  if (scored === 0 || unparseable / scored < UNPARSEABLE_WARNING_SHARE) return undefined;
  const share = ((unparseable / scored) * 100).toFixed(1);
  return (
    `${unparseable} of ${scored} answers (${share} %) are unparseable and scored as wrong` +
    `${counts.length > 1 ? ` (${counts.map((c) => c.unparseable).join(' + ')})` : ''}, so the score says little about the model: ` +
    `--style ${style} expects ${EXPECTED_FORMAT[benchmark][style] ?? 'its own format'}. ` +
    'Check that --style names the prompt the responses answered (scores.jsonl shows each parsed answer).'
  );
}
