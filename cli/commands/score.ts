// `score shoppingbench`: ShoppingBench relevance scores (CAR, ASR per intent) of an agent's run.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { join } from 'node:path';
import { UserError, type OnError } from '../../core/errors.js';
import { claimOutput } from '../../core/output-claim.js';
import type { AnswerFiles } from '../../engine/scoring/answer-sheets.js';
import { INTENTIONQA_STYLES, SIB_STYLES } from '../../engine/scoring/answer-styles.js';
import { SCORE_FILES } from '../../engine/scoring/score-file-names.js';
import { addQueueOptions, queueOptions } from '../options/queue-options.js';
import { addModelOptions, encoderExecution, encoderSpec, modelPaths } from '../options/model-options.js';
import { declarePaths, listPaths, mergePaths } from '../declared-paths.js';
import { addOutDirOption } from '../options/output-options.js';
import { addSeedOption } from '../options/seed-option.js';
import { seed } from '../options/value-parsers.js';
import { underscoreChoice } from '../options/deprecated-spellings.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';
import { unparseableWarning, UNPARSEABLE_WARNING_SHARE } from '../../engine/scoring/unparseable-share.js';

/** The warning on stderr when many answers could not be read (engine/scoring/unparseable-share.ts). */
function warnWhenUnparseable(warning: string | undefined): void {
  if (warning !== undefined) process.stderr.write(`warning: ${warning}\n`);
}

/** Titles per model call by default: the batch size the title-embedding benchmark measured
 * (docs/catalog.md); the other model commands default to 64. */
const SCORE_BATCH_SIZE = 256;

const OUTPUTS_HELP = `Outputs (--out DIR, each file atomic): ${SCORE_FILES.scores} (one line per
question: parsed answer, gold, correct, status), ${SCORE_FILES.summary}, ${SCORE_FILES.markdown}
(the paper's table, then the counts) and ${SCORE_FILES.chart}; rejects.jsonl with
--on-error skip. The table is printed.

Responses: JSONL {"id": "…", "response": "B"} as the released askLM scripts
and \`intentsim ask\` write them (cot_sc: "response" is a list of strings);
other fields are allowed. A response "Error", or with "completion_tokens": -1,
is a failed request: excluded and counted. An answer that is not one of the
question's letters is unparseable: counted, and scored as wrong (from
${UNPARSEABLE_WARNING_SHARE * 100} % of the answers on, a warning names the format --style expects). A question
without a response line is counted as missing; an IntentionQA item that is
malformed (not four options with distinct texts: ask sets it apart) as
"malformed, not asked", with its reason. RANDOM picks one of a
question's letters uniformly: its expected score, and one draw seeded by
--seed. MAJORITY always gives the most frequent gold answer.`;

/** The options of `score intentionqa` and `score sib` besides their questions files. */
function addAnswerScoringOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
  const Style extends string,
>(cmd: Command<Args, Opts, Globals>, styles: readonly Style[], questionsFlag: string) {
  const withOptions = cmd
    .requiredOption('--responses <files...>', `one responses file per ${questionsFlag} file, in the same order`)
    .addOption(
      new Option('--style <style>', 'how the responses are parsed')
        .choices(styles)
        .argParser(underscoreChoice('--style', styles))
        .default('zero_shot'),
    )
    .option('--label <name>', "the answerer, as the tables name it (default: the responses' model or solver)");
  return addBadInputOptions(addSeedOption(addOutDirOption(withOptions), seed), 'OUT/rejects.jsonl');
}

/** The library's scoring options from the shared flags. */
function scoringOptions<Style>(o: {
  style: Style;
  out: string;
  seed: number | string;
  onError: OnError;
  maxLineBytes: number;
  maxTextLength: number;
  label?: string;
}) {
  return { style: o.style, out: o.out, seed: o.seed, onError: o.onError, limits: inputLimits(o), label: o.label };
}

/** The `written:` line every command ends with: the files of --out, rejects.jsonl when lines were rejected. */
function writtenLine(out: string, files: readonly string[], rejected: number): string {
  const written = [...files, ...(rejected > 0 ? ['rejects.jsonl'] : [])].map((f) => join(out, f));
  return `written: ${written.join(', ')}\n`;
}

/** Questions files and responses files, pairwise, as --items/--tasks and --responses give them. */
function answerFiles(questions: readonly string[], responses: readonly string[], flag: string): AnswerFiles[] {
  if (questions.length !== responses.length)
    throw new UserError(
      `${flag} and --responses go in pairs (one responses file per ${flag} file): got ${questions.length} and ${responses.length}`,
    );
  return questions.map((items, i) => ({ items, responses: responses[i]! }));
}

