// Questions next to their answers: each questions file is read with the responses file that answers
// it (IntentionQA's Task 1 and Task 2 files reuse ids, so each has its own responses), and every
// answer is read with the style's parser. A question without a response line is "missing"; a
// response line without a question is listed, not scored; neither is ever dropped silently.
// Responses given to the wrong questions file (issue 45: the two --responses files swapped scored
// 22.98 / 27.23 against the true 37.80 / 41.86, exit 0) are refused: by the prompt each response
// line records (`prompt_hash`, as `ask` writes it), and, for lines without one, by their ids when
// another questions file holds more of them than their own.
import { ConfigError, UserError, type OnError } from '../../core/errors.js';
import { readJsonl, type InputLimits } from '../../core/jsonl.js';
import type { RejectsSink } from '../../core/rejects.js';
import { answerParser, type AnswerStyle, type Benchmark } from './answer-styles.js';
import { responseRecordParser, type ResponseRecord } from './responses.js';

export interface AnswerFiles {
  /** The items (questions) file. */
  items: string;
  /** Its responses file. */
  responses: string;
}

export interface AnsweredQuestion<Q> {
  question: Q;
  /** The questions file it came from. */
  file: string;
  response: ResponseRecord | undefined;
}

export interface AnswerSheets<Q> {
  answered: AnsweredQuestion<Q>[];
  /** Response ids that no question of their questions file has, per responses file. */
  unknownResponseIds: Array<{ responses: string; ids: string[] }>;
  /** The `model` (or `solver`) the response lines name, each once, in order of appearance. */
  answerers: string[];
}

export interface ReadAnswerSheetsOptions {
  onError: OnError;
  rejects: RejectsSink | undefined;
  /** How long an input line and a text may be (core/jsonl-batches.ts's defaults when absent). */
  limits?: InputLimits;
  /**
   * The `prompt_hash` values a response to a question may record (its prompts' hashes): a response
   * line that records another is refused. Absent: prompts are not checked.
   */
  promptHashesOf?: (question: { id: string }) => readonly string[];
}

/** A response line's id, line and prompt hash, kept to check that it answers its own questions file. */
interface ResponseLine {
  id: string;
  line: number;
  promptHash?: string;
}

export async function readAnswerSheets<Q extends { id: string }>(
  files: readonly AnswerFiles[],
  parseQuestion: (json: unknown, at: { file: string; line: number }) => Q,
  style: AnswerStyle,
  options: ReadAnswerSheetsOptions,
): Promise<AnswerSheets<Q>> {
  if (files.length === 0) throw new ConfigError('files', 'must name at least one items file and its responses');
  const readOptions = { onError: options.onError, rejects: options.rejects, ...options.limits };
  const unique = { of: (r: { id: string }) => r.id, field: 'id', what: 'id' };
  const answered: AnsweredQuestion<Q>[] = [];
  const unknownResponseIds: AnswerSheets<Q>['unknownResponseIds'] = [];
  const answerers = new Set<string>();
  const parseResponse = responseRecordParser(style);
  const questionsOf: Array<Map<string, Q>> = [];
  const linesOf: ResponseLine[][] = [];
  for (const pair of files) {
    const questions: Q[] = [];
    for await (const { value } of readJsonl(pair.items, parseQuestion, { ...readOptions, unique }))
      questions.push(value);
    const byId = new Map(questions.map((q) => [q.id, q]));
    const responses = new Map<string, ResponseRecord>();
    const lines: ResponseLine[] = [];
    const unknown: string[] = [];
    for await (const { value, line } of readJsonl(pair.responses, parseResponse, { ...readOptions, unique })) {
      if (value.answerer !== undefined) answerers.add(value.answerer);
      lines.push({ id: value.id, line, ...(value.promptHash === undefined ? {} : { promptHash: value.promptHash }) });
      if (byId.has(value.id)) responses.set(value.id, value);
      else unknown.push(value.id);
    }
    if (unknown.length > 0) unknownResponseIds.push({ responses: pair.responses, ids: unknown });
    for (const question of questions)
      answered.push({ question, file: pair.items, response: responses.get(question.id) });
    questionsOf.push(byId);
    linesOf.push(lines);
  }
  checkResponsesAnswerTheirFiles(files, questionsOf, linesOf, options.promptHashesOf);
  return { answered, unknownResponseIds, answerers: [...answerers] };
}

