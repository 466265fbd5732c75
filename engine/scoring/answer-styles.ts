// The prompt styles of the two benchmarks, and which parser reads the answers of each. A style names
// both the prompt that was asked and how its answer is read, so `score --style` picks the parser.
import { parseCot, parseCotSelfConsistency, parseLastLine, parseZeroShot } from './answer-parsers.js';

/** IntentionQA (released askLM scripts: 0shot, cot, cotsc). CoT-SC asks the CoT prompt several times. */
export const INTENTIONQA_STYLES = ['zero_shot', 'cot', 'cot_sc'] as const;
export type IntentionQaStyle = (typeof INTENTIONQA_STYLES)[number];

/** SessionIntentBench (paper Tables 8, 9–12 and 13). */
export const SIB_STYLES = ['zero_shot', 'five_shot', 'cot'] as const;
export type SibStyle = (typeof SIB_STYLES)[number];

export type Benchmark = 'intentionqa' | 'sib';
export type AnswerStyle = IntentionQaStyle | SibStyle;

export function stylesOf(benchmark: Benchmark): readonly AnswerStyle[] {
  return benchmark === 'intentionqa' ? INTENTIONQA_STYLES : SIB_STYLES;
}

/** Whether a response of this style is several samples (a JSON array of strings) instead of one string. */
export function isSampledStyle(style: AnswerStyle): boolean {
  return style === 'cot_sc';
}

/** A response as the responses file holds it: one string, or one string per sample. */
export type ResponseText = string | readonly string[];

/** The parser of a benchmark's style. */
export function answerParser(benchmark: Benchmark, style: AnswerStyle): (response: ResponseText) => string {
  const one = (parse: (text: string) => string) => (response: ResponseText) => {
    if (typeof response !== 'string') throw new TypeError(`style ${style} reads one response, not samples`);
    return parse(response);
  };
  if (benchmark === 'intentionqa') {
    if (style === 'zero_shot') return one(parseZeroShot);
    if (style === 'cot') return one(parseCot);
    if (style === 'cot_sc')
      return (response) => {
        if (typeof response === 'string') throw new TypeError('style cot_sc reads samples, not one response');
        return parseCotSelfConsistency(response);
      };
  } else {
    if (style === 'zero_shot' || style === 'five_shot') return one(parseZeroShot);
    if (style === 'cot') return one(parseLastLine);
  }
  throw new RangeError(`${benchmark} has no style ${style}`);
}
