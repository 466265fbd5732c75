// `items check` (engine/items/intentionqa/check-items.ts) on hand-made assertions and items: each rule
// flags exactly the options it should, malformed items are counted apart, and --drop-flagged keeps
// the other lines byte for byte.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkItems } from '../engine/evaluation/check-items.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-items-check-'));
const write = (name: string, lines: string[]) => {
  writeFileSync(join(dir, name), lines.map((l) => l + '\n').join(''));
  return join(dir, name);
};
const sentence = (why: string) => `PersonX bought a product of Item A and a product of Item B ${why}`;
const assertion = (id: string, a: string, b: string, why: string) =>
  JSON.stringify({ id, item_a_id: a, item_b_id: b, relation: 'other', assertion: sentence(why), typicality: 0.8 });

const assertions = write('assertions.jsonl', [
  assertion('FS_1', 'P1', 'P2', 'because they hold tea.'),
  assertion('FS_2', 'P1', 'P2', 'because they are gifts.'),
  // Asserted for three pairs with no products file: three concept groups, so generic (cut-off 3).
  assertion('FS_3', 'P3', 'P4', 'because they are useful.'),
  assertion('FS_4', 'P5', 'P6', 'because they are useful.'),
  assertion('FS_5', 'P7', 'P8', 'because they are useful.'),
  assertion('FS_6', 'P3', 'P4', 'because they hold coffee.'),
  assertion('FS_7', 'P1', 'P9', 'because they hold tea.'),
]);

// Released-format Task-1 items (spacing as the released file has it).
const t1 = (id: string, a: string, b: string, options: Record<string, string>) =>
  `{"id": "${id}", "item_a_id": "${a}", "item_b_id": "${b}", "item_a_name": "${a} &amp; co", "item_b_name": "${b}", "relation": "all", "distractors_asserstion": [], "gold_ind": "A", "options": ${JSON.stringify(options)}}`;
const T1 = [
  t1('x1', 'P1', 'P2', {
    A: 'because they hold tea.',
    B: 'because they are gifts.', // asserted for P1–P2: pair-asserted
    C: 'Because they are USEFUL', // generic (compared normalised)
    D: 'because they hold coffee.',
  }),
  t1('x2', 'P3', 'P4', {
    A: 'because they hold coffee.',
    B: 'because they hold tea.',
    C: 'because they are gifts.',
    D: 'because they sleep.',
  }),
  t1('x3', 'P3', 'P4', {
    A: 'because they are useful.', // the gold is generic
    B: 'because they hold tea.',
    C: 'because they are gifts.',
    D: 'because they sleep.',
  }),
  t1('x4', 'P1', 'P2', { A: 'because they hold tea.', B: 'because they sleep.', C: 'because they dance.' }),
];

const T2 = [
  JSON.stringify({
    id: 'y1',
    item_a_id: 'P1',
    item_b_id: 'P2',
    item_a_name: 'Kettle',
    item_b_name: 'Tea',
    assertion: sentence('because they hold tea.'),
    distractors_id: ['P9', 'P10', 'P11'],
    distractors_product: ['Teapot', 'Lamp', 'Sock'],
    gold_ind: 'B',
    options: { A: 'Teapot', B: 'Tea', C: 'Lamp', D: 'Sock' },
  }),
];

