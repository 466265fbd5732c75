// `intentsim tune`'s table: per task, what the review measured, the fitted curve, the current window
// and its estimated F-Neg, and the proposed window with the moved bound's interval.
import type { BootstrapInterval, TuneResult } from './tune-windows.js';

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
