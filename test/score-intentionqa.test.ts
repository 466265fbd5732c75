// `score intentionqa` on small hand-computed sets: every status (correct, wrong, unparseable, missing,
// failed request, fewer than 4 options), accuracy per task × difficulty and relation, RANDOM and
// MAJORITY, the output files; and on the released item files, whose prompts `ask` rebuilds.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scoreIntentionQa } from '../engine/scoring/intentionqa/score-intentionqa.js';
import type { IntentionQaItemScore } from '../engine/scoring/intentionqa/intentionqa-score-types.js';
import { readAskItems } from '../engine/evaluation/ask-items.js';
import { readIntentionQaItems } from '../engine/scoring/intentionqa/intentionqa-item-file.js';
import { projectRoot } from '../core/shared-files.js';
import { cli } from './support/cli.js';

const jsonl = (records: readonly object[]) => records.map((r) => JSON.stringify(r) + '\n').join('');

const OPTIONS4 = { A: 'because a.', B: 'because b.', C: 'because c.', D: 'because d.' };

/** An engine Task 1 item (the fields scoring reads). */
function task1(id: string, gold: string, difficulty: string, relation: string) {
  return {
    id,
    item_a_name: `${id} product A`,
    item_b_name: `${id} product B`,
    relation,
    assertion: `PersonX bought a product of Item A and a product of Item B because ${id}.`,
    gold_ind: gold,
    options: OPTIONS4,
    task: 1,
    difficulty,
    prompts: { zero_shot: `zero-shot prompt of ${id}`, cot: `CoT prompt of ${id}` },
  };
}

/** A released-format Task 1 item: no task, difficulty or prompts. */
function released(id: string, gold: string, options: Record<string, string>) {
  return {
    id,
    item_a_name: 'USB Cable',
    item_b_name: 'HDMI Cable',
    relation: 'all',
    assertion: 'PersonX bought a product of Item A and a product of Item B because they both are cables.',
    distractors_asserstion: Object.values(options).slice(1),
    gold_ind: gold,
    options,
  };
}

