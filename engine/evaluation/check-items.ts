// `intentsim items check`: the pipeline's validity rules (validity-filters.ts) over an existing
// IntentionQA item file, the engine's or the released one. The rules are the ValidityIndex's own
// predicates (task1Refusal, task2Refusal, goldRefused), the ones the pipeline's draws call, over an
// index built from the given assertions as the pipeline builds it (every assertion, any relation or
// typicality). Per item:
//   Task 1  each distractor option's intention (by intentionKey) against the item's pair
//           (item_a_id, item_b_id): pair-asserted, generic, second-answer, kind-asserted, group-generic;
//   Task 2  each distractor product (its id from distractors_id, matched to the option by its title in
//           distractors_product) against the given product (item_a_id), the gold (item_b_id) and the
//           gold's intention (the item's assertion): pair-asserted, second-answer, substitute,
//           kind-asserted, group-generic;
//   both    the gold's intention generic: generic-gold.
// Without vectors, second-answer holds only for equal normalised texts and substitute only for products
// of one kind (the pipeline also compares vectors); kinds are known for the products the assertions
// name (product-kinds.ts). The concept groups behind `generic` come from the products' titles (their head
// phrases, as the offline conceptualizer takes them without a graph) when products are given; without
// them, every pair is a group of its own.
//
// Writes (with `out`): check.json (per rule the items flagged and the texts behind it; malformed
// items), flagged.jsonl (one line per flagged option); with dropFlagged, items/<file> holding the
// items no rule flags, each line as read, and items/intentionqa_dropped.jsonl with one line per item
// set apart (the rule, or `malformed`, as its reason).
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { ConfigError, UserError } from '../../core/errors.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { readProducts, type Product } from '../products/products.js';
import { titleHeadPhrases } from '../products/title-head-concepts.js';
import { readIntentionQaItems, type IntentionQaItemLine } from '../scoring/intentionqa/intentionqa-item-file.js';
import { readAssertions, type Assertion } from '../items/intentionqa/assertions.js';
import {
  DEFAULT_EXPLAINED_MIN_FIT,
  DEFAULT_ANCHOR_MARGIN,
  DEFAULT_FIT_MARGIN,
  DEFAULT_GENERIC_MIN_GROUPS,
  VALIDITY_RULE_FIELDS,
  type ValidityRuleField,
} from '../items/intentionqa/intentionqa-options.js';
import { extractIntention } from '../items/intentionqa/intention-text.js';
import type { DroppedAssertion } from '../items/intentionqa/item-types.js';
import {
  GOLD_REFUSALS,
  intentionKey,
  VALIDITY_FILTERS,
  ValidityIndex,
  type ValidityFilter,
  type ValidityRules,
} from '../items/intentionqa/validity-filters.js';
import { INTENTIONQA_FILES } from '../items/intentionqa/write-items.js';
import type { SentenceEncoder } from '../../embeddings/sentence-encoder.js';
import { calibrationFor } from '../items/intentionqa/calibration.js';
import { intentionRows, titleRows } from '../items/intentionqa/rule-vectors.js';
import { titleKinds } from '../items/intentionqa/title-kinds.js';
import { DEFAULT_VACUOUS_WORD_GROUPS } from '../items/intentionqa/vacuous-intentions.js';
import { CHECK_FILES } from './check-files.js';

/** The rules `items check` applies: the pipeline's filters, and the gold's own intention. */
export const CHECK_RULES = [...VALIDITY_FILTERS, ...GOLD_REFUSALS] as const;
export type CheckRule = (typeof CHECK_RULES)[number];

/** Every rule switch (VALIDITY_RULE_FIELDS) on or off, at the default cut-offs. */
function allSwitches(on: boolean): ValidityRules {
  const switches = Object.fromEntries(VALIDITY_RULE_FIELDS.map((f) => [f, on])) as Record<ValidityRuleField, boolean>;
  return {
    ...switches,
    explainedMinFit: DEFAULT_EXPLAINED_MIN_FIT,
    fitMargin: DEFAULT_FIT_MARGIN,
    anchorMargin: DEFAULT_ANCHOR_MARGIN,
  };
}
const NO_RULES = allSwitches(false);
const ALL_RULES = allSwitches(true);

