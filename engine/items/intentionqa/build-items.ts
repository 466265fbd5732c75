// IntentionQA item assembly: relation and typicality filters → per assertion, Task 1 and Task 2
// distractors from their cosine windows → gold placed (seeded, balanced) → options A–D and prompts.
//
// Streaming and deterministic: records come out in input order (for each assertion: its Task-1
// record, then its Task-2 record), each assertion's draws use their own generator
// Rng.derive(seed, "task<t>/<assertion id>"), and gold positions depend only on the seed and the
// item's rank within its task. Same inputs + seed → the same records, byte for byte once serialised.
//
// Invariants of every emitted item (checked here, not just hoped for): exactly four options with
// pairwise distinct normalised texts, exactly one of them the gold. An assertion that cannot get
// three valid distractors is emitted as a `dropped` record with the reason instead.
import { setImmediate as eventLoopTurn } from 'node:timers/promises';
import { Rng } from '../../../core/rng.js';
import { createProgress } from '../../../core/progress.js';
import { formatWindow } from '../../search/windows.js';
import { IntentionQaContext, task1Window, task2Window, type IntentionQaInput } from './run-context.js';
import { resolveOptions, wordAndFitRules, type IntentionQaOptions } from './intentionqa-options.js';
import { difficultyOf, formatDifficultyCuts } from './difficulty.js';
import type { AssertionDraft, Draft } from './draft.js';
export type { AssertionDraft } from './draft.js';
import { BalancedPositions } from '../balanced-positions.js';
import type { IntentionQaRecord, Task1Item, Task2Item } from './item-types.js';
import type { Assertion } from './assertions.js';
import { normalizeOptionText } from '../option-text.js';
import { LETTERS, task1Prompts, task2Prompts, type Letter } from './intentionqa-prompts.js';
import type { ReportSettings } from './intentionqa-report.js';
import { similarityDistribution, type SimilarityDistribution } from './similarity-distribution.js';
import { draftTask1 } from './task1.js';
import { draftTask2 } from './task2.js';
import type { GoldRefusal, ValiditySettings } from './validity-filters.js';
import { DRAFT_BLOCK, draftTask, pivotBlockTasks, recordsInPivotBlocks } from './pivot-blocks.js';

/** Places the gold among the distractors and checks the item invariants. */
export function placeOptions(
  gold: string,
  distractors: readonly string[],
  goldIndex: number,
): { options: Record<Letter, string>; gold_ind: Letter } {
  if (distractors.length !== 3) throw new Error(`internal: an item needs 3 distractors, got ${distractors.length}`);
  const texts = distractors.slice();
  texts.splice(goldIndex, 0, gold);
  const norm = new Set(texts.map(normalizeOptionText));
  if (norm.size !== 4)
    throw new Error(`internal: options are not distinct after normalisation: ${JSON.stringify(texts)}`);
  const options = {} as Record<Letter, string>;
  LETTERS.forEach((l, k) => (options[l] = texts[k]!));
  return { options, gold_ind: LETTERS[goldIndex]! };
}

/** Why an assertion's own intention makes no item, in words, with the numbers the rule read. */
function goldRefusalDetail(
  ctx: IntentionQaContext,
  i: number,
  refusal: GoldRefusal,
  options: IntentionQaOptions,
): string {
  const v = ctx.validity!;
  const key = ctx.intentionIds[i]!;
  if (refusal === 'generic-gold') {
    const g = v.genericOfId(key);
    return `its intention is generic: asserted for ${g.pairs} pairs in ${g.groups} unrelated concept groups (cut-off ${options.genericMinGroups})`;
  }
  if (refusal === 'vacuous-gold')
    return `its intention is vacuous: every word of it is used for pairs in ≥ ${options.vacuousWordGroups} unrelated concept groups`;
  const fit = v.fit!.pairFit(key, ctx.rowA[i]!, ctx.rowB[i]!);
  return `its intention explains nothing of the pair: fit to the two titles ${fit.toFixed(3)} < ${options.explainedMinFit}`;
}

