// A review's summary for people: markdown and an SVG of the validity rate per task × difficulty
// with its Wilson 95% interval.
import { escapeXml } from '../../core/xml.js';
import type { Proportion } from './wilson-interval.js';
import type { ReviewSummary } from './review-summary.js';
import { sibAgreementMarkdown } from './sib-agreement.js';

const pct = (x: number | null) => (x === null ? '–' : (100 * x).toFixed(1));

function proportionCell(p: Proportion): string {
  return p.n === 0 ? '– (0 judgements)' : `${pct(p.rate)}% [${pct(p.low)}, ${pct(p.high)}] (${p.successes}/${p.n})`;
}

export function renderReviewMarkdown(s: ReviewSummary, svgFile: string): string {
  const lines = [
    '# Review summary',
    '',
    `Items: ${s.items.labelled} labelled of ${s.items.sampled} sampled (${s.items.itemsDirItems} in the items folder); ` +
      `${s.judgements} judgements (one annotator's label on one item) by ${s.annotators.length} annotator(s).`,
    `Median time per judgement on the page: ${s.medianMs === null ? '–' : (s.medianMs / 1000).toFixed(1) + ' s'}.`,
    '',
    'Rates are over judgements, with Wilson 95% intervals in brackets.',
    '',
    '| task | difficulty | valid |',
    '|---|---|---|',
    ...s.validity.map((v) => `| ${v.task} | ${v.difficulty} | ${proportionCell(v)} |`),
    `| all | all | ${proportionCell(s.validityAll)} |`,
    '',
    `Validity counts: valid ${s.validityCounts.valid}, invalid ${s.validityCounts.invalid}, unsure ${s.validityCounts.unsure}.`,
    '',
    `- Second right answer (an option besides the gold marked correct): ${proportionCell(s.secondRightAnswer)}`,
    `- Gold agreement (the gold option marked correct): ${proportionCell(s.goldAgreement)}`,
    '',
    ...measuresMarkdown(s),
    ...sibAgreementMarkdown(s.sib),
    '## Agreement between annotators (validity)',
    '',
  ];
  const a = s.agreement;
  if (a === null)
    lines.push(
      s.judgements === 0
        ? 'Not measured: no labels yet.'
        : 'Not measured: no item was labelled by two or more annotators.',
    );
  else {
    const name = a.method === 'cohen' ? "Cohen's κ" : "Fleiss' κ";
    lines.push(
      `${name} = ${a.kappa === null ? 'undefined (one category only)' : a.kappa.toFixed(3)} over ${a.items} items ` +
        `× ${a.raters} raters (observed agreement ${a.observed.toFixed(3)}, by chance ${a.expected.toFixed(3)}); ` +
        `${a.itemsLeftOut} labelled item(s) left out.`,
      '',
    );
    if (a.table && a.annotators) {
      lines.push(
        `| ${a.annotators[0]} ↓ / ${a.annotators[1]} → | valid | invalid | unsure |`,
        '|---|---:|---:|---:|',
        ...['valid', 'invalid', 'unsure'].map((v, i) => `| ${v} | ${a.table![i]!.join(' | ')} |`),
      );
    }
    if (a.categoryTotals)
      lines.push(
        `Judgements per category: valid ${a.categoryTotals[0]}, invalid ${a.categoryTotals[1]}, unsure ${a.categoryTotals[2]}.`,
      );
  }
  lines.push('', `![validity per task and difficulty](${svgFile})`, '');
  return lines.join('\n');
}