/** The cut-offs of the rules that read fits: the encoder's calibration on title vectors. */
type FitCutoffs = Pick<ValidityRules, 'explainedMinFit' | 'fitMargin' | 'anchorMargin'>;

/** The item files `items check` reads from a folder, in this order. */
export const CHECKED_ITEM_FILES = [
  INTENTIONQA_FILES.task1,
  INTENTIONQA_FILES.task2,
  'released_task1.jsonl',
  'released_task2.jsonl',
] as const;

export { CHECK_FILES };

export interface CheckItemsOptions {
  /** An IntentionQA items file, or a folder holding CHECKED_ITEM_FILES (at least one). */
  items: string;
  /** The assertions the items were made from (assertions.jsonl): what the pair-asserted and generic rules consult. */
  assertions: string;
  /** Products (id, title): their titles' head phrases make the concept groups of the generic rule. */
  products?: string;
  /** Output folder: check.json, flagged.jsonl, and with dropFlagged items/. Nothing is written without it. */
  out?: string;
  /** Also write the items no rule flags (and none malformed), lines as read, and the others with reasons. */
  dropFlagged?: boolean;
  /** The generic rule's cut-off: concept groups an intention's pairs must span (the pipeline's default 3). */
  genericMinGroups?: number;
  /**
   * The encoder of the run that made the items (glove-100d for `pipeline --product-vectors` of a
   * glove-100d catalog index): it encodes the intention texts and, with products, the titles, so
   * that second-answer compares vectors, the rules that read fits apply, and the kinds come from
   * title clusters, with the encoder's calibration on title vectors, as the pipeline does.
   * Absent: second-answer compares equal texts only and the fit rules hold for nothing.
   */
  encoder?: SentenceEncoder;
}

/** One flagged option (or the gold, for generic-gold). */
export interface FlaggedOption {
  file: string;
  line: number;
  id: string;
  task: 1 | 2;
  rule: CheckRule;
  letter: string;
  /** The option's text as the file holds it. */
  text: string;
}

export interface RuleSummary {
  rule: CheckRule;
  /** Items with at least one option flagged by this rule. */
  items: number;
  /** The texts behind it, most items first (then text): an intention (Task 1, generic-gold) or a product title (Task 2). */
  texts: Array<{ text: string; items: number }>;
}

export interface CheckedFile {
  file: string;
  task: 1 | 2 | null;
  items: number;
  malformed: number;
  /** Items that some rule flags (malformed ones included). */
  flagged: number;
  rules: RuleSummary[];
}

export interface CheckItemsSummary {
  assertions: number;
  products: number | null;
  genericMinGroups: number;
  /** The generic intentions of the assertions, with their evidence. */
  generic: Array<{ text: string; groups: number; pairs: number }>;
  /** How the second-answer rule compared intentions. */
  secondAnswer: 'equal normalised texts (no intention vectors)' | `intention vectors by ${string}`;
  files: CheckedFile[];
  /** The other .jsonl files of an items folder, not read, with why. */
  skipped: Array<{ file: string; reason: string }>;
}

export interface CheckItemsResult {
  summary: CheckItemsSummary;
  flagged: FlaggedOption[];
  /** With dropFlagged: items kept per file name, and items dropped. */
  kept?: Record<string, number>;
  dropped?: number;
  written: string[];
}

/**
 * The item files of `items`: a folder's (at least one), or the file itself; and the folder's other
 * .jsonl files, which it does not read (a folder holds dropped assertions, inputs, other layouts of
 * the same items), each with why, so that none is passed over silently.
 */
export function checkedItemFiles(items: string): { files: string[]; skipped: Array<{ file: string; reason: string }> } {
  if (!statSync(items, { throwIfNoEntry: false })?.isDirectory()) return { files: [items], skipped: [] };
  const files = CHECKED_ITEM_FILES.map((f) => join(items, f)).filter((f) => existsSync(f));
  if (files.length === 0)
    throw new UserError(
      `${items}: no IntentionQA item files to check (expected one of ${CHECKED_ITEM_FILES.join(', ')}); a file of another name is checked when named itself`,
    );
  const read = new Set<string>(CHECKED_ITEM_FILES);
  const skipped = readdirSync(items)
    .filter((f) => f.endsWith('.jsonl') && !read.has(f))
    .sort()
    .map((f) => ({
      file: join(items, f),
      reason: `not one of the names read from a folder (${CHECKED_ITEM_FILES.join(', ')})`,
    }));
  return { files, skipped };
}

