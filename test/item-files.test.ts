// The one reader of IntentionQA item files (engine/scoring/intentionqa/intentionqa-item-file.ts), as
// review, audit and ask use it: the released format (no task, difficulty or prompts; HTML references
// in titles), malformed items set apart with a reason, lines kept byte for byte, a BOM skipped, and
// ids read as JSON strings (issue 35, faults 10 and 15).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeHtmlEntities } from '../core/html-entities.js';
import { detectBenchmark, readAskItems } from '../engine/evaluation/ask-items.js';
import { readAuditItems } from '../engine/evaluation/audit-items.js';
import { readReviewItems } from '../engine/review/review-items.js';
import { malformedReason, readIntentionQaItems } from '../engine/scoring/intentionqa/intentionqa-item-file.js';
import { manyIntentionQaItems, writeItemsDir } from './support/review-fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intentsim-item-files-'));

/** A released Task-1 record (released_task1.jsonl's fields, in its order and spacing). */
const released = (id: string, options: Record<string, string>, gold = 'A') =>
  `{"id": "${id}", "item_a_id": "B1", "item_b_id": "B2", "item_a_name": "Tom &amp; Jerry &quot;Mug&quot;", "item_b_name": "Tea &#39;Pot&#39;", "relation": "all", "assertion": "PersonX bought a product of Item A and a product of Item B because they both hold tea.", "distractors_id": ["FS_2"], "distractors_asserstion": ["x"], "typicality": 0.6, "gold_ind": "${gold}", "options": ${JSON.stringify(options)}, "hadFalseNegative": 0}`;
const FOUR = { A: 'because they both hold tea.', B: 'because b.', C: 'because c &amp; d.', D: 'because d.' };

describe('decodeHtmlEntities', () => {
  it('decodes named and numeric references once, and leaves unknown or invalid ones as written', () => {
    expect(decodeHtmlEntities('A &amp; B &quot;C&quot; &#39;d&#39; &#x2019; 5&deg; &nbsp;')).toBe(
      'A & B "C" \'d\' ’ 5° \u00a0',
    );
    expect(decodeHtmlEntities('&amp;quot; &bogus; &#0; &#xD800; & alone')).toBe('&quot; &bogus; &#0; &#xD800; & alone');
  });
});

describe('malformedReason', () => {
  it('needs exactly four options with four distinct texts', () => {
    expect(malformedReason(FOUR)).toBeUndefined();
    expect(malformedReason({ A: 'x', B: 'y', C: 'z' })).toBe('3 options (A, B, C), not 4');
    expect(malformedReason({ A: 'x' })).toBe('1 option (A), not 4');
    expect(malformedReason({ ...FOUR, E: 'e' })).toBe('5 options (A, B, C, D, E), not 4');
    expect(malformedReason({ A: 'x', B: 'y', C: 'x', D: 'z' })).toBe('options A and C have the same text');
  });
});

describe('the released format, read by review, audit and ask alike', () => {
  const dir = tmp();
  const lines = [
    released('FS_1', FOUR),
    released('FS_2', { A: 'x', B: 'y', C: 'z' }),
    released('FS_3', { A: 'x', B: 'y', C: 'x', D: 'w' }, 'C'),
    released('FS_4', { ...FOUR, A: 'because é\\u00e9.' }, 'B'),
  ];
  const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': lines });
  const file = join(items, 'intentionqa_task1.jsonl');

  it('the reader: task from the file, prompts rendered, malformed items set apart with the reason, lines as read', async () => {
    const read = await readIntentionQaItems(file);
    expect(read.items.map((i) => [i.question.id, i.question.task, i.line, i.text])).toEqual([
      ['FS_1', 1, 1, lines[0]],
      ['FS_4', 1, 4, lines[3]],
    ]);
    expect(read.malformed.map((m) => [m.id, m.line, m.reason, m.text === lines[m.line - 1]])).toEqual([
      ['FS_2', 2, '3 options (A, B, C), not 4', true],
      ['FS_3', 3, 'options A and C have the same text', true],
    ]);
    const first = read.items[0]!;
    // The prompt is the released askLM's (the text as the file holds it); the display is decoded.
    expect(first.question.prompts.zero_shot.startsWith('A customer buys Tom &amp; Jerry &quot;Mug&quot; and')).toBe(
      true,
    );
    expect(first.display).toEqual({
      products: ['Tom & Jerry "Mug"', "Tea 'Pot'"],
      question: 'A customer buys Tom & Jerry "Mug" and Tea \'Pot\'. What is the most likely intention for buying them?',
      options: { A: 'because they both hold tea.', B: 'because b.', C: 'because c & d.', D: 'because d.' },
    });
  });

  it('a Task-2 file name gives task 2 to a record without task or distractor fields', async () => {
    const t2 = writeItemsDir(join(tmp(), 'items'), {
      'intentionqa_task2.jsonl': [
        JSON.stringify({
          id: 'X',
          item_a_name: 'Kettle',
          item_b_name: 'Tea',
          assertion: 'PersonX bought them because they make tea.',
          gold_ind: 'B',
          options: { A: 'Mug', B: 'Tea', C: 'Lamp', D: 'Sock' },
        }),
      ],
    });
    const [item] = (await readIntentionQaItems(join(t2, 'intentionqa_task2.jsonl'))).items;
    expect(item!.question.task).toBe(2);
    expect(item!.display.question).toBe(
      "A customer buys Kettle, because they make tea.\nWhat is the customer's most probable additional purchase?",
    );
  });

  it('review start, audit and ask accept the file unchanged and agree on its items', async () => {
    const review = await readReviewItems(items);
    expect(review.items.map((s) => [s.item.id, s.item.task, s.item.difficulty, s.item.products[0], s.raw])).toEqual([
      ['FS_1', 'intentionqa-1', 'unknown', 'Tom & Jerry "Mug"', lines[0]],
      ['FS_4', 'intentionqa-1', 'unknown', 'Tom & Jerry "Mug"', lines[3]],
    ]);
    expect(review.malformed.map((m) => m.id)).toEqual(['FS_2', 'FS_3']);
    const audit = await readAuditItems([file], { onError: 'fail' });
    expect(audit.items.map((i) => [i.key, i.text, i.options.C])).toEqual([
      ['1#FS_1', lines[0], 'because c & d.'],
      ['1#FS_4', lines[3], 'because c & d.'],
    ]);
    expect(audit.malformed.map((m) => m.id)).toEqual(['FS_2', 'FS_3']);
    const ask = await readAskItems(file, await detectBenchmark(file), 'zero_shot', { onError: 'fail' });
    expect(ask.items.map((i) => i.id)).toEqual(['FS_1', 'FS_4']);
    expect(ask.malformed.map((m) => m.id)).toEqual(['FS_2', 'FS_3']);
  });
});

