// The items `ask` puts to a model: from an IntentionQA items file (the engine's or the released
// ones) or a SessionIntentBench tasks file, each item's id and its prompt in the asked style. Which
// benchmark a file holds is read from its first record.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ConfigError, InputError, type OnError } from '../../core/errors.js';
import { readJsonl, type InputLimits } from '../../core/jsonl.js';
import type { RejectsSink } from '../../core/rejects.js';
import { stylesOf, type AnswerStyle, type Benchmark } from '../scoring/answer-styles.js';
import { parseIntentionQaQuestion } from '../scoring/intentionqa/intentionqa-questions.js';
import { parseSibQuestion, sibPromptKey } from '../scoring/sib/sib-questions.js';

export interface AskItem {
  id: string;
  prompt: string;
}

/** The benchmark of an items file, from its first record. */
export async function detectBenchmark(file: string): Promise<Benchmark> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    lines.close();
    let first: unknown;
    try {
      first = JSON.parse(text);
    } catch (err) {
      throw new InputError({ file, line }, `invalid JSON: ${(err as Error).message}`);
    }
    const record = (typeof first === 'object' && first !== null ? first : {}) as Record<string, unknown>;
    if ('gold_ind' in record) return 'intentionqa';
    if ('answer_letters' in record || record.kind === 'next-product-choice') return 'sib';
    throw new InputError(
      { file, line },
      'neither an IntentionQA item (gold_ind, options) nor a SessionIntentBench task (answer_letters, prompts)',
    );
  }
  throw new InputError({ file }, 'the file has no items');
}

/** Checks that a benchmark has the style (IntentionQA: zero_shot, cot, cot_sc; SIB: zero_shot, five_shot, cot). */
export function checkStyle(benchmark: Benchmark, style: AnswerStyle): void {
  if (!stylesOf(benchmark).includes(style))
    throw new ConfigError(
      'style',
      `must be one of ${stylesOf(benchmark).join(', ')} for ${benchmark === 'sib' ? 'SessionIntentBench' : 'IntentionQA'} items, got "${style}"`,
    );
}

export async function readAskItems(
  file: string,
  benchmark: Benchmark,
  style: AnswerStyle,
  options: { onError: OnError; rejects?: RejectsSink; limits?: InputLimits },
): Promise<AskItem[]> {
  checkStyle(benchmark, style);
  const parse =
    benchmark === 'intentionqa'
      ? (json: unknown, at: { file: string; line: number }): AskItem => {
          const q = parseIntentionQaQuestion(json, at);
          // CoT-SC asks the CoT prompt several times (askLM's QA_to_LM_selfconsistency).
          return { id: q.id, prompt: style === 'zero_shot' ? q.prompts.zero_shot : q.prompts.cot };
        }
      : (json: unknown, at: { file: string; line: number }): AskItem => {
          const q = parseSibQuestion(json, at);
          const key = sibPromptKey(style as Parameters<typeof sibPromptKey>[0]);
          const prompt = q.prompts[key];
          if (prompt === undefined)
            throw new InputError({ ...at, field: `prompts.${key}` }, `the item has no ${key} prompt`);
          return { id: q.id, prompt };
        };
  const items: AskItem[] = [];
  const unique = { of: (i: AskItem) => i.id, field: 'id', what: 'id' };
  for await (const { value } of readJsonl(file, parse, {
    onError: options.onError,
    rejects: options.rejects,
    ...options.limits,
    unique,
  }))
    items.push(value);
  return items;
}
