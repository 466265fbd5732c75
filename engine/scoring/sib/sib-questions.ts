// A SessionIntentBench record as evaluation reads it back: a task of sib-tasks.jsonl (T1–T4, binary
// gold label when annotated) or a distractor-backed item of sib-distractors.jsonl (a constructed
// negative of T1–T3, or the "which product comes next" multiple choice with a gold letter).
import type { InputLocation } from '../../../core/errors.js';
import { FieldReader } from '../../../core/jsonl.js';
import type { BinaryLabel } from '../../items/sib/labels.js';
import type { PromptStyle, TaskNumber } from '../../items/sib/sib-types.js';
import type { SibStyle } from '../answer-styles.js';

/** How results are grouped: the four tasks, each kind of constructed negative, the next-product choice. */
export const SIB_GROUPS = [
  'T1',
  'T2',
  'T3',
  'T4',
  't1-hard-negative',
  't2-hard-negative',
  't3-negative',
  'next-product-choice',
] as const;
export type SibGroup = (typeof SIB_GROUPS)[number];

export type SibGold = { binary: BinaryLabel } | { letter: string };

export interface SibQuestion {
  id: string;
  group: SibGroup;
  /** The task whose binary labels apply (T1–T4 and their negatives); null for the next-product choice. */
  task: TaskNumber | null;
  /** The answer letters the question offers. */
  letters: string[];
  /** null: not annotated (a task without a label is not scored). */
  gold: SibGold | null;
  /** Prompt text by style, as the record holds them. */
  prompts: Partial<Record<PromptStyle, string>>;
}

/** The prompts key of a style: the CLI's `zero_shot` is the files' `zero-shot`. */
export function sibPromptKey(style: SibStyle): PromptStyle {
  return style === 'zero_shot' ? 'zero-shot' : style === 'five_shot' ? 'five-shot' : 'cot';
}

export function parseSibQuestion(json: unknown, at: Required<Pick<InputLocation, 'file' | 'line'>>): SibQuestion {
  const r = new FieldReader(json, at);
  const id = r.id('id');
  const prompts = readPrompts(r);
  if (r.has('kind') && r.raw('kind') === 'next-product-choice') {
    const options = r.raw('options');
    if (!Array.isArray(options)) throw r.error('options', 'expected an array');
    const letters = options.map((o: unknown, i) => {
      const letter = (o as { letter?: unknown } | null)?.letter;
      if (typeof letter !== 'string') throw r.error(`options[${i}].letter`, 'expected a string');
      return letter;
    });
    const answer = r.string('answer');
    if (!letters.includes(answer)) throw r.error('answer', `"${answer}" is not one of the options' letters`);
    return { id, group: 'next-product-choice', task: null, letters, gold: { letter: answer }, prompts };
  }
  const task = r.number('task');
  if (task !== 1 && task !== 2 && task !== 3 && task !== 4) throw r.error('task', 'must be 1, 2, 3 or 4');
  const letters = r.stringArray('answer_letters');
  let group: SibGroup = `T${task}`;
  if (r.has('kind')) {
    const kind = r.string('kind');
    if (kind !== 't1-hard-negative' && kind !== 't2-hard-negative' && kind !== 't3-negative')
      throw r.error('kind', `unknown kind "${kind}"`);
    group = kind;
  }
  return { id, group, task, letters, gold: readBinaryLabel(r), prompts };
}

function readBinaryLabel(r: FieldReader): SibGold | null {
  if (!r.has('label')) return null;
  const label = r.object('label');
  // A tie between annotators whose letters map to different labels has binary: null.
  if (label.binary === null || label.binary === undefined) return null;
  if (label.binary !== 'positive' && label.binary !== 'negative')
    throw r.error('label.binary', 'must be "positive", "negative" or null');
  return { binary: label.binary };
}

function readPrompts(r: FieldReader): Partial<Record<PromptStyle, string>> {
  if (!r.has('prompts')) return {};
  const raw = r.object('prompts');
  const prompts: Partial<Record<PromptStyle, string>> = {};
  for (const key of ['zero-shot', 'five-shot', 'cot'] as const) {
    const text = raw[key];
    if (text === undefined) continue;
    if (typeof text !== 'string') throw r.error(`prompts.${key}`, 'expected a string');
    prompts[key] = text;
  }
  return prompts;
}
