// `intentsim score intentionqa`: a model's answers to IntentionQA items, scored as the released
// evaluation/computeACC.py scores them, and laid out as the paper's tables: accuracy per task ×
// difficulty (easy / medium / hard), and per relation; next to RANDOM and MAJORITY.
//
// As in computeACC.py: a response "Error" or with completion_tokens -1 (a request that failed) is
// excluded, and so is an item with fewer than 4 options; every other answered item counts, an
// answer that is not one of its letters as wrong. Unlike it, nothing is dropped silently: items
// without a response line are counted as missing (or, when malformed, as malformed: ask did not
// ask them), unparseable answers as unparseable, and the exclusions by reason. Accuracy is over the
// scored items; RANDOM and MAJORITY are over every item with 4 or more options, whether answered or
// not (they describe the items, not the run).
import { DIFFICULTIES, type Difficulty } from '../../items/intentionqa/difficulty.js';
import type { IntentionQaStyle } from '../answer-styles.js';
import { readAnswer } from '../answer-sheets.js';
import { promptHash } from '../responses.js';
import { expectedRandomAccuracy, majorityLetter, randomLetter } from '../baselines.js';
import { accuracy } from '../classification-metrics.js';
import { readScoringInputs, type ScoreAnswersOptions, type ScoreOutputs } from '../score-files.js';
import {
  MIN_SCORED_OPTIONS,
  parseIntentionQaQuestion,
  type IntentionQaQuestion,
  type IntentionQaTask,
} from './intentionqa-questions.js';
import { intentionQaChart, intentionQaMarkdown } from './intentionqa-score-tables.js';
import { malformedCounts, malformedReason } from './intentionqa-item-file.js';
import type {
  AccuracyCell,
  Column,
  IntentionQaItemScore,
  IntentionQaScoreSummary,
  IntentionQaStatus,
  IntentionQaTaskSummary,
} from './intentionqa-score-types.js';

export type ScoreIntentionQaOptions = ScoreAnswersOptions<IntentionQaStyle>;

export type IntentionQaScoreResult = ScoreOutputs<IntentionQaItemScore, IntentionQaScoreSummary>;

export async function scoreIntentionQa(o: ScoreIntentionQaOptions): Promise<IntentionQaScoreResult> {
  // A response line of `ask` records its prompt's hash: it must be one of its item's prompts.
  const input = await readScoringInputs(o, parseIntentionQaQuestion, (q) => [
    promptHash(q.prompts.zero_shot),
    promptHash(q.prompts.cot),
  ]);
  const { sheets } = input;
  const seed = input.run.seed;
  const scores = sheets.answered.map(({ question, response }) => scoreItem(question, o.style, response));

  const questions = sheets.answered.map((a) => a.question);
  const columns: Column[] = [...DIFFICULTIES];
  if (questions.some((q) => q.difficulty === null)) columns.push('unknown');
  columns.push('all');
  const tasks = ([1, 2] as const)
    .filter((t) => questions.some((q) => q.task === t))
    .map((t) =>
      summarizeTask(
        t,
        columns,
        questions.filter((q) => q.task === t),
        scores.filter((s) => s.task === t),
        seed,
      ),
    );
  const summary: IntentionQaScoreSummary = {
    benchmark: 'intentionqa',
    ...input.run,
    columns,
    tasks,
    relations: relationCells(scores),
    ...input.unscored(),
  };
  const markdown = intentionQaMarkdown(summary);
  const chart = intentionQaChart(summary);
  await input.finish({ scores, summary, markdown, chart });
  return { scores, summary, markdown, chart };
}

