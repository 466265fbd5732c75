// Questions next to their answers: each questions file is read with the responses file that answers
// it (IntentionQA's Task 1 and Task 2 files reuse ids, so each has its own responses), and every
// answer is read with the style's parser. A question without a response line is "missing"; a
// response line without a question is listed, not scored; neither is ever dropped silently.
import { ConfigError, type OnError } from '../../core/errors.js';
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
  for (const pair of files) {
    const questions: Q[] = [];
    for await (const { value } of readJsonl(pair.items, parseQuestion, { ...readOptions, unique }))
      questions.push(value);
    const ids = new Set(questions.map((q) => q.id));
    const responses = new Map<string, ResponseRecord>();
    const unknown: string[] = [];
    for await (const { value } of readJsonl(pair.responses, parseResponse, { ...readOptions, unique })) {
      if (value.answerer !== undefined) answerers.add(value.answerer);
      if (ids.has(value.id)) responses.set(value.id, value);
      else unknown.push(value.id);
    }
    if (unknown.length > 0) unknownResponseIds.push({ responses: pair.responses, ids: unknown });
    for (const question of questions)
      answered.push({ question, file: pair.items, response: responses.get(question.id) });
  }
  return { answered, unknownResponseIds, answerers: [...answerers] };
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