/** A prepared run: options resolved, vectors normalised, range search chosen (index built if needed). */
export class IntentionQaRun {
  private constructor(
    readonly input: IntentionQaInput,
    readonly options: IntentionQaOptions,
    readonly context: IntentionQaContext,
  ) {}

  static async prepare(input: IntentionQaInput): Promise<IntentionQaRun> {
    const options = resolveOptions(input.options);
    return new IntentionQaRun(input, options, await IntentionQaContext.create(input, options));
  }

  private distribution: SimilarityDistribution | undefined;

  /** Where this run's cosines fall (sampled, seeded): the report's "similarity distribution" section. */
  similarityDistribution(): SimilarityDistribution {
    const o = this.options;
    this.distribution ??= similarityDistribution(
      this.context,
      { task1: task1Window(o), task2: task2Window(o), difficulty: o.difficulty },
      o.seed,
    );
    return this.distribution;
  }

  /**
   * What the report and the manifest record about this run; `extras` adds the caveat printed at the
   * top and the encoder the report names in its similarity section.
   */
  settings(extras: Pick<ReportSettings, 'caveat' | 'encoder'> = {}): ReportSettings {
    const o = this.options;
    const caveat = extras.caveat;
    const validity = this.validitySettings();
    return {
      seed: String(o.seed),
      preset: o.preset,
      sampling: o.sampling,
      anchor: o.anchor,
      task1Window: formatWindow(task1Window(o)),
      task2Window: formatWindow(task2Window(o)),
      difficulty: formatDifficultyCuts(o.difficulty),
      typicalityThreshold: o.typicalityThreshold,
      typicalityComparison: o.typicalityComparison,
      excludeRelations: [...o.excludeRelations],
      relationScope: o.relationScope,
      task2Universe: o.task2Universe,
      requireOverlap: o.requireOverlap,
      search: this.context.search.description,
      productsWithoutVector: this.productsWithoutVector(),
      // Only when a filter is on, so that `--preset released` writes the files it wrote before.
      ...(validity ? { validity } : {}),
      ...(caveat ? { caveat } : {}),
      ...(extras.encoder ? { encoder: extras.encoder } : {}),
      similarity: {
        distribution: this.similarityDistribution(),
        bounds: { task1: o.task1Window, task2: o.task2Window, difficulty: o.difficulty },
      },
    };
  }

  /** The validity filters' settings and what the generic one catches (undefined when every rule is off). */
  validitySettings(): ValiditySettings | undefined {
    const o = this.options;
    const v = this.context.validity;
    if (!v) return undefined;
    return {
      excludePairAsserted: o.excludePairAsserted,
      excludeGeneric: o.excludeGeneric,
      excludeSecondAnswers: o.excludeSecondAnswers,
      genericMinGroups: o.genericMinGroups,
      secondAnswerCosine: o.secondAnswerCosine,
      intentionTexts: v.keys,
      intentionVectors: v.vectors ? v.vectors.validRows.length : null,
      genericIntentions: o.excludeGeneric ? [...v.generic.values()] : [],
      excludeKindAsserted: o.excludeKindAsserted,
      excludeGroupGeneric: o.excludeGroupGeneric,
      groupGenericShare: o.groupGenericShare,
      excludeSubstitutes: o.excludeSubstitutes,
      substituteCosine: o.substituteCosine,
      sharedPhrases: v.sharedPhrases(),
      groupGenericIntentions: o.excludeGroupGeneric ? v.data.groupGeneric : [],
      ...wordAndFitRules(o),
      fitVectors: v.fit ? v.fit.vectors.titles.validRows.length : null,
      kindsFrom: this.input.kindLabels ? 'title clusters' : 'category phrases',
      genericWords: v.data.genericWords.slice(0, 40),
    };
  }

  /**
   * Products of the products file with no usable context vector: absent from the embeddings (never
   * embedded) or a zero row. The same test as the drops `product-without-vector` (hasVector of the
   * product's row), so that the report's count and the dropped file agree.
   */
  productsWithoutVector(): number {
    const ctx = this.context;
    let count = 0;
    for (const id of this.input.products.keys()) if (!ctx.hasVector(ctx.vectors.row(id) ?? -1)) count += 1;
    return count;
  }