function scoreItem(
  q: IntentionQaQuestion,
  style: IntentionQaStyle,
  response: Parameters<typeof readAnswer>[3],
): IntentionQaItemScore {
  const base = { task: q.task, id: q.id, difficulty: q.difficulty, relation: q.relation, gold: q.gold };
  const read = readAnswer('intentionqa', style, Object.keys(q.options), response);
  // ask and the embedding solver set malformed items apart and write no line for them.
  if (read.status === 'missing' && malformedReason(q.options) !== undefined)
    return { ...base, parsed: null, correct: null, status: 'malformed' };
  if (read.status === 'missing' || read.status === 'failed')
    return { ...base, parsed: null, correct: null, status: read.status };
  // computeACC.py checks the failed request first, then the number of options.
  if (Object.keys(q.options).length < MIN_SCORED_OPTIONS)
    return { ...base, parsed: read.parsed, correct: null, status: 'fewer-options' };
  const correct = read.parsed === q.gold;
  return {
    ...base,
    parsed: read.parsed,
    correct,
    status: read.status === 'unparseable' ? 'unparseable' : correct ? 'correct' : 'wrong',
  };
}

function inColumn(column: Column, difficulty: Difficulty | null): boolean {
  return column === 'all' || (column === 'unknown' ? difficulty === null : difficulty === column);
}

function cell(correct: number, n: number): AccuracyCell {
  return { correct, n, accuracy: accuracy(correct, n) };
}

function summarizeTask(
  task: IntentionQaTask,
  columns: readonly Column[],
  questions: readonly IntentionQaQuestion[],
  scores: readonly IntentionQaItemScore[],
  seed: number | string,
): IntentionQaTaskSummary {
  const count = (status: IntentionQaStatus) => scores.filter((s) => s.status === status).length;
  const byId = new Map(questions.map((q) => [q.id, q.options]));
  const scored = scores.filter((s) => s.correct !== null);
  // The baselines answer every item that has enough options.
  const baselineItems = questions.filter((q) => Object.keys(q.options).length >= MIN_SCORED_OPTIONS);
  const majority = majorityLetter(baselineItems.map((q) => q.gold));
  const drawCorrect = new Map(
    baselineItems.map((q) => [
      q.id,
      randomLetter(seed, `intentionqa/task${task}/${q.id}`, Object.keys(q.options)) === q.gold,
    ]),
  );
  const model: IntentionQaTaskSummary['model'] = {};
  const expected: IntentionQaTaskSummary['random']['expected'] = {};
  const draw: IntentionQaTaskSummary['random']['draw'] = {};
  const majorityCells: IntentionQaTaskSummary['majority']['cells'] = {};
  for (const column of columns) {
    const mine = scored.filter((s) => inColumn(column, s.difficulty));
    model[column] = cell(mine.filter((s) => s.correct).length, mine.length);
    const items = baselineItems.filter((q) => inColumn(column, q.difficulty));
    expected[column] = expectedRandomAccuracy(items.map((q) => Object.keys(q.options).length));
    draw[column] = cell(items.filter((q) => drawCorrect.get(q.id)).length, items.length);
    majorityCells[column] = cell(items.filter((q) => q.gold === majority).length, items.length);
  }
  return {
    task,
    counts: {
      items: scores.length,
      scored: scored.length,
      correct: count('correct'),
      unparseable: count('unparseable'),
      missing: count('missing'),
      failed: count('failed'),
      fewer_options: count('fewer-options'),
      malformed: count('malformed'),
      malformed_kinds: malformedCounts(
        scores.filter((s) => s.status === 'malformed').map((s) => ({ reason: malformedReason(byId.get(s.id)!)! })),
      ),
    },
    model,
    random: { expected, draw },
    majority: { letter: majority, cells: majorityCells },
  };
}

function relationCells(scores: readonly IntentionQaItemScore[]): IntentionQaScoreSummary['relations'] {
  const relations = [...new Set(scores.map((s) => s.relation))].sort();
  return relations.map((relation) => {
    const tasks: IntentionQaScoreSummary['relations'][number]['tasks'] = {};
    for (const task of [1, 2] as const) {
      const mine = scores.filter((s) => s.relation === relation && s.task === task && s.correct !== null);
      if (scores.some((s) => s.relation === relation && s.task === task))
        tasks[`task${task}`] = cell(mine.filter((s) => s.correct).length, mine.length);
    }
    return { relation, tasks };
  });
}
