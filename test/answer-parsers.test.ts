// The answer parsers on hand-written responses covering the released rules' edge cases
// (evaluation/computeACC.py: answer_parser_0shot, answer_parser_cot, answer_parser_cotsc), Python's
// string semantics included; and the styles that choose them.
import { describe, expect, it } from 'vitest';
import {
  NO_ANSWER,
  parseCot,
  parseCotSelfConsistency,
  parseLastLine,
  parseZeroShot,
  pythonStrip,
} from '../engine/scoring/answer-parsers.js';
import { answerParser } from '../engine/scoring/answer-styles.js';

describe("Python's str.strip", () => {
  it('strips the given characters from both ends only', () => {
    expect(pythonStrip('..b.a..', '.')).toBe('b.a');
    expect(pythonStrip('....', '.')).toBe('');
    expect(pythonStrip(' .A. ', '.')).toBe(' .A. ');
  });

  it("strips Python's whitespace, which is not JavaScript's", () => {
    // \x1c–\x1f and \x85 are whitespace to Python's str.strip(); \ufeff is not (JavaScript's trim() differs on both).
    expect(pythonStrip('\x1c\x85 A\t\n')).toBe('A');
    expect(pythonStrip('\ufeffA')).toBe('\ufeffA');
    expect(pythonStrip('\u3000A\u2028')).toBe('A');
  });
});

describe('zero-shot parser (answer_parser_0shot)', () => {
  it('takes the first character after stripping "." from both ends, upper-cased', () => {
    expect(parseZeroShot('B')).toBe('B');
    expect(parseZeroShot('b.')).toBe('B');
    expect(parseZeroShot('...c...')).toBe('C');
    expect(parseZeroShot('d. because they both are cables.')).toBe('D');
  });

  it('gives " " for an empty response, or one of dots only', () => {
    expect(parseZeroShot('')).toBe(NO_ANSWER);
    expect(parseZeroShot('.')).toBe(NO_ANSWER);
    expect(parseZeroShot('...')).toBe(NO_ANSWER);
  });

  it('reads whatever stands first, as the released code does', () => {
    // Whitespace is not stripped here (the released askLM stripped it before saving; so does `ask`).
    expect(parseZeroShot(' A')).toBe(' ');
    // "Answer: A" is read as "A" only by accident of its first letter; "The answer is B" as "T".
    expect(parseZeroShot('Answer: C')).toBe('A');
    expect(parseZeroShot('The answer is B')).toBe('T');
    expect(parseZeroShot('(B)')).toBe('(');
    expect(parseZeroShot('2')).toBe('2');
    // Python's upper() and its indexing by code point: "ß" → "SS", an emoji is one character.
    expect(parseZeroShot('ß')).toBe('SS');
    expect(parseZeroShot('😀B')).toBe('😀');
  });
});

describe('CoT parser (answer_parser_cot)', () => {
  it('takes the first non-space character after the first "STEP 2:" of the upper-cased response', () => {
    expect(parseCot('Step 1: Both protect a phone.\nStep 2: A')).toBe('A');
    expect(parseCot('Step 1: reasons.\nStep 2: b.')).toBe('B');
    expect(parseCot('step 2:   \n c')).toBe('C');
    expect(parseCot('Step 1: x\nSTEP 2: D. Step 2: A')).toBe('D');
    expect(parseCot('Step 2:(C)')).toBe('(');
  });

  it('gives " " without "STEP 2:", for an empty response, and when "Step 2:" ends it', () => {
    expect(parseCot('')).toBe(NO_ANSWER);
    expect(parseCot('...')).toBe(NO_ANSWER);
    expect(parseCot('The answer is B')).toBe(NO_ANSWER);
    expect(parseCot('Step 2 : B')).toBe(NO_ANSWER);
    expect(parseCot('Step 1: thinking. Step 2:')).toBe(NO_ANSWER);
    // The trailing "." is stripped first, so "Step 2:." also ends at "Step 2:".
    expect(parseCot('Step 1: thinking. Step 2:.')).toBe(NO_ANSWER);
  });

  it('gives " " where the released code raised IndexError (only spaces after "STEP 2:")', () => {
    expect(parseCot('Step 2:   ')).toBe(NO_ANSWER);
    expect(parseCot('Step 2: .')).toBe(NO_ANSWER);
  });
});

describe('CoT-SC parser (answer_parser_cotsc)', () => {
  const cot = (letter: string) => `Step 1: because.\nStep 2: ${letter}`;

  it('takes the most common CoT answer of the samples', () => {
    expect(parseCotSelfConsistency([cot('A'), cot('B'), cot('B'), cot('C'), cot('b')])).toBe('B');
  });

  it('breaks a tie for the answer seen first, as Counter.most_common(1) does', () => {
    // Python: Counter(['B', 'A', 'A', 'B']).most_common(1) == [('B', 2)].
    expect(parseCotSelfConsistency([cot('B'), cot('A'), cot('A'), cot('B')])).toBe('B');
    expect(parseCotSelfConsistency([cot('A'), cot('B'), cot('B'), cot('A')])).toBe('A');
    expect(parseCotSelfConsistency([cot('C'), cot('A'), cot('B')])).toBe('C');
  });

  it('lets " " (no answer, or a failed "Error" sample) vote, and win', () => {
    expect(parseCotSelfConsistency(['Error', 'no step two', cot('A')])).toBe(NO_ANSWER);
    expect(parseCotSelfConsistency(['Error', cot('A'), cot('A')])).toBe('A');
    expect(parseCotSelfConsistency([])).toBe(NO_ANSWER);
  });
});

describe('SessionIntentBench CoT parser (the letter in the last line)', () => {
  it('reads the last non-blank line as a zero-shot answer', () => {
    expect(parseLastLine('The cleanser fits the routine.\n\nB')).toBe('B');
    expect(parseLastLine('Rationale: no.\nd.\n  \n')).toBe('D');
    expect(parseLastLine('A')).toBe('A');
    expect(parseLastLine('Final answer: C')).toBe('F');
    expect(parseLastLine('')).toBe(NO_ANSWER);
    expect(parseLastLine('\n \n')).toBe(NO_ANSWER);
  });
});

describe('styles choose the parser', () => {
  it('IntentionQA: zero_shot, cot, cot_sc; SessionIntentBench: zero_shot, five_shot, cot', () => {
    const cotText = 'Step 1: x.\nStep 2: C';
    expect(answerParser('intentionqa', 'zero_shot')('b.')).toBe('B');
    expect(answerParser('intentionqa', 'cot')(cotText)).toBe('C');
    expect(answerParser('intentionqa', 'cot_sc')([cotText, 'Step 2: A', cotText])).toBe('C');
    expect(answerParser('sib', 'five_shot')('A. Yes')).toBe('A');
    expect(answerParser('sib', 'cot')('It fits.\nB')).toBe('B');
    expect(() => answerParser('intentionqa', 'cot_sc')('one string')).toThrow(/samples/);
    expect(() => answerParser('intentionqa', 'five_shot')).toThrow(/no style five_shot/);
  });
});