  /** Records for the assertions removed by the relation and typicality filters (they come first). */
  *filterDrops(): Generator<IntentionQaRecord> {
    for (const { assertion: a, drop } of this.context.filtered) {
      yield { kind: 'dropped', dropped: { id: a.id, task: null, ...drop }, relation: a.relation };
    }
  }

  /** Number of assertions that passed the filters (valid indices for draftAssertion). */
  get size(): number {
    return this.context.assertions.length;
  }

  /**
   * The distractor draws of assertion i for each task. A pure function of (inputs, seed, i): it does
   * not depend on which assertions were drafted before, so drafting can be sharded across workers
   * and the results finished in index order give the same items as one thread.
   */
  draftAssertion(i: number): AssertionDraft {
    const { input, options, context: ctx } = this;
    const a = ctx.assertions[i]!;
    const missingTitle = [a.itemA, a.itemB].filter((id) => !input.products.has(id));
    if (missingTitle.length > 0) {
      return {
        index: i,
        dropped: {
          id: a.id,
          task: null,
          reason: 'product-not-in-catalogue',
          detail: `no title for ${missingTitle.join(', ')}`,
        },
        tasks: [],
      };
    }
    const missingVector = [a.itemA, a.itemB].filter((_, k) => !ctx.hasVector(k === 0 ? ctx.rowA[i]! : ctx.rowB[i]!));
    if (missingVector.length > 0) {
      const detail = `no context vector for ${missingVector.join(', ')} (no similarity, so no window and no difficulty)`;
      return { index: i, dropped: { id: a.id, task: null, reason: 'product-without-vector', detail }, tasks: [] };
    }
    const refusal = ctx.validity?.goldRefusal(ctx.intentionIds[i]!, ctx.rowA[i]!, ctx.rowB[i]!, options);
    if (refusal !== undefined) {
      const detail = goldRefusalDetail(ctx, i, refusal, options);
      return { index: i, dropped: { id: a.id, task: null, reason: refusal, detail }, tasks: [] };
    }
    // Task 2 is drawn first: when its window around the anchor is enumerated, Task 1 (whose pivot is
    // the same product) reuses that range query. Records still come out Task 1 first.
    const out: AssertionDraft = { index: i, tasks: [] };
    let pivotKnown = false;
    if (options.tasks.includes(2)) {
      const label = `task2/${a.id}`;
      const result = draftTask2(ctx, i, options, Rng.derive(options.seed, label), label);
      pivotKnown = result.enumerated;
      out.tasks.push({ task: 2, result });
    }
    if (options.tasks.includes(1)) {
      const label = `task1/${a.id}`;
      out.tasks.unshift({
        task: 1,
        result: draftTask1(ctx, i, options, Rng.derive(options.seed, label), label, pivotKnown),
      });
    }
    return out;
  }

  /** Turns drafts, given in index order, into records (gold placement is sequential per task). */
  finisher(): (draft: AssertionDraft) => IntentionQaRecord[] {
    const { input, options, context: ctx } = this;
    const placers = {
      1: BalancedPositions.perBlock(options.seed, 'task1'),
      2: BalancedPositions.perBlock(options.seed, 'task2'),
    };
    let expected = 0;
    return (d) => {
      if (d.index !== expected) throw new Error(`internal: drafts out of order (got ${d.index}, expected ${expected})`);
      expected += 1;
      const a = ctx.assertions[d.index]!;
      if (d.dropped) return [{ kind: 'dropped', dropped: d.dropped, relation: a.relation }];
      const pairSimilarity = ctx.vectors.cosine(ctx.rowA[d.index]!, ctx.rowB[d.index]!);
      const difficulty = difficultyOf(pairSimilarity, options.difficulty);
      const nameA = input.products.get(a.itemA)!;
      const nameB = input.products.get(a.itemB)!;
      const out: IntentionQaRecord[] = [];
      for (const { task, result } of d.tasks) {
        if (!result.ok) {
          out.push({ kind: 'dropped', dropped: result.dropped, relation: a.relation });
          continue;
        }
        const draft = result.draft;
        const placed = placeOptions(
          task === 1 ? a.intention : nameB,
          draft.distractors.map((x) => x.text),
          placers[task].next(),
        );
        out.push({
          kind: 'item',
          item:
            task === 1
              ? task1Item(a, nameA, nameB, draft, placed.options, placed.gold_ind, difficulty, pairSimilarity)
              : task2Item(a, nameA, nameB, draft, placed.options, placed.gold_ind, difficulty, pairSimilarity),
        });
      }
      return out;
    };
  }

