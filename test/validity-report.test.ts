// The report's validity section (engine/items/intentionqa/validity-report.ts) and the demo's solver
// comparison (engine/demo/solver-comparison.ts), on hand-made records and files with known counts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { IntentionQaRecord, Task1Item } from '../engine/items/intentionqa/item-types.js';
import {
  StatsAccumulator,
  renderMarkdown,
  type ReportSettings,
} from '../engine/items/intentionqa/intentionqa-report.js';
import {
  addToValidityStats,
  emptyValidityStats,
  validitySection,
} from '../engine/items/intentionqa/validity-report.js';
import type { ValiditySettings } from '../engine/items/intentionqa/validity-filters.js';
import { appendSolverComparison, solverAccuracy, solverComparisonSection } from '../engine/demo/solver-comparison.js';

const dropped = (task: 1 | 2 | null, reason: string, refused?: Record<string, number>): IntentionQaRecord =>
  ({
    kind: 'dropped',
    relation: 'usedFor',
    dropped: { id: 'x', task, reason, detail: '', ...(refused ? { refused } : {}) },
  }) as IntentionQaRecord;
const item = (task: 1 | 2, reasons: string[]): IntentionQaRecord =>
  ({
    kind: 'item',
    item: { task, selection: { refused: reasons.map((reason) => ({ id: 'c', score: 0.7, reason })) } } as Task1Item,
  }) as IntentionQaRecord;

const settings: ValiditySettings = {
  excludePairAsserted: true,
  excludeGeneric: true,
  excludeSecondAnswers: true,
  genericMinGroups: 3,
  secondAnswerCosine: 0.75,
  intentionTexts: 66,
  intentionVectors: 66,
  genericIntentions: [{ text: 'because they are both used for the same purpose.', groups: 9, pairs: 33 }],
  excludeKindAsserted: true,
  excludeGroupGeneric: true,
  groupGenericShare: 0.5,
  excludeSubstitutes: true,
  substituteCosine: 0.9,
  sharedPhrases: ['phone accessory', 'camping gear'],
  groupGenericIntentions: [
    { text: 'because they both are a type of phone accessory.', group: 'phone accessory', kindPairs: 5, of: 7 },
  ],
  excludeVacuous: true,
  vacuousWordGroups: 6,
  excludeUnexplained: true,
  explainedMinFit: 0.05,
  excludeFitsAsWell: true,
  fitMargin: 0.05,
  excludeKindWords: true,
  excludeUnanchored: true,
  anchorMargin: 0.2,
  excludeTitleWords: true,
  fitVectors: 120,
  kindsFrom: 'title clusters',
  genericWords: [{ word: 'quality', groups: 23 }],
};

