// The demo's check that the validity filters did not make the items easy: the embedding solver's
// accuracy on the filtered items beside its accuracy on the items the same run makes with every
// validity rule off. Distractors must stay hard: a solver far above chance (25%) on the filtered set and
// not on the unfiltered one would mean the filters removed the hard distractors. The section is
// appended to the IntentionQA report (its "Validity" section precedes it).
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../core/atomic.js';

export interface SolverAccuracy {
  items: number;
  correct: number;
}

/** Accuracy of a responses file (one letter per id, the zero-shot format) against the items' gold letters. */
export async function solverAccuracy(itemsFile: string, responsesFile: string): Promise<SolverAccuracy> {
  const lines = async (file: string) =>
    (await readFile(file, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const answer = new Map((await lines(responsesFile)).map((r) => [String(r.id), String(r.response)]));
  let items = 0;
  let correct = 0;
  for (const item of await lines(itemsFile)) {
    items += 1;
    if (answer.get(String(item.id)) === item.gold_ind) correct += 1;
  }
  return { items, correct };
}

export interface SolverComparison {
  task1: { filtered: SolverAccuracy; unfiltered: SolverAccuracy };
  task2: { filtered: SolverAccuracy; unfiltered: SolverAccuracy };
}

const percent = (a: SolverAccuracy) => (a.items === 0 ? '–' : `${((100 * a.correct) / a.items).toFixed(1)}%`);

export function solverComparisonSection(c: SolverComparison, solver: string): string[] {
  const lines = [
    '',
    '### The embedding solver on the filtered and the unfiltered items',
    '',
    `The demo answers both item sets with the embedding solver (${solver}); chance is 25%. The unfiltered`,
    'set is this run with every validity rule off. Far above chance on the filtered set only would',
    'mean the filters removed the hard distractors.',
    '',
    '| task | filtered items | solver accuracy | unfiltered items | solver accuracy |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const task of [1, 2] as const) {
    const { filtered, unfiltered } = c[`task${task}`];
    lines.push(
      `| Task ${task} | ${filtered.items} | ${percent(filtered)} | ${unfiltered.items} | ${percent(unfiltered)} |`,
    );
  }
  return lines;
}

/** Appends the comparison to the report (written to a temporary file and renamed). */
export async function appendSolverComparison(report: string, c: SolverComparison, solver: string): Promise<void> {
  await appendToReport(report, solverComparisonSection(c, solver));
}

/** Chance for four options. */
export const CHANCE = 0.25;

/**
 * A warning per task where the embedding solver scores below chance: its distractors are then closer
 * to the question than the gold is, on average, and a solver that picks the farthest option would
 * beat one that reads. Empty when both tasks are at or above chance (or have no items).
 */
export function belowChanceWarnings(accuracy: readonly [SolverAccuracy, SolverAccuracy], solver: string): string[] {
  const out: string[] = [];
  accuracy.forEach((a, k) => {
    if (a.items > 0 && a.correct / a.items < CHANCE)
      out.push(
        `the embedding solver (${solver}) scores ${percent(a)} on Task ${k + 1} (${a.correct} of ${a.items}), below chance (25%): the distractors are closer to the question than the gold is`,
      );
  });
  return out;
}

/** Appends the warnings to the report as a section of their own. */
export async function appendWarnings(report: string, warnings: readonly string[]): Promise<void> {
  if (warnings.length > 0) await appendToReport(report, ['', '## Warnings', '', ...warnings.map((w) => `- ${w}`)]);
}

async function appendToReport(report: string, lines: readonly string[]): Promise<void> {
  const text = await readFile(report, 'utf8');
  await writeFileAtomic(report, text.trimEnd() + '\n' + lines.join('\n') + '\n');
}
