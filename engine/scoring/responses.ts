// The responses file: JSONL with `id` and `response` (a string, or for sampled styles an array of
// strings), as the released askLM scripts write it and as `intentsim ask` writes it, so that answers
// from any harness can be scored. Other fields are allowed and ignored; `completion_tokens` is read
// for the released exclusion rule.
import { createHash } from 'node:crypto';
import type { InputLocation } from '../../core/errors.js';
import { FieldReader } from '../../core/jsonl.js';
import { isSampledStyle, type AnswerStyle, type ResponseText } from './answer-styles.js';

export interface ResponseRecord {
  id: string;
  response: ResponseText;
  /**
   * The released computeACC.py's exclusion: `response == 'Error' or completion_tokens == -1` (what
   * its askLM wrote for a request that failed five times). For sampled styles the fields are lists,
   * which that check never matches, so such a record is never excluded: a failed sample is an
   * unparseable vote.
   */
  failed: boolean;
  /** Who answered, when the line says: its `model`, or its `solver` (with the model it used). */
  answerer?: string;
  /** The `prompt_hash` of the prompt that was asked (`ask` writes it: `sha256:…`), when the line has one. */
  promptHash?: string;
}

/** The `prompt_hash` of a response line: the SHA-256 of the prompt asked (`ask` writes it; scoring checks it). */
export function promptHash(prompt: string): string {
  return 'sha256:' + createHash('sha256').update(prompt).digest('hex');
}

/** What the released askLM scripts (and `ask`) write for a request that could not be made. */
export const FAILED_RESPONSE = 'Error';

/** A parser of one responses line, for answers of `style`. */
export function responseRecordParser(style: AnswerStyle) {
  const sampled = isSampledStyle(style);
  return (json: unknown, at: Required<Pick<InputLocation, 'file' | 'line'>>): ResponseRecord => {
    const r = new FieldReader(json, at);
    const id = r.id('id');
    let response: ResponseText;
    if (sampled) {
      if (typeof r.raw('response') === 'string')
        throw r.error('response', `style ${style} needs one response per sample: an array of strings`);
      response = r.stringArray('response');
    } else {
      if (Array.isArray(r.raw('response')))
        throw r.error('response', `style ${style} reads one response, a string (an array is for cot_sc)`);
      response = r.string('response', { allowEmpty: true });
    }
    const failed = typeof response === 'string' && (response === FAILED_RESPONSE || r.raw('completion_tokens') === -1);
    const model = r.raw('model');
    const solver = r.raw('solver');
    const answerer =
      typeof solver === 'string'
        ? `${solver} solver${typeof model === 'string' ? ` (${model})` : ''}`
        : typeof model === 'string'
          ? model
          : undefined;
    const hash = r.raw('prompt_hash');
    return {
      id,
      response,
      failed,
      ...(answerer === undefined ? {} : { answerer }),
      ...(typeof hash === 'string' ? { promptHash: hash } : {}),
    };
  };
}
