// SessionIntentBench figures of a blind read (engine/review/sib-agreement.ts) on items and labels
// worked by hand, and the blind sheet (engine/review/sib-sheet.ts): what it shows (no id, kind or
// label), its seeded sample, and its answers scored back through the key.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleSib } from '../engine/items/sib/assemble-sib.js';
import type { ReviewItem } from '../engine/review/review-items.js';
import { sibAgreement } from '../engine/review/sib-agreement.js';
import { scoreSibSheet, writeSibSheet, type SibSheetKey } from '../engine/review/sib-sheet.js';
import { tempDir, WordHashEncoder } from './support/sib.js';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { openReview } from '../engine/review/open-review.js';
import { exportReview } from '../engine/review/export-review.js';
import { importMturkResults } from '../engine/review/mturk.js';
import { ReviewStore } from '../engine/review/review-store.js';
import { blindRef } from '../engine/review/blind-view.js';

const scale = ['A', 'B', 'C', 'D'].map((letter) => ({ letter, text: letter }));
const item = (task: string, kind: string, gold: string[]): ReviewItem => ({
  key: `${kind}-${task}-${gold.join('')}`,
  id: 'x',
  file: 'sib-distractors.jsonl',
  line: 1,
  benchmark: 'sib',
  task,
  difficulty: kind,
  relation: '-',
  products: [],
  question: 'q',
  options: scale,
  gold,
  goldNote: '',
});

describe('SIB figures of a review', () => {
  it('binary kinds: majority side, strong (extreme letter), unanimous; choices: Valid / F-Neg / Correct', () => {
    const items = [
      item('sib-1', 't1-hard-negative', ['C', 'D']), // D D C: as labelled, strong, unanimous
      item('sib-1', 't1-hard-negative', ['C', 'D']), // B C D: as labelled (2 of 3), not strong, not unanimous
      item('sib-1', 't1-hard-negative', ['C', 'D']), // A B C + one judgement with two letters: not as labelled
      item('sib-2', 'original', ['A', 'B']), //          A A: as labelled, strong (A), unanimous
      item('sib-next-product', 'next-product-choice', ['B']), // B, B+C, B: valid
      item('sib-next-product', 'next-product-choice', ['B']), // A+B, A+B, B: F-Neg, correct
      item('sib-next-product', 'next-product-choice', ['B']), // A, A, C: F-Neg (A is right by majority)
    ];
    const marks = [
      [['D'], ['D'], ['C']],
      [['B'], ['C'], ['D']],
      [['A'], ['B'], ['C'], ['C', 'D']],
      [['A'], ['A']],
      [['B'], ['B', 'C'], ['B']],
      [['A', 'B'], ['A', 'B'], ['B']],
      [['A'], ['A'], ['C']],
    ];
    const labels = marks.flatMap((m, position) => m.map((correct) => ({ position, correct })));
    const a = sibAgreement(items, labels);
    const p = (successes: number, n: number) => expect.objectContaining({ successes, n });
    expect(a.binary).toEqual([
      {
        task: 'sib-1',
        kind: 't1-hard-negative',
        items: 3,
        asLabelled: p(2, 3),
        strong: p(1, 3),
        unanimous: p(1, 3),
        notOneAnswer: 1,
        letters: { A: 1, B: 2, C: 3, D: 3 },
      },
      {
        task: 'sib-2',
        kind: 'original',
        items: 1,
        asLabelled: p(1, 1),
        strong: p(1, 1),
        unanimous: p(1, 1),
        notOneAnswer: 0,
        letters: { A: 2, B: 0, C: 0, D: 0 },
      },
    ]);
    expect(a.choices).toEqual([
      {
        task: 'sib-next-product',
        kind: 'next-product-choice',
        items: 3,
        valid: p(1, 3),
        fNeg: p(2, 3),
        correct: p(2, 3),
      },
    ]);
  });
});

