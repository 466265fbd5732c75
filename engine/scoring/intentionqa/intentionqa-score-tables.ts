// The IntentionQA scores as the paper lays them out: one row per answerer (the model, RANDOM's
// expectation and seeded draw, MAJORITY), one column per task × difficulty, accuracy in percent;
// then the counts behind them, and accuracy per relation. The chart draws the same table.
import { answerCountRows, inputNotes, markdownTable, percent } from '../score-tables.js';
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
  const header = s.tasks.flatMap((t) => s.columns.map((c) => `Task ${t.task} ${c}`));
  const body = rows(s).map((row) => [
    row.name,
    ...s.tasks.flatMap((t) => s.columns.map((c) => percent(row.values(t, c)))),
  ]);
  return markdownTable('', header, body);
}

export function intentionQaMarkdown(s: IntentionQaScoreSummary): string {
  const lines: string[] = ['# IntentionQA scores', ''];
  if (s.caption) lines.push(`> **${s.caption}**`, '');
  lines.push(
    `Answers of ${s.answerer}, style \`${s.style}\`, read by the released computeACC.py's parser. Accuracy (%) per task and difficulty.`,
    '',
    ...accuracyTable(s),
    '',
    `MAJORITY answers each task's most frequent gold letter: ${s.tasks.map((t) => `Task ${t.task} ${t.majority.letter ?? '–'}`).join(', ')}. RANDOM picks one of an item's letters uniformly; both answer every item with 4 or more options.`,
    '',
    ...markdownTable(
      '',
      s.tasks.map((t) => `Task ${t.task}`),
      [
        ['items', ...s.tasks.map((t) => String(t.counts.items))],
        ...answerCountRows(s.tasks.map((t) => t.counts)),
        ['excluded: fewer than 4 options', ...s.tasks.map((t) => String(t.counts.fewer_options))],
        ['malformed, not asked', ...s.tasks.map((t) => String(t.counts.malformed))],
      ],
    ),
    ...malformedNote(s),
    ...inputNotes(s),
    '',
    '## By relation',
    '',
    ...markdownTable(
      'relation',
      [...s.tasks.map((t) => `Task ${t.task} (%)`), ...s.tasks.map((t) => `Task ${t.task} scored`)],
      s.relations.map((r) => [
        r.relation === '' ? '(none)' : r.relation,
        ...s.tasks.map((t) => percent(r.tasks[`task${t.task}`]?.accuracy)),
        ...s.tasks.map((t) => String(r.tasks[`task${t.task}`]?.n ?? 0)),
      ]),
    ),
    '',
  );
  return lines.join('\n');
}

/** Why the malformed items were not asked, by kind per task (nothing when there are none). */
function malformedNote(s: IntentionQaScoreSummary): string[] {
  const tasks = s.tasks.filter((t) => t.counts.malformed > 0);
  if (tasks.length === 0) return [];
  const kinds = (t: (typeof tasks)[number]) =>
    Object.entries(t.counts.malformed_kinds)
      .map(([kind, n]) => `${n} with ${kind}`)
      .join(', ');
  return [
    '',
    `Malformed, not asked: items without four options of distinct texts, which \`ask\` sets apart and writes no response for (${tasks.map((t) => `Task ${t.task}: ${kinds(t)}`).join('; ')}).`,
  ];
}

export function intentionQaChart(s: IntentionQaScoreSummary): string {
  const groups = s.tasks.flatMap((t) => s.columns.map((c) => `T${t.task} ${c}`));
  const series = rows(s)
    .filter((r) => !r.name.startsWith('RANDOM (seed'))
    .map((r) => ({ name: r.name, values: s.tasks.flatMap((t) => s.columns.map((c) => r.values(t, c))) }));
  return scoreChart(`IntentionQA accuracy: ${s.answerer}`, groups, series, s.caption ?? undefined);
}
