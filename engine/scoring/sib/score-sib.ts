// `intentsim score sib`: a model's answers to SessionIntentBench tasks (and distractor-backed
// items), scored as the paper scores them (§5, Appendix C): each answer letter becomes its binary
// label (T1–T3: A, B positive, C, D negative; T4: A positive, B, C negative), and each task gets
// accuracy and Macro-F1, next to RANDOM (a uniform letter; expected value and one seeded draw) and
// MAJORITY (the more frequent gold label). Tasks without a gold label are counted, not scored.
import { binaryLabelOf, isAnswerLetter, type BinaryLabel } from '../../items/sib/labels.js';
import type { SibStyle } from '../answer-styles.js';
import { readAnswer } from '../answer-sheets.js';
import { expectedRandomAccuracy, majorityClass, majorityLetter, randomLetter } from '../baselines.js';
import { accuracy, binaryScores, expectedRandomScores } from '../classification-metrics.js';
import { readScoringInputs, type ScoreAnswersOptions, type ScoreOutputs } from '../score-files.js';
import type { ResponseRecord } from '../responses.js';
import { SIB_GROUPS, parseSibQuestion, type SibQuestion } from './sib-questions.js';
import { sibChart, sibMarkdown } from './sib-score-tables.js';
import type { SibGroupSummary, SibItemScore, SibScoreSummary, SibScores, SibStatus } from './sib-score-types.js';

export type ScoreSibOptions = ScoreAnswersOptions<SibStyle>;

export type SibScoreResult = ScoreOutputs<SibItemScore, SibScoreSummary>;

export async function scoreSib(o: ScoreSibOptions): Promise<SibScoreResult> {
  const input = await readScoringInputs(o, parseSibQuestion);
  const { sheets } = input;
  const seed = input.run.seed;
  const scores = sheets.answered.map(({ question, response }) => scoreQuestion(question, o.style, response));
  const groups = SIB_GROUPS.filter((g) => sheets.answered.some((a) => a.question.group === g)).map((g) =>
    summarizeGroup(
      sheets.answered.filter((a) => a.question.group === g).map((a) => a.question),
      scores.filter((s) => s.group === g),
      seed,
    ),
  );
  const summary: SibScoreSummary = { benchmark: 'sib', ...input.run, groups, ...input.unscored() };
  const markdown = sibMarkdown(summary);
  const chart = sibChart(summary);
  await input.finish({ scores, summary, markdown, chart });
  return { scores, summary, markdown, chart };
}

/** What a letter answers: its binary label on a task, the letter itself on the next-product choice. */
function meaningOf(q: SibQuestion, letter: string): string {
  if (q.task === null) return letter;
  if (!isAnswerLetter(q.task, letter))
    throw new RangeError(`internal: ${letter} is no answer of task ${q.task} (question ${q.id})`);
  return binaryLabelOf(q.task, letter);
}

function goldOf(q: SibQuestion): string | null {
  if (q.gold === null) return null;
  return 'binary' in q.gold ? q.gold.binary : q.gold.letter;
}

function scoreQuestion(q: SibQuestion, style: SibStyle, response: ResponseRecord | undefined): SibItemScore {
  const gold = goldOf(q);
  const base = { group: q.group, id: q.id, task: q.task, gold };
  const read = readAnswer('sib', style, q.letters, response);
  const predicted = read.letter === null ? null : meaningOf(q, read.letter);
  if (gold === null) return { ...base, parsed: read.parsed, predicted, correct: null, status: 'unlabelled' };
  if (read.status === 'missing' || read.status === 'failed')
    return { ...base, parsed: null, predicted: null, correct: null, status: read.status };
  const correct = predicted === gold;
  const status: SibStatus = read.status === 'unparseable' ? 'unparseable' : correct ? 'correct' : 'wrong';
  return { ...base, parsed: read.parsed, predicted, correct, status };
}

function scoresOf(binary: boolean, gold: readonly string[], predicted: readonly (string | null)[]): SibScores {
  if (binary) {
    const s = binaryScores(gold as BinaryLabel[], predicted as (BinaryLabel | null)[]);
    return { n: s.n, correct: s.correct, accuracy: s.accuracy, macro_f1: s.macroF1, f1: s.f1 };
  }
  const correct = gold.filter((g, i) => predicted[i] === g).length;
  return { n: gold.length, correct, accuracy: accuracy(correct, gold.length), macro_f1: null, f1: null };
}

function summarizeGroup(
  questions: readonly SibQuestion[],
  scores: readonly SibItemScore[],
  seed: number | string,
): SibGroupSummary {
  const group = questions[0]!.group;
  const binary = questions[0]!.task !== null;
  const count = (status: SibStatus) => scores.filter((s) => s.status === status).length;
  const scored = scores.filter((s) => s.correct !== null);
  const labelled = questions.filter((q) => q.gold !== null);
  const golds = labelled.map((q) => goldOf(q)!);

  const drawn = labelled.map((q) => meaningOf(q, randomLetter(seed, `sib/${q.id}`, q.letters)));
  let expected: SibGroupSummary['random']['expected'];
  if (binary) {
    // Every question of a group has its task's letters; P(positive) is the share of positive letters.
    const positives = golds.filter((g) => g === 'positive').length;
    const letters = questions[0]!.letters;
    const pPositive = letters.filter((l) => meaningOf(questions[0]!, l) === 'positive').length / letters.length;
    const e = expectedRandomScores(positives, golds.length - positives, pPositive);
    expected = {
      accuracy: e.accuracy,
      macro_f1: e.macroF1,
      macro_f1_undefined_probability: golds.length === 0 ? null : e.macroF1Undefined,
    };
  } else {
    expected = {
      accuracy: expectedRandomAccuracy(labelled.map((q) => q.letters.length)),
      macro_f1: null,
      macro_f1_undefined_probability: null,
    };
  }
  const majority = binary ? majorityClass(golds as BinaryLabel[]) : majorityLetter(golds);
  return {
    group,
    binary,
    counts: {
      items: scores.length,
      labelled: labelled.length,
      scored: scored.length,
      correct: count('correct'),
      unparseable: count('unparseable'),
      missing: count('missing'),
      failed: count('failed'),
      unlabelled: count('unlabelled'),
    },
    model: scoresOf(
      binary,
      scored.map((s) => s.gold!),
      scored.map((s) => s.predicted),
    ),
    random: { expected, draw: scoresOf(binary, golds, drawn) },
    majority: {
      answer: majority,
      scores: scoresOf(
        binary,
        golds,
        golds.map(() => majority),
      ),
    },
  };
}