/** The sample sessions' items with every window wide open and no serve rule: every kind is made. */
async function sampleItems(dir: string): Promise<void> {
  await assembleSib({
    sessions: 'examples/sib/sessions.jsonl',
    catalog: 'examples/sib/catalog.jsonl',
    out: join(dir, 'items'),
    seed: 3,
    styles: ['zero-shot'],
    encoder: new WordHashEncoder(32),
    windows: {
      intention: { lo: 0.0, hi: 0.99 },
      attribute: { lo: 0.0, hi: 0.99 },
      comparison: { lo: 0.0, hi: 0.99 },
      nextProduct: { lo: 0.0, hi: 0.99 },
    },
    serveRules: { margin: -1, substituteCosine: 1.01 },
    progress: false,
  });
}

describe('blind sheet', () => {
  it('samples distinct questions per kind, shows no id, kind or label, and scores answers through its key', async () => {
    const dir = tempDir();
    await sampleItems(dir);
    const out = join(dir, 'sheet');
    const key = await writeSibSheet({ itemsDir: join(dir, 'items'), out, perKind: 3, fillers: 2, seed: 5 });
    const again = await writeSibSheet({
      itemsDir: join(dir, 'items'),
      out: join(dir, 'again'),
      perKind: 3,
      fillers: 2,
      seed: 5,
    });
    expect(again).toEqual({ ...key, items_dir: key.items_dir });
    const counts: Record<string, number> = {};
    for (const q of key.questions) counts[q.kind] = (counts[q.kind] ?? 0) + 1;
    expect(counts).toEqual({
      't1-hard-negative': 3,
      't2-hard-negative': 3,
      't3-negative': 3,
      'next-product-choice': 3,
      original: 2,
    });
    expect(key.questions.map((q) => q.n)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    const sheet = readFileSync(join(out, 'sheet.md'), 'utf8');
    for (const hint of ['negative', 'constructed', 'hard', 'next-product', 'skincare-01', 'n1.', 'label', 'gold'])
      expect(sheet, hint).not.toContain(hint);
    expect(sheet.split('\n## ').length - 1).toBe(14);
    expect(JSON.parse(readFileSync(join(out, 'key.json'), 'utf8'))).toEqual(key);

    // Annotator a answers every question with its labelled side's last letter; b with the first
    // letter of the other side (a binary kind) or every option (a choice).
    const write = (name: string, answer: (q: SibSheetKey['questions'][number]) => string) => {
      const file = join(dir, `${name}.txt`);
      writeFileSync(file, key.questions.map((q) => `${q.n}: ${answer(q)}`).join('\n') + '\n');
      return file;
    };
    const binary = (q: SibSheetKey['questions'][number]) => q.kind !== 'next-product-choice';
    // Fillers without a label (gold []) are answered B and not scored.
    const a = write('a', (q) => q.gold[q.gold.length - 1] ?? 'B');
    const b = write('b', (q) => (binary(q) ? (q.gold.includes('A') ? 'C' : 'A') : 'A, B, C, D'));
    const one = await scoreSibSheet(join(out, 'key.json'), { a });
    for (const r of one.agreement.binary) expect(r.asLabelled.rate, r.kind).toBe(1);
    expect(one.agreement.choices[0]).toMatchObject({ items: 3, valid: { successes: 3 } });
    expect(one.markdown).toContain(
      '| sib-next-product | next-product-choice | 3 | 3/3 (100%) | 0/3 (0%) | 3/3 (100%) |',
    );
    const two = await scoreSibSheet(join(out, 'key.json'), { a, b });
    // One against one is no majority: no binary item is judged as labelled; a choice's gold is right
    // (both mark it), its distractors are not (one of two).
    for (const r of two.agreement.binary) expect(r.asLabelled.successes, r.kind).toBe(0);
    expect(two.agreement.choices[0]).toMatchObject({ valid: { successes: 3 }, fNeg: { successes: 0 } });

    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, '1: A\n\n2 - B\n');
    await expect(scoreSibSheet(join(out, 'key.json'), { bad })).rejects.toThrow(
      `${bad}:3: expected "N: letter(s)", got "2 - B"`,
    );
    writeFileSync(bad, '99: A\n');
    await expect(scoreSibSheet(join(out, 'key.json'), { bad })).rejects.toThrow(
      'question 99 is not on the sheet (1–14)',
    );
  });
});