describe('validity counts', () => {
  it('count refusals in items and in drops, drops under a filter name, and generic golds', () => {
    const v = emptyValidityStats();
    const records = [
      item(1, ['pair-asserted', 'pair-asserted', 'false-negative', 'generic']),
      item(1, ['second-answer']),
      item(2, ['pair-asserted', 'duplicate-option', 'substitute', 'substitute', 'kind-asserted']),
      item(1, ['kind-asserted', 'group-generic']),
      dropped(1, 'pair-asserted', { 'pair-asserted': 3, generic: 2, 'false-negative': 1 }),
      dropped(1, 'kind-asserted', { 'kind-asserted': 4 }),
      dropped(2, 'substitute', { substitute: 3, 'group-generic': 1 }),
      dropped(1, 'too-few-distractors', { 'second-answer': 1 }),
      dropped(2, 'second-answer', { 'second-answer': 4 }),
      dropped(null, 'generic-gold'),
      dropped(null, 'generic-gold'),
      dropped(null, 'vacuous-gold'),
      dropped(null, 'unexplained'),
      dropped(null, 'unexplained'),
      dropped(2, 'fits-as-well', { 'fits-as-well': 3, 'kind-words': 1 }),
      item(1, ['vacuous', 'unanchored', 'title-words']),
      item(2, ['title-words']),
      dropped(null, 'typicality-below-min'),
    ];
    for (const r of records) addToValidityStats(v, r);
    expect(v).toEqual({
      task1: {
        'pair-asserted': { refused: 5, dropped: 1 },
        generic: { refused: 3, dropped: 0 },
        'second-answer': { refused: 2, dropped: 0 },
        'kind-asserted': { refused: 5, dropped: 1 },
        'group-generic': { refused: 1, dropped: 0 },
        substitute: { refused: 0, dropped: 0 },
        vacuous: { refused: 1, dropped: 0 },
        'fits-as-well': { refused: 0, dropped: 0 },
        'kind-words': { refused: 0, dropped: 0 },
        unanchored: { refused: 1, dropped: 0 },
        'title-words': { refused: 1, dropped: 0 },
      },
      task2: {
        'pair-asserted': { refused: 1, dropped: 0 },
        generic: { refused: 0, dropped: 0 },
        'second-answer': { refused: 4, dropped: 1 },
        'kind-asserted': { refused: 1, dropped: 0 },
        'group-generic': { refused: 1, dropped: 0 },
        substitute: { refused: 5, dropped: 1 },
        vacuous: { refused: 0, dropped: 0 },
        'fits-as-well': { refused: 3, dropped: 1 },
        'kind-words': { refused: 1, dropped: 0 },
        unanchored: { refused: 0, dropped: 0 },
        'title-words': { refused: 1, dropped: 0 },
      },
      genericGold: 2,
      vacuousGold: 1,
      unexplained: 2,
    });
    const section = validitySection(v, settings, 'glove-100d').join('\n');
    expect(section).toContain('| pair-asserted (asserted for the pair) | 5 | 1 | 1 | 0 |');
    expect(section).toContain('| generic (generic intention) | 3 | 0 | – | – |');
    expect(section).toContain('| second-answer (close to an asserted intention) | 2 | 0 | 4 | 1 |');
    expect(section).toContain('| kind-asserted (asserted for the same kinds of products) | 5 | 1 | 1 | 0 |');
    expect(section).toContain('| group-generic (generic within the group) | 1 | 0 | 1 | 0 |');
    expect(section).toContain('| substitute (a substitute of the gold) | – | – | 5 | 1 |');
    expect(section).toContain('not a kind; product-kinds.ts): 2 (phone accessory, camping gear).');
    expect(section).toContain('| phone accessory | because they both are a type of phone accessory. | 5 of 7 |');
    expect(section).toContain('(`generic-gold`): 2; vacuous (`vacuous-gold`');
    expect(section).toContain(
      'cut-off 6 concept groups): 1; that explain nothing of their own pair (`unexplained`: fit to the two titles below 0.05): 2.',
    );
    expect(section).toContain('| fits-as-well (fits within the margin of the gold) | – | – | 3 | 1 |');
    expect(section).toContain("| kind-words (a word of the kind's intentions) | – | – | 1 | 0 |");
    expect(section).toContain('| unanchored (fits the pair as well as its own) | 1 | 0 | – | – |');
    expect(section).toContain(
      "| title-words (its pair's titles or its title share a word with the item's) | 1 | 0 | 1 | 0 |",
    );
    expect(section).toContain('unanchored on (margin 0.2); title-words on;');
    expect(section).toContain('120 titles encoded');
    expect(section).toContain('66 of 66 intention texts encoded by glove-100d');
    expect(section).toContain('| because they are both used for the same purpose. | 9 | 33 |');
  });

  it('are left out of the stats and the report when every filter is off (the released preset)', () => {
    const off = new StatsAccumulator();
    off.add(dropped(null, 'generic-gold'));
    expect(off.stats.validity).toBeUndefined();
    const on = new StatsAccumulator(undefined, { validity: true });
    on.add(dropped(null, 'generic-gold'));
    expect(on.stats.validity!.genericGold).toBe(1);
    const base = {
      seed: '1',
      preset: 'paper',
      sampling: 'uniform',
      anchor: 'answer',
      task1Window: '[0.6, 0.9]',
      task2Window: '[0.7, 0.9)',
      difficulty: 'x',
      typicalityThreshold: 0.5,
      typicalityComparison: 'above',
      excludeRelations: [],
      relationScope: 'mixed',
      task2Universe: 'catalog',
      requireOverlap: true,
      search: 'exact',
      productsWithoutVector: 0,
    } as ReportSettings;
    expect(renderMarkdown(off.stats, base, 'r.svg')).not.toContain('## Validity');
    expect(renderMarkdown(on.stats, { ...base, validity: settings }, 'r.svg')).toContain('## Validity');
  });
});

describe('the solver comparison', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-solver-comparison-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, rows: object[]) => {
    const file = join(dir, name);
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return file;
  };

  it('counts the responses equal to the gold letter', async () => {
    const items = write('items.jsonl', [
      { id: 'a', gold_ind: 'A' },
      { id: 'b', gold_ind: 'C' },
      { id: 'c', gold_ind: 'D' },
      { id: 'd', gold_ind: 'B' },
    ]);
    const responses = write('responses.jsonl', [
      { id: 'a', response: 'A' },
      { id: 'b', response: 'B' },
      { id: 'c', response: 'D' },
    ]);
    expect(await solverAccuracy(items, responses)).toEqual({ items: 4, correct: 2 });
  });

  it('renders percentages and appends to the report', async () => {
    const c = {
      task1: { filtered: { items: 4, correct: 1 }, unfiltered: { items: 8, correct: 3 } },
      task2: { filtered: { items: 0, correct: 0 }, unfiltered: { items: 3, correct: 1 } },
    };
    const lines = solverComparisonSection(c, 'glove-100d');
    expect(lines).toContain('| Task 1 | 4 | 25.0% | 8 | 37.5% |');
    expect(lines).toContain('| Task 2 | 0 | – | 3 | 33.3% |');
    const report = write('report.md', []);
    writeFileSync(report, '# report\n\n## Validity\n');
    await appendSolverComparison(report, c, 'glove-100d');
    const text = readFileSync(report, 'utf8');
    expect(text.startsWith('# report\n\n## Validity\n\n### The embedding solver')).toBe(true);
  });
});
