// `intentsim tune`'s table: per task, what the review measured, the fitted curve, the current window
// and its estimated F-Neg, and the proposed window with the moved bound's interval.
import type { BootstrapInterval, TuneResult } from './tune-windows.js';
import type { CutoffProposal } from './tune-cutoffs.js';

const num = (x: number | null, digits = 3) => (x === null ? '–' : x.toFixed(digits));
const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
const range = (i: BootstrapInterval, f: (x: number | null) => string) => `[${f(i.low)}, ${f(i.high)}]`;

export function renderTuneTable(r: TuneResult): string[] {
  const lines = [
    `Target: estimated F-Neg of an item ≤ ${pct(r.maxFNeg)}; intervals: 95%, bootstrap over items (${r.bootstrap} replicates, seed ${r.seed}).`,
    '',
    '| task | items | distractors right | F-Neg measured | fit σ(a + b·s): a | b | current window | est. F-Neg | proposed window | moved bound 95% | kept | est. F-Neg |',
    '|---|---:|---:|---|---|---|---|---|---|---|---:|---|',
  ];
  for (const t of r.tasks) {
    const m = t.measuredFNeg;
    const p = t.proposed;
    lines.push(
      [
        '',
        `Task ${t.task} (${t.task === 1 ? 'Sim_i' : 'Sim_p'})`,
        t.items,
        `${t.right}/${t.distractors}`,
        `${pct(m.rate)} ${range({ low: m.low, high: m.high }, pct)}`,
        `${num(t.fit.a, 2)} ${range(t.fit.a95, (x) => num(x, 2))}`,
        t.fit.tied
          ? 'tied, no fit (every similarity is the same)'
          : `${num(t.fit.b, 2)} ${range(t.fit.b95, (x) => num(x, 2))}${t.fit.separated ? ' (separated)' : ''}`,
        `[${num(t.current.lo)}, ${num(t.current.hi)}]${t.current.inside === 0 ? ' (no similarity inside)' : ''}`,
        `${pct(t.current.estimatedFNeg)} ${range(t.current.estimatedFNeg95, pct)}`,
        p === null
          ? t.current.inside === 0
            ? 'none: nothing observed inside the window'
            : 'none meets the target'
          : `[${num(p.lo, 4)}, ${num(p.hi, 4)}]${p.moved === 'none' ? ' (unchanged)' : ''}`,
        p === null || p.moved === 'none' ? '–' : `${p.moved} ${range(p.bound95, (x) => num(x, 4))}`,
        p === null ? '–' : pct(p.keptShare),
        p === null ? '–' : `${pct(p.estimatedFNeg)} ${range(p.estimatedFNeg95, pct)}`,
        '',
      ]
        .join(' | ')
        .trim(),
    );
  }
  const infeasible = r.tasks.filter((t) => t.infeasibleReplicates > 0);
  for (const t of infeasible) {
    lines.push(
      '',
      `Task ${t.task}: in ${t.infeasibleReplicates} of ${r.bootstrap} replicates no window met the target.`,
    );
  }
  return lines;
}

/** The rules' cut-offs (tune-cutoffs.ts): per rule, its reading, the fitted curve, and the proposal. */
export function renderCutoffTable(cutoffs: readonly CutoffProposal[]): string[] {
  if (cutoffs.length === 0) return [];
  const lines = [
    "The rules' cut-offs, from what each distractor's rule read (kept: the reading on this side of the cut-off):",
    '',
    '| setting | reading (kept) | tasks | items | distractors right | fit σ(a + b·r): a | b | observed r | est. F-Neg | proposed | 95% | kept | est. F-Neg |',
    '|---|---|---|---:|---:|---|---|---|---|---|---|---:|---|',
  ];
  for (const c of cutoffs) {
    const p = c.proposed;
    lines.push(
      [
        '',
        c.setting,
        `${c.reading} ${c.keep} cut-off`,
        c.tasks.join(', '),
        c.items,
        `${c.right}/${c.distractors}`,
        `${num(c.fit.a, 2)} ${range(c.fit.a95, (x) => num(x, 2))}`,
        c.fit.tied
          ? 'tied, no fit'
          : `${num(c.fit.b, 2)} ${range(c.fit.b95, (x) => num(x, 2))}${c.fit.separated ? ' (separated)' : ''}`,
        `[${num(c.observed.lo)}, ${num(c.observed.hi)}]`,
        `${pct(c.observed.estimatedFNeg)} ${range(c.observed.estimatedFNeg95, pct)}`,
        p === null ? 'none' : num(p.value, 4),
        p === null ? '–' : range(p.value95, (x) => num(x, 4)),
        p === null ? '–' : pct(p.keptShare),
        p === null ? '–' : `${pct(p.estimatedFNeg)} ${range(p.estimatedFNeg95, pct)}`,
        '',
      ]
        .join(' | ')
        .trim(),
    );
  }
  for (const c of cutoffs) if (c.noProposal !== null) lines.push('', `${c.setting}: ${c.noProposal}.`);
  return lines;
}
