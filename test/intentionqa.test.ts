import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { intentionQaWorld } from '../bench/support/intentionqa-world.js';
import { readAssertions } from '../engine/items/intentionqa/assertions.js';
import { IntentionQaRun, buildIntentionQaItems } from '../engine/items/intentionqa/build-items.js';
import {
  resolveOptions as resolveOptionsForTest,
  type IntentionQaOptions,
} from '../engine/items/intentionqa/intentionqa-options.js';
import { IntentionQaContext, TASK1_WINDOW_UNIFORM } from '../engine/items/intentionqa/run-context.js';
import { overlaps, wordsOf } from '../engine/items/intentionqa/concept-overlap.js';
import { difficultyOf } from '../engine/items/intentionqa/difficulty.js';
import { BalancedPositions } from '../engine/items/balanced-positions.js';
import { intentionUniverse } from '../engine/items/intentionqa/intention-window.js';
import { extractIntention } from '../engine/items/intentionqa/intention-text.js';
import type { Task1Item, Task2Item } from '../engine/items/intentionqa/item-types.js';
import { normalizeOptionText } from '../engine/items/option-text.js';
import { task1Prompts, task2Prompts } from '../engine/items/intentionqa/intentionqa-prompts.js';
import { writeItems } from '../engine/items/intentionqa/write-items.js';
import { checkItemInvariants } from './support/intentionqa-invariants.js';
import { collectRecords } from './support/intentionqa-records.js';
import { ConfigError, InputError } from '../core/errors.js';
import { RejectsSink } from '../core/rejects.js';
import { MatrixRanges } from '../engine/search/matrix-ranges.js';
import { ExactScanRange } from '../engine/search/range-search.js';
import { Rng } from '../core/rng.js';
import { HnswRange } from '../engine/search/vector-index.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { drawFromWindow, inWindow, lowestPoolEnd } from '../engine/search/windows.js';

describe('intention text', () => {
  it('is the part from "because", else from "as a result, ", trimmed, marker included', () => {
    expect(extractIntention('PersonX bought A and B because they both are cables. ')).toBe(
      'because they both are cables.',
    );
    expect(extractIntention('PersonX bought A and B as a result, the person can fish')).toBe(
      'as a result, the person can fish',
    );
    // "because" wins even when it comes after "as a result, " (the released function looks for it first)
    expect(extractIntention('X as a result, Y because Z')).toBe('because Z');
    expect(extractIntention('X because a because b')).toBe('because a because b');
    expect(extractIntention('PersonX bought A and B so that they match')).toBeUndefined();
    expect(extractIntention('as a result,no space')).toBeUndefined();
  });
});

describe('difficulty', () => {
  it('has exact band boundaries: ≥ 0.85 easy, [0.6, 0.85) medium, < 0.6 hard', () => {
    expect(difficultyOf(1)).toBe('easy');
    expect(difficultyOf(0.85)).toBe('easy');
    expect(difficultyOf(0.8499999999999999)).toBe('medium');
    expect(difficultyOf(0.6)).toBe('medium');
    expect(difficultyOf(0.5999999999999999)).toBe('hard');
    expect(difficultyOf(-1)).toBe('hard');
    expect(() => difficultyOf(NaN)).toThrow(/NaN/);
  });
});

describe('option text normalisation and concept overlap', () => {
  it('equates case, punctuation and spacing only', () => {
    expect(normalizeOptionText('Because  they are both cables.')).toBe('because they are both cables');
    expect(normalizeOptionText('because "USB"-cables!')).toBe('because usb cables');
    expect(normalizeOptionText('ﬁsh')).toBe('fish'); // NFKC ligature
    expect(normalizeOptionText('because a cable')).not.toBe(normalizeOptionText('because a cables'));
  });
  it('overlap is an intersection of phrase words', () => {
    const ab = wordsOf([['usb cable', 'computer accessory'], ['extension cord']]);
    expect(overlaps(ab, wordsOf([['power cord']]))).toBe(true);
    expect(overlaps(ab, wordsOf([['fishing map']]))).toBe(false);
    expect(overlaps(ab, wordsOf([undefined]))).toBe(false);
  });
});