/**
 * The paths `items check` reads and writes (core/check-paths.ts): an output folder that is, holds or
 * lies in the items (issue 45: `--items pv/items --out pv --drop-flagged` replaced the pipeline's
 * own items) is refused before anything is read.
 */
export function checkItemsPaths(o: Pick<CheckItemsOptions, 'items' | 'assertions' | 'products' | 'out'>): PathChecks {
  const folder = statSync(o.items, { throwIfNoEntry: false })?.isDirectory() === true;
  return {
    inputFiles: { assertions: o.assertions, products: o.products, ...(folder ? {} : { items: o.items }) },
    inputDirs: folder ? { items: o.items } : {},
    outputDirs: { out: o.out },
  };
}

export async function checkItems(o: CheckItemsOptions): Promise<CheckItemsResult> {
  if (o.dropFlagged && o.out === undefined)
    throw new ConfigError('dropFlagged', 'needs out (the folder the kept items go to)');
  checkPaths(checkItemsPaths(o));
  const { files, skipped } = checkedItemFiles(o.items);
  const assertions: Assertion[] = [];
  for await (const a of readAssertions(o.assertions)) assertions.push(a);
  const products: Product[] = [];
  if (o.products) for await (const p of readProducts(o.products)) products.push(p);
  const phrases = await titleHeadPhrases(products);
  const titleOf = new Map(products.map((p) => [p.id, p.title]));
  const genericMinGroups = o.genericMinGroups ?? DEFAULT_GENERIC_MIN_GROUPS;
  const calibration = o.encoder ? calibrationFor(o.encoder.name, 'title') : undefined;
  const cut: FitCutoffs = calibration ?? {
    explainedMinFit: DEFAULT_EXPLAINED_MIN_FIT,
    fitMargin: DEFAULT_FIT_MARGIN,
    anchorMargin: DEFAULT_ANCHOR_MARGIN,
  };
  const intentions = o.encoder ? await intentionRows(o.encoder, assertions, true) : undefined;
  const titles =
    o.encoder && products.length > 0
      ? await titleRows(o.encoder, new Map(products.map((p) => [p.id, p.title])), true)
      : undefined;
  const index = new ValidityIndex(
    assertions,
    phrases,
    genericMinGroups,
    intentions,
    calibration?.secondAnswerCosine ?? 1,
    undefined,
    undefined,
    undefined,
    {
      vacuousWordGroups: DEFAULT_VACUOUS_WORD_GROUPS,
      kindWords: titles !== undefined,
      ...(titles ? { kindLabels: titleKinds(titles) } : {}),
      ...(intentions && titles ? { fitVectors: { intentions, titles } } : {}),
      ...(products.length > 0 ? { titleOf: (id: string) => titleOf.get(id) } : {}),
    },
  );
  const pairOf = new Map(assertions.map((a) => [a.id, { a: a.itemA, b: a.itemB }]));

  const run = async (): Promise<CheckItemsResult> => {
    const flagged: FlaggedOption[] = [];
    const checked: CheckedFile[] = [];
    const perFile: Array<{ file: string; lines: IntentionQaItemLine[]; flaggedKeys: Map<number, CheckRule[]> }> = [];
    const dropped: DroppedAssertion[] = [];
    for (const file of files) {
      const read = await readIntentionQaItems(file, { keepMalformed: true });
      const malformedLines = new Set(read.malformed.map((m) => m.line));
      const byRule = new Map<CheckRule, Map<number, Set<string>>>(CHECK_RULES.map((r) => [r, new Map()]));
      const flaggedKeys = new Map<number, CheckRule[]>();
      for (const item of read.items) {
        const found = flagsOf(index, item, cut, pairOf);
        for (const f of found) {
          flagged.push({ file, line: item.line, id: item.question.id, task: item.question.task, ...f });
          const texts = byRule.get(f.rule)!;
          if (!texts.has(item.line)) texts.set(item.line, new Set());
          texts.get(item.line)!.add(f.text);
        }
        const rules = [...new Set(found.map((f) => f.rule))];
        if (rules.length > 0) flaggedKeys.set(item.line, rules);
        if (rules.length > 0 || malformedLines.has(item.line))
          dropped.push({
            id: item.question.id,
            task: item.question.task,
            reason: rules[0] ?? 'malformed',
            detail: [
              ...found.map((f) => `${f.rule}: ${f.letter}. ${f.text}`),
              ...read.malformed.filter((m) => m.line === item.line).map((m) => `malformed: ${m.reason}`),
            ].join('; '),
          });
      }
      const tasks = new Set(read.items.map((i) => i.question.task));
      checked.push({
        file,
        task: tasks.size === 1 ? [...tasks][0]! : null,
        items: read.items.length,
        malformed: read.malformed.length,
        flagged: new Set([...flaggedKeys.keys(), ...malformedLines]).size,
        rules: CHECK_RULES.map((rule) => ruleSummary(rule, byRule.get(rule)!, rule === 'generic-gold' || tasks.has(1))),
      });
      perFile.push({ file, lines: read.items.filter((i) => !malformedLines.has(i.line)), flaggedKeys });
    }
    const summary: CheckItemsSummary = {
      assertions: assertions.length,
      products: o.products ? products.length : null,
      genericMinGroups,
      generic: [...index.generic.values()].map((g) => ({ text: g.text, groups: g.groups, pairs: g.pairs })),
      secondAnswer: o.encoder
        ? `intention vectors by ${o.encoder.name}`
        : 'equal normalised texts (no intention vectors)',
      files: checked,
      skipped,
    };
    const result: CheckItemsResult = { summary, flagged, written: [] };
    if (o.out === undefined) return result;
    const write = async (name: string, text: string) => {
      const path = join(o.out!, name);
      await writeFileAtomic(path, text);
      result.written.push(path);
    };
    if (o.dropFlagged) {
      result.kept = {};
      for (const { file, lines, flaggedKeys } of perFile) {
        const kept = lines.filter((l) => !flaggedKeys.has(l.line));
        result.kept[basename(file)] = kept.length;
        await write(join(CHECK_FILES.keptDir, basename(file)), kept.map((l) => l.text + '\n').join(''));
      }
      result.dropped = dropped.length;
      await write(
        join(CHECK_FILES.keptDir, INTENTIONQA_FILES.dropped),
        dropped.map((d) => JSON.stringify(d) + '\n').join(''),
      );
    }
    await write(CHECK_FILES.flagged, flagged.map((f) => JSON.stringify(f) + '\n').join(''));
    await write(CHECK_FILES.summary, JSON.stringify(summary, null, 2) + '\n');
    return result;
  };
  if (o.out === undefined) return run();
  const completionFiles = [CHECK_FILES.summary, CHECK_FILES.flagged].map((f) => join(o.out!, f));
  const out = o.out;
  return withClaimedOutput(out, 'folder', { completionFiles }, async () => {
    // OUT/items is this command's own: an earlier run's kept items (another file, or a run with
    // --drop-flagged before one without) must not stand beside this run's (issue 45, fault 11).
    rmSync(join(out, CHECK_FILES.keptDir), { recursive: true, force: true });
    return run();
  });
}

