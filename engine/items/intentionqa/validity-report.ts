// The report's "Validity" section: per validity filter (validity-filters.ts) the window members it
// refused and the items it dropped, per task; the assertions dropped because their own intention is
// generic; the generic texts with their evidence. Counted only when a filter is on, so that a
// `--preset released` run writes the summary and report it wrote before the filters existed.
import type { IntentionQaRecord } from './item-types.js';
import { VALIDITY_FILTERS, type ValidityFilter, type ValiditySettings } from './validity-filters.js';

export interface FilterCounts {
  /** Window members the filter refused (in emitted items and in dropped ones). */
  refused: number;
  /** Items the filter emptied: dropped under its name. */
  dropped: number;
}

export interface ValidityStats {
  task1: Record<ValidityFilter, FilterCounts>;
  task2: Record<ValidityFilter, FilterCounts>;
  /** Assertions dropped before either task because their own intention is generic. */
  genericGold: number;
  /** … because it is vacuous (every word generic: `vacuous-gold`). */
  vacuousGold: number;
  /** … because it explains nothing of its own pair (`unexplained`). */
  unexplained: number;
}

function emptyCounts(): Record<ValidityFilter, FilterCounts> {
  return Object.fromEntries(VALIDITY_FILTERS.map((f) => [f, { refused: 0, dropped: 0 }])) as Record<
    ValidityFilter,
    FilterCounts
  >;
}

export function emptyValidityStats(): ValidityStats {
  return { task1: emptyCounts(), task2: emptyCounts(), genericGold: 0, vacuousGold: 0, unexplained: 0 };
}

const isFilter = (reason: string): reason is ValidityFilter => (VALIDITY_FILTERS as readonly string[]).includes(reason);

export function addToValidityStats(v: ValidityStats, record: IntentionQaRecord): void {
  if (record.kind === 'dropped') {
    const d = record.dropped;
    if (d.task === null) {
      if (d.reason === 'generic-gold') v.genericGold += 1;
      if (d.reason === 'vacuous-gold') v.vacuousGold += 1;
      if (d.reason === 'unexplained') v.unexplained += 1;
      return;
    }
    const counts = v[`task${d.task}`];
    if (isFilter(d.reason)) counts[d.reason].dropped += 1;
    for (const [reason, n] of Object.entries(d.refused ?? {})) if (isFilter(reason)) counts[reason].refused += n;
    return;
  }
  const counts = v[`task${record.item.task}`];
  for (const r of record.item.selection.refused) if (isFilter(r.reason)) counts[r.reason].refused += 1;
}

const FILTER_WORDS: Record<ValidityFilter, string> = {
  'pair-asserted': 'asserted for the pair',
  generic: 'generic intention',
  'second-answer': 'close to an asserted intention',
  'kind-asserted': 'asserted for the same kinds of products',
  'group-generic': 'generic within the group',
  substitute: 'a substitute of the gold',
  vacuous: 'says nothing of any product',
  'fits-as-well': 'fits within the margin of the gold',
  'kind-words': "a word of the kind's intentions",
  unanchored: 'fits the pair as well as its own',
  'title-words': "its pair's titles or its title share a word with the item's",
};

/** Task 1's options are intentions and Task 2's products: the rules that apply to one task only. */
const ONLY_TASK: Partial<Record<ValidityFilter, 1 | 2>> = {
  generic: 1,
  substitute: 2,
  'fits-as-well': 2,
  'kind-words': 2,
  unanchored: 1,
};

