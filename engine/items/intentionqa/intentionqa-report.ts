// What a run produced, in numbers: per task the items, difficulty mix, gold-letter balance, false
// negatives, how distractors were found, a histogram of distractor similarity; every dropped
// assertion counted by task and reason; items and drops per relation; for the `released` preset,
// the places where the output must differ from the released code's; and where the run's cosines
// fall next to its windows (similarity-distribution.ts). Rendered as markdown and as a small
// hand-written SVG.
import { escapeXml, wrapSvgText } from '../../../core/xml.js';
import type { ValiditySettings } from './validity-filters.js';
import { addToValidityStats, emptyValidityStats, validitySection, type ValidityStats } from './validity-report.js';
import type { IntentionQaRecord } from './item-types.js';
import { DIFFICULTIES, PAPER_DIFFICULTY, type Difficulty } from './difficulty.js';
import { LETTERS, type Letter } from './intentionqa-prompts.js';
import {
  BIN_WIDTH,
  QUANTILES,
  binOf,
  type CosineSummary,
  type SimilarityDistribution,
} from './similarity-distribution.js';
import {
  PAPER_TASK1_WINDOW,
  PAPER_TASK2_WINDOW,
  type Preset,
  type RelationScope,
  type Task2Universe,
  type TypicalityComparison,
} from './intentionqa-options.js';

/** Histogram bins for distractor similarity: steps of 0.025 from `lo` (the last bin closed at 1). */
export interface SimilarityBins {
  lo: number;
  width: number;
  count: number;
}

/** [0.5, 1.0] in steps of 0.025: the paper's windows fit. */
export const SIMILARITY_BINS: SimilarityBins = { lo: 0.5, width: 0.025, count: 20 };

/** The bins for windows whose lowest bound is `lowestLo`: SIMILARITY_BINS, extended down to it when lower. */
export function similarityBinsFor(lowestLo: number): SimilarityBins {
  const perUnit = Math.round(1 / SIMILARITY_BINS.width);
  // Integer arithmetic on bin indices, so that 0.3 gives 0.3, not 0.275 (0.3 · 40 is 11.999…).
  const first = Math.min(Math.round(SIMILARITY_BINS.lo * perUnit), Math.floor(lowestLo * perUnit + 1e-9));
  return { lo: first / perUnit, width: SIMILARITY_BINS.width, count: perUnit - first };
}

export interface TaskStats {
  items: number;
  difficulty: Record<Difficulty, number>;
  gold: Record<Letter, number>;
  hadFalseNegative: number;
  /** Distractors by how they were found. */
  methods: Record<string, number>;
  /** Items with every window enumeration exact. */
  exactItems: number;
  /** Refused window members (false negatives, duplicate texts) by reason. */
  refused: Record<string, number>;
  /** Items with at least one refused window member, by reason (each item counted once per reason). */
  itemsWithRefusal: Record<string, number>;
  /**
   * Task 1 with `lowest` sampling: items whose window had exactly 4 eligible members, so the pool
   * rule fell back to the lowest ones (the released code then took all 4: an item with 5 options).
   */
  lowestFallbackOfFour: number;
  similarityHistogram: number[];
  similarityMin: number | null;
  similarityMax: number | null;
  dropped: Record<string, number>;
}

/** One relation's share of a run: items per task, and drops per task (or both) by reason. */
export interface RelationStats {
  task1Items: number;
  task2Items: number;
  dropped: { task1: Record<string, number>; task2: Record<string, number>; both: Record<string, number> };
}

export interface IntentionQaStats {
  /** The bins of both tasks' similarity histograms. */
  similarityBins: SimilarityBins;
  task1: TaskStats;
  task2: TaskStats;
  /** Assertions dropped before either task, by reason. */
  droppedBoth: Record<string, number>;
  /** Per relation of the input assertions (keys in first-seen order). */
  byRelation: Record<string, RelationStats>;
  /** The validity filters' counts (validity-report.ts); only when a filter is on. */
  validity?: ValidityStats;
}