/** The rules counted on their own: each is a condition no other rule implies. */
const ON_THEIR_OWN: ReadonlyArray<[ValidityFilter, ValidityRules]> = [
  ['pair-asserted', { ...NO_RULES, excludePairAsserted: true }],
  ['generic', { ...NO_RULES, excludeGeneric: true }],
  ['group-generic', { ...NO_RULES, excludeGroupGeneric: true }],
  ['substitute', { ...NO_RULES, excludeSubstitutes: true }],
  ['vacuous', { ...NO_RULES, excludeVacuous: true }],
  ['fits-as-well', { ...NO_RULES, excludeFitsAsWell: true }],
  ['kind-words', { ...NO_RULES, excludeKindWords: true }],
  ['unanchored', { ...NO_RULES, excludeUnanchored: true }],
  ['title-words', { ...NO_RULES, excludeTitleWords: true }],
];

/**
 * The rules a refusal predicate applies to an option: pair-asserted, generic, group-generic and
 * substitute each on its own (an option can be several); second-answer and kind-asserted only where
 * they are the first rule to refuse it, in the pipeline's order (each includes the pair's own
 * intentions, so alone they would repeat pair-asserted).
 */
function rulesOf(refusal: (rules: ValidityRules) => ValidityFilter | undefined, cut: FitCutoffs): ValidityFilter[] {
  const out: ValidityFilter[] = [];
  for (const [rule, only] of ON_THEIR_OWN) if (refusal({ ...only, ...cut }) === rule) out.push(rule);
  const first = refusal({ ...ALL_RULES, ...cut });
  if (first === 'second-answer' || first === 'kind-asserted') out.push(first);
  return out.sort((x, y) => VALIDITY_FILTERS.indexOf(x) - VALIDITY_FILTERS.indexOf(y));
}

