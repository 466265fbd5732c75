// `score sib` on a hand-computed set: binary labels from letters, accuracy and Macro-F1 per task,
// MAJORITY's undefined Macro-F1 shown as "–" (never 0), RANDOM's expectation, unlabelled and missing
// questions counted; distractor-backed items per kind.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreSib } from '../engine/scoring/sib/score-sib.js';
import { expectedRandomScores } from '../engine/scoring/classification-metrics.js';

const jsonl = (records: readonly object[]) => records.map((r) => JSON.stringify(r) + '\n').join('');

function task(id: string, n: 1 | 2 | 3 | 4, label: object | null) {
  return {
    id,
    task: n,
    answer_letters: n === 4 ? ['A', 'B', 'C'] : ['A', 'B', 'C', 'D'],
    prompts: { 'zero-shot': `zero-shot ${id}`, 'five-shot': `five-shot ${id}`, cot: `cot ${id}` },
    label,
  };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-score-sib-'));
  writeFileSync(
    join(dir, 'tasks.jsonl'),
    jsonl([
      task('a', 1, { letter: 'A', binary: 'positive', source: 'answer' }),
      task('b', 1, { letter: 'D', binary: 'negative', source: 'answer' }),
      task('c', 1, { letter: 'B', binary: 'positive', source: 'answer' }),
      task('d', 1, null),
      task('e', 1, { letter: null, binary: null, source: 'votes', tied: ['B', 'C'] }),
      task('f', 4, { letter: 'B', binary: 'negative', source: 'answer' }),
      task('g', 4, { letter: 'C', binary: 'negative', source: 'answer' }),
      task('h', 4, { letter: 'A', binary: 'positive', source: 'answer' }),
    ]),
  );
  writeFileSync(
    join(dir, 'distractors.jsonl'),
    jsonl([
      {
        id: 'n1',
        kind: 'next-product-choice',
        options: ['A', 'B', 'C', 'D'].map((letter) => ({ letter, title: `t${letter}`, gold: letter === 'B' })),
        answer: 'B',
        prompts: { 'zero-shot': 'next n1', cot: 'next n1 cot' },
      },
      {
        id: 'n2',
        kind: 'next-product-choice',
        options: ['A', 'B', 'C', 'D'].map((letter) => ({ letter, title: `t${letter}`, gold: letter === 'C' })),
        answer: 'C',
        prompts: { 'zero-shot': 'next n2' },
      },
      { ...task('x1', 1, { binary: 'negative', source: 'constructed' }), kind: 't1-hard-negative' },
    ]),
  );
  writeFileSync(
    join(dir, 'r-tasks.jsonl'),
    jsonl([
      { id: 'a', response: 'B', model: 'm' },
      { id: 'b', response: 'C.' },
      { id: 'c', response: 'D' },
      { id: 'd', response: 'A' },
      { id: 'f', response: 'A' },
      { id: 'g', response: 'b' },
      { id: 'h', response: '' },
    ]),
  );
  writeFileSync(
    join(dir, 'r-distractors.jsonl'),
    jsonl([
      { id: 'n1', response: 'B' },
      { id: 'n2', response: 'A' },
    ]),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files = () => [
  { items: join(dir, 'tasks.jsonl'), responses: join(dir, 'r-tasks.jsonl') },
  { items: join(dir, 'distractors.jsonl'), responses: join(dir, 'r-distractors.jsonl') },
];

describe('score sib on a hand-computed set', () => {
  it('maps letters to binary labels and scores each task by Acc and Macro-F1', async () => {
    const out = join(dir, 'out');
    const r = await scoreSib({ files: files(), style: 'zero_shot', out });
    expect(r.scores.map((s) => [s.id, s.gold, s.predicted, s.status])).toEqual([
      ['a', 'positive', 'positive', 'correct'],
      ['b', 'negative', 'negative', 'correct'],
      ['c', 'positive', 'negative', 'wrong'],
      ['d', null, 'positive', 'unlabelled'],
      ['e', null, null, 'unlabelled'],
      ['f', 'negative', 'positive', 'wrong'],
      ['g', 'negative', 'negative', 'correct'],
      ['h', 'positive', null, 'unparseable'],
      ['n1', 'B', 'B', 'correct'],
      ['n2', 'C', 'A', 'wrong'],
      ['x1', 'negative', null, 'missing'],
    ]);
    const group = (g: string) => r.summary.groups.find((x) => x.group === g)!;
    // T1: gold P N P, predicted P N N → F1(positive) = F1(negative) = 2/3.
    expect(group('T1').model).toEqual({
      n: 3,
      correct: 2,
      accuracy: 2 / 3,
      macro_f1: 2 / 3,
      f1: { positive: 2 / 3, negative: 2 / 3 },
    });
    expect(group('T1').counts).toMatchObject({ items: 5, labelled: 3, scored: 3, unlabelled: 2 });
    // T4: gold N N P, predicted P N (none) → F1(positive) = 0, F1(negative) = 2/3.
    expect(group('T4').model.macro_f1).toBeCloseTo(1 / 3, 15);
    expect(group('T4').model.accuracy).toBeCloseTo(1 / 3, 15);
    // MAJORITY never predicts the minority class: no Macro-F1 (null, not 0).
    expect(group('T1').majority).toMatchObject({ answer: 'positive', scores: { accuracy: 2 / 3, macro_f1: null } });
    expect(group('T4').majority).toMatchObject({ answer: 'negative', scores: { accuracy: 2 / 3, macro_f1: null } });
    // RANDOM: a uniform letter; T4 says "positive" with probability 1/3.
    expect(group('T4').random.expected.accuracy).toBeCloseTo((1 / 3 + 2 * (2 / 3)) / 3, 15);
    expect(group('T1').random.expected.macro_f1).toBe(expectedRandomScores(2, 1, 0.5).macroF1);
    expect(group('next-product-choice').model).toMatchObject({ n: 2, correct: 1, accuracy: 0.5, macro_f1: null });
    expect(group('next-product-choice').random.expected.accuracy).toBe(0.25);
    expect(group('next-product-choice').majority.answer).toBe('B');
    expect(group('t1-hard-negative').counts).toMatchObject({ labelled: 1, scored: 0, missing: 1 });
    expect(group('t1-hard-negative').model.accuracy).toBeNull();

    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toContain(
      '| | T1 Acc | T1 Ma-F1 | T4 Acc | T4 Ma-F1 | T1 hard negatives Acc | T1 hard negatives Ma-F1 | next product (4-way) Acc |',
    );
    expect(md).toContain('| m, zero-shot | 66.67 | 66.67 | 33.33 | 33.33 | – | – | 50.00 |');
    expect(md).toContain('| MAJORITY | 66.67 | – | 66.67 | – |');
    expect(md).toContain('| not scored: no gold label | 2 | 0 | 0 | 0 |');
    expect(readFileSync(join(out, 'scores.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(11);
  });

  it('reads five-shot answers like zero-shot ones, and CoT answers from the last line', async () => {
    writeFileSync(
      join(dir, 'r-cot.jsonl'),
      jsonl([
        { id: 'a', response: 'The product fits the intention.\nA' },
        { id: 'b', response: 'It does not.\n\nD.\n' },
        { id: 'c', response: 'B' },
      ]),
    );
    const pair = [{ items: join(dir, 'tasks.jsonl'), responses: join(dir, 'r-cot.jsonl') }];
    const cot = await scoreSib({ files: pair, style: 'cot' });
    expect(cot.scores.slice(0, 3).map((s) => s.status)).toEqual(['correct', 'correct', 'correct']);
    const five = await scoreSib({ files: pair, style: 'five_shot' });
    expect(five.scores.slice(0, 3).map((s) => s.parsed)).toEqual(['T', 'I', 'B']);
  });
});