describe('prompts (paper Tables 6 and 7, released layout)', () => {
  const opts = {
    A: 'because they both are cables.',
    B: 'because they are warm.',
    C: 'as a result, the person can fish.',
    D: 'because they both are a type of "hat".',
  };
  it('Task 1 zero-shot and CoT, to the character', () => {
    const p = task1Prompts('USB Cable (6 ft)', 'Cable Matters 3-Pack', opts);
    expect(p.zero_shot).toBe(
      'A customer buys USB Cable (6 ft) and Cable Matters 3-Pack. What is the most likely intention for buying them?\n' +
        'A. because they both are cables.\n' +
        'B. because they are warm.\n' +
        'C. as a result, the person can fish.\n' +
        'D. because they both are a type of "hat".\n' +
        'Answer A or B or C or D only without any other word.',
    );
    expect(p.cot).toBe(
      'A customer buys USB Cable (6 ft) and Cable Matters 3-Pack. What is the most likely intention for buying them?\n' +
        'A. because they both are cables.\n' +
        'B. because they are warm.\n' +
        'C. as a result, the person can fish.\n' +
        'D. because they both are a type of "hat".\n' +
        'Formulate your answer in this way.\n' +
        'Step 1: Give a short and brief rationale by thinking step by step.\n' +
        'Step 2: Answer A or B or C or D only without any other word.',
    );
  });
  it('Task 2 zero-shot and CoT, with the period rule', () => {
    const o = { A: 'Fishing Map', B: 'Chart Book', C: 'Sunglasses', D: 'Boca Chica Sunglass' };
    const p = task2Prompts('Top Spot Fishing Map', 'as a result, the person will find fish', o);
    expect(p.zero_shot).toBe(
      'A customer buys Top Spot Fishing Map, as a result, the person will find fish.\n' +
        "What is the customer's most probable additional purchase?\n" +
        'A. Fishing Map\nB. Chart Book\nC. Sunglasses\nD. Boca Chica Sunglass\n' +
        'Answer A or B or C or D only without any other word.',
    );
    expect(p.cot).toBe(
      'A customer buys Top Spot Fishing Map, as a result, the person will find fish.\n' +
        "What is the customer's most probable additional purchase?\n" +
        'A. Fishing Map\nB. Chart Book\nC. Sunglasses\nD. Boca Chica Sunglass\n' +
        'Formulate your answer in this way.\n' +
        'Step 1: Give a short and brief rationale by thinking step by step.\n' +
        'Step 2: Answer A or B or C or D only without any other word.',
    );
    // an intention that already ends with a period gets no second one
    expect(
      task2Prompts('X', 'because they match.', o).zero_shot.startsWith('A customer buys X, because they match.\nWhat'),
    ).toBe(true);
    // fewer options name fewer letters (released layout; the engine itself always emits four)
    expect(
      task1Prompts('a', 'b', { A: 'x', B: 'y' }).zero_shot.endsWith(
        '\nB. y\nAnswer A or B only without any other word.',
      ),
    ).toBe(true);
  });
});

describe('options', () => {
  it('defaults follow the paper and bad values are refused', () => {
    const o = resolveOptionsForTest({});
    expect([o.sampling, o.anchor, o.typicalityThreshold, o.requireOverlap]).toEqual(['uniform', 'answer', 0.5, true]);
    // Library errors name the field (the CLI's flags never reach this code).
    expect(() => resolveOptionsForTest({ sampling: 'lowst' as never })).toThrow(
      new ConfigError('sampling', 'must be "uniform" or "lowest", got "lowst"'),
    );
    expect(() => resolveOptionsForTest({ anchor: 'b' as never })).toThrow(/^anchor must be "answer" or "given"/);
    expect(() => resolveOptionsForTest({ tasks: [3 as never] })).toThrow(ConfigError);
    expect(() => resolveOptionsForTest({ typicalityThreshold: 2 })).toThrow(
      'typicalityThreshold must be in [0, 1], got 2',
    );
  });
});