/**
 * Refuses a responses file that answers another questions file than its own: a line whose
 * `prompt_hash` is not one of its question's prompts', or (lines without a hash) more of its ids
 * found in another questions file than in its own. The message names the line or the counts, and
 * the questions file the responses do fit, when one does.
 */
function checkResponsesAnswerTheirFiles<Q extends { id: string }>(
  files: readonly AnswerFiles[],
  questionsOf: ReadonlyArray<ReadonlyMap<string, Q>>,
  linesOf: ReadonlyArray<readonly ResponseLine[]>,
  promptHashesOf: ReadAnswerSheetsOptions['promptHashesOf'],
): void {
  const answers = (k: number, r: ResponseLine): boolean => {
    const q = questionsOf[k]!.get(r.id);
    return q !== undefined && promptHashesOf!(q).includes(r.promptHash!);
  };
  const order = files.length > 1 ? ': the responses files must be given in the order of their items files' : '';
  files.forEach((pair, i) => {
    const lines = linesOf[i]!;
    if (promptHashesOf !== undefined) {
      const hashed = lines.filter((r) => r.promptHash !== undefined && questionsOf[i]!.has(r.id));
      const wrong = hashed.find((r) => !answers(i, r));
      if (wrong !== undefined) {
        const fits = files.findIndex((_, k) => k !== i && hashed.every((r) => answers(k, r)));
        throw new UserError(
          `${pair.responses}:${wrong.line}: the response to "${wrong.id}" was asked with another prompt ` +
            `(prompt_hash ${wrong.promptHash}) than item "${wrong.id}" of ${pair.items} has` +
            (fits >= 0 ? `; its responses answer the prompts of ${files[fits]!.items}${order}` : ''),
        );
      }
    }
    const plain = lines.filter((r) => r.promptHash === undefined);
    if (plain.length === 0) return;
    const found = (k: number) => plain.filter((r) => questionsOf[k]!.has(r.id)).length;
    const own = found(i);
    const best = files.map((_, k) => k).filter((k) => k !== i && found(k) > own);
    if (best.length > 0) {
      const k = best.reduce((a, b) => (found(b) > found(a) ? b : a));
      throw new UserError(
        `${pair.responses}: ${found(k)} of its ${plain.length} response ids are items of ${files[k]!.items}, ` +
          `only ${own} of ${pair.items}, the items file it is paired with${order}`,
      );
    }
  });
}

/**
 * What became of a question: `correct` / `wrong` when its answer is one of its letters,
 * `unparseable` when it is not (scored as wrong), `missing` without a response line, `failed` when
 * the response is the released code's failed request (excluded from the scores).
 */
export type AnswerStatus = 'correct' | 'wrong' | 'unparseable' | 'missing' | 'failed';

export interface ReadAnswer {
  /** What the parser read (" " when it found nothing); null when there was nothing to read. */
  parsed: string | null;
  /** The parsed answer when it is one of the question's letters, else null. */
  letter: string | null;
  status: Exclude<AnswerStatus, 'correct' | 'wrong'> | 'answered';
}

/** Reads a question's response with the style's parser. */
export function readAnswer(
  benchmark: Benchmark,
  style: AnswerStyle,
  letters: readonly string[],
  response: ResponseRecord | undefined,
): ReadAnswer {
  if (response === undefined) return { parsed: null, letter: null, status: 'missing' };
  if (response.failed) return { parsed: null, letter: null, status: 'failed' };
  const parsed = answerParser(benchmark, style)(response.response);
  return letters.includes(parsed)
    ? { parsed, letter: parsed, status: 'answered' }
    : { parsed, letter: null, status: 'unparseable' };
}
