// The judge's prompt (engine/evaluation/prompts/audit-judge.txt, rendered by judge-prompt.ts) pinned
// for a hand-written item, and the reading of its replies (judge-verdict.ts), case by case.
import { describe, expect, it } from 'vitest';
import { checkJudgeTemplate, defaultJudgeTemplate, renderJudgePrompt } from '../engine/evaluation/judge-prompt.js';
import { judgedLetters, verdictOf } from '../engine/evaluation/judge-verdict.js';

describe('the judge prompt', () => {
  it('renders a hand-written item exactly', () => {
    const prompt = renderJudgePrompt(defaultJudgeTemplate(), {
      question: 'A customer buys a yoga mat and dumbbells. What is the most likely intention for buying them?',
      options: {
        A: 'because they want to work out at home.',
        B: 'because they are both fitness equipment.',
        C: 'because they want to cook dinner.',
        D: 'because they like $& and {{options}}.',
      },
    });
    expect(prompt).toBe(
      'You are checking a multiple-choice question of a benchmark about why customers buy products. The question is valid only if exactly one of its options is a right answer.\n' +
        '\n' +
        'Question:\n' +
        'A customer buys a yoga mat and dumbbells. What is the most likely intention for buying them?\n' +
        '\n' +
        'Options:\n' +
        'A. because they want to work out at home.\n' +
        'B. because they are both fitness equipment.\n' +
        'C. because they want to cook dinner.\n' +
        'D. because they like $& and {{options}}.\n' +
        '\n' +
        'Judge each option on its own, not against the others: is it a right answer to the question, that is, a sensible and true answer for this customer? Several options may be right, or none.\n' +
        '\n' +
        'Reply with the letters of every right option, separated by commas (for example: A, C), or with NONE if no option is right. Reply with nothing else.',
    );
  });

  it('refuses a template without exactly one {{question}} and one {{options}}', () => {
    expect(() => checkJudgeTemplate('{{question}}')).toThrow(
      /must hold \{\{options\}\} exactly once, holds it 0 times/,
    );
    expect(() => checkJudgeTemplate('{{question}} {{question}} {{options}}')).toThrow(
      /must hold \{\{question\}\} exactly once, holds it 2 times/,
    );
  });
});

describe("reading the judge's reply", () => {
  const letters = ['A', 'B', 'C', 'D'];
  it.each([
    ['A', ['A']],
    ['A, C', ['A', 'C']],
    ['c,a', ['A', 'C']],
    ['B and D', ['B', 'D']],
    ['B & D.', ['B', 'D']],
    ['A C', ['A', 'C']],
    ['Answer: B', ['B']],
    ['Both fit.\n\nA, B\n', ['A', 'B']],
    ['NONE', []],
    ['None.', []],
    ['A, A', ['A']],
  ])('%j → %j', (reply, expected) => {
    expect(judgedLetters(reply, letters)).toEqual(expected);
  });

  it.each(['', '   \n ', 'E', 'A, E', 'I think A', 'A or C', 'Answer:', ', A', 'A,'])('%j is unparseable', (reply) => {
    expect(judgedLetters(reply, letters)).toBeUndefined();
  });

  it('gives the verdicts', () => {
    expect(verdictOf(['B'], 'B')).toBe('ok');
    expect(verdictOf(['A', 'B'], 'B')).toBe('second-answer');
    expect(verdictOf(['A', 'C'], 'B')).toBe('gold-wrong');
    expect(verdictOf([], 'B')).toBe('gold-wrong');
    expect(verdictOf(undefined, 'B')).toBe('unparseable');
  });
});