export function registerScoreCommands(program: Command): void {
  const score = program
    .command('score')
    .description("score models' answers and agents' outputs against benchmark answers and targets");
  registerScoreIntentionQa(score);
  registerScoreSib(score);
  const command = score
    .command('shoppingbench')
    .summary('ShoppingBench relevance: r_pro, r_kw, r_shop, r_budget; CAR and ASR per intent')
    .description(
      `Scores an agent's recommended products against ShoppingBench targets.

Per recommended product, against its target:
  r_pro = (1[title_sim ≥ 0.5] + 1[min ≤ price ≤ max] + |F_t ∩ F_p|) / (2 + |F_t|)
  (F_t: the target's service, sku_options and attributes; matched in the best
  SKU or the attributes; a product whose id is the target's scores 1);
  r_kw = 1 if the knowledge text occurs in the title; r_shop = 1 if as many
  products as targets, all from one shop; r_budget = 1 if the total, before or
  after an applicable voucher, is ≤ budget.
CAR = mean over queries of the mean r_pro; ASR = share of queries whose
products all have r_pro = 1 (plus r_kw / r_shop / r_budget for knowledge /
shop / voucher queries). title_sim is the cosine of Sentence-BERT embeddings;
each distinct title is embedded once, in calls of --batch-size titles
(default 256 here).

Targets (the released evaluator's format), one query per line:
  {"query_id": "q1", "intent": "voucher",          (optional: inferred)
   "reward": {"product_id": "p1", "title": ["…"], "price": [{"less than": [0, 50]}],
              "service": ["COD"], "sku_options": [{"color": "red"}],
              "attributes": [{"material": ["cotton"]}], "knowledge": "IP68"},
   "voucher": {"voucher_type": "shop", "threshold": 100, "discount_type":
              "percentage", "discount": 0.1, "cap": 15, "budget": 180}}
  (reward may be a list, one object per target product; fixed vouchers give
  "face_value"; budget may also sit at the top level)
Predictions, one query per line:
  {"query_id": "q1", "products": [{"product_id": "p9", "title": "…", "price": 19.9,
   "shop_id": "s1", "service": ["COD"],
   "skus": [{"options": {"color": "red"}, "price": 21}],
   "attributes": {"material": ["cotton"]}}]}
Outputs (--out DIR, atomic): scores.jsonl (one line per target query),
summary.json, summary.md (CAR/ASR table and the voucher arithmetic of every
budget query), rejects.jsonl (with --on-error skip). The table is printed.

Similarities from --encoder offline-hashing-v1 or a generated model (random
weights) mean nothing; the summary says so. Those of --encoder glove-100d
(averaged GloVe word vectors) are meaningful but coarser than Sentence-BERT's
and not the evaluator's model; the summary says that too.

Example
  intentsim score shoppingbench --predictions run.jsonl --targets targets.jsonl \\
    --out scores/ --model-dir all-MiniLM-L6-v2/`,
    )
    .requiredOption('--predictions <file>', 'predictions JSONL')
    .requiredOption('--targets <file>', 'targets JSONL')
    .option('--out <dir>', 'output folder (needed by --on-error skip, for rejects.jsonl)');
  const withAll = addQueueOptions(
    addModelOptions(addBadInputOptions(command, 'OUT/rejects.jsonl'), { batchSize: SCORE_BATCH_SIZE }),
  );
  declarePaths(withAll, async (o) =>
    mergePaths((await import('../../engine/scoring/shoppingbench/score-run.js')).scorePaths(o), modelPaths(o)),
  ).action(async (o) => {
    if (o.onError === 'skip' && !o.out) throw new UserError('--on-error skip needs --out (for rejects.jsonl)');
    // The library and model code load when the command runs, not for `--help` (issue 50).
    const { scoreShoppingBench } = await import('../../engine/scoring/shoppingbench/score-run.js');
    const { notMeaningfulBecause, similarityNote } =
      await import('../../engine/scoring/shoppingbench/encoder-meaning.js');
    const { openEncoder } = await import('../../workers/open-encoder.js');
    // --out is claimed (locked, temporary files of killed runs removed, summary.json removed until done).
    const claim = o.out ? claimOutput(o.out, 'folder', { completionFiles: [join(o.out, 'summary.json')] }) : undefined;
    let encoder: Awaited<ReturnType<typeof openEncoder>>;
    try {
      encoder = await openEncoder(encoderSpec(o), encoderExecution(o, { queue: queueOptions(o) }));
    } catch (err) {
      claim?.release();
      throw err;
    }
    try {
      const why = notMeaningfulBecause(encoder);
      if (why) process.stderr.write(`warning: title similarities are NOT meaningful: ${why}\n`);
      const note = similarityNote(encoder);
      if (note) process.stderr.write(`note: title similarities are not Sentence-BERT's: ${note}\n`);
      const result = await scoreShoppingBench({
        predictions: o.predictions,
        targets: o.targets,
        out: o.out,
        encoder,
        notMeaningfulBecause: why,
        similarityNote: note,
        onError: o.onError,
        limits: inputLimits(o),
        batchSize: o.batchSize,
      });
      process.stdout.write(result.markdown.split('\n## ')[0]!);
      if (o.out)
        process.stdout.write(writtenLine(o.out, ['scores.jsonl', 'summary.json', 'summary.md'], result.rejected));
      if (result.unknownPredictionIds.length > 0)
        process.stderr.write(
          `${result.unknownPredictionIds.length} prediction line(s) name queries that are not in the targets (listed in summary.json)\n`,
        );
      if (result.rejected > 0)
        process.stderr.write(`${result.rejected} line(s) rejected (see ${o.out}/rejects.jsonl)\n`);
    } finally {
      await encoder.close();
      claim?.release();
    }
  });
}

