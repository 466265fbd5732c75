// The IntentionQA prompts, word for word: the paper's Tables 6 (IntentUnderstand) and 7
// (IntentUtilize), laid out as the released evaluation code (evaluation/prompt_utils.py) builds them:
// the question on one line ending in a newline, each option on its own line "A. text" in the order
// of the options object (the released `options.items()`), then the answer instruction (the letters
// joined by " or "); the CoT variant replaces the instruction with the
// three-line "Formulate your answer…" block. No trailing newline. In Task 2 the intention clause is
// "A customer buys <product>, <intention text>" plus a period unless it already ends with one.

export type Letter = 'A' | 'B' | 'C' | 'D';
export const LETTERS: readonly Letter[] = ['A', 'B', 'C', 'D'];

/**
 * Letter → option text, in the order the options are shown. The engine's items have A–D; released
 * items (and so `ask` on them) also have fewer, or an "E".
 */
export type Options = Readonly<Record<string, string>>;

export interface PromptPair {
  zero_shot: string;
  cot: string;
}

function optionLines(options: Options): string {
  let x = '';
  for (const [letter, text] of Object.entries(options)) x += `${letter}. ${text}\n`;
  return x;
}

function letterList(options: Options): string {
  return Object.keys(options).join(' or ');
}

function answerLine(options: Options): string {
  return `Answer ${letterList(options)} only without any other word.`;
}

function cotLines(options: Options): string {
  return (
    'Formulate your answer in this way.\n' +
    'Step 1: Give a short and brief rationale by thinking step by step.\n' +
    `Step 2: ${answerLine(options)}`
  );
}

/** Task 1 (IntentUnderstand): given both products, choose the intention. */
export function task1Prompts(productA: string, productB: string, options: Options): PromptPair {
  const head =
    `A customer buys ${productA} and ${productB}. What is the most likely intention for buying them?\n` +
    optionLines(options);
  return { zero_shot: head + answerLine(options), cot: head + cotLines(options) };
}

/** Task 2 (IntentUtilize): given one product and the intention, choose the other product. */
export function task2Prompts(productA: string, intention: string, options: Options): PromptPair {
  let head = `A customer buys ${productA}, ${intention}`;
  head += head.endsWith('.') ? '\n' : '.\n';
  head += "What is the customer's most probable additional purchase?\n" + optionLines(options);
  return { zero_shot: head + answerLine(options), cot: head + cotLines(options) };
}