/** The markdown section. */
export function validitySection(v: ValidityStats, s: ValiditySettings, encoder: string | undefined): string[] {
  const onOff = (on: boolean) => (on ? 'on' : 'off');
  const vectors =
    s.intentionVectors === null
      ? 'no intention vectors: only equal texts count as close'
      : `${s.intentionVectors} of ${s.intentionTexts} intention texts encoded${encoder ? ` by ${encoder}` : ''}`;
  const lines = [
    '',
    '## Validity',
    '',
    'An item is right only if exactly one option is right. Beyond the released rule (a candidate equal to the',
    'gold is refused), the validity filters refuse window members that would be a second right answer;',
    "a window they leave with fewer than three distractors is dropped under the filter's name.",
    '',
    `Rules that read fits (intention to title cosines, intention-fit.ts): ${s.fitVectors === null ? 'no fit vectors, so unexplained, fits-as-well and unanchored hold for nothing' : `${s.fitVectors} titles encoded`}; unexplained ${onOff(s.excludeUnexplained)} (fit < ${s.explainedMinFit}), fits-as-well ${onOff(s.excludeFitsAsWell)} (margin ${s.fitMargin}); vacuous ${onOff(s.excludeVacuous)} (cut-off ${s.vacuousWordGroups} concept groups a word); kind-words ${onOff(s.excludeKindWords)}; unanchored ${onOff(s.excludeUnanchored)} (margin ${s.anchorMargin}); title-words ${onOff(s.excludeTitleWords)}; kinds from ${s.kindsFrom}.`,
    '',
    `Filters: pair-asserted ${onOff(s.excludePairAsserted)}, generic ${onOff(s.excludeGeneric)} (cut-off: ${s.genericMinGroups} concept groups), second-answer ${onOff(s.excludeSecondAnswers)} (cosine ≥ ${s.secondAnswerCosine}; ${vectors}), kind-asserted ${onOff(s.excludeKindAsserted)}, group-generic ${onOff(s.excludeGroupGeneric)} (share ≥ ${s.groupGenericShare} of a group's kind pairs), substitute ${onOff(s.excludeSubstitutes)} (the gold's kind, or Sim_p ≥ ${s.substituteCosine}).`,
    '',
    '| filter | Task 1 members refused | Task 1 items dropped | Task 2 members refused | Task 2 items dropped |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const f of VALIDITY_FILTERS) {
    const [a, b] = [v.task1[f], v.task2[f]];
    const task1 = ONLY_TASK[f] === 2 ? '– | –' : `${a.refused} | ${a.dropped}`;
    const task2 = ONLY_TASK[f] === 1 ? '– | –' : `${b.refused} | ${b.dropped}`;
    lines.push(`| ${f} (${FILTER_WORDS[f]}) | ${task1} | ${task2} |`);
  }
  lines.push(
    '',
    `Assertions whose own intention is generic, dropped before either task (\`generic-gold\`): ${v.genericGold}; vacuous (\`vacuous-gold\`: every word of it generic, cut-off ${s.vacuousWordGroups} concept groups): ${v.vacuousGold}; that explain nothing of their own pair (\`unexplained\`: fit to the two titles below ${s.explainedMinFit}): ${v.unexplained}.`,
    'They are dropped rather than flagged: a generic intention fits any pair bought together, so in Task 2',
    'every plausible product is a second answer, and in Task 1 the item asks nothing about the pair.',
  );
  if (s.sharedPhrases.length > 0)
    lines.push(
      '',
      `Category phrases shared by several kinds of product (not a kind; product-kinds.ts): ${s.sharedPhrases.length} (${s.sharedPhrases.slice(0, 12).join(', ')}${s.sharedPhrases.length > 12 ? ', …' : ''}).`,
    );
  if (s.groupGenericIntentions.length > 0) {
    lines.push('', 'Texts generic within a group (kind pairs of the group they are asserted for):', '');
    lines.push('| group | text | kind pairs |', '|---|---|---:|');
    for (const g of s.groupGenericIntentions)
      lines.push(`| ${g.group} | ${g.text.replace(/\|/g, '\\|')} | ${g.kindPairs} of ${g.of} |`);
  }
  if (s.genericIntentions.length > 0) {
    lines.push('', 'Generic intention texts (concept groups of the pairs they are asserted for):', '');
    lines.push('| text | concept groups | pairs |', '|---|---:|---:|');
    for (const g of s.genericIntentions) lines.push(`| ${g.text.replace(/\|/g, '\\|')} | ${g.groups} | ${g.pairs} |`);
  }
  return lines;
}