/** The options of one item that a rule flags. */
function flagsOf(
  index: ValidityIndex,
  item: IntentionQaItemLine,
  cut: FitCutoffs,
  /** The products of an input assertion by its id (a Task-1 distractor's own pair). */
  pairOf: ReadonlyMap<string, { a: string; b: string }>,
): Array<{ rule: CheckRule; letter: string; text: string }> {
  const all = { ...ALL_RULES, ...cut };
  const q = item.question;
  const json = JSON.parse(item.text) as Record<string, unknown>;
  const out: Array<{ rule: CheckRule; letter: string; text: string }> = [];
  const distractors = Object.entries(q.options).filter(([letter]) => letter !== q.gold);
  const itemA = typeof json.item_a_id === 'string' ? json.item_a_id : '';
  const itemB = typeof json.item_b_id === 'string' ? json.item_b_id : '';
  const flag = (rule: CheckRule | undefined, letter: string, text: string) => {
    if (rule !== undefined) out.push({ rule, letter, text });
  };
  if (q.task === 1) {
    const goldKey = index.intentionId(q.options[q.gold]!);
    const pair = index.task1Pair(index.productIndex(itemA), index.productIndex(itemB), goldKey);
    // A distractor's own pair: its assertion, by the id listed beside its text.
    const ids = Array.isArray(json.distractors_id) ? json.distractors_id : [];
    const texts = Array.isArray(json.distractors_asserstion) ? json.distractors_asserstion : [];
    const ownOf = new Map<unknown, { a: number; b: number }>();
    texts.forEach((t, k) => {
      const own = pairOf.get(String(ids[k]));
      if (own) ownOf.set(t, { a: index.productIndex(own.a), b: index.productIndex(own.b) });
    });
    for (const [letter, text] of distractors) {
      const key = index.intentionId(text);
      const own = ownOf.get(text);
      for (const rule of rulesOf((rules) => index.task1Refusal(key, pair, rules, own), cut)) flag(rule, letter, text);
    }
    flag(index.goldRefusal(goldKey, pair.a, pair.b, all), q.gold, q.options[q.gold]!);
    return out;
  }
  const assertion = typeof json.assertion === 'string' ? json.assertion : '';
  const intention = extractIntention(assertion);
  const goldKey = intention === undefined ? -1 : index.intentionId(intention);
  const given = index.productIndex(itemA);
  const gold = index.productIndex(itemB);
  const ids = Array.isArray(json.distractors_id) ? json.distractors_id : [];
  const titles = Array.isArray(json.distractors_product) ? json.distractors_product : [];
  const idOfTitle = new Map<unknown, unknown>(titles.map((t, k) => [t, ids[k]]));
  const pair = index.task2Pair(goldKey, given, gold);
  for (const [letter, text] of distractors) {
    const id = idOfTitle.get(text);
    if (typeof id !== 'string') continue;
    const candidate = index.productIndex(id);
    for (const rule of rulesOf((rules) => index.task2Refusal(pair, candidate, rules), cut)) flag(rule, letter, text);
  }
  flag(index.goldRefusal(goldKey, given, gold, all), q.gold, intention ?? '');
  return out;
}

/** Items per text; intentions (`byIntention`) counted by intentionKey, shown by the first text seen. */
function ruleSummary(
  rule: CheckRule,
  texts: ReadonlyMap<number, ReadonlySet<string>>,
  byIntention: boolean,
): RuleSummary {
  const count = new Map<string, { text: string; items: Set<number> }>();
  for (const [line, set] of texts)
    for (const text of set) {
      const key = byIntention ? intentionKey(text) : text;
      if (!count.has(key)) count.set(key, { text, items: new Set() });
      count.get(key)!.items.add(line);
    }
  return {
    rule,
    items: texts.size,
    texts: [...count.values()]
      .map(({ text, items }) => ({ text, items: items.size }))
      .sort((a, b) => b.items - a.items || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0)),
  };
}