/** The paper's per-item measures and the per-judgement rates, per task × difficulty; then the flagged labels. */
function measuresMarkdown(s: ReviewSummary): string[] {
  const short = (p: Proportion) =>
    p.n === 0 ? '–' : `${pct(p.rate)}% [${pct(p.low)}, ${pct(p.high)}] (${p.successes}/${p.n})`;
  const brief = (p: Proportion) => (p.n === 0 ? '–' : `${pct(p.rate)}%`);
  const c = s.consistency;
  return [
    `## Per item: the paper's measures${s.blind ? ' (blind review: the annotators did not see the gold)' : ' (the annotators saw the gold)'}`,
    '',
    'An option is right for an item when more than half of its judgements mark it right. Valid: the gold ' +
      'and no distractor right; F-Neg: a distractor right; Correct: the gold right. Rates over items with a ' +
      "gold, Wilson 95% intervals; then the same read off each judgement alone, and the judgements' verdict.",
    '',
    '| task | difficulty | items | Valid | F-Neg | Correct | per judgement: exact gold / distractor / gold / verdict valid |',
    '|---|---|---:|---|---|---|---|',
    ...s.measures.map(
      (m) =>
        `| ${m.task} | ${m.difficulty} | ${m.valid.n} | ${short(m.valid)} | ${short(m.fNeg)} | ${short(m.correct)} | ` +
        `${brief(m.perJudgement.exact)} / ${brief(m.perJudgement.distractorMarked)} / ${brief(m.perJudgement.goldMarked)} / ` +
        `${brief(m.perJudgement.validVerdict)} (${m.perJudgement.exact.n}) |`,
    ),
    '',
    agreementOnMarksLine(s),
    '',
    `Consistency: of ${c.validLabels} labels that say valid, ${c.validWithoutGold} leave the gold unmarked and ` +
      `${c.validWithDistractor} mark a distractor; they are no vote for keeping the item.`,
    ...c.labels.slice(0, 50).map((f) => `- ${f.annotator}: ${f.item} (${f.flags.join(', ')})`),
    ...(c.labels.length > 50 ? [`- … and ${c.labels.length - 50} more (labels.jsonl: \`flags\`)`] : []),
    '',
  ];
}

function agreementOnMarksLine(s: ReviewSummary): string {
  const a = s.agreementOnMarks;
  if (a === null)
    return `Agreement on the marks (exactly the gold marked, or not): not measured (${s.judgements === 0 ? 'no labels yet' : 'one annotator per item'}).`;
  const name = a.method === 'cohen' ? "Cohen's κ" : "Fleiss' κ";
  return (
    `Agreement on the marks (exactly the gold marked, or not): ${name} = ` +
    `${a.kappa === null ? 'undefined (one category only)' : a.kappa.toFixed(3)} over ${a.items} items × ${a.raters} raters.`
  );
}

export function renderReviewSvg(s: ReviewSummary): string {
  const rows = [
    ...s.validity.map((v) => ({ label: `${v.task} · ${v.difficulty}`, p: v as Proportion })),
    { label: 'all', p: s.validityAll },
  ];
  const left = 200;
  const barWidth = 360;
  const rowHeight = 22;
  const top = 40;
  const width = left + barWidth + 150;
  const height = top + rows.length * rowHeight + 30;
  const x = (r: number) => left + r * barWidth;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="10" y="18" font-size="13" font-weight="bold">Valid judgements per task × difficulty (Wilson 95% interval)</text>`,
  ];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(
      `<line x1="${x(t)}" y1="${top - 6}" x2="${x(t)}" y2="${top + rows.length * rowHeight}" stroke="#ddd"/>`,
      `<text x="${x(t)}" y="${top + rows.length * rowHeight + 14}" text-anchor="middle" fill="#666">${t * 100}%</text>`,
    );
  }
  rows.forEach(({ label, p }, i) => {
    const y = top + i * rowHeight;
    parts.push(`<text x="${left - 8}" y="${y + 11}" text-anchor="end">${escapeXml(label)}</text>`);
    if (p.rate !== null) {
      parts.push(
        `<rect x="${left}" y="${y + 2}" width="${(p.rate * barWidth).toFixed(1)}" height="12" fill="${label === 'all' ? '#23395d' : '#5b84b1'}"/>`,
        `<line x1="${x(p.low!).toFixed(1)}" y1="${y + 8}" x2="${x(p.high!).toFixed(1)}" y2="${y + 8}" stroke="#000"/>`,
        `<line x1="${x(p.low!).toFixed(1)}" y1="${y + 4}" x2="${x(p.low!).toFixed(1)}" y2="${y + 12}" stroke="#000"/>`,
        `<line x1="${x(p.high!).toFixed(1)}" y1="${y + 4}" x2="${x(p.high!).toFixed(1)}" y2="${y + 12}" stroke="#000"/>`,
      );
    }
    parts.push(
      `<text x="${left + barWidth + 8}" y="${y + 11}">${p.rate === null ? '–' : `${pct(p.rate)}% (${p.successes}/${p.n})`}</text>`,
    );
  });
  parts.push('</svg>', '');
  return parts.join('\n');
}