function emptyTask(bins: SimilarityBins): TaskStats {
  return {
    items: 0,
    difficulty: { easy: 0, medium: 0, hard: 0 },
    gold: { A: 0, B: 0, C: 0, D: 0 },
    hadFalseNegative: 0,
    methods: {},
    exactItems: 0,
    refused: {},
    itemsWithRefusal: {},
    lowestFallbackOfFour: 0,
    similarityHistogram: new Array<number>(bins.count).fill(0),
    similarityMin: null,
    similarityMax: null,
    dropped: {},
  };
}

export function similarityBin(score: number, bins: SimilarityBins = SIMILARITY_BINS): number {
  const b = Math.floor((score - bins.lo) / bins.width);
  return Math.min(bins.count - 1, Math.max(0, b));
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

export class StatsAccumulator {
  readonly stats: IntentionQaStats;

  constructor(bins: SimilarityBins = SIMILARITY_BINS, options: { validity?: boolean } = {}) {
    this.stats = {
      similarityBins: bins,
      task1: emptyTask(bins),
      task2: emptyTask(bins),
      droppedBoth: {},
      byRelation: {},
      ...(options.validity ? { validity: emptyValidityStats() } : {}),
    };
  }

  private relation(name: string): RelationStats {
    return (this.stats.byRelation[name] ??= {
      task1Items: 0,
      task2Items: 0,
      dropped: { task1: {}, task2: {}, both: {} },
    });
  }

  add(record: IntentionQaRecord): void {
    if (this.stats.validity) addToValidityStats(this.stats.validity, record);
    if (record.kind === 'dropped') {
      const d = record.dropped;
      increment(d.task === null ? this.stats.droppedBoth : this.stats[`task${d.task}`].dropped, d.reason);
      const perRelation = this.relation(record.relation).dropped;
      increment(d.task === null ? perRelation.both : d.task === 1 ? perRelation.task1 : perRelation.task2, d.reason);
      return;
    }
    const item = record.item;
    const t = this.stats[`task${item.task}`];
    this.relation(item.relation)[`task${item.task}Items`] += 1;
    t.items += 1;
    t.difficulty[item.difficulty] += 1;
    t.gold[item.gold_ind] += 1;
    t.hadFalseNegative += item.hadFalseNegative;
    if (item.selection.exact) t.exactItems += 1;
    for (const r of item.selection.refused) increment(t.refused, r.reason);
    for (const reason of new Set(item.selection.refused.map((r) => r.reason))) increment(t.itemsWithRefusal, reason);
    if (item.selection.sampling === 'lowest' && item.selection.lowest_pool_end === null && item.selection.members === 4)
      t.lowestFallbackOfFour += 1;
    for (const d of item.distractors) {
      increment(t.methods, d.method);
      t.similarityHistogram[similarityBin(d.score, this.stats.similarityBins)]! += 1;
      t.similarityMin = t.similarityMin === null ? d.score : Math.min(t.similarityMin, d.score);
      t.similarityMax = t.similarityMax === null ? d.score : Math.max(t.similarityMax, d.score);
    }
  }
}

function counts(rec: Record<string, number>): string {
  const entries = Object.entries(rec).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? 'none' : entries.map(([k, v]) => `${k} ${v}`).join(', ');
}

export interface ReportSettings {
  seed: string;
  preset: Preset;
  sampling: string;
  anchor: string;
  task1Window: string;
  task2Window: string;
  /** The difficulty cut points, as formatDifficultyCuts writes them. */
  difficulty: string;
  typicalityThreshold: number;
  typicalityComparison: TypicalityComparison;
  excludeRelations: string[];
  relationScope: RelationScope;
  task2Universe: Task2Universe;
  requireOverlap: boolean;
  search: string;
  productsWithoutVector: number;
  /** The validity filters (validity-filters.ts); absent when all three are off (the released preset). */
  validity?: ValiditySettings;
  /** A warning printed at the top, e.g. that the embeddings are synthetic. */
  caveat?: string;
  /** The encoder that made the embeddings, when known, and whether its cosines were centered. */
  encoder?: { name: string; sentenceBert: boolean; centered: boolean };
  /** Where the cosines fall (IntentionQaRun.similarityDistribution), with the window bounds to mark. */
  similarity?: { distribution: SimilarityDistribution; bounds: SimilarityBounds };
}

/** The bounds the similarity section marks: Task 1 on Sim_i, Task 2 on Sim_p, difficulty on Sim_p(p1, p2). */
export interface SimilarityBounds {
  task1: { lo: number; hi: number };
  task2: { lo: number; hi: number };
  difficulty: { medium: number; easy: number };
}

export function renderMarkdown(stats: IntentionQaStats, s: ReportSettings, svgFile: string): string {
  const lines: string[] = ['# IntentionQA items — report', ''];
  if (s.caveat) lines.push(`> **${s.caveat}**`, '');
  const scope = s.relationScope === 'same' ? "within the assertion's relation" : 'across relations';
  const universe = s.task2Universe === 'assertions' ? "the kept assertions' products" : 'every product with a vector';
  const excluded = s.excludeRelations.length === 0 ? 'none' : s.excludeRelations.map((r) => `\`${r}\``).join(', ');
  lines.push(
    `Settings: preset \`${s.preset}\`, seed \`${s.seed}\`, Task-1 sampling \`${s.sampling}\` in Sim_i ${s.task1Window} ${scope}, ` +
      `Task-2 anchor \`${s.anchor}\` in Sim_p ${s.task2Window} among ${universe}, ` +
      `typicality ${s.typicalityComparison === 'above' ? '>' : '≥'} ${s.typicalityThreshold}, excluded relations: ${excluded}, ` +
      `concept overlap ${s.requireOverlap ? 'required' : 'not required'}, window enumeration by ${s.search}. ` +
      `Difficulty from Sim_p(p1, p2): ${s.difficulty}.`,
    '',
    `Products without a context vector (no similarity; never a distractor): ${s.productsWithoutVector}.`,
    `Assertions dropped before either task: ${counts(stats.droppedBoth)}.`,
    '',
    '| | Task 1 (IntentUnderstand) | Task 2 (IntentUtilize) |',
    '|---|---|---|',
  );
  const row = (label: string, f: (t: TaskStats) => string) =>
    lines.push(`| ${label} | ${f(stats.task1)} | ${f(stats.task2)} |`);
  row('items emitted', (t) => String(t.items));
  row('dropped (by reason)', (t) => counts(t.dropped));
  for (const d of DIFFICULTIES) row(`difficulty ${d}`, (t) => String(t.difficulty[d]));
  row('gold A / B / C / D', (t) => LETTERS.map((l) => t.gold[l]).join(' / '));
  row('items with a false negative (dropped + backfilled)', (t) => String(t.hadFalseNegative));
  row('refused window members', (t) => counts(t.refused));
  row('distractors found by', (t) => counts(t.methods));
  row('items with exact windows', (t) => `${t.exactItems} of ${t.items}`);
  row('distractor similarity min – max', (t) =>
    t.similarityMin === null ? '–' : `${t.similarityMin.toFixed(4)} – ${t.similarityMax!.toFixed(4)}`,
  );
  lines.push('', `Items and drops by relation (Task-1 distractors drawn ${scope}):`, '');
  lines.push(
    '| relation | Task 1 items | Task 1 dropped | Task 2 items | Task 2 dropped | dropped before either task |',
    '|---|---|---|---|---|---|',
  );
  const dropCell = (rec: Record<string, number>) => {
    const total = Object.values(rec).reduce((a, b) => a + b, 0);
    return total === 0 ? '0' : `${total} (${counts(rec)})`;
  };
  for (const [relation, r] of Object.entries(stats.byRelation).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(
      `| ${relation} | ${r.task1Items} | ${dropCell(r.dropped.task1)} | ${r.task2Items} | ${dropCell(r.dropped.task2)} | ${dropCell(r.dropped.both)} |`,
    );
  }
  if (s.preset === 'released') lines.push('', ...releasedDifferences(stats));
  lines.push('', `![histograms](${svgFile})`, '');
  lines.push(
    `Distractor similarity histogram (bins of ${stats.similarityBins.width} from ${stats.similarityBins.lo}; empty bins omitted):`,
    '',
  );
  lines.push('| bin | Task 1 | Task 2 |', '|---|---|---|');
  const bins = stats.similarityBins;
  for (let b = 0; b < bins.count; b++) {
    const c1 = stats.task1.similarityHistogram[b]!;
    const c2 = stats.task2.similarityHistogram[b]!;
    if (c1 === 0 && c2 === 0) continue;
    const lo = bins.lo + b * bins.width;
    lines.push(`| [${lo.toFixed(3)}, ${(lo + bins.width).toFixed(3)}) | ${c1} | ${c2} |`);
  }
  lines.push('');
  if (s.similarity) lines.push(...similaritySection(s, s.similarity.distribution, s.similarity.bounds));
  if (stats.validity && s.validity) lines.push(...validitySection(stats.validity, s.validity, s.encoder?.name));
  return lines.join('\n');
}

const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`);

/** "Similarity distribution": quantiles and a histogram of the run's cosines, with the windows marked. */
function similaritySection(s: ReportSettings, d: SimilarityDistribution, b: SimilarityBounds): string[] {
  const lines = ['## Similarity distribution', ''];
  const encoder = s.encoder;
  const paper =
    b.task1.lo === PAPER_TASK1_WINDOW.lo &&
    b.task1.hi === PAPER_TASK1_WINDOW.hi &&
    b.task2.lo === PAPER_TASK2_WINDOW.lo &&
    b.task2.hi === PAPER_TASK2_WINDOW.hi &&
    b.difficulty.easy === PAPER_DIFFICULTY.easy &&
    b.difficulty.medium === PAPER_DIFFICULTY.medium;
  if (encoder && !encoder.sentenceBert)
    lines.push(
      `> The paper's windows (Task 1 [0.6, 0.9], Task 2 [0.7, 0.9)) and difficulty cut points (0.85, 0.6) were ` +
        `calibrated for Sentence-BERT context embeddings. This run's encoder is ${encoder.name}, whose cosines ` +
        (paper
          ? "fall elsewhere, and it uses the paper's values: place the windows from the distribution below."
          : 'fall elsewhere; the windows and cut points in the settings above were chosen for it: check them against the distribution below.'),
      '',
    );
  lines.push(
    `Cosines of this run${encoder ? ` (${encoder.name}, ${encoder.centered ? 'centered: the mean product embedding subtracted before the cosine' : 'not centered'})` : ''}. ` +
      'Pairs are sampled, seeded, where there are more than can be counted quickly; quantiles are nearest-rank.',
    '',
    `| cosines | pairs counted (of) | ${QUANTILES.map((q) => (q === 0 ? 'min' : q === 1 ? 'max' : q === 0.5 ? 'median' : `${q * 100}%`)).join(' | ')} | where the windows are |`,
    `|---|---|${QUANTILES.map(() => '---|').join('')}---|`,
  );
  const row = (label: string, c: CosineSummary, where: string) =>
    lines.push(
      `| ${label} | ${c.n} (${c.total}) | ${c.n === 0 ? QUANTILES.map(() => '–').join(' | ') : c.quantiles.map((q) => q.toFixed(3)).join(' | ')} | ${where} |`,
    );
  row(
    'Sim_p, product pairs',
    d.productPairs,
    `Task 2 ${s.task2Window}: ${percent(d.productPairs.inTask2Window, d.productPairs.n)} of pairs`,
  );
  row(
    'Sim_i, assertion pairs',
    d.assertionPairs,
    `Task 1 ${s.task1Window}: ${percent(d.assertionPairs.inTask1Window, d.assertionPairs.n)} of pairs`,
  );
  const diff = d.coBuyPairs.difficulty;
  row(
    'Sim_p(p1, p2), co-buy pairs',
    d.coBuyPairs,
    `easy / medium / hard: ${DIFFICULTIES.map((k) => percent(diff[k], d.coBuyPairs.n)).join(' / ')}`,
  );
  lines.push(
    '',
    `Histogram (share of each row's pairs per bin of ${BIN_WIDTH}; empty bins omitted), with the bins that hold a window bound or a cut point marked:`,
    '',
    '| bin | Sim_p, product pairs | Sim_i, assertion pairs | Sim_p(p1, p2), co-buy pairs | bounds in this bin |',
    '|---|---|---|---|---|',
  );
  const marks = new Map<number, string[]>();
  const mark = (value: number, label: string) => marks.set(binOf(value), [...(marks.get(binOf(value)) ?? []), label]);
  mark(b.task1.lo, `Task 1 lo ${b.task1.lo}`);
  mark(b.task1.hi, `Task 1 hi ${b.task1.hi}`);
  mark(b.task2.lo, `Task 2 lo ${b.task2.lo}`);
  mark(b.task2.hi, `Task 2 hi ${b.task2.hi}`);
  mark(b.difficulty.medium, `medium ≥ ${b.difficulty.medium}`);
  mark(b.difficulty.easy, `easy ≥ ${b.difficulty.easy}`);
  const rows = [d.productPairs, d.assertionPairs, d.coBuyPairs];
  for (let k = 0; k < d.productPairs.histogram.length; k++) {
    if (rows.every((r) => r.histogram[k] === 0) && !marks.has(k)) continue;
    // Bounds printed from integers, so that no "-0.0" or "0.30000000000000004" appears.
    const bound = (j: number) => (Math.round((-1 + j * BIN_WIDTH) * 10) / 10 || 0).toFixed(1);
    const close = k === rows[0]!.histogram.length - 1 ? ']' : ')';
    const cells = rows.map((r) => percent(r.histogram[k]!, r.n));
    lines.push(`| [${bound(k)}, ${bound(k + 1)}${close} | ${cells.join(' | ')} | ${(marks.get(k) ?? []).join(', ')} |`);
  }
  lines.push('');
  return lines;
}