  /** All records in one thread: filter drops, then per assertion its Task-1 and Task-2 records. */
  async *records(): AsyncGenerator<IntentionQaRecord> {
    const progress = createProgress({
      label: 'intentionqa items',
      total: this.size,
      unit: 'assertions',
      enabled: this.options.progress,
    });
    try {
      const blocks = this.context.rangeBlocks;
      if (blocks) {
        const tasks = pivotBlockTasks(this, blocks, DRAFT_BLOCK);
        yield* recordsInPivotBlocks(this, tasks, (task) => draftTask(this, task), 1, progress);
        return;
      }
      yield* this.filterDrops();
      const finish = this.finisher();
      for (let i = 0; i < this.size; i++) {
        yield* finish(this.draftAssertion(i));
        progress.increment();
        if (i % DRAFT_BLOCK === DRAFT_BLOCK - 1) await eventLoopTurn(); // for Ctrl-C, as draftTask does
      }
    } finally {
      progress.stop();
    }
  }
}

/** Convenience: prepare and stream the records. */
export async function* buildIntentionQaItems(input: IntentionQaInput): AsyncGenerator<IntentionQaRecord> {
  const run = await IntentionQaRun.prepare(input);
  yield* run.records();
}

function task1Item(
  a: Assertion,
  nameA: string,
  nameB: string,
  draft: Draft,
  options: Record<Letter, string>,
  gold_ind: Letter,
  difficulty: Task1Item['difficulty'],
  pairSimilarity: number,
): Task1Item {
  // Key order: the released file's keys first, in its order; then this engine's additions.
  return {
    id: a.id,
    item_a_id: a.itemA,
    item_b_id: a.itemB,
    item_a_name: nameA,
    item_b_name: nameB,
    relation: a.relation,
    assertion: a.assertion,
    distractors_id: draft.distractors.map((d) => d.id),
    distractors_score: draft.distractors.map((d) => d.score),
    distractors_overlap: draft.distractors.map((d) => d.overlap),
    distractors_asserstion: draft.distractors.map((d) => d.text),
    typicality: a.typicality,
    gold_ind,
    options,
    hadFalseNegative: draft.hadFalseNegative ? 1 : 0,
    task: 1,
    task_name: 'IntentUnderstand',
    difficulty,
    pair_similarity: pairSimilarity,
    prompts: task1Prompts(nameA, nameB, options),
    distractors: draft.distractors,
    selection: draft.selection,
    ...(draft.goldFit === undefined ? {} : { gold_fit: draft.goldFit }),
  };
}

function task2Item(
  a: Assertion,
  nameA: string,
  nameB: string,
  draft: Draft,
  options: Record<Letter, string>,
  gold_ind: Letter,
  difficulty: Task2Item['difficulty'],
  pairSimilarity: number,
): Task2Item {
  return {
    id: a.id,
    item_a_id: a.itemA,
    item_b_id: a.itemB,
    item_a_name: nameA,
    item_b_name: nameB,
    relation: a.relation,
    assertion: a.assertion,
    distractors_id: draft.distractors.map((d) => d.id),
    distractors_score: draft.distractors.map((d) => d.score),
    distractors_product: draft.distractors.map((d) => d.text),
    typicality: a.typicality,
    gold_ind,
    options,
    hadFalseNegative: draft.hadFalseNegative ? 1 : 0,
    task: 2,
    task_name: 'IntentUtilize',
    difficulty,
    pair_similarity: pairSimilarity,
    prompts: task2Prompts(nameA, a.intention, options),
    distractors: draft.distractors,
    selection: draft.selection,
    ...(draft.goldFit === undefined ? {} : { gold_fit: draft.goldFit }),
  };
}
