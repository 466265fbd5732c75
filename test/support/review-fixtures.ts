// Small item folders for the review tests, in the shapes the pipeline writes: IntentionQA items
// (intentionqa_task1.jsonl / intentionqa_task2.jsonl; the fields the review reads, plus extras that
// must come back untouched) and SessionIntentBench tasks (sib-tasks.jsonl, prompts as assemble
// writes them: session paragraph, question, options on one line, answer request).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface IqaFixture {
  id: string;
  task: 1 | 2;
  difficulty: string;
  relation: string;
  a: string;
  b: string;
  options: [string, string, string, string];
  gold: 'A' | 'B' | 'C' | 'D';
}

export function intentionQaLine(f: IqaFixture): string {
  const opts = { A: f.options[0], B: f.options[1], C: f.options[2], D: f.options[3] };
  const list = `A. ${opts.A}\nB. ${opts.B}\nC. ${opts.C}\nD. ${opts.D}\n`;
  const question =
    f.task === 1
      ? `A customer buys ${f.a} and ${f.b}. What is the most likely intention for buying them?\n`
      : `A customer buys ${f.a}, because they are both used for it.\nWhat is the customer's most probable additional purchase?\n`;
  return JSON.stringify({
    id: f.id,
    item_a_id: `P-${f.id}-a`,
    item_b_id: `P-${f.id}-b`,
    item_a_name: f.a,
    item_b_name: f.b,
    relation: f.relation,
    gold_ind: f.gold,
    options: opts,
    task: f.task,
    task_name: f.task === 1 ? 'IntentUnderstand' : 'IntentUtilize',
    difficulty: f.difficulty,
    prompts: {
      zero_shot: question + list + 'Answer A or B or C or D only without any other word.',
      cot: question + list + 'Formulate your answer in this way.',
    },
    extra_field: { kept: [1, 2, 3] },
  });
}

const T1_OPTIONS =
  "A. Yes: The product is a logical and reasonable outcome of the purchasing intention. B. Maybe yes: I may consider this, but it's not a strong impulse. C. Maybe no: The product is not directly related to my intention. D. No: I would never purchase it if I were the customer with the given intention.";

/** A SIB Task 1 record over `products` (titles), with a gold letter or a binary label. */
export function sibTaskLine(
  id: string,
  products: string[],
  label: { letter: string } | { binary: 'positive' | 'negative' },
): string {
  const session = products.map((p, i) => `Product ${i + 1}: ${p}\nAttributes: brand: X`).join('\n');
  const seen = products.slice(0, -1).join(', ');
  const last = products[products.length - 1]!;
  const prompt =
    `Act as a customer who is browsing a series of products given as follows.\n${session}\n\n` +
    `After seeing ${seen}, and assuming you are a customer who has the intention of Sleeping well. How likely are you to purchase ${last} based on the assumed intention?\n\n` +
    `${T1_OPTIONS}\n\nYour Answer (Answer A or B or C or D only):`;
  return JSON.stringify({
    id,
    session_id: id.split('/')[0],
    task: 1,
    step: products.length,
    answer_letters: ['A', 'B', 'C', 'D'],
    prompts: { 'zero-shot': prompt, 'five-shot': prompt, cot: prompt },
    label:
      'letter' in label
        ? { letter: label.letter, binary: 'positive', source: 'answer' }
        : { binary: label.binary, source: 'constructed' },
  });
}

/** Writes `lines` per file name into `dir` (created). */
export function writeItemsDir(dir: string, files: Record<string, string[]>): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, lines] of Object.entries(files))
    writeFileSync(join(dir, name), lines.map((l) => l + '\n').join(''));
  return dir;
}

/** `n` IntentionQA Task 1 items, difficulty cycling easy / medium / hard, gold cycling A–D. */
export function manyIntentionQaItems(n: number, titleOf: (i: number) => string = (i) => `Product ${i}`): string[] {
  const diffs = ['easy', 'medium', 'hard'];
  const golds = ['A', 'B', 'C', 'D'] as const;
  return Array.from({ length: n }, (_, i) =>
    intentionQaLine({
      id: `Q${i + 1}`,
      task: 1,
      difficulty: diffs[i % 3]!,
      relation: i % 2 === 0 ? 'usedFor' : 'isA',
      a: titleOf(i),
      b: `Companion ${i}`,
      options: [`because reason ${i}a.`, `because reason ${i}b.`, `because reason ${i}c.`, `because reason ${i}d.`],
      gold: golds[i % 4]!,
    }),
  );
}

/** One annotator's marks on one item of the six-item scenario, and the keys that make them on the page. */
export interface ScriptedLabel {
  id: string;
  correct: string[];
  validity: 'valid' | 'invalid' | 'unsure';
  reasons: Array<'second-right-answer' | 'gold-wrong' | 'unclear-wording'>;
}

/**
 * The six-item scenario (items Q1–Q6 of manyIntentionQaItems(6): difficulty easy, medium, hard,
 * easy, medium, hard; gold A, B, C, D, A, B) labelled by two annotators. Worked by hand:
 * validity pairs (v,v) (v,i) (i,i) (v,v) (i,v) (u,u) → P_o = 4/6, both annotators' marginals
 * 3 valid / 2 invalid / 1 unsure → P_e = 14/36, Cohen's κ = (24 − 14) / (36 − 14) = 5/11;
 * valid per difficulty: easy 4/4, medium 2/4, hard 0/4, all 6/12; second right answer
 * (an option besides the gold marked) 3/12 (a: Q3, Q5; b: Q2); gold marked 11/12 (a misses Q5);
 * kept with --keep valid (more than half valid): Q1, Q4.
 */
export const SIX_ITEM_LABELS: Record<'a' | 'b', ScriptedLabel[]> = {
  a: [
    { id: 'Q1', correct: ['A'], validity: 'valid', reasons: [] },
    { id: 'Q2', correct: ['B'], validity: 'valid', reasons: [] },
    { id: 'Q3', correct: ['A', 'C'], validity: 'invalid', reasons: ['second-right-answer'] },
    { id: 'Q4', correct: ['D'], validity: 'valid', reasons: [] },
    { id: 'Q5', correct: ['B'], validity: 'invalid', reasons: ['gold-wrong'] },
    { id: 'Q6', correct: ['B'], validity: 'unsure', reasons: [] },
  ],
  b: [
    { id: 'Q1', correct: ['A'], validity: 'valid', reasons: [] },
    { id: 'Q2', correct: ['B', 'C'], validity: 'invalid', reasons: ['second-right-answer'] },
    { id: 'Q3', correct: ['C'], validity: 'invalid', reasons: ['unclear-wording'] },
    { id: 'Q4', correct: ['D'], validity: 'valid', reasons: [] },
    { id: 'Q5', correct: ['A'], validity: 'valid', reasons: [] },
    { id: 'Q6', correct: ['B'], validity: 'unsure', reasons: [] },
  ],
};
