// The warning a scorer gives when many answers could not be read: from 20 % of the scored answers
// on, naming the format the style expects; none below.
import { describe, expect, it } from 'vitest';
import { unparseableWarning } from '../engine/scoring/unparseable-share.js';

describe('unparseableWarning', () => {
  it('warns from 20 % unparseable on, over all columns, with the counts and the expected format', () => {
    // A CoT run answered with bare letters: nearly everything unparseable (the case that scored 0.00 % silently).
    expect(
      unparseableWarning('intentionqa', 'cot', [
        { scored: 330, unparseable: 329 },
        { scored: 340, unparseable: 337 },
      ]),
    ).toBe(
      '666 of 670 answers (99.4 %) are unparseable and scored as wrong (329 + 337), so the score says little about the model: ' +
        '--style cot expects a line "STEP 2: B" (the first non-space character after the first "STEP 2:"); ' +
        "bare letters are --style zero_shot's format. Check that --style names the prompt the responses answered " +
        '(scores.jsonl shows each parsed answer).',
    );
    // Exactly 20 %: warned; one answer fewer: not.
    expect(unparseableWarning('sib', 'cot', [{ scored: 10, unparseable: 2 }])).toMatch(
      /^2 of 10 answers \(20\.0 %\) are unparseable .*--style cot expects the reasoning, then the answer letter alone on the last line\./,
    );
    expect(unparseableWarning('sib', 'cot', [{ scored: 10, unparseable: 1 }])).toBeUndefined();
    expect(unparseableWarning('intentionqa', 'zero_shot', [{ scored: 0, unparseable: 0 }])).toBeUndefined();
  });
});
