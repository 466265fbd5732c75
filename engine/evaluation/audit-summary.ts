// The counts of an audit: every item's verdict (judge-verdict.ts), or `failed` when its request
// failed after its retries (no verdict; a rerun asks it again), by task × difficulty × relation and
// by task × difficulty; and their tables (audit_summary.md, the printed table, the report's section).
import { DIFFICULTIES } from '../items/intentionqa/difficulty.js';
import { JUDGE_VERDICTS, type JudgeVerdict } from './judge-verdict.js';

/** A line's outcome: a verdict, or `failed` (the request failed after its retries). */
export type AuditOutcome = JudgeVerdict | 'failed';
export const AUDIT_OUTCOMES: readonly AuditOutcome[] = [...JUDGE_VERDICTS, 'failed'];

export type OutcomeCounts = Record<AuditOutcome, number>;

/** One cell of the breakdown; difficulty `unknown` for released items, relation `-` when an item has none. */
export interface AuditRow {
  task: 1 | 2;
  difficulty: string;
  /** Absent in the rows by task × difficulty. */
  relation?: string;
  items: number;
  counts: OutcomeCounts;
}

export interface AuditSummary {
  /** Who judged, how, and with which prompt template (its path in the project, and its SHA-256). */
  judge: { model: string; endpoint: string; settings: Record<string, number>; prompt: string; prompt_hash: string };
  items: number;
  counts: OutcomeCounts;
  byTaskDifficulty: AuditRow[];
  byTaskDifficultyRelation: AuditRow[];
}

/** What the summary counts of one audit line. */
export interface AuditedItem {
  task: 1 | 2;
  difficulty: string | null;
  relation: string;
  outcome: AuditOutcome;
}

export function emptyOutcomeCounts(): OutcomeCounts {
  return Object.fromEntries(AUDIT_OUTCOMES.map((o) => [o, 0])) as OutcomeCounts;
}

const DIFFICULTY_ORDER = [...DIFFICULTIES, 'unknown'];
const compare = (a: AuditRow, b: AuditRow) =>
  a.task - b.task ||
  DIFFICULTY_ORDER.indexOf(a.difficulty) - DIFFICULTY_ORDER.indexOf(b.difficulty) ||
  byCodeUnits(a.relation ?? '', b.relation ?? '');

/** Plain code-unit order: the same on every machine, whatever its locale. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function summarizeAudit(items: readonly AuditedItem[], judge: AuditSummary['judge']): AuditSummary {
  const counts = emptyOutcomeCounts();
  const byTd = new Map<string, AuditRow>();
  const byTdr = new Map<string, AuditRow>();
  const add = (rows: Map<string, AuditRow>, row: Omit<AuditRow, 'items' | 'counts'>, outcome: AuditOutcome) => {
    const key = JSON.stringify([row.task, row.difficulty, row.relation ?? null]);
    let r = rows.get(key);
    if (r === undefined) rows.set(key, (r = { ...row, items: 0, counts: emptyOutcomeCounts() }));
    r.items += 1;
    r.counts[outcome] += 1;
  };
  for (const i of items) {
    counts[i.outcome] += 1;
    const difficulty = i.difficulty ?? 'unknown';
    add(byTd, { task: i.task, difficulty }, i.outcome);
    add(byTdr, { task: i.task, difficulty, relation: i.relation === '' ? '-' : i.relation }, i.outcome);
  }
  return {
    judge,
    items: items.length,
    counts,
    byTaskDifficulty: [...byTd.values()].sort(compare),
    byTaskDifficultyRelation: [...byTdr.values()].sort(compare),
  };
}

/** A markdown table whose columns line up (readable as printed, and as markdown). */
export function alignedTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: number,
): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: readonly string[]) =>
    '| ' +
    cells.map((cell, c) => (c >= numeric ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join(' | ') +
    ' |';
  const rule = '|' + widths.map((w, c) => (c >= numeric ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|';
  return [line(header), rule, ...rows.map(line)];
}

/** The verdict table of some rows (with a relation column when they have one). */
export function verdictTable(rows: readonly AuditRow[]): string[] {
  const withRelation = rows.some((r) => r.relation !== undefined);
  const header = ['task', 'difficulty', ...(withRelation ? ['relation'] : []), 'items', ...AUDIT_OUTCOMES];
  const cells = rows.map((r) => [
    String(r.task),
    r.difficulty,
    ...(withRelation ? [r.relation ?? ''] : []),
    String(r.items),
    ...AUDIT_OUTCOMES.map((o) => String(r.counts[o])),
  ]);
  return alignedTable(header, cells, withRelation ? 3 : 2);
}

/** The counts in one line: "12 items: 7 ok, 3 second-answer, 2 gold-wrong, 0 unparseable, 0 failed". */
export function countsLine(items: number, counts: OutcomeCounts): string {
  return `${items} items: ${AUDIT_OUTCOMES.map((o) => `${counts[o]} ${o}`).join(', ')}`;
}

/** audit_summary.md. */
export function renderAuditMarkdown(s: AuditSummary): string {
  const settings = Object.entries(s.judge.settings)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return [
    '# IntentionQA items — audit by a judge model',
    '',
    `Judge: \`${s.judge.model}\` at ${s.judge.endpoint} (${settings}); prompt \`${s.judge.prompt}\` (${s.judge.prompt_hash}).`,
    '',
    `${countsLine(s.items, s.counts)}.`,
    '',
    'ok: the judge marked exactly the gold; second-answer: the gold and another option; gold-wrong: not the gold',
    '(other options, or none); unparseable: no answer read from the reply; failed: the request failed after its',
    'retries (a rerun asks it again).',
    '',
    '## By task and difficulty',
    '',
    ...verdictTable(s.byTaskDifficulty),
    '',
    '## By task, difficulty and relation',
    '',
    ...verdictTable(s.byTaskDifficultyRelation),
    '',
  ].join('\n');
}
