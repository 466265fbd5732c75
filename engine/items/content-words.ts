// Content words of a product title or a query, and when two words are the same word: what the
// rules that compare words (SessionIntentBench's serve rules, IntentionQA's title-words) read. One
// tokenizer for both, so that "the same word" means one thing in every rule.
/** Words too general to say what a query asks for. */
const STOPWORDS = new Set(
  (
    'a an the and or of for in on at to from with without by as is are be it its this that these those ' +
    'after before during while into onto over under up down out off than then so very more most less ' +
    'one two all any each every other same new own her his their your our my who which what when where ' +
    'use used using uses product products buy buying bought item items customer customers get getting ' +
    'make making made keep keeping take taking have having need needs needed want wants also just only ' +
    'day daily size pack set piece pieces count'
  ).split(' '),
);

/** Lower-case content words of a text (letters and digits; stopwords and 1–2 letter words out). */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 2 && !STOPWORDS.has(w));
}

const SUFFIXES = ['ness', 'ing', 'ers', 'er', 'ed', 'es', 'ly', 's'];

/** A word less one common suffix (dryness → dry, cleansing → cleans), when 3 letters stay. */
export function stem(w: string): string {
  for (const s of SUFFIXES) if (w.endsWith(s) && w.length - s.length >= 3) return w.slice(0, -s.length);
  return w;
}

/**
 * Two words match when their stems are equal, or one stem starts with the other and the shorter has
 * ≥ 4 letters (dark / darkness, cleanser / cleansing, dry / dryness, warm / warmth; not run / running).
 */
export function wordsMatch(a: string, b: string): boolean {
  const x = stem(a);
  const y = stem(b);
  if (x === y) return true;
  const [s, l] = x.length <= y.length ? [x, y] : [y, x];
  return s.length >= 4 && l.startsWith(s);
}