let dir: string;
const files = () => [
  { items: join(dir, 'task1.jsonl'), responses: join(dir, 'r1.jsonl') },
  { items: join(dir, 'released.jsonl'), responses: join(dir, 'r-released.jsonl') },
  { items: join(dir, 'task2.jsonl'), responses: join(dir, 'r2.jsonl') },
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-score-iqa-'));
  writeFileSync(
    join(dir, 'task1.jsonl'),
    jsonl([
      task1('i1', 'A', 'easy', 'usedFor'),
      task1('i2', 'B', 'easy', 'usedFor'),
      task1('i3', 'C', 'medium', 'isA'),
      task1('i4', 'D', 'hard', 'isA'),
      task1('i5', 'A', 'medium', 'isA'),
      task1('i6', 'B', 'easy', 'usedFor'),
      task1('i7', 'A', 'hard', 'isA'),
    ]),
  );
  writeFileSync(
    join(dir, 'r1.jsonl'),
    jsonl([
      { id: 'i1', response: 'A', completion_tokens: 1, model: 'test-model' },
      { id: 'i2', response: 'c.' },
      { id: 'i3', response: 'c' },
      { id: 'i4', response: 'Answer: D' }, // read as "A": wrong
      // i5: no line (missing)
      { id: 'i6', response: 'Error', prompt_tokens: -1, completion_tokens: -1 },
      { id: 'i7', response: 'A', completion_tokens: -1 },
      { id: 'zzz', response: 'A' }, // no such item
    ]),
  );
  writeFileSync(
    join(dir, 'released.jsonl'),
    jsonl([
      released('r1', 'A', { A: 'because x.', B: 'because y.', C: 'because z.' }),
      released('r2', 'E', { A: 'because v.', B: 'because w.', C: 'because x.', D: 'because y.', E: 'because z.' }),
      released('r3', 'B', { A: 'because w.', B: 'because x.', C: 'because y.', D: 'because z.' }),
    ]),
  );
  writeFileSync(
    join(dir, 'r-released.jsonl'),
    jsonl([
      { id: 'r1', response: 'A' },
      { id: 'r2', response: 'e' },
      { id: 'r3', response: 'x' },
    ]),
  );
  writeFileSync(
    join(dir, 'task2.jsonl'),
    jsonl([
      {
        id: 'i1', // Task 2 items share ids with Task 1's
        item_a_name: 'Phone Case',
        item_b_name: 'Screen Protector',
        relation: 'usedFor',
        assertion: 'PersonX bought a product of Item A and a product of Item B because they protect a phone',
        gold_ind: 'B',
        options: { A: 'Charger', B: 'Screen Protector', C: 'Mug', D: 'Boots' },
        task: 2,
        difficulty: 'easy',
      },
      {
        id: 'i2',
        item_a_name: 'Kettle',
        item_b_name: 'Tea',
        relation: 'isA',
        assertion: 'as a result, PersonX drinks tea.',
        gold_ind: 'C',
        options: { A: 'Cup', B: 'Spoon', C: 'Tea', D: 'Sugar' },
        task: 2,
        pair_similarity: 0.7,
      },
    ]),
  );
  writeFileSync(
    join(dir, 'r2.jsonl'),
    jsonl([
      { id: 'i1', response: 'B' },
      { id: 'i2', response: 'D' },
    ]),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('score intentionqa on a hand-computed set', () => {
  it('gives every item its status, as computeACC.py would, and counts what it does not score', async () => {
    const out = join(dir, 'out');
    const r = await scoreIntentionQa({ files: files(), style: 'zero_shot', out, seed: 1 });
    const byId = (task: number, id: string) => r.scores.find((s) => s.task === task && s.id === id)!;
    expect(byId(1, 'i4')).toEqual<IntentionQaItemScore>({
      task: 1,
      id: 'i4',
      difficulty: 'hard',
      relation: 'isA',
      gold: 'D',
      parsed: 'A',
      correct: false,
      status: 'wrong',
    });
    expect(r.scores.filter((s) => s.task === 1).map((s) => [s.id, s.status, s.parsed])).toEqual([
      ['i1', 'correct', 'A'],
      ['i2', 'wrong', 'C'],
      ['i3', 'correct', 'C'],
      ['i4', 'wrong', 'A'],
      ['i5', 'missing', null],
      ['i6', 'failed', null],
      ['i7', 'failed', null],
      ['r1', 'fewer-options', 'A'],
      ['r2', 'correct', 'E'],
      ['r3', 'unparseable', 'X'],
    ]);
    const t1 = r.summary.tasks.find((t) => t.task === 1)!;
    expect(t1.counts).toEqual({
      items: 10,
      scored: 6,
      correct: 3,
      unparseable: 1,
      missing: 1,
      failed: 2,
      fewer_options: 1,
      malformed: 0,
      malformed_kinds: {},
    });
    expect(r.summary.columns).toEqual(['easy', 'medium', 'hard', 'unknown', 'all']);
    expect(t1.model).toEqual({
      easy: { correct: 1, n: 2, accuracy: 0.5 },
      medium: { correct: 1, n: 1, accuracy: 1 },
      hard: { correct: 0, n: 1, accuracy: 0 },
      unknown: { correct: 1, n: 2, accuracy: 0.5 },
      all: { correct: 3, n: 6, accuracy: 0.5 },
    });
    // The baselines answer every item with 4 or more options (9 of the 10), answered or not.
    expect(t1.random.expected.easy).toBe(0.25);
    expect(t1.random.expected.unknown).toBeCloseTo((1 / 5 + 1 / 4) / 2, 15);
    expect(t1.random.expected.all).toBeCloseTo((8 / 4 + 1 / 5) / 9, 15);
    // Gold letters A A A B B B C D E: A and B tie at 3, A comes first.
    expect(t1.majority.letter).toBe('A');
    expect(t1.majority.cells).toEqual({
      easy: { correct: 1, n: 3, accuracy: 1 / 3 },
      medium: { correct: 1, n: 2, accuracy: 0.5 },
      hard: { correct: 1, n: 2, accuracy: 0.5 },
      unknown: { correct: 0, n: 2, accuracy: 0 },
      all: { correct: 3, n: 9, accuracy: 1 / 3 },
    });
    expect(t1.random.draw.all!.n).toBe(9);

    // Task 2 reuses the ids i1 and i2: its own responses file answers it. Difficulty from pair_similarity.
    const t2 = r.summary.tasks.find((t) => t.task === 2)!;
    expect(t2.model.easy).toEqual({ correct: 1, n: 1, accuracy: 1 });
    expect(t2.model.medium).toEqual({ correct: 0, n: 1, accuracy: 0 });
    expect(t2.model.hard).toEqual({ correct: 0, n: 0, accuracy: null });
    expect(r.summary.relations).toEqual([
      { relation: 'all', tasks: { task1: { correct: 1, n: 2, accuracy: 0.5 } } },
      {
        relation: 'isA',
        tasks: { task1: { correct: 1, n: 2, accuracy: 0.5 }, task2: { correct: 0, n: 1, accuracy: 0 } },
      },
      {
        relation: 'usedFor',
        tasks: { task1: { correct: 1, n: 2, accuracy: 0.5 }, task2: { correct: 1, n: 1, accuracy: 1 } },
      },
    ]);
    expect(r.summary.unknown_response_ids).toEqual([{ responses: join(dir, 'r1.jsonl'), ids: ['zzz'] }]);
    expect(r.summary.answerer).toBe('test-model');

    // The files: one line per item, the tables, the chart.
    const lines = readFileSync(join(out, 'scores.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(12);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(r.summary)));
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toContain(
      '| | Task 1 easy | Task 1 medium | Task 1 hard | Task 1 unknown | Task 1 all | Task 2 easy | Task 2 medium | Task 2 hard | Task 2 unknown | Task 2 all |',
    );
    expect(md).toContain(
      '| test-model, zero-shot | 50.00 | 100.00 | 0.00 | 50.00 | 50.00 | 100.00 | 0.00 | – | – | 50.00 |',
    );
    expect(md).toContain('| MAJORITY | 33.33 | 50.00 | 50.00 | 0.00 | 33.33 |');
    expect(md).toContain('| unparseable (scored as wrong) | 1 | 0 |');
    expect(md).toContain('| missing (no response line) | 1 | 0 |');
    expect(md).toContain('| excluded: fewer than 4 options | 1 | 0 |');
    expect(md).toContain('Response lines whose id is no question of their file (not scored): 1.');
    const svg = readFileSync(join(out, 'summary.svg'), 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    // Undefined values (Task 2 hard and unknown, for each of the three series) get no bar.
    expect(svg.match(/>n\/a</g)).toHaveLength(2 * 3);
  });

  it('reads CoT-SC samples: a failed sample votes as unparseable, and the item is never excluded', async () => {
    writeFileSync(join(dir, 'sc-items.jsonl'), jsonl([task1('s1', 'B', 'easy', 'r'), task1('s2', 'C', 'easy', 'r')]));
    writeFileSync(
      join(dir, 'sc.jsonl'),
      jsonl([
        // The released check (response == 'Error' or completion_tokens == -1) never matches lists.
        {
          id: 's1',
          response: ['Error', 'Step 2: B', 'Error', 'Step 2: B', 'Error'],
          completion_tokens: [-1, 3, -1, 3, -1],
        },
        { id: 's2', response: ['Step 2: C', 'Step 2: A', 'Step 2: A', 'Step 2: C', 'x'] },
      ]),
    );
    const r = await scoreIntentionQa({
      files: [{ items: join(dir, 'sc-items.jsonl'), responses: join(dir, 'sc.jsonl') }],
      style: 'cot_sc',
    });
    expect(r.scores.map((s) => [s.id, s.parsed, s.status])).toEqual([
      ['s1', ' ', 'unparseable'],
      ['s2', 'C', 'correct'],
    ]);
  });

  it('names the file, line and field of a bad responses line; skips it with --on-error skip', async () => {
    writeFileSync(
      join(dir, 'bad.jsonl'),
      jsonl([
        { id: 'i1', response: 'A' },
        { id: 'i2', response: ['A'] },
      ]),
    );
    const pair = [{ items: join(dir, 'task1.jsonl'), responses: join(dir, 'bad.jsonl') }];
    await expect(scoreIntentionQa({ files: pair, style: 'zero_shot' })).rejects.toThrow(
      `${join(dir, 'bad.jsonl')}:2 (field "response"): style zero_shot reads one response, a string`,
    );
    await expect(scoreIntentionQa({ files: pair, style: 'cot_sc' })).rejects.toThrow(
      `${join(dir, 'bad.jsonl')}:1 (field "response"): style cot_sc needs one response per sample`,
    );
    writeFileSync(
      join(dir, 'dup.jsonl'),
      jsonl([
        { id: 'i1', response: 'A' },
        { id: 'i1', response: 'B' },
      ]),
    );
    await expect(
      scoreIntentionQa({
        files: [{ items: join(dir, 'task1.jsonl'), responses: join(dir, 'dup.jsonl') }],
        style: 'zero_shot',
      }),
    ).rejects.toThrow(/dup.jsonl:2 \(field "id"\): duplicate id "i1" \(first on line 1\)/);
    const out = join(dir, 'skip-out');
    const r = await scoreIntentionQa({ files: pair, style: 'zero_shot', out, onError: 'skip' });
    expect(r.summary.rejected).toBe(1);
    expect(r.summary.tasks[0]!.counts.missing).toBe(6);
    expect(readFileSync(join(out, 'rejects.jsonl'), 'utf8')).toContain('"field":"response"');
  });

  it('the command prints the tables and writes the four files', async () => {
    const out = join(dir, 'cli-out');
    const f = files();
    const stdout = await cli([
      'score',
      'intentionqa',
      '--items',
      ...f.map((p) => p.items),
      '--responses',
      ...f.map((p) => p.responses),
      '--out',
      out,
      '--label',
      'my model',
    ]);
    expect(stdout).toContain('| my model, zero-shot | 50.00 |');
    for (const file of ['scores.jsonl', 'summary.json', 'summary.md', 'summary.svg'])
      expect(existsSync(join(out, file))).toBe(true);
    await expect(
      cli([
        'score',
        'intentionqa',
        '--items',
        f[0]!.items,
        '--responses',
        f[0]!.responses,
        f[1]!.responses,
        '--out',
        out,
      ]),
    ).rejects.toThrow(/--items and --responses go in pairs/);
  });
});

describe('a run scored with the wrong --style', () => {
  it('warns on stderr, naming the format the style expects, when most answers are unparseable', async () => {
    // Bare letters (zero-shot answers) scored as CoT: none has "STEP 2:", so every one is unparseable.
    const f = files()[0]!;
    const run = async (style: string) => {
      const stderr: string[] = [];
      const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        stderr.push(String(chunk));
        return true;
      });
      try {
        const stdout = await cli([
          'score',
          'intentionqa',
          '--items',
          f.items,
          '--responses',
          f.responses,
          '--style',
          style,
          '--out',
          join(dir, `style-${style}`),
        ]);
        return { stdout, stderr: stderr.join('') };
      } finally {
        spy.mockRestore();
      }
    };
    const cot = await run('cot');
    expect(cot.stdout).toContain('| 0.00 |');
    expect(cot.stderr).toMatch(
      /^warning: \d+ of \d+ answers \(100\.0 %\) are unparseable and scored as wrong, so the score says little about the model: --style cot expects a line "STEP 2: B"/m,
    );
    // The same answers under their own style: no warning.
    expect((await run('zero_shot')).stderr).not.toContain('unparseable');
  });
});

const SHARED = join(projectRoot(), '..', 'shared', 'data', 'intentionqa');
const sharedPresent = existsSync(join(SHARED, 'released_task1.jsonl'));
if (!sharedPresent) console.warn(`SKIPPED "score intentionqa on the released items": ${SHARED} is absent`);

describe.skipIf(!sharedPresent)('the released IntentionQA items', () => {
  it('score 100 % when answered with their gold letters, excluding (and counting) the items with fewer than 4 options', async () => {
    const items = join(SHARED, 'released_task1_byRelation.jsonl');
    const gold = readFileSync(items, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; gold_ind: string; options: object });
    const responses = join(dir, 'released-gold.jsonl');
    // As a model might answer: lower case, a trailing period.
    writeFileSync(responses, jsonl(gold.map((g) => ({ id: g.id, response: `${g.gold_ind.toLowerCase()}.` }))));
    const r = await scoreIntentionQa({ files: [{ items, responses }], style: 'zero_shot' });
    const t1 = r.summary.tasks[0]!;
    const fewer = gold.filter((g) => Object.keys(g.options).length < 4).length;
    expect(fewer).toBe(6 + 86 + 141);
    expect(t1.counts).toMatchObject({ items: gold.length, scored: gold.length - fewer, correct: gold.length - fewer });
    expect(t1.model.all!.accuracy).toBe(1);
    expect(r.summary.columns).toEqual(['easy', 'medium', 'hard', 'unknown', 'all']);
    expect(r.summary.relations.map((x) => x.relation)).toEqual([
      'can',
      'capableOf',
      'cause',
      'definedAs',
      'effect',
      'isA',
      'mannerOf',
      'other',
      'propertyOf',
      'relatedTo',
      'usedFor',
    ]);
  });

  it('get the prompts the released askLM scripts built (Task 2: the intention clause and its period)', async () => {
    const { items: t1 } = await readAskItems(join(SHARED, 'released_task1.jsonl'), 'intentionqa', 'zero_shot', {
      onError: 'fail',
    });
    expect(t1[0]).toEqual({
      id: 'FS_1',
      prompt:
        'A customer buys Belkin USB A/A Extension Cable, USB Type-A Female and USB Type-A Male (6 Feet) and Cable Matters 3-Pack USB Extension Cable (USB Extender Cable/USB 2.0 Extension Cable) - 3 Feet - Available 3FT - 10FT in Length. What is the most likely intention for buying them?\n' +
        'A. because they both are a type of USB extension cable.\n' +
        'B. because they both are a manner of "Audio & Video Accessories".\n' +
        'C. because they both are related to the topic of "Army Style".\n' +
        'D. because they could both be worn as a bracelet.\n' +
        'Answer A or B or C or D only without any other word.',
    });
    const { items: t2 } = await readAskItems(join(SHARED, 'released_task2.jsonl'), 'intentionqa', 'cot_sc', {
      onError: 'fail',
    });
    expect(t2[0]!.prompt).toBe(
      'A customer buys Belkin USB A/A Extension Cable, USB Type-A Female and USB Type-A Male (6 Feet), because they both are a type of USB extension cable.\n' +
        "What is the customer's most probable additional purchase?\n" +
        "A. Mighty Wallet Men's Ultra Thin Strong Tyvek Wallet by Dynomighty - Music Sheet\n" +
        'B. Metal Factory 3MM Sterling Silver Princess Cut CZ Eternity Cubic Zirconia Ring\n' +
        'C. Cable Matters 3-Pack USB Extension Cable (USB Extender Cable/USB 2.0 Extension Cable) - 3 Feet - Available 3FT - 10FT in Length\n' +
        'D. Blue Clip on Earrings Braided Rope Round Antique Women Fashion\n' +
        'Formulate your answer in this way.\n' +
        'Step 1: Give a short and brief rationale by thinking step by step.\n' +
        'Step 2: Answer A or B or C or D only without any other word.',
    );
    // An item with an E names five letters: it is malformed (not four options), so `ask` sets it
    // apart, and the reader still renders its prompt as the released scripts did.
    expect(t1.some((i) => i.prompt.includes('\nE. '))).toBe(false);
    const all = await readIntentionQaItems(join(SHARED, 'released_task1.jsonl'), { keepMalformed: true });
    const withE = all.items.find((i) => 'E' in i.question.options);
    expect(
      withE?.question.prompts.zero_shot.endsWith('Answer A or B or C or D or E only without any other word.'),
    ).toBe(true);
  });
});