/**
 * The places where, with the `released` preset, this output must differ from what the released code
 * would make of the same draws: the engine never emits an item without exactly four distinct options
 * (docs/intentionqa.md, "Deviations that stay"), so it backfills or drops where the released code
 * emitted 5, fewer or repeated options.
 */
function releasedDifferences(stats: IntentionQaStats): string[] {
  const { task1: t1, task2: t2 } = stats;
  const short = (t: TaskStats, task: 1 | 2) =>
    (t.dropped['too-few-distractors'] ?? 0) + (task === 2 ? (t.dropped['window-empty'] ?? 0) : 0);
  return [
    '## Where this output must differ from the released code',
    '',
    'Every item here has exactly four distinct options; the released code also emitted items with 1, 2, 3 or 5.',
    'Counts are of this run (the released code would draw other random members, so they say where, not which).',
    '',
    '| where | released code | this engine | Task 1 | Task 2 |',
    '|---|---|---|---|---|',
    `| \`lowest\` sampling, exactly 4 eligible window members (no pool of 5 or more) | all 4 as distractors: 5 options | the 3 lowest: 4 options | ${t1.lowestFallbackOfFour} | – |`,
    `| a drawn member equal to the gold (false negative) | removed: fewer options | refused, the next member drawn | ${t1.itemsWithRefusal['false-negative'] ?? 0} | ${t2.itemsWithRefusal['false-negative'] ?? 0} |`,
    `| a drawn member repeating another option | kept: two options alike | refused, the next member drawn | ${t1.itemsWithRefusal['duplicate-option'] ?? 0} | ${t2.itemsWithRefusal['duplicate-option'] ?? 0} |`,
    `| fewer than 3 valid distractors | an item with fewer options (Task 1 when the window has any member; Task 2 always, even the gold alone) | dropped | ${short(t1, 1)} | ${short(t2, 2)} |`,
    '| a product titled like p_A | may be a Task-2 distractor | never | – | not counted |',
    '| the gold letter | uniform at random per item | balanced in blocks of four | every item | every item |',
  ];
}

