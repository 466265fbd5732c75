// Answer parsers: a model's response text → the answer letter it gives. The parsers decide the
// published numbers, so IntentionQA's are the released evaluation/computeACC.py's, character for
// character (`answer_parser_0shot`, `answer_parser_cot`, `answer_parser_cotsc`), Python string
// semantics included; SessionIntentBench released no parser, so its parsers follow what its prompts
// ask for (Table 8: "Answer A or B or C or D only"; Table 13: the letter "in the last line").
//
// A parser returns the character it read, as the released code does: " " when it found nothing, and
// whatever character stands where the letter should (a digit, a quote, "E") otherwise. Whether that
// is one of the item's letters is the scorer's question (an answer that is not is "unparseable").

/** What the released parsers return when they find no answer. */
export const NO_ANSWER = ' ';

/**
 * The characters Python's `str.strip()` removes (`str.isspace()`): ASCII whitespace, the separators
 * \x1c–\x1f, \x85, and Unicode's space separators. Not JavaScript's trim(), which also removes
 * \ufeff and keeps \x1c–\x1f and \x85.
 */
const PYTHON_WHITESPACE = new Set(
  [
    '\t',
    '\n',
    '\x0b',
    '\x0c',
    '\r',
    '\x1c',
    '\x1d',
    '\x1e',
    '\x1f',
    ' ',
    '\x85',
    '\xa0',
    '\u1680',
    '\u2000',
    '\u2001',
    '\u2002',
    '\u2003',
    '\u2004',
    '\u2005',
    '\u2006',
    '\u2007',
    '\u2008',
    '\u2009',
    '\u200a',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
  ].map((c) => c.codePointAt(0)!),
);

/** Python's `text.strip(chars)`; without `chars`, `text.strip()` (Python's whitespace). */
export function pythonStrip(text: string, chars?: string): string {
  const strip = chars === undefined ? PYTHON_WHITESPACE : new Set([...chars].map((c) => c.codePointAt(0)!));
  const points = [...text];
  let start = 0;
  let end = points.length;
  while (start < end && strip.has(points[start]!.codePointAt(0)!)) start++;
  while (end > start && strip.has(points[end - 1]!.codePointAt(0)!)) end--;
  return points.slice(start, end).join('');
}

/** Python's `text[0]`: the first code point (not the first UTF-16 unit). */
function firstCharacter(text: string): string {
  return String.fromCodePoint(text.codePointAt(0)!);
}

/**
 * IntentionQA zero-shot (`answer_parser_0shot`): strip "." from both ends, then the first character,
 * upper-cased; " " for an empty response. "b." → "B"; " B" → " " (the released askLM stripped
 * whitespace before saving, and so does `intentsim ask`).
 */
export function parseZeroShot(response: string): string {
  const text = pythonStrip(response, '.');
  return text.length > 0 ? firstCharacter(text).toUpperCase() : NO_ANSWER;
}

const STEP_2 = 'STEP 2:';

/**
 * IntentionQA chain of thought (`answer_parser_cot`): strip "." from both ends, upper-case, find the
 * first "STEP 2:", and take the first non-space character after it. " " when the response is empty,
 * has no "STEP 2:", or ends right after it. Where the released code raises IndexError (only spaces
 * after "STEP 2:", e.g. "Step 2: ."), this returns " ": no answer.
 */
export function parseCot(response: string): string {
  const stripped = pythonStrip(response, '.');
  if (stripped.length === 0) return NO_ANSWER;
  const text = stripped.toUpperCase();
  const at = text.indexOf(STEP_2);
  if (at === -1) return NO_ANSWER;
  const rest = pythonStrip(text.slice(at + STEP_2.length));
  return rest.length > 0 ? firstCharacter(rest) : NO_ANSWER;
}

/**
 * IntentionQA CoT self-consistency (`answer_parser_cotsc`): the most common `parseCot` answer over the
 * samples. A tie goes to the answer that appeared first, as Python's `Counter.most_common(1)` does
 * (a Counter keeps insertion order; most_common(1) is `max`, which keeps the first of equals).
 * " " votes like any answer and can win. No samples: " ".
 */
export function parseCotSelfConsistency(responses: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of responses) {
    const answer = parseCot(r);
    counts.set(answer, (counts.get(answer) ?? 0) + 1);
  }
  let best = NO_ANSWER;
  let bestCount = 0;
  for (const [answer, n] of counts) {
    if (n > bestCount) {
      best = answer;
      bestCount = n;
    }
  }
  return best;
}

/**
 * SessionIntentBench chain of thought (Table 13: "answering the option alphabet A/B/C/D only in the
 * last line of your response"): the last line that is not blank, read as a zero-shot answer.
 */
export function parseLastLine(response: string): string {
  const lines = response.split(/\r\n|\r|\n/).filter((line) => pythonStrip(line) !== '');
  return lines.length === 0 ? NO_ANSWER : parseZeroShot(pythonStrip(lines[lines.length - 1]!));
}