describe('blind review of SIB items through Mechanical Turk', () => {
  it('batch without labels; results imported in the item letters; the summary gives the SIB figures', async () => {
    const dir = tempDir();
    await sampleItems(dir);
    const opened = await openReview({
      itemsDir: join(dir, 'items'),
      reviewDir: join(dir, 'review'),
      sample: 40,
      stratify: ['difficulty'],
      seed: 4,
      blind: true,
    });
    const items = opened.store.items();
    opened.store.close();
    const batch = join(dir, 'batch.csv');
    await exportReview({ reviewDir: join(dir, 'review'), out: join(dir, 'out'), mturkCsv: batch });
    const text = readFileSync(batch, 'utf8');
    for (const hint of ['negative', 'constructed', 'skincare-01', 'sib-distractors'])
      expect(text, hint).not.toContain(hint);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    const byRef = new Map(items.map((item) => [blindRef(item), item]));
    // Three workers: W1 and W2 answer each binary item with its label side's last letter (a strong
    // answer) and mark a choice's gold; W3 answers the other side and marks every option.
    // The options shown come back as Input.option_* (the import checks them against the review's).
    const shownColumns = ['option_A', 'option_B', 'option_C', 'option_D'];
    const head = [
      'WorkerId',
      'AssignmentStatus',
      'SubmitTime',
      'WorkTimeInSeconds',
      'Input.item_ref',
      ...shownColumns.map((c) => `Input.${c}`),
    ];
    const answers = ['Answer.rightOptions', 'Answer.validity', 'Answer.reasons', 'Answer.other_text'];
    const results: string[][] = [];
    for (const worker of ['W1', 'W2', 'W3'])
      for (const row of rows) {
        const item = byRef.get(row.item_ref!)!;
        const letters = item.options.map((o) => o.letter);
        const choice = item.task === 'sib-next-product';
        const gold = item.gold.length > 0 ? item.gold : [letters[0]!];
        const marks =
          worker !== 'W3'
            ? choice
              ? gold
              : [gold[gold.length - 1]!]
            : choice
              ? letters
              : [letters.find((l) => !gold.includes(l))!];
        results.push([
          worker,
          'Submitted',
          'Mon Jan 05 10:01:42 PST 2026',
          '30',
          row.item_ref!,
          ...shownColumns.map((c) => row[c] ?? ''),
          marks.join('|'),
          'valid',
          '',
          '',
        ]);
      }
    const file = join(dir, 'results.csv');
    writeFileSync(file, stringify([[...head, ...answers], ...results], { quoted: true }));
    const store = ReviewStore.open(join(dir, 'review'));
    expect(await importMturkResults(store, file)).toMatchObject({ imported: 3 * rows.length, workers: 3 });
    store.close();
    const { summary } = await exportReview({ reviewDir: join(dir, 'review'), out: join(dir, 'out2') });
    const kinds = new Set(items.filter((i) => i.gold.length > 0).map((i) => i.difficulty));
    expect(kinds.has('t1-hard-negative') && kinds.has('next-product-choice')).toBe(true);
    for (const r of summary.sib.binary) {
      expect(r.asLabelled.successes, r.kind).toBe(r.items);
      expect(r.strong.successes, r.kind).toBe(r.items);
      expect(r.unanimous.successes, r.kind).toBe(0);
    }
    expect(summary.sib.choices).toHaveLength(1);
    expect(summary.sib.choices[0]!.valid.successes).toBe(summary.sib.choices[0]!.items);
    expect(readFileSync(join(dir, 'out2', 'summary.md'), 'utf8')).toContain(
      '## SessionIntentBench: judged as labelled',
    );
  });
});
