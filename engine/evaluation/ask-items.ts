// The items `ask` puts to a model: from an IntentionQA items file (the engine's or the released
// ones, read by intentionqa-item-file.ts: malformed items set apart) or a SessionIntentBench tasks
// file, each item's id and its prompt in the asked style. Which benchmark a file holds is read from
// its first record.
import { ConfigError, InputError, type OnError } from '../../core/errors.js';
import { readJsonl, type InputLimits } from '../../core/jsonl.js';
import type { RejectsSink } from '../../core/rejects.js';
import { stylesOf, type AnswerStyle, type Benchmark } from '../scoring/answer-styles.js';
import { readIntentionQaItems, type MalformedItem } from '../scoring/intentionqa/intentionqa-item-file.js';
import { parseSibQuestion, sibPromptKey } from '../scoring/sib/sib-questions.js';

export interface AskItem {
  id: string;
  prompt: string;
}

/** The benchmark of an items file, from its first record. */
export async function detectBenchmark(file: string): Promise<Benchmark> {
  // The one JSONL reader: a BOM before the first record is skipped, as every other reader skips it.
  const benchmarkOf = (json: unknown, at: { file: string; line: number }): Benchmark => {
    const record = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
    if ('gold_ind' in record) return 'intentionqa';
    if ('answer_letters' in record || record.kind === 'next-product-choice') return 'sib';
    throw new InputError(
      at,
      'neither an IntentionQA item (gold_ind, options) nor a SessionIntentBench task (answer_letters, prompts)',
    );
  };
  for await (const { value } of readJsonl(file, benchmarkOf)) return value;
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

export interface AskItems {
  items: AskItem[];
  /** IntentionQA items set apart, not asked: not four options with distinct texts. */
  malformed: MalformedItem[];
}

export async function readAskItems(
  file: string,
  benchmark: Benchmark,
  style: AnswerStyle,
  options: { onError: OnError; rejects?: RejectsSink; limits?: InputLimits },
): Promise<AskItems> {
  checkStyle(benchmark, style);
  if (benchmark === 'intentionqa') {
    const read = await readIntentionQaItems(file, options);
    return {
      // CoT-SC asks the CoT prompt several times (askLM's QA_to_LM_selfconsistency).
      items: read.items.map(({ question: q }) => ({
        id: q.id,
        prompt: style === 'zero_shot' ? q.prompts.zero_shot : q.prompts.cot,
      })),
      malformed: read.malformed,
    };
  }
  const parse = (json: unknown, at: { file: string; line: number }): AskItem => {
    const q = parseSibQuestion(json, at);
    const key = sibPromptKey(style as Parameters<typeof sibPromptKey>[0]);
    const prompt = q.prompts[key];
    if (prompt === undefined) throw new InputError({ ...at, field: `prompts.${key}` }, `the item has no ${key} prompt`);
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
  return { items, malformed: [] };
}
