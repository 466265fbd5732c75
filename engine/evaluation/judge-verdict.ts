// What the judge's reply says. The reply's answer is its last non-blank line (a model that explains
// first still ends with the answer), upper-cased, without a leading "ANSWER:" and a trailing period:
// either NONE (no option is right) or option letters separated by commas, spaces, "&" or "and"
// ("A, C", "A and C", "B"). Anything else is unparseable: an empty reply, a word, a sentence, a
// letter the item has no option for. The verdict compares the letters with the gold:
//   ok             exactly the gold
//   second-answer  the gold and at least one other letter
//   gold-wrong     letters without the gold, or NONE
//   unparseable    no answer read (see above)

export const JUDGE_VERDICTS = ['ok', 'second-answer', 'gold-wrong', 'unparseable'] as const;
export type JudgeVerdict = (typeof JUDGE_VERDICTS)[number];

/**
 * The letters the judge marked right, in the item's option order, each once; [] for NONE;
 * undefined when the reply is unparseable.
 */
export function judgedLetters(reply: string, letters: readonly string[]): string[] | undefined {
  const lines = reply.split(/\r?\n/).filter((l) => l.trim() !== '');
  const last = lines.at(-1);
  if (last === undefined) return undefined;
  const answer = last
    .trim()
    .toUpperCase()
    .replace(/^ANSWER\s*:\s*/, '')
    .replace(/\.$/, '')
    .trim();
  if (answer === 'NONE') return [];
  const tokens = answer.split(/\s*,\s*|\s+AND\s+|\s*&\s*|\s+/);
  if (tokens.some((t) => !letters.includes(t))) return undefined;
  const marked = new Set(tokens);
  return letters.filter((l) => marked.has(l));
}

export function verdictOf(judged: readonly string[] | undefined, gold: string): JudgeVerdict {
  if (judged === undefined) return 'unparseable';
  if (!judged.includes(gold)) return 'gold-wrong';
  return judged.length === 1 ? 'ok' : 'second-answer';
}
