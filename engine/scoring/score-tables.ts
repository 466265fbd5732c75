// Markdown pieces the score summaries share: tables, percentages as the papers print them, the
// counts behind every score, and the notes on input that was not scored.

/** A fraction as the papers print it: a percentage with two decimals; "–" when undefined. */
export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : (value * 100).toFixed(2);
}

/** A Markdown table: a row label column, then right-aligned value columns. */
export function markdownTable(
  corner: string,
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
): string[] {
  return [
    `|${corner === '' ? ' ' : ` ${corner} `}| ${header.join(' | ')} |`,
    `|---${'|---:'.repeat(header.length)}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}

/** What happened to the questions of one column of a summary. */
export interface AnswerCounts {
  items: number;
  scored: number;
  correct: number;
  /** Scored as wrong: the answer is none of the question's letters (it predicts no class). */
  unparseable: number;
  /** No response line: not scored. */
  missing: number;
  /** Excluded: the request failed ("Error", completion_tokens -1). */
  failed: number;
}

/** The count rows every summary has, one value per column. */
export function answerCountRows(counts: readonly AnswerCounts[]): string[][] {
  const row = (label: string, f: (c: AnswerCounts) => number) => [label, ...counts.map((c) => String(f(c)))];
  return [
    row('scored', (c) => c.scored),
    row('correct', (c) => c.correct),
    row('unparseable (scored as wrong)', (c) => c.unparseable),
    row('missing (no response line)', (c) => c.missing),
    row('excluded: failed request ("Error" or completion_tokens -1)', (c) => c.failed),
  ];
}

/** Notes on input that was read but not scored: response ids without a question, rejected lines. */
export function inputNotes(s: {
  unknown_response_ids: ReadonlyArray<{ ids: readonly string[] }>;
  rejected: number;
}): string[] {
  const notes: string[] = [];
  const unknown = s.unknown_response_ids.reduce((n, u) => n + u.ids.length, 0);
  if (unknown > 0) notes.push('', `Response lines whose id is no question of their file (not scored): ${unknown}.`);
  if (s.rejected > 0) notes.push('', `Rejected input lines: ${s.rejected} (see rejects.jsonl).`);
  return notes;
}
