// How each style is asked, by default as the released askLM scripts asked it: zero-shot at
// temperature 0.1 with at most 10 completion tokens, CoT at 0.1 with 200, CoT-SC as 5 CoT samples
// at 0.7 (evaluation/askLM_task1.py, askLM_task2.py). SessionIntentBench released no script; its
// styles take the same values (5-shot answers a letter, like zero-shot). Each can be overridden.
import { ConfigError } from '../../core/errors.js';
import type { AnswerStyle } from '../scoring/answer-styles.js';

export interface GenerationSettings {
  temperature: number;
  /** The request's `max_tokens`: the completion token limit. */
  maxTokens: number;
  /** Requests per item: 1, or the CoT-SC sample count. */
  samples: number;
}

export function defaultGenerationSettings(style: AnswerStyle): GenerationSettings {
  if (style === 'cot_sc') return { temperature: 0.7, maxTokens: 200, samples: 5 };
  if (style === 'cot') return { temperature: 0.1, maxTokens: 200, samples: 1 };
  return { temperature: 0.1, maxTokens: 10, samples: 1 };
}

/** Checks the values every run needs: a temperature ≥ 0, a positive integer max_tokens and sample count. */
export function checkGenerationSettings(s: GenerationSettings): void {
  if (!(s.temperature >= 0)) throw new ConfigError('settings.temperature', `must be ≥ 0, got ${s.temperature}`);
  if (!(Number.isInteger(s.maxTokens) && s.maxTokens > 0))
    throw new ConfigError('settings.maxTokens', `must be a positive integer, got ${s.maxTokens}`);
  if (!(Number.isInteger(s.samples) && s.samples > 0))
    throw new ConfigError('settings.samples', `must be a positive integer, got ${s.samples}`);
}
