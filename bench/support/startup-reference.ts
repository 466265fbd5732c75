// The start-up figures recorded on each CPU class (bench/startup-reference.json), so that a run of
// bench/startup.ts reports the classes it cannot measure next to the one it ran on: start-up ratios
// differ between CPUs (issue 50: 0.93× the Python peer on an AMD EPYC, 1.41–1.51× on an Intel Xeon,
// both AVX-512), and one machine shows only its own.
import { readFileSync } from 'node:fs';
import type { CpuDescription } from './cpu-info.js';

/** One recorded run: the CPU, when and at which commit, and its rows (as bench/startup.ts prints them). */
export interface StartupReference {
  /** The CPU as cpuLine() prints it, e.g. "AMD EPYC (AVX-512, VNNI)". */
  cpu: string;
  /** cpuClass() of that CPU. */
  class: string;
  date: string;
  /** The commit (or "before issue 50", with the figures) the figures are of. */
  commit: string;
  /** How the figures were taken (machine load, rounds). */
  how: string;
  rows: Array<{ case: string; measured: string; baseline: string; ratio: number | string }>;
}

/** The class whose start-up figures one run stands for: the vendor and the widest vector instructions. */
export function cpuClass(cpu: Pick<CpuDescription, 'model' | 'simd'>): string {
  const vendor = /intel/i.test(cpu.model) ? 'Intel' : /\bamd\b/i.test(cpu.model) ? 'AMD' : cpu.model;
  return `${vendor} ${cpu.simd}`;
}

/** The recorded runs in `path`; a file that is absent or unreadable is an error naming it. */
export function readStartupReferences(path: string): StartupReference[] {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { entries?: unknown };
  if (!Array.isArray(parsed.entries)) throw new Error(`${path}: "entries" must be a list`);
  return parsed.entries as StartupReference[];
}

/** The rows of the recorded runs of other classes than `own`, labelled with their CPU, date and commit. */
export function otherClassRows(
  references: readonly StartupReference[],
  own: string,
): Array<{ case: string; measured: string; baseline: string; ratio: number | string }> {
  return references
    .filter((r) => r.class !== own)
    .flatMap((r) =>
      r.rows.map((row) => ({ ...row, case: `recorded on ${r.cpu}, ${r.date} (${r.commit}): ${row.case}` })),
    );
}