describe('items check', () => {
  it('flags each rule on the options it should, and keeps the other items byte for byte', async () => {
    const items = join(dir, 'items');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(items);
    writeFileSync(join(items, 'released_task1.jsonl'), T1.map((l) => l + '\n').join(''));
    writeFileSync(join(items, 'released_task2.jsonl'), T2.map((l) => l + '\n').join(''));
    // Another layout of the same items, as ../shared holds it: not read, and said so (issue 47).
    writeFileSync(join(items, 'released_task1_byRelation.jsonl'), T1[0] + '\n');
    const out = join(dir, 'out');
    const r = await checkItems({ items, assertions, out, dropFlagged: true });
    expect(r.summary.skipped).toEqual([
      {
        file: join(items, 'released_task1_byRelation.jsonl'),
        reason:
          'not one of the names read from a folder (intentionqa_task1.jsonl, intentionqa_task2.jsonl, released_task1.jsonl, released_task2.jsonl)',
      },
    ]);
    expect(r.flagged.map((f) => [f.id, f.task, f.rule, f.letter, f.text])).toEqual([
      ['x1', 1, 'pair-asserted', 'B', 'because they are gifts.'],
      ['x1', 1, 'generic', 'C', 'Because they are USEFUL'],
      ['x3', 1, 'generic-gold', 'A', 'because they are useful.'],
      ['y1', 2, 'pair-asserted', 'A', 'Teapot'],
    ]);
    const [f1, f2] = r.summary.files;
    expect([f1!.task, f1!.items, f1!.malformed, f1!.flagged]).toEqual([1, 4, 1, 3]);
    expect(f1!.rules).toEqual([
      { rule: 'pair-asserted', items: 1, texts: [{ text: 'because they are gifts.', items: 1 }] },
      { rule: 'generic', items: 1, texts: [{ text: 'Because they are USEFUL', items: 1 }] },
      { rule: 'second-answer', items: 0, texts: [] },
      { rule: 'kind-asserted', items: 0, texts: [] },
      { rule: 'group-generic', items: 0, texts: [] },
      { rule: 'substitute', items: 0, texts: [] },
      // Without --encoder the rules that read fits hold for nothing, and kind-words needs title kinds.
      { rule: 'vacuous', items: 0, texts: [] },
      { rule: 'fits-as-well', items: 0, texts: [] },
      { rule: 'kind-words', items: 0, texts: [] },
      { rule: 'unanchored', items: 0, texts: [] },
      // Titles of the products file: no distractor product shares a word with the gold's or p_A's.
      { rule: 'title-words', items: 0, texts: [] },
      { rule: 'generic-gold', items: 1, texts: [{ text: 'because they are useful.', items: 1 }] },
      { rule: 'vacuous-gold', items: 0, texts: [] },
      { rule: 'unexplained', items: 0, texts: [] },
    ]);
    expect([f2!.task, f2!.items, f2!.malformed, f2!.flagged]).toEqual([2, 1, 0, 1]);
    expect(r.summary.generic).toEqual([{ text: 'because they are useful.', groups: 3, pairs: 3 }]);
    expect(r.kept).toEqual({ 'released_task1.jsonl': 1, 'released_task2.jsonl': 0 });
    expect(readFileSync(join(out, 'items', 'released_task1.jsonl'), 'utf8')).toBe(T1[1] + '\n');
    expect(readFileSync(join(out, 'items', 'released_task2.jsonl'), 'utf8')).toBe('');
    const dropped = readFileSync(join(out, 'items', 'intentionqa_dropped.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; reason: string; detail: string });
    expect(dropped.map((d) => [d.id, d.reason])).toEqual([
      ['x1', 'pair-asserted'],
      ['x3', 'generic-gold'],
      ['x4', 'malformed'],
      ['y1', 'pair-asserted'],
    ]);
    expect(dropped[2]!.detail).toBe('malformed: 3 options (A, B, C), not 4');
    expect(JSON.parse(readFileSync(join(out, 'check.json'), 'utf8'))).toEqual(r.summary);
  });

  it('with a products file, generic needs pairs in three unrelated concept groups (titles sharing a head word are one)', async () => {
    const products = write('products.jsonl', [
      ...['P3', 'P5', 'P7'].map((id) => JSON.stringify({ id, title: 'Steel Water Bottle' })),
      ...['P4', 'P6', 'P8'].map((id) => JSON.stringify({ id, title: 'Bamboo Toothbrush' })),
    ]);
    const items = write('intentionqa_task1.jsonl', [T1[0]!]);
    const r = await checkItems({ items, assertions, products });
    expect(r.summary.generic).toEqual([]);
    expect(r.flagged.map((f) => f.rule)).toEqual(['pair-asserted']);
  });

  it("with a products file, title-words flags a Task-2 option whose title shares a word with the gold's or p_A's", async () => {
    const titles: Record<string, string> = {
      P1: 'Electric Kettle',
      P2: 'Green Tea Leaves',
      P3: 'Steel Water Bottle',
      P4: 'Bamboo Toothbrush',
      P5: 'Wool Socks',
      P6: 'Yoga Mat',
      P7: 'Garden Hose',
      P8: 'Dog Leash',
      P9: 'Ceramic Tea Pot', // "tea", as the gold
      P10: 'Desk Lamp',
      P11: 'Kettles Descaler', // "kettles" = "kettle", as p_A
    };
    const products = write(
      'products-titles.jsonl',
      Object.entries(titles).map(([id, title]) => JSON.stringify({ id, title })),
    );
    // The check numbers the products the assertions name: P10 and P11 are named here.
    const named = write('assertions-titles.jsonl', [
      ...readFileSync(assertions, 'utf8').trimEnd().split('\n'),
      assertion('FS_8', 'P10', 'P11', 'because they light rooms.'),
    ]);
    const y2 = JSON.parse(T2[0]!) as Record<string, unknown>;
    const item = JSON.stringify({
      ...y2,
      id: 'y2',
      distractors_product: ['Teapot', 'Lamp', 'Descaler'],
      options: { A: 'Teapot', B: 'Tea', C: 'Lamp', D: 'Descaler' },
    });
    const r = await checkItems({ items: write('intentionqa_task2.jsonl', [item]), assertions: named, products });
    const titleWords = r.flagged.filter((f) => f.rule === 'title-words').map((f) => [f.letter, f.text]);
    expect(titleWords).toEqual([
      ['A', 'Teapot'],
      ['D', 'Descaler'],
    ]);
  });
});
