import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { RejectsSink } from '../core/rejects.js';
import { loadAnnotations, parseAnnotation } from '../engine/items/sib/annotations.js';
import { answerLettersOf, binaryLabelOf, majorityVote, type AnswerLetter } from '../engine/items/sib/labels.js';
import { tempDir, writeJsonl } from './support/sib.js';

const at = { file: 'ann.jsonl', line: 7 };

describe('binary labels', () => {
  it('T1–T3: A, B positive; C, D negative', () => {
    for (const task of [1, 2, 3] as const) {
      expect(answerLettersOf(task)).toEqual(['A', 'B', 'C', 'D']);
      expect(['A', 'B', 'C', 'D'].map((l) => binaryLabelOf(task, l as AnswerLetter))).toEqual([
        'positive',
        'positive',
        'negative',
        'negative',
      ]);
    }
  });
  it('T4: A positive; B, C negative; D is not an answer', () => {
    expect(answerLettersOf(4)).toEqual(['A', 'B', 'C']);
    expect(['A', 'B', 'C'].map((l) => binaryLabelOf(4, l as AnswerLetter))).toEqual([
      'positive',
      'negative',
      'negative',
    ]);
    expect(() => binaryLabelOf(4, 'D')).toThrow(RangeError);
  });
});

describe('majority vote', () => {
  it('a clear majority', () => {
    expect(majorityVote(1, ['C', 'A', 'C'])).toEqual({
      letter: 'C',
      binary: 'negative',
      counts: { A: 1, C: 2 },
      tied: [],
    });
    expect(majorityVote(4, ['B'])).toEqual({ letter: 'B', binary: 'negative', counts: { B: 1 }, tied: [] });
  });
  it('a tie keeps no letter; the binary label survives when the tied letters agree', () => {
    expect(majorityVote(2, ['A', 'B'])).toEqual({
      letter: null,
      binary: 'positive',
      counts: { A: 1, B: 1 },
      tied: ['A', 'B'],
    });
    expect(majorityVote(3, ['D', 'C', 'C', 'D'])).toEqual({
      letter: null,
      binary: 'negative',
      counts: { C: 2, D: 2 },
      tied: ['C', 'D'],
    });
    expect(majorityVote(1, ['B', 'C'])).toEqual({
      letter: null,
      binary: null,
      counts: { B: 1, C: 1 },
      tied: ['B', 'C'],
    });
    expect(majorityVote(4, ['C', 'B', 'A'])).toEqual({
      letter: null,
      binary: null,
      counts: { A: 1, B: 1, C: 1 },
      tied: ['A', 'B', 'C'],
    });
    expect(majorityVote(4, ['B', 'C'])).toEqual({
      letter: null,
      binary: 'negative',
      counts: { B: 1, C: 1 },
      tied: ['B', 'C'],
    });
  });
  it('rejects letters the task does not have, and no votes', () => {
    expect(() => majorityVote(4, ['A', 'D'])).toThrow(RangeError);
    expect(() => majorityVote(1, [])).toThrow(RangeError);
  });
});

describe('annotation records', () => {
  it('answer or votes', () => {
    expect(parseAnnotation({ session_id: 's', leaf_id: 'n1.2', task: 2, answer: 'C' }, at).label).toEqual({
      letter: 'C',
      binary: 'negative',
      source: 'answer',
    });
    expect(parseAnnotation({ session_id: 's', leaf_id: '7', task: 4, votes: ['A', 'B', 'B'] }, at)).toMatchObject({
      leafId: '7',
      task: 4,
      label: { letter: 'B', binary: 'negative', source: 'votes', votes: { A: 1, B: 2 } },
    });
    expect(parseAnnotation({ session_id: 's', leaf_id: 'x', task: 1, votes: ['B', 'C'] }, at).label).toEqual({
      letter: null,
      binary: null,
      source: 'votes',
      votes: { B: 1, C: 1 },
      tied: ['B', 'C'],
    });
  });

  const message = (json: unknown) => {
    try {
      parseAnnotation(json, at);
    } catch (err) {
      if (err instanceof InputError) return err.message;
      throw err;
    }
    return 'no error';
  };
  it('errors name file, line and field', () => {
    expect(message({ session_id: 's', leaf_id: 'x', task: 4, answer: 'D' })).toBe(
      'ann.jsonl:7 (field "answer"): task 4 answers A, B or C, got the string "D"',
    );
    expect(message({ session_id: 's', leaf_id: 'x', task: 1, votes: ['A', 'E'] })).toBe(
      'ann.jsonl:7 (field "votes[1]"): task 1 answers A, B, C or D, got the string "E"',
    );
    expect(message({ session_id: 's', leaf_id: 'x', task: 5, answer: 'A' })).toBe(
      'ann.jsonl:7 (field "task"): must be ≤ 4, got 5',
    );
    expect(message({ session_id: 's', leaf_id: 'x', task: 1 })).toBe(
      'ann.jsonl:7 (field "answer"): missing: give "answer" (a letter) or "votes" (letters)',
    );
    expect(message({ session_id: 's', leaf_id: 'x', task: 1, answer: 'A', votes: ['A'] })).toBe(
      'ann.jsonl:7 (field "votes"): give "answer" or "votes", not both',
    );
    expect(message({ session_id: 's', leaf_id: 'x', task: 1, votes: [] })).toBe(
      'ann.jsonl:7 (field "votes"): needs at least one vote',
    );
    expect(message({ session_id: 's', task: 1, answer: 'A' })).toBe('ann.jsonl:7 (field "leaf_id"): missing');
  });

  it('a second annotation of the same task is an error (or a reject with --on-error skip)', async () => {
    const dir = tempDir();
    const file = writeJsonl(dir, 'a.jsonl', [
      { session_id: 's', leaf_id: 'x', task: 1, answer: 'A' },
      { session_id: 's', leaf_id: 'x', task: 2, answer: 'A' },
      { session_id: 's', leaf_id: 'x', task: 1, answer: 'B' },
    ]);
    await expect(loadAnnotations(file)).rejects.toThrow(
      `${file}:3 (field "leaf_id"): duplicate annotation of session "s", leaf "x", task 1 (first on line 1)`,
    );
    const rejects = new RejectsSink(`${dir}/rejects.jsonl`);
    const index = await loadAnnotations(file, { onError: 'skip', rejects });
    await rejects.close();
    expect(index.size).toBe(2);
    expect(rejects.count).toBe(1);
    // The rejects file keeps the line as it was, like every other rejects file.
    expect(JSON.parse(readFileSync(`${dir}/rejects.jsonl`, 'utf8'))).toEqual({
      file,
      line: 3,
      field: 'leaf_id',
      reason: 'duplicate annotation of session "s", leaf "x", task 1 (first on line 1)',
      input: JSON.stringify({ session_id: 's', leaf_id: 'x', task: 1, answer: 'B' }),
    });
    expect(index.take('s', 'x', 1)?.letter).toBe('A');
    expect(index.take('s', 'x', 3)).toBeNull();
    expect(index.unused().map((a) => a.line)).toEqual([2]);
  });
});