describe('issue 35 fault 15: a BOM at the start of an items file is skipped by review, audit and ask', () => {
  const lines = manyIntentionQaItems(2);
  const items = writeItemsDir(join(tmp(), 'items'), { 'intentionqa_task1.jsonl': lines });
  const file = join(items, 'intentionqa_task1.jsonl');
  writeFileSync(file, '\ufeff' + lines.join('\n') + '\n');

  it('reads both items, the first line without the BOM', async () => {
    const review = await readReviewItems(items);
    expect(review.items.map((s) => s.raw)).toEqual(lines);
    const audit = await readAuditItems([file], { onError: 'fail' });
    expect(audit.items.map((i) => i.text)).toEqual(lines);
    expect(await detectBenchmark(file)).toBe('intentionqa');
    const ask = await readAskItems(file, 'intentionqa', 'zero_shot', { onError: 'fail' });
    expect(ask.items).toHaveLength(2);
  });
});

describe('issue 35 fault 10: the review item reader keeps lines byte for byte and reads ids as JSON strings', () => {
  const base = JSON.parse(manyIntentionQaItems(1)[0]!) as Record<string, unknown>;
  const withId = (id: string) => JSON.stringify({ ...base, id: 'ID' }).replace('"id":"ID"', `"id":${id}`);

  it('refuses a Latin-1 byte (not valid UTF-8), naming file and line, instead of turning it into U+FFFD', async () => {
    const items = writeItemsDir(join(tmp(), 'items'), { 'intentionqa_task1.jsonl': [] });
    const good = manyIntentionQaItems(1)[0]!;
    const latin1 = Buffer.from(good.replace('"relation":"', '"relation":"caf\u00e9 '), 'latin1');
    writeFileSync(join(items, 'intentionqa_task1.jsonl'), Buffer.concat([latin1, Buffer.from('\n')]));
    await expect(readReviewItems(items)).rejects.toThrow(/intentionqa_task1\.jsonl:1: not valid UTF-8/);
  });

  it('refuses a numeric id ("id":1.50 is not "1.5"), and two long numeric ids are not called one repeated id', async () => {
    const one = writeItemsDir(join(tmp(), 'items'), { 'intentionqa_task1.jsonl': [withId('1.50')] });
    await expect(readReviewItems(one)).rejects.toThrow(
      /intentionqa_task1\.jsonl:1 \(field "id"\): an id must be a JSON string, got the number 1\.5/,
    );
    const two = writeItemsDir(join(tmp(), 'items'), {
      'intentionqa_task1.jsonl': [withId('12345678901234567891'), withId('12345678901234567892')],
    });
    await expect(readReviewItems(two)).rejects.toThrow(/:1 \(field "id"\): an id must be a JSON string/);
    // The same ids as strings are two items.
    const strings = writeItemsDir(join(tmp(), 'items'), {
      'intentionqa_task1.jsonl': [withId('"12345678901234567891"'), withId('"12345678901234567892"')],
    });
    expect((await readReviewItems(strings)).items.map((s) => s.item.id)).toEqual([
      '12345678901234567891',
      '12345678901234567892',
    ]);
  });

  it('keeps a line as written: escapes, spacing and key order', async () => {
    const line = withId('"Q\\u00e9"').replace('"relation":', '"relation" :  ');
    const items = writeItemsDir(join(tmp(), 'items'), { 'intentionqa_task1.jsonl': [line] });
    const [read] = (await readReviewItems(items)).items;
    expect(read!.item.id).toBe('Qé');
    expect(read!.raw).toBe(line);
  });
});
