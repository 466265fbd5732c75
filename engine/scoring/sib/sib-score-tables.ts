// The SessionIntentBench scores as the paper lays them out: one row per answerer (the model, RANDOM's
// expectation and seeded draw, MAJORITY), Acc and Ma-F1 per task, in percent; "–" where a metric is
// undefined (MAJORITY's Macro-F1: it never predicts the minority class). Then the counts behind them.
import { answerCountRows, inputNotes, markdownTable, percent } from '../score-tables.js';
import { scoreChart } from '../score-chart.js';
import type { SibGroupSummary, SibScoreSummary } from './sib-score-types.js';

const GROUP_NAMES: Record<SibGroupSummary['group'], string> = {
  T1: 'T1',
  T2: 'T2',
  T3: 'T3',
  T4: 'T4',
  't1-hard-negative': 'T1 hard negatives',
  't2-hard-negative': 'T2 hard negatives',
  't3-negative': 'T3 negatives',
  'next-product-choice': 'next product (4-way)',
};

const STYLE_NAMES = { zero_shot: 'zero-shot', five_shot: '5-shot', cot: 'CoT' } as const;

interface Row {
  name: string;
  accuracy: (g: SibGroupSummary) => number | null;
  macroF1: (g: SibGroupSummary) => number | null;
}

function rows(s: SibScoreSummary): Row[] {
  return [
    {
      name: `${s.answerer}, ${STYLE_NAMES[s.style]}`,
      accuracy: (g) => g.model.accuracy,
      macroF1: (g) => g.model.macro_f1,
    },
    {
      name: 'RANDOM (expected)',
      accuracy: (g) => g.random.expected.accuracy,
      macroF1: (g) => g.random.expected.macro_f1,
    },
    {
      name: `RANDOM (seed ${s.seed})`,
      accuracy: (g) => g.random.draw.accuracy,
      macroF1: (g) => g.random.draw.macro_f1,
    },
    { name: 'MAJORITY', accuracy: (g) => g.majority.scores.accuracy, macroF1: (g) => g.majority.scores.macro_f1 },
  ];
}

export function sibMarkdown(s: SibScoreSummary): string {
  const header = s.groups.flatMap((g) =>
    g.binary ? [`${GROUP_NAMES[g.group]} Acc`, `${GROUP_NAMES[g.group]} Ma-F1`] : [`${GROUP_NAMES[g.group]} Acc`],
  );
  const body = rows(s).map((row) => [
    row.name,
    ...s.groups.flatMap((g) =>
      g.binary ? [percent(row.accuracy(g)), percent(row.macroF1(g))] : [percent(row.accuracy(g))],
    ),
  ]);
  const lines: string[] = ['# SessionIntentBench scores', ''];
  if (s.caption) lines.push(`> **${s.caption}**`, '');
  lines.push(
    `Answers of ${s.answerer}, style \`${s.style}\`, as binary labels (T1–T3: A, B positive; T4: A positive). Acc and Ma-F1 (%) on the labelled questions; "–": undefined.`,
    '',
    ...markdownTable('', header, body),
    '',
    `MAJORITY answers each group's more frequent gold label: ${s.groups.map((g) => `${GROUP_NAMES[g.group]} ${g.majority.answer ?? '–'}`).join(', ')}. RANDOM picks one of a question's letters uniformly; its expected Ma-F1 is over the draws where Ma-F1 is defined.`,
    '',
    ...markdownTable(
      '',
      s.groups.map((g) => GROUP_NAMES[g.group]),
      [
        ['questions', ...s.groups.map((g) => String(g.counts.items))],
        ['labelled', ...s.groups.map((g) => String(g.counts.labelled))],
        ...answerCountRows(s.groups.map((g) => g.counts)),
        ['not scored: no gold label', ...s.groups.map((g) => String(g.counts.unlabelled))],
      ],
    ),
    ...inputNotes(s),
    '',
  );
  return lines.join('\n');
}

export function sibChart(s: SibScoreSummary): string {
  const groups = s.groups.map((g) => `${GROUP_NAMES[g.group]} Acc`);
  const series = rows(s)
    .filter((r) => !r.name.startsWith('RANDOM (seed'))
    .map((r) => ({ name: r.name, values: s.groups.map((g) => r.accuracy(g)) }));
  return scoreChart(`SessionIntentBench accuracy: ${s.answerer}`, groups, series, s.caption ?? undefined);
}