/** Four bar charts: distractor similarity per task, difficulty per task. */
export function renderSvg(stats: IntentionQaStats, caveat?: string): string {
  const panelW = 420;
  const panelH = 220;
  const width = panelW * 2 + 30;
  // The caveat banner, wrapped to the picture's width (one line: the layout of an unwrapped banner).
  const banner = caveat ? wrapSvgText(caveat, width - 20, 11, 0.65) : [];
  const top = caveat ? 14 + 16 * banner.length : 10;
  const height = top + panelH * 2 + 30;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
  ];
  banner.forEach((line, i) =>
    parts.push(`<text x="10" y="${18 + 16 * i}" fill="#b00" font-weight="bold">${escapeXml(line)}</text>`),
  );
  const panel = (x0: number, y0: number, title: string, labels: string[], values: number[], colour: string) => {
    const plotX = x0 + 40;
    const plotY = y0 + 25;
    const plotW = panelW - 60;
    const plotH = panelH - 70;
    const max = Math.max(1, ...values);
    parts.push(`<text x="${x0 + 10}" y="${y0 + 15}" font-weight="bold">${escapeXml(title)}</text>`);
    parts.push(`<line x1="${plotX}" y1="${plotY + plotH}" x2="${plotX + plotW}" y2="${plotY + plotH}" stroke="#333"/>`);
    parts.push(`<line x1="${plotX}" y1="${plotY}" x2="${plotX}" y2="${plotY + plotH}" stroke="#333"/>`);
    parts.push(`<text x="${plotX - 4}" y="${plotY + 4}" text-anchor="end">${max}</text>`);
    parts.push(`<text x="${plotX - 4}" y="${plotY + plotH}" text-anchor="end">0</text>`);
    const bw = plotW / values.length;
    values.forEach((v, k) => {
      const h = (v / max) * plotH;
      const x = plotX + k * bw;
      parts.push(
        `<rect x="${(x + 1).toFixed(1)}" y="${(plotY + plotH - h).toFixed(1)}" width="${Math.max(1, bw - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${colour}"><title>${escapeXml(labels[k]!)}: ${v}</title></rect>`,
      );
    });
    const every = Math.max(1, Math.ceil(values.length / 6));
    labels.forEach((l, k) => {
      if (k % every !== 0 && values.length > 6) return;
      parts.push(
        `<text x="${(plotX + k * bw + bw / 2).toFixed(1)}" y="${plotY + plotH + 14}" text-anchor="middle">${escapeXml(l)}</text>`,
      );
    });
  };
  const bins = stats.similarityBins;
  const simLabels = Array.from({ length: bins.count }, (_, b) => (bins.lo + b * bins.width).toFixed(3));
  panel(
    10,
    top,
    `Task 1: distractor Sim_i (${stats.task1.items} items)`,
    simLabels,
    stats.task1.similarityHistogram,
    '#4878a8',
  );
  panel(
    20 + panelW,
    top,
    `Task 2: distractor Sim_p (${stats.task2.items} items)`,
    simLabels,
    stats.task2.similarityHistogram,
    '#c87f3a',
  );
  const diffLabels = DIFFICULTIES.slice();
  panel(
    10,
    top + panelH,
    'Task 1: difficulty (Sim_p of the pair)',
    diffLabels,
    DIFFICULTIES.map((d) => stats.task1.difficulty[d]),
    '#4878a8',
  );
  panel(
    20 + panelW,
    top + panelH,
    'Task 2: difficulty (Sim_p of the pair)',
    diffLabels,
    DIFFICULTIES.map((d) => stats.task2.difficulty[d]),
    '#c87f3a',
  );
  parts.push('</svg>', '');
  return parts.join('\n');
}
