// The IntentionQA scores as the paper lays them out: one row per answerer (the model, RANDOM's
// expectation and seeded draw, MAJORITY), one column per task × difficulty, accuracy in percent;
// then the counts behind them, and accuracy per relation. The chart draws the same table.
import { percent } from '../score-files.js';
import { scoreChart } from '../score-chart.js';
import type { AccuracyCell, Column, IntentionQaScoreSummary } from './intentionqa-score-types.js';

const STYLE_NAMES = { zero_shot: 'zero-shot', cot: 'CoT', cot_sc: 'CoT-SC' } as const;

interface Row {
  name: string;
  values: (task: IntentionQaScoreSummary['tasks'][number], column: Column) => number | null;
}

function rows(s: IntentionQaScoreSummary): Row[] {
  const of = (c: AccuracyCell | undefined) => c?.accuracy ?? null;
  return [
    { name: `${s.answerer}, ${STYLE_NAMES[s.style]}`, values: (t, c) => of(t.model[c]) },
    { name: 'RANDOM (expected)', values: (t, c) => t.random.expected[c] ?? null },
    { name: `RANDOM (seed ${s.seed})`, values: (t, c) => of(t.random.draw[c]) },
    { name: 'MAJORITY', values: (t, c) => of(t.majority.cells[c]) },
  ];
}

/** The main table: one row per answerer, accuracy (%) per task × difficulty. */
export function accuracyTable(s: IntentionQaScoreSummary): string[] {
  const lines: string[] = [];
  const header = ['| |'];
  const rule = ['|---'];
  for (const t of s.tasks)
    for (const c of s.columns) {
      header.push(` Task ${t.task} ${c} |`);
      rule.push('|---:');
    }
  lines.push(header.join(''), rule.join('') + '|');
  for (const row of rows(s)) {
    const cells = s.tasks.flatMap((t) => s.columns.map((c) => percent(row.values(t, c))));
    lines.push(`| ${row.name} | ${cells.join(' | ')} |`);
  }
  return lines;
}

export function intentionQaMarkdown(s: IntentionQaScoreSummary): string {
  const lines: string[] = ['# IntentionQA scores', ''];
  if (s.caption) lines.push(`> **${s.caption}**`, '');
  lines.push(
    `Answers of ${s.answerer}, style \`${s.style}\`, read by the released computeACC.py's parser. Accuracy (%) per task and difficulty.`,
    '',
  );
  lines.push(...accuracyTable(s));
  lines.push(
    '',
    `MAJORITY answers each task's most frequent gold letter: ${s.tasks.map((t) => `Task ${t.task} ${t.majority.letter ?? '–'}`).join(', ')}. RANDOM picks one of an item's letters uniformly; both answer every item with 4 or more options.`,
    '',
  );
  const count = (label: string, f: (t: IntentionQaScoreSummary['tasks'][number]) => number) =>
    lines.push(`| ${label} | ${s.tasks.map((t) => f(t)).join(' | ')} |`);
  lines.push(`| | ${s.tasks.map((t) => `Task ${t.task}`).join(' | ')} |`, `|---${'|---:'.repeat(s.tasks.length)}|`);
  count('items', (t) => t.counts.items);
  count('scored', (t) => t.counts.scored);
  count('correct', (t) => t.counts.correct);
  count('unparseable (scored as wrong)', (t) => t.counts.unparseable);
  count('missing (no response line)', (t) => t.counts.missing);
  count('excluded: failed request ("Error" or completion_tokens -1)', (t) => t.counts.failed);
  count('excluded: fewer than 4 options', (t) => t.counts.fewer_options);
  const unknown = s.unknown_response_ids.reduce((n, u) => n + u.ids.length, 0);
  if (unknown > 0) lines.push('', `Response lines whose id is no item of their items file (not scored): ${unknown}.`);
  if (s.rejected > 0) lines.push('', `Rejected input lines: ${s.rejected} (see rejects.jsonl).`);
  lines.push(
    '',
    '## By relation',
    '',
    `| relation | ${s.tasks.map((t) => `Task ${t.task} (%)`).join(' | ')} | ${s.tasks.map((t) => `Task ${t.task} scored`).join(' | ')} |`,
    `|---${'|---:'.repeat(s.tasks.length * 2)}|`,
  );
  for (const r of s.relations) {
    const accs = s.tasks.map((t) => percent(r.tasks[`task${t.task}`]?.accuracy));
    const ns = s.tasks.map((t) => String(r.tasks[`task${t.task}`]?.n ?? 0));
    lines.push(`| ${r.relation === '' ? '(none)' : r.relation} | ${accs.join(' | ')} | ${ns.join(' | ')} |`);
  }
  lines.push('');
  return lines.join('\n');
}

export function intentionQaChart(s: IntentionQaScoreSummary): string {
  const groups = s.tasks.flatMap((t) => s.columns.map((c) => `T${t.task} ${c}`));
  const series = rows(s)
    .filter((r) => !r.name.startsWith('RANDOM (seed'))
    .map((r) => ({ name: r.name, values: s.tasks.flatMap((t) => s.columns.map((c) => r.values(t, c))) }));
  return scoreChart(`IntentionQA accuracy: ${s.answerer}`, groups, series, s.caption ?? undefined);
}