describe('gold placement', () => {
  it('is balanced within one at every point, seeded, and not a fixed cycle', () => {
    const g = BalancedPositions.perBlock(11, 'task1');
    const counts = [0, 0, 0, 0];
    const seq: number[] = [];
    for (let n = 1; n <= 1003; n++) {
      const p = g.next();
      seq.push(p);
      counts[p]! += 1;
      if (n % 4 === 0) expect(counts).toEqual([n / 4, n / 4, n / 4, n / 4]);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
    const again = BalancedPositions.perBlock(11, 'task1');
    expect(seq.map(() => again.next())).toEqual(seq);
    const other = BalancedPositions.perBlock(12, 'task1');
    expect(seq.map(() => other.next())).not.toEqual(seq);
    expect(new Set(Array.from({ length: 50 }, (_, b) => seq.slice(4 * b, 4 * b + 4).join(''))).size).toBeGreaterThan(
      10,
    );
  });
});

describe('Sim_i and the intention window', () => {
  // Four products on a circle (2-D), angles 0°, 30°, 60°, 90°: cos of the difference.
  const deg = (d: number) => [Math.cos((d * Math.PI) / 180), Math.sin((d * Math.PI) / 180)];
  const world = {
    products: new Map([
      ['p0', 'zero'],
      ['p30', 'thirty'],
      ['p60', 'sixty'],
      ['p90', 'ninety'],
    ]),
    embeddings: {
      ids: ['p0', 'p30', 'p60', 'p90'],
      dim: 2,
      data: Float32Array.from([...deg(0), ...deg(30), ...deg(60), ...deg(90)]),
    },
    phrases: new Map<string, string[]>(),
    assertions: [
      {
        id: 'i1',
        itemA: 'p0',
        itemB: 'p30',
        relation: 'r',
        assertion: 'x because one',
        intention: 'because one',
        typicality: 1,
      },
      {
        id: 'i2',
        itemA: 'p60',
        itemB: 'p90',
        relation: 'r',
        assertion: 'x because two',
        intention: 'because two',
        typicality: 1,
      },
    ],
  };
  it('is the minimum of the four cross similarities (hand-checked)', async () => {
    const ctx = await IntentionQaContext.create(world, resolveOptionsForTest({}));
    // pairs: (0,60)=cos60=0.5, (0,90)=0, (30,60)=cos30≈0.866, (30,90)=cos60=0.5 → min 0 (up to float32 rounding)
    expect(ctx.intentionSimilarity(0, 1)).toBeCloseTo(0, 6);
    expect(ctx.intentionSimilarity(0, 1)).toBe(ctx.intentionSimilarity(1, 0));
    const v = ctx.vectors;
    expect(ctx.intentionSimilarity(0, 1)).toBe(
      Math.min(v.cosine(0, 2), v.cosine(0, 3), v.cosine(1, 2), v.cosine(1, 3)),
    );
    expect(ctx.sharesProduct(0, 1)).toBe(false);
  });
});

/** O(n²) reference for one Task-1 query: every other assertion, scored and filtered by the rules. */
function referenceTask1Candidates(
  ctx: IntentionQaContext,
  i: number,
  requireOverlap: boolean,
): Array<{ j: number; s: number }> {
  const out: Array<{ j: number; s: number }> = [];
  const wordsAB = new Set([...ctx.wordsOfRow[ctx.rowA[i]!]!, ...ctx.wordsOfRow[ctx.rowB[i]!]!]);
  for (const j of ctx.validAssertions) {
    if (j === i || ctx.sharesProduct(i, j)) continue;
    const cd = new Set([...ctx.wordsOfRow[ctx.rowA[j]!]!, ...ctx.wordsOfRow[ctx.rowB[j]!]!]);
    if (requireOverlap && !overlaps(wordsAB, cd)) continue;
    const v = ctx.vectors;
    const s = Math.min(
      v.cosine(ctx.rowA[i]!, ctx.rowA[j]!),
      v.cosine(ctx.rowA[i]!, ctx.rowB[j]!),
      v.cosine(ctx.rowB[i]!, ctx.rowA[j]!),
      v.cosine(ctx.rowB[i]!, ctx.rowB[j]!),
    );
    out.push({ j, s });
  }
  return out;
}

describe('Task 1 windows against an O(n²) reference', () => {
  const world = intentionQaWorld({ products: 400, assertions: 900, dim: 16, clusters: 8, seed: 3 });
  it('enumeration through the product range finds exactly the true window members and scores', async () => {
    const ctx = await IntentionQaContext.create(world, resolveOptionsForTest({}));
    let total = 0;
    for (const i of Array.from(ctx.validAssertions).slice(0, 120)) {
      const reference = referenceTask1Candidates(ctx, i, true);
      const eligibleRef = new Set(reference.map((c) => c.j));
      const ref = reference
        .filter((c) => inWindow(c.s, TASK1_WINDOW_UNIFORM))
        .map((c) => [c.j, c.s])
        .sort((a, b) => a[0]! - b[0]!);
      // Either product as the pivot (anchor 'answer' pivots on the second): the same members.
      for (const pivot of [ctx.rowB[i]!, ctx.rowA[i]!]) {
        const r = drawFromWindow(intentionUniverse(ctx, i, pivot, TASK1_WINDOW_UNIFORM), {
          ...TASK1_WINDOW_UNIFORM,
          k: 100_000,
          sampling: 'uniform',
          rng: new Rng(1),
          strategy: 'enumerate',
          eligible: (j) => eligibleRef.has(j),
        });
        expect(r.chosen.map((c) => [c.key, c.score]).sort((a, b) => a[0]! - b[0]!)).toEqual(ref);
      }
      total += ref.length;
    }
    expect(total).toBeGreaterThan(500);
  });

  it("a pivot's candidates are exactly the assertions with both products in its range, ascending", async () => {
    const ctx = await IntentionQaContext.create(world, resolveOptionsForTest({}));
    const v = ctx.vectors;
    let found = 0;
    for (const pivot of [0, 1, 2, 50, 123, 399]) {
      for (const lo of [0.6, 0.8]) {
        const near = ctx.ranges.aroundRow(pivot, lo, true);
        const candidates = ctx.pivotCandidates(pivot, near, lo, true);
        const expected = Array.from(ctx.validAssertions).filter(
          (j) => v.cosine(pivot, ctx.rowA[j]!) >= lo && v.cosine(pivot, ctx.rowB[j]!) >= lo,
        );
        expect(Array.from(candidates.keys)).toEqual(expected);
        expect(Array.from(candidates.pivotMin)).toEqual(
          expected.map((j) => Math.min(v.cosine(pivot, ctx.rowA[j]!), v.cosine(pivot, ctx.rowB[j]!))),
        );
        found += expected.length;
      }
    }
    expect(found).toBeGreaterThan(100);
  });

  it('lowest mode draws only from the released pool computed by brute force', async () => {
    const { items } = await collectRecords(
      buildIntentionQaItems({ ...world, options: { seed: 5, sampling: 'lowest', tasks: [1] } }),
    );
    const ctx = await IntentionQaContext.create(world, resolveOptionsForTest({ sampling: 'lowest' }));
    const indexOf = new Map(ctx.assertions.map((a, k) => [a.id, k]));
    expect(items.length).toBeGreaterThan(100);
    let pooled = 0;
    for (const item of items as Task1Item[]) {
      const i = indexOf.get(item.id)!;
      const sorted = referenceTask1Candidates(ctx, i, true)
        .filter((c) => c.s >= 0.6)
        .sort((a, b) => a.s - b.s || a.j - b.j);
      const m = lowestPoolEnd(
        sorted.map((c) => c.s),
        { lo: 0.6, hi: 0.9, loInclusive: true, hiInclusive: false },
      );
      expect(item.selection.lowest_pool_end).toBe(m ?? null);
      const ids = item.distractors_id;
      const refused = item.selection.refused.length;
      if (m !== undefined) {
        // draws come from the first m+1; backfill (after refusals) continues in ascending order
        const pool = new Set(sorted.slice(0, m + 1).map((c) => ctx.assertions[c.j]!.id));
        if (refused === 0) {
          expect(ids.every((id) => pool.has(id))).toBe(true);
          pooled += 1;
        }
      } else {
        const inWin = sorted.filter((c) => c.s < 0.9).map((c) => ctx.assertions[c.j]!.id);
        expect(ids.every((id) => inWin.includes(id))).toBe(true);
      }
    }
    expect(pooled).toBeGreaterThan(50);
  });

  it('uniform Task-1 draws are uniform over the true window members (chi-square)', async () => {
    const ctx = await IntentionQaContext.create(world, resolveOptionsForTest({}));
    // the valid assertion with the most window members
    let best = -1;
    let members: number[] = [];
    for (const i of Array.from(ctx.validAssertions).slice(0, 200)) {
      const m = referenceTask1Candidates(ctx, i, true).filter((c) => inWindow(c.s, TASK1_WINDOW_UNIFORM));
      if (m.length > members.length) {
        best = i;
        members = m.map((c) => c.j);
      }
    }
    expect(members.length).toBeGreaterThan(10);
    for (const strategy of ['auto', 'enumerate'] as const) {
      const counts = new Map(members.map((j) => [j, 0]));
      const trials = 200 * members.length;
      for (let t = 0; t < trials; t++) {
        const r = drawFromWindow(intentionUniverse(ctx, best, ctx.rowB[best]!, TASK1_WINDOW_UNIFORM), {
          ...TASK1_WINDOW_UNIFORM,
          k: 3,
          sampling: 'uniform',
          rng: Rng.derive(3, `${strategy}/${t}`),
          strategy,
          eligible: (j) => counts.has(j),
        });
        for (const c of r.chosen) counts.set(c.key, counts.get(c.key)! + 1);
      }
      const expected = (trials * 3) / members.length;
      let chi2 = 0;
      for (const c of counts.values()) chi2 += (c - expected) ** 2 / expected;
      const dof = members.length - 1;
      const crit = dof * (1 - 2 / (9 * dof) + 3.0902 * Math.sqrt(2 / (9 * dof))) ** 3;
      expect(chi2).toBeLessThan(crit);
    }
  });
});

describe('IntentionQA items on a synthetic world', () => {
  const world = intentionQaWorld({
    products: 600,
    assertions: 1500,
    dim: 16,
    clusters: 10,
    seed: 9,
    zeroRows: new Set([7, 8, 9]),
  });
  const vectors = UnitVectors.fromVectorSet(world.embeddings);

  for (const [sampling, anchor] of [
    ['uniform', 'answer'],
    ['lowest', 'given'],
  ] as const) {
    it(`every emitted item keeps the invariants; every other assertion has a reason (${sampling}, ${anchor})`, async () => {
      const { items, dropped } = await collectRecords(
        buildIntentionQaItems({ ...world, options: { seed: 1, sampling, anchor } }),
      );
      for (const item of items) checkItemInvariants(item, world, vectors);
      for (const task of [1, 2] as const) {
        const emitted = new Set(items.filter((x) => x.task === task).map((x) => x.id));
        const missing = new Set(dropped.filter((d) => d.task === task || d.task === null).map((d) => d.id));
        for (const a of world.assertions) expect(emitted.has(a.id) !== missing.has(a.id)).toBe(true);
        expect(emitted.size).toBeGreaterThan(300);
      }
      for (const d of dropped) expect(d.detail.length).toBeGreaterThan(0);
      const reasons = new Set(dropped.map((d) => d.reason));
      expect(reasons).toContain('typicality-below-min');
      expect(reasons).toContain('product-without-vector');
      expect(reasons).toContain('window-empty');
      // typicality filter: exactly the assertions not above 0.5 (0.5 itself is dropped, as in the
      // paper's "above 0.5" and the released `typicality > 0.5`)
      const below = world.assertions.filter((a) => a.typicality <= 0.5).map((a) => a.id);
      expect(dropped.filter((d) => d.reason === 'typicality-below-min').map((d) => d.id)).toEqual(below);
      expect(world.assertions.some((a) => a.typicality === 0.5)).toBe(true);
      // false negatives happened, were refused, recorded and backfilled
      const withFn = items.filter((x) => x.hadFalseNegative === 1);
      expect(withFn.length).toBeGreaterThan(0);
      for (const x of withFn) expect(x.selection.refused.some((r) => r.reason === 'false-negative')).toBe(true);
      // gold balance per task
      for (const task of [1, 2]) {
        const counts = { A: 0, B: 0, C: 0, D: 0 };
        for (const x of items) if (x.task === task) counts[x.gold_ind] += 1;
        expect(Math.max(...Object.values(counts)) - Math.min(...Object.values(counts))).toBeLessThanOrEqual(1);
      }
      if (anchor === 'given') {
        // with the window on p_A, p_B itself falls in it sometimes: a false negative by id
        expect(
          (items.filter((x) => x.task === 2) as Task2Item[]).some((x) =>
            x.selection.refused.some((r) => r.id === x.item_b_id),
          ),
        ).toBe(true);
      }
    });
  }

  it('drafts do not depend on the order assertions are drafted in (shardable): reverse order, same records', async () => {
    for (const exactness of ['exact', 'index'] as const) {
      const one = await IntentionQaRun.prepare({ ...world, options: { seed: 2, exactness } });
      const expected: string[] = [];
      for await (const r of one.records()) expected.push(JSON.stringify(r));
      const other = await IntentionQaRun.prepare({ ...world, options: { seed: 2, exactness } });
      const drafts = [];
      for (let i = other.size - 1; i >= 0; i--) drafts[i] = other.draftAssertion(i);
      const got = [...other.filterDrops()].map((r) => JSON.stringify(r));
      const finish = other.finisher();
      for (const d of drafts) for (const r of finish(d)) got.push(JSON.stringify(r));
      expect(got).toEqual(expected);
      if (exactness === 'index') {
        expect(got.some((line) => line.includes('"method":"index"'))).toBe(true);
        expect(got.some((line) => line.includes('"exact":false'))).toBe(true);
      }
    }
  });

  it('exact windows come from MatrixRanges: byte-identical to an exact scan enumerating every window', async () => {
    const viaMatrix = await IntentionQaRun.prepare({
      ...world,
      embeddings: vectors,
      options: { seed: 5, exactness: 'exact' },
    });
    expect(viaMatrix.context.search).toBeInstanceOf(MatrixRanges);
    expect(viaMatrix.settings().search).toMatch(/matrix products/);
    const viaScan = await IntentionQaRun.prepare({
      ...world,
      embeddings: vectors,
      options: { seed: 5, search: new ExactScanRange(vectors), strategy: 'enumerate' },
    });
    const a: string[] = [];
    for await (const r of viaMatrix.records()) a.push(JSON.stringify(r));
    const b: string[] = [];
    for await (const r of viaScan.records()) b.push(JSON.stringify(r));
    expect(a).toEqual(b);
    expect(a.filter((line) => line.startsWith('{"kind":"item"')).length).toBeGreaterThan(600);
    expect(viaMatrix.context.ranges.precomputed).toBeGreaterThan(0);
    expect(viaMatrix.context.ranges.misses).toBe(0); // every anchor was precomputed
  });

  it('auto picks MatrixRanges up to matrixPairLimit anchor × product pairs, the index above', async () => {
    const search = async (options: Partial<IntentionQaOptions>) =>
      (await IntentionQaRun.prepare({ ...world, embeddings: vectors, options })).context.search;
    expect(await search({})).toBeInstanceOf(MatrixRanges);
    expect(await search({ matrixPairLimit: 1000 })).toBeInstanceOf(HnswRange);
    expect(await search({ exactness: 'exact', matrixPairLimit: 1000 })).toBeInstanceOf(MatrixRanges);
    expect(await search({ exactness: 'index' })).toBeInstanceOf(HnswRange);
    expect(() => resolveOptionsForTest({ exactness: 'fast' as never })).toThrow(
      /^exactness must be "auto", "exact" or "index", got "fast"/,
    );
  });

  it('the index-backed run keeps every invariant too', async () => {
    const { items } = await collectRecords(
      buildIntentionQaItems({ ...world, options: { seed: 3, exactness: 'index' } }),
    );
    expect(items.length).toBeGreaterThan(600);
    for (const item of items) checkItemInvariants(item, world, vectors);
  });

  it('released field shapes are a superset, in the released key order', async () => {
    const { items } = await collectRecords(buildIntentionQaItems({ ...world, options: { seed: 1 } }));
    const t1 = items.find((x) => x.task === 1)!;
    const t2 = items.find((x) => x.task === 2)!;
    expect(Object.keys(t1).slice(0, 15)).toEqual([
      'id',
      'item_a_id',
      'item_b_id',
      'item_a_name',
      'item_b_name',
      'relation',
      'assertion',
      'distractors_id',
      'distractors_score',
      'distractors_overlap',
      'distractors_asserstion',
      'typicality',
      'gold_ind',
      'options',
      'hadFalseNegative',
    ]);
    expect(Object.keys(t2).slice(0, 14)).toEqual([
      'id',
      'item_a_id',
      'item_b_id',
      'item_a_name',
      'item_b_name',
      'relation',
      'assertion',
      'distractors_id',
      'distractors_score',
      'distractors_product',
      'typicality',
      'gold_ind',
      'options',
      'hadFalseNegative',
    ]);
    expect(t1.prompts.zero_shot).toBe(task1Prompts(t1.item_a_name, t1.item_b_name, t1.options).zero_shot);
  });

  it('same seed → byte-identical files; another seed → different items', async () => {
    const dirs: string[] = [];
    for (const seed of [4, 4, 5]) {
      const dir = await mkdtemp(join(tmpdir(), 'iqa-'));
      const run = await IntentionQaRun.prepare({ ...world, options: { seed } });
      await writeItems(run.records(), dir, run.settings({ caveat: 'synthetic' }));
      dirs.push(dir);
    }
    const files = (await readdir(dirs[0]!)).sort();
    expect(files).toEqual([
      'intentionqa_dropped.jsonl',
      'intentionqa_report.md',
      'intentionqa_report.svg',
      'intentionqa_summary.json',
      'intentionqa_task1.jsonl',
      'intentionqa_task2.jsonl',
    ]);
    for (const f of files)
      expect((await readFile(join(dirs[1]!, f))).equals(await readFile(join(dirs[0]!, f)))).toBe(true);
    expect(await readFile(join(dirs[2]!, 'intentionqa_task1.jsonl'), 'utf8')).not.toBe(
      await readFile(join(dirs[0]!, 'intentionqa_task1.jsonl'), 'utf8'),
    );
    const report = await readFile(join(dirs[0]!, 'intentionqa_report.md'), 'utf8');
    expect(report).toContain('| items emitted |');
    expect(report).toContain('typicality-below-min');
    const svg = await readFile(join(dirs[0]!, 'intentionqa_report.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect((svg.match(/<rect /g) ?? []).length).toBeGreaterThan(10);
  });
});

describe('false-negative removal and backfill (hand-built)', () => {
  // One cluster of near-identical directions; intentions chosen so that the only members with the
  // gold's text are false negatives. Query i0; candidate assertions share no product with it.
  // v = (1, 2·cos t, 2·sin t): cos = (1 + 4·cos Δt) / 5. i0's products at t = 0°, 1°; the others at
  // 31°, 33°, …, 49°, so every cross similarity with i0 lies in [0.72, 0.9) and Sim_i is in the window.
  const ids = Array.from({ length: 12 }, (_, k) => `q${k}`);
  const angles = [0, 1, ...Array.from({ length: 10 }, (_, k) => 31 + 2 * k)];
  const data = new Float32Array(12 * 3);
  angles.forEach((d, k) => data.set([1, 2 * Math.cos((d * Math.PI) / 180), 2 * Math.sin((d * Math.PI) / 180)], k * 3));
  const mk = (id: string, a: number, b: number, intention: string) => ({
    id,
    itemA: `q${a}`,
    itemB: `q${b}`,
    relation: 'r',
    assertion: `PersonX bought A and B ${intention}`,
    intention,
    typicality: 0.9,
  });
  const world = {
    products: new Map(ids.map((id) => [id, `title ${id}`])),
    embeddings: { ids, dim: 3, data },
    phrases: new Map(ids.map((id) => [id, ['same kind']])),
    assertions: [
      mk('i0', 0, 1, 'because gold.'),
      mk('fn1', 2, 3, 'because GOLD'), // false negative after normalisation
      mk('fn2', 4, 5, 'because gold!'),
      mk('d1', 6, 7, 'because one.'),
      mk('d2', 8, 9, 'because two.'),
      mk('d3', 10, 11, 'because three.'),
      mk('dup', 2, 6, 'because one'), // shares products with fn1/d1, duplicate text of d1
    ],
  };
  it('never shows a gold-equal option, records it, backfills, and drops when the window runs out', async () => {
    const v = UnitVectors.fromVectorSet(world.embeddings);
    expect(v.cosine(0, 11)).toBeCloseTo((1 + 4 * Math.cos((49 * Math.PI) / 180)) / 5, 6);
    expect(v.cosine(1, 2)).toBeLessThan(0.9);
    let sawFn = 0;
    for (let seed = 0; seed < 30; seed++) {
      const { items } = await collectRecords(buildIntentionQaItems({ ...world, options: { seed, tasks: [1] } }));
      const i0 = items.find((x) => x.id === 'i0') as Task1Item;
      expect(i0).toBeDefined();
      expect(new Set(i0.distractors_asserstion.map(normalizeOptionText))).toEqual(
        new Set(['because one', 'because two', 'because three']),
      );
      expect(i0.distractors_id.some((id) => id === 'fn1' || id === 'fn2')).toBe(false);
      expect(new Set(Object.values(i0.options).map(normalizeOptionText)).size).toBe(4);
      const fn = i0.selection.refused.filter((r) => r.reason === 'false-negative').map((r) => r.id);
      expect(i0.hadFalseNegative).toBe(fn.length > 0 ? 1 : 0);
      sawFn += fn.length > 0 ? 1 : 0;
    }
    expect(sawFn).toBeGreaterThan(0);
    // Remove d3: only d1, d2 and "dup" (= d1's text) remain valid → i0 cannot get 3 → dropped with a reason
    const short = { ...world, assertions: world.assertions.filter((a) => a.id !== 'd3') };
    const { items, dropped } = await collectRecords(
      buildIntentionQaItems({ ...short, options: { seed: 1, tasks: [1] } }),
    );
    expect(items.find((x) => x.id === 'i0')).toBeUndefined();
    const d = dropped.find((x) => x.id === 'i0')!;
    expect(d.reason).toBe('too-few-distractors');
    expect(d.refused?.['false-negative']).toBe(2);
    expect(d.detail).toMatch(/2 valid distractors/);
  });
});

describe('assertions input', () => {
  it('names file, line and field; skip mode writes rejects', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'iqa-in-'));
    const file = join(dir, 'assertions.jsonl');
    await writeFile(
      file,
      [
        '{"id":"a1","item_a_id":"p1","item_b_id":"p2","relation":"isA","assertion":"X because y.","typicality":0.6}',
        '{"id":"a2","item_a_id":"p1","item_b_id":"p2","assertion":"X so that y.","typicality":0.6}',
        '{"id":"a1","item_a_id":"p1","item_b_id":"p2","assertion":"X because z.","typicality":0.6}',
        '{"id":"a4","item_a_id":"p1","item_b_id":"p9","assertion":"X because z.","typicality":0.6}',
        '{"id":"a5","item_a_id":"p1","item_b_id":"p2","assertion":"X because z.","typicality":1.5}',
        '{"id":"a6","item_a_id":"p1","item_b_id":"p2","assertion":"Y as a result, z","typicality":0.5}',
      ].join('\n') + '\n',
    );
    const known = new Set(['p1', 'p2']);
    const errAt = async (): Promise<InputError> => {
      try {
        for await (const _ of readAssertions(file, { knownProducts: known })) void _;
      } catch (err) {
        return err as InputError;
      }
      throw new Error('expected an error');
    };
    const err = await errAt();
    expect(err).toBeInstanceOf(InputError);
    expect(err.location).toEqual({ file, line: 2, field: 'assertion' });
    const rejects = new RejectsSink(join(dir, 'rejects.jsonl'));
    const got = [];
    for await (const a of readAssertions(file, { knownProducts: known, onError: 'skip', rejects })) got.push(a);
    await rejects.close();
    expect(got.map((a) => [a.id, a.relation, a.intention, a.line])).toEqual([
      ['a1', 'isA', 'because y.', 1],
      ['a6', 'all', 'as a result, z', 6],
    ]);
    const rej = (await readFile(join(dir, 'rejects.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; field: string });
    expect(rej.map((r) => [r.line, r.field])).toEqual([
      [2, 'assertion'],
      [3, 'id'],
      [4, 'item_b_id'],
      [5, 'typicality'],
    ]);
  });
});