function registerScoreIntentionQa(score: Command): void {
  const command = score
    .command('intentionqa')
    .summary('IntentionQA accuracy per task × difficulty and per relation, the released parsers, RANDOM and MAJORITY')
    .description(
      `Scores a model's answers to IntentionQA items as the released
evaluation/computeACC.py does, laid out as the paper's tables.

Parsers (--style): zero_shot: the first character after stripping "." from
both ends, upper-cased; cot: the first non-space character after the first
"STEP 2:" of the upper-cased response; cot_sc: the most common cot answer of
the samples (a tie goes to the one seen first, as Python's Counter does).
Items with fewer than 4 options (released files only) are excluded, as in
computeACC.py. Difficulty comes from the items' "difficulty" (or
"pair_similarity"); released items have none ("unknown").

${OUTPUTS_HELP}

Example
  intentsim score intentionqa --style cot \\
    --items run/items/intentionqa_task1.jsonl run/items/intentionqa_task2.jsonl \\
    --responses answers/task1.cot.jsonl answers/task2.cot.jsonl --out scores/cot`,
    )
    .requiredOption('--items <files...>', 'IntentionQA items files (Task 1, Task 2, or the released files)');
  declarePaths(addAnswerScoringOptions(command, INTENTIONQA_STYLES, '--items'), (o) => ({
    inputFiles: { ...listPaths('items', o.items), ...listPaths('responses', o.responses) },
    outputDirs: { out: o.out },
  })).action(async (o) => {
    // The library code loads when the command runs, not for `--help` (issue 50).
    const { scoreIntentionQa } = await import('../../engine/scoring/intentionqa/score-intentionqa.js');
    const result = await scoreIntentionQa({
      ...scoringOptions(o),
      files: answerFiles(o.items, o.responses, '--items'),
    });
    process.stdout.write(result.markdown);
    process.stdout.write(writtenLine(o.out, Object.values(SCORE_FILES), result.summary.rejected));
    warnWhenUnparseable(
      unparseableWarning(
        'intentionqa',
        o.style,
        result.summary.tasks.map((t) => t.counts),
      ),
    );
  });
}

function registerScoreSib(score: Command): void {
  const command = score
    .command('sib')
    .summary('SessionIntentBench Acc and Macro-F1 per task on binary labels, with RANDOM and MAJORITY')
    .description(
      `Scores a model's answers to SessionIntentBench tasks as the paper does: each
answer letter becomes its binary label (T1–T3: A, B positive, C, D negative;
T4: A positive, B, C negative); each task gets accuracy and Macro-F1 (the mean
of both classes' F1). A metric that is undefined is shown as "–", never 0:
Macro-F1 needs both classes predicted and present (MAJORITY never has one).
Only tasks with a gold label (annotations) are scored; distractor-backed items
(sib-distractors.jsonl) are scored per kind, the next-product choice by
accuracy.

Parsers (--style): zero_shot and five_shot: the first character after
stripping "." from both ends, upper-cased (the prompts ask for the letter
only); cot: the same on the last non-blank line (Table 13 asks for the letter
"in the last line"). The paper released no parser.

${OUTPUTS_HELP}

Example
  intentsim score sib --tasks out/sib/sib-tasks.jsonl --responses sib.jsonl \\
    --style zero_shot --out scores/sib`,
    )
    .requiredOption('--tasks <files...>', 'sib-tasks.jsonl and/or sib-distractors.jsonl');
  declarePaths(addAnswerScoringOptions(command, SIB_STYLES, '--tasks'), (o) => ({
    inputFiles: { ...listPaths('tasks', o.tasks), ...listPaths('responses', o.responses) },
    outputDirs: { out: o.out },
  })).action(async (o) => {
    // The library code loads when the command runs, not for `--help` (issue 50).
    const { scoreSib } = await import('../../engine/scoring/sib/score-sib.js');
    const result = await scoreSib({ ...scoringOptions(o), files: answerFiles(o.tasks, o.responses, '--tasks') });
    process.stdout.write(result.markdown);
    process.stdout.write(writtenLine(o.out, Object.values(SCORE_FILES), result.summary.rejected));
    warnWhenUnparseable(
      unparseableWarning(
        'sib',
        o.style,
        result.summary.groups.map((g) => g.counts),
      ),
    );
  });
}
