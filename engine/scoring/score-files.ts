// What `score intentionqa` and `score sib` share around their own arithmetic: the options, reading
// the questions with their answers (bad lines stop the run or go to OUT/rejects.jsonl), the
// answerer's name, and the files they write, each atomically, the summary last: one line per
// question (scores.jsonl), the tables as JSON (summary.json) and Markdown (summary.md), and their
// chart (summary.svg).
import type { InputLimits } from '../../core/jsonl.js';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { ConfigError, type OnError } from '../../core/errors.js';
import { RejectsSink } from '../../core/rejects.js';
import type { AnswerStyle } from './answer-styles.js';
import { readAnswerSheets, type AnswerFiles, type AnswerSheets } from './answer-sheets.js';
import { SCORE_FILES } from './score-file-names.js';

export { SCORE_FILES };

export interface ScoreAnswersOptions<S extends AnswerStyle> {
  /** Questions files, each with the responses file that answers it (IntentionQA's two tasks share ids). */
  files: readonly AnswerFiles[];
  /** How the responses are read (the parser). */
  style: S;
  /** Output folder for scores.jsonl, summary.json, summary.md, summary.svg; nothing is written when absent. */
  out?: string;
  /** Seed of RANDOM's draw (default 1). */
  seed?: number | string;
  onError?: OnError;
  /** How long an input line and a text may be (core/jsonl-batches.ts's defaults when absent). */
  limits?: InputLimits;
  /** Names the answerer in the tables (default: the `model` or `solver` of the response lines, else the file name). */
  label?: string;
  /** A line shown above the tables, e.g. that the run's encoder is a stand-in. */
  caption?: string;
}

/** What every score summary says about its run, first. */
export interface ScoredRun<S extends AnswerStyle> {
  style: S;
  answerer: string;
  caption: string | null;
  seed: number | string;
  files: readonly AnswerFiles[];
}

/** What every score summary says about the input it did not score, last. */
export interface UnscoredInput {
  /** Response ids that no question of their questions file has, per responses file. */
  unknown_response_ids: Array<{ responses: string; ids: string[] }>;
  /** Input lines rejected (with onError 'skip'). */
  rejected: number;
}

/** What a scoring returns, and writes: a line per question, the summary, its tables and chart. */
export interface ScoreOutputs<Line extends object = object, Summary extends object = object> {
  scores: Line[];
  summary: Summary;
  markdown: string;
  chart: string;
}

export interface ScoringInputs<Q, S extends AnswerStyle> {
  sheets: AnswerSheets<Q>;
  /** The run, as the summary describes it; the answerer is the label, else the answerers the response
   * lines name, else the first responses file's name. */
  run: ScoredRun<S>;
  /** What was read and not scored (call it after reading everything). */
  unscored(): UnscoredInput;
  /** Writes the outputs (when there is an output folder) and the rejects file. */
  finish(outputs: ScoreOutputs): Promise<void>;
}

/** The paths a score reads and writes (core/check-paths.ts). */
export function scoreAnswersPaths(o: Pick<ScoreAnswersOptions<AnswerStyle>, 'files' | 'out'>): PathChecks {
  return {
    inputFiles: Object.fromEntries(
      o.files.flatMap((f, i) => [
        [`items[${i}]`, f.items],
        [`responses[${i}]`, f.responses],
      ]),
    ),
    outputDirs: { out: o.out },
  };
}

export async function readScoringInputs<Q extends { id: string }, S extends AnswerStyle>(
  o: ScoreAnswersOptions<S>,
  parseQuestion: (json: unknown, at: { file: string; line: number }) => Q,
  promptHashesOf?: (question: Q) => readonly string[],
): Promise<ScoringInputs<Q, S>> {
  checkPaths(scoreAnswersPaths(o));
  const onError = o.onError ?? 'fail';
  const rejects = o.out ? new RejectsSink(join(o.out, 'rejects.jsonl')) : undefined;
  if (onError === 'skip' && !rejects)
    throw new ConfigError('onError', '"skip" needs out (the folder that receives rejects.jsonl)');
  const sheets = await readAnswerSheets(o.files, parseQuestion, o.style, {
    onError,
    rejects,
    limits: o.limits,
    ...(promptHashesOf ? { promptHashesOf: promptHashesOf as (q: { id: string }) => readonly string[] } : {}),
  });
  return {
    sheets,
    run: {
      style: o.style,
      answerer:
        o.label ?? (sheets.answerers.length > 0 ? sheets.answerers.join(', ') : basename(o.files[0]!.responses)),
      caption: o.caption ?? null,
      seed: o.seed ?? 1,
      files: o.files,
    },
    unscored: () => ({ unknown_response_ids: sheets.unknownResponseIds, rejected: rejects?.count ?? 0 }),
    async finish(outputs) {
      if (o.out === undefined) return;
      await writeFileAtomic(
        join(o.out, SCORE_FILES.scores),
        outputs.scores.map((s) => JSON.stringify(s) + '\n').join(''),
      );
      await writeFileAtomic(join(o.out, SCORE_FILES.chart), outputs.chart);
      await writeFileAtomic(join(o.out, SCORE_FILES.markdown), outputs.markdown);
      await writeFileAtomic(join(o.out, SCORE_FILES.summary), JSON.stringify(outputs.summary, null, 2) + '\n');
      await rejects?.close();
    },
  };
}
