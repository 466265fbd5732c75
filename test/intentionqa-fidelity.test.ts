// The options where the paper and the released IntentionQA code differ (issue 15): the preset
// resolution, the typicality boundary, the excluded relations, same-relation Task-1 distractors and
// the Task-2 product universe, each against a slow obvious reference.
import { describe, expect, it } from 'vitest';
import { intentionQaWorld } from '../bench/support/intentionqa-world.js';
import { ConfigError } from '../core/errors.js';
import type { Assertion } from '../engine/items/intentionqa/assertions.js';
import { IntentionQaRun, buildIntentionQaItems } from '../engine/items/intentionqa/build-items.js';
import {
  DEFAULT_INTENTIONQA_OPTIONS,
  PRESET_OPTIONS,
  RELEASED_EXCLUDED_RELATIONS,
  presetOverrides,
  resolveOptions,
  type IntentionQaSettings,
} from '../engine/items/intentionqa/intentionqa-options.js';
import type { Task1Item, Task2Item } from '../engine/items/intentionqa/item-types.js';
import { normalizeOptionText } from '../engine/items/option-text.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import { checkItemInvariants } from './support/intentionqa-invariants.js';
import { collectRecords } from './support/intentionqa-records.js';

describe('presets: {preset, overrides} → options (a pure function)', () => {
  it('pins both presets, row by row', () => {
    expect(PRESET_OPTIONS.paper).toEqual({
      sampling: 'uniform',
      anchor: 'answer',
      typicalityComparison: 'above',
      excludeRelations: [],
      relationScope: 'mixed',
      task2Universe: 'catalog',
      excludePairAsserted: true,
      excludeGeneric: true,
      excludeSecondAnswers: true,
      excludeKindAsserted: true,
      excludeGroupGeneric: true,
      excludeSubstitutes: true,
      excludeVacuous: true,
      excludeUnexplained: true,
      excludeFitsAsWell: true,
      excludeKindWords: true,
      excludeUnanchored: true,
      excludeTitleWords: true,
    });
    expect(PRESET_OPTIONS.released).toEqual({
      sampling: 'lowest',
      anchor: 'given',
      typicalityComparison: 'above',
      excludeRelations: ['createdBy', 'deriveFrom', 'distinctFrom', 'madeOf', 'partOf', 'similarTo', 'symbolOf'],
      relationScope: 'same',
      task2Universe: 'assertions',
      excludePairAsserted: false,
      excludeGeneric: false,
      excludeSecondAnswers: false,
      excludeKindAsserted: false,
      excludeGroupGeneric: false,
      excludeSubstitutes: false,
      excludeVacuous: false,
      excludeUnexplained: false,
      excludeFitsAsWell: false,
      excludeKindWords: false,
      excludeUnanchored: false,
      excludeTitleWords: false,
    });
  });

  it('defaults are the paper preset; a preset sets its rows; a given field overrides it; undefined is not given', () => {
    const paper = resolveOptions({});
    expect(paper).toEqual(DEFAULT_INTENTIONQA_OPTIONS);
    expect(paper.preset).toBe('paper');
    expect(paper.typicalityThreshold).toBe(0.5);
    const released = resolveOptions({ preset: 'released' });
    expect({ ...released }).toMatchObject({ ...PRESET_OPTIONS.released, preset: 'released', typicalityThreshold: 0.5 });
    // What the CLI passes: every flag, undefined where the user gave none.
    const cli: IntentionQaSettings = {
      preset: 'released',
      sampling: 'uniform',
      anchor: undefined,
      relationScope: undefined,
      task2Universe: undefined,
      typicalityComparison: undefined,
      excludeRelations: undefined,
      seed: 7,
    };
    const mixed = resolveOptions(cli);
    expect([mixed.sampling, mixed.anchor, mixed.relationScope, mixed.task2Universe, mixed.seed]).toEqual([
      'uniform',
      'given',
      'same',
      'assertions',
      7,
    ]);
    expect(mixed.excludeRelations).toEqual(RELEASED_EXCLUDED_RELATIONS);
    expect(presetOverrides(mixed)).toEqual({ sampling: 'uniform' });
    expect(presetOverrides(released)).toEqual({});
    expect(presetOverrides(resolveOptions({ preset: 'paper', excludeRelations: ['partOf'] }))).toEqual({
      excludeRelations: ['partOf'],
    });
    // The same settings give the same options, and the input is not modified.
    expect(resolveOptions(cli)).toEqual(mixed);
    expect(cli.anchor).toBeUndefined();
  });

  it('excluded relations are a set (sorted, no repeats) and bad values name their field', () => {
    expect(resolveOptions({ excludeRelations: ['symbolOf', 'partOf', 'symbolOf'] }).excludeRelations).toEqual([
      'partOf',
      'symbolOf',
    ]);
    expect(
      presetOverrides(
        resolveOptions({ preset: 'released', excludeRelations: [...RELEASED_EXCLUDED_RELATIONS].reverse() }),
      ),
    ).toEqual({});
    expect(() => resolveOptions({ preset: 'acl' as never })).toThrow(
      new ConfigError('preset', 'must be "paper" or "released", got "acl"'),
    );
    expect(() => resolveOptions({ relationScope: 'all' as never })).toThrow(
      new ConfigError('relationScope', 'must be "mixed" or "same", got "all"'),
    );
    expect(() => resolveOptions({ task2Universe: 'catalogue' as never })).toThrow(
      new ConfigError('task2Universe', 'must be "assertions" or "catalog", got "catalogue"'),
    );
    expect(() => resolveOptions({ typicalityComparison: '>=' as never })).toThrow(
      new ConfigError('typicalityComparison', 'must be "above" or "at-least", got ">="'),
    );
    expect(() => resolveOptions({ excludeRelations: ['partOf', ' '] })).toThrow(ConfigError);
    expect(() => resolveOptions({ excludeRelations: 'partOf' as never })).toThrow(/^excludeRelations must be a list/);
  });
});

/** A world of six products on one tight cluster, and assertions given by (relation, typicality). */
function smallWorld(specs: Array<[string, number]>) {
  const ids = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
  const data = new Float32Array(ids.length * 2);
  ids.forEach((_, k) => data.set([1, 0.05 * k], 2 * k));
  const assertions: Assertion[] = specs.map(([relation, typicality], k) => ({
    id: `a${k}`,
    itemA: ids[k % 6]!,
    itemB: ids[(k + 1) % 6]!,
    relation,
    assertion: `PersonX bought A and B because reason ${k}.`,
    intention: `because reason ${k}.`,
    typicality,
  }));
  return {
    products: new Map(ids.map((id) => [id, `title ${id}`])),
    embeddings: { ids, dim: 2, data },
    phrases: new Map(ids.map((id) => [id, ['same kind']])),
    assertions,
  };
}

async function filterDrops(world: ReturnType<typeof smallWorld>, options: IntentionQaSettings) {
  const run = await IntentionQaRun.prepare({ ...world, options });
  return {
    kept: run.context.assertions.map((a) => a.id),
    drops: [...run.filterDrops()].map((r) => (r.kind === 'dropped' ? r.dropped : undefined)),
  };
}

describe('the typicality filter', () => {
  const world = smallWorld([
    ['isA', 0.49],
    ['isA', 0.5],
    ['isA', 0.5000000001],
    ['isA', 0.6],
    ['isA', 1],
  ]);

  it('keeps only assertions strictly above 0.5 by default: 0.5 itself is dropped', async () => {
    const { kept, drops } = await filterDrops(world, {});
    expect(kept).toEqual(['a2', 'a3', 'a4']);
    expect(drops).toEqual([
      { id: 'a0', task: null, reason: 'typicality-below-min', detail: 'typicality 0.49 ≤ 0.5' },
      { id: 'a1', task: null, reason: 'typicality-below-min', detail: 'typicality 0.5 ≤ 0.5' },
    ]);
  });

  it('at-least keeps the threshold itself, with the earlier wording; the threshold moves the boundary', async () => {
    const atLeast = await filterDrops(world, { typicalityComparison: 'at-least' });
    expect(atLeast.kept).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(atLeast.drops).toEqual([
      { id: 'a0', task: null, reason: 'typicality-below-min', detail: 'typicality 0.49 < 0.5' },
    ]);
    expect((await filterDrops(world, { typicalityThreshold: 0.6 })).kept).toEqual(['a4']);
    expect((await filterDrops(world, { typicalityThreshold: 0.6, typicalityComparison: 'at-least' })).kept).toEqual([
      'a3',
      'a4',
    ]);
  });
});

describe('excluded relations', () => {
  it('the released preset drops each of the seven relations, whatever its typicality, and keeps the others', async () => {
    const others = ['isA', 'usedFor', 'capableOf', 'other', 'relatedTo', 'mannerOf', 'propertyOf', 'partof'];
    for (const relation of RELEASED_EXCLUDED_RELATIONS) {
      const world = smallWorld([[relation, 0.9], [relation, 0.3], ...others.map((r): [string, number] => [r, 0.9])]);
      const { kept, drops } = await filterDrops(world, { preset: 'released' });
      // Relation first: an excluded relation is named even when the typicality would fail too.
      expect(drops).toEqual([
        { id: 'a0', task: null, reason: 'relation-excluded', detail: `relation "${relation}" is excluded` },
        { id: 'a1', task: null, reason: 'relation-excluded', detail: `relation "${relation}" is excluded` },
      ]);
      expect(kept).toEqual(others.map((_, k) => `a${k + 2}`));
      // The paper preset excludes nothing.
      expect((await filterDrops(world, { preset: 'paper' })).drops.map((d) => d?.id)).toEqual(['a1']);
    }
  });

  it("a list of the caller's own drops exactly those relations, and none of them is a distractor", async () => {
    const world = intentionQaWorld({ products: 300, assertions: 700, dim: 16, clusters: 6, seed: 21 });
    const options = { seed: 3, excludeRelations: ['usedFor'], task2Universe: 'assertions' } as const;
    const { items, dropped } = await collectRecords(buildIntentionQaItems({ ...world, options }));
    const relationOf = new Map(world.assertions.map((a) => [a.id, a.relation]));
    const excluded = world.assertions.filter((a) => a.relation === 'usedFor').map((a) => a.id);
    expect(excluded.length).toBeGreaterThan(100);
    expect(dropped.filter((d) => d.reason === 'relation-excluded').map((d) => d.id)).toEqual(excluded);
    const kept = world.assertions.filter((a) => a.relation !== 'usedFor' && a.typicality > 0.5);
    const keptProducts = new Set(kept.flatMap((a) => [a.itemA, a.itemB]));
    expect(items.length).toBeGreaterThan(300);
    for (const item of items) {
      expect(relationOf.get(item.id)).not.toBe('usedFor');
      if (item.task === 1) for (const id of item.distractors_id) expect(relationOf.get(id)).not.toBe('usedFor');
      else for (const id of item.distractors_id) expect(keptProducts.has(id)).toBe(true);
    }
  });
});

describe('same-relation Task-1 distractors against an O(n²) reference', () => {
  const world = intentionQaWorld({ products: 400, assertions: 900, dim: 16, clusters: 8, seed: 3 });
  const vectors = UnitVectors.fromVectorSet(world.embeddings);
  const row = (id: string) => vectors.row(id)!;
  const words = (id: string) => new Set((world.phrases.get(id) ?? []).flatMap((p) => p.split(' ')));

  /** Every kept assertion j eligible for i's window, with Sim_i, by the rules, one pair at a time. */
  function reference(i: Assertion, kept: Assertion[], sameRelation: boolean): Array<{ id: string; s: number }> {
    const ab = new Set([...words(i.itemA), ...words(i.itemB)]);
    const out: Array<{ id: string; s: number }> = [];
    for (const j of kept) {
      if (j.id === i.id || (sameRelation && j.relation !== i.relation)) continue;
      if ([j.itemA, j.itemB].some((p) => p === i.itemA || p === i.itemB)) continue;
      if (![...words(j.itemA), ...words(j.itemB)].some((w) => ab.has(w))) continue;
      if (!vectors.isValid(row(j.itemA)) || !vectors.isValid(row(j.itemB))) continue;
      const s = Math.min(
        ...[i.itemA, i.itemB].flatMap((x) => [j.itemA, j.itemB].map((y) => vectors.cosine(row(x), row(y)))),
      );
      out.push({ id: j.id, s });
    }
    return out;
  }

  const kept = world.assertions.filter((a) => a.typicality > 0.5);
  const byId = new Map(world.assertions.map((a) => [a.id, a]));

  for (const sampling of ['uniform', 'lowest'] as const) {
    it(`draws only within the relation, from exactly the reference window (${sampling})`, async () => {
      const options = { seed: 4, sampling, relationScope: 'same', tasks: [1], strategy: 'enumerate' } as const;
      const { items, dropped } = await collectRecords(buildIntentionQaItems({ ...world, options }));
      expect(items.length).toBeGreaterThan(150);
      for (const item of items as Task1Item[]) {
        checkItemInvariants(item, world, vectors);
        const a = byId.get(item.id)!;
        const ref = reference(a, kept, true);
        const hiOk = (s: number) => (sampling === 'lowest' ? s < 0.9 : s <= 0.9);
        const window = ref.filter((c) => c.s >= 0.6 && hiOk(c.s));
        expect(item.selection.members).toBe(window.length);
        const inWindow = new Set(window.map((c) => c.id));
        for (const id of item.distractors_id) {
          expect(byId.get(id)!.relation).toBe(a.relation);
          expect(inWindow.has(id)).toBe(true);
        }
        if (sampling === 'lowest' && item.selection.refused.length === 0) {
          // The released pool rule: the largest m of 128 … 4 whose m-th candidate is still below 0.9.
          const sorted = ref.filter((c) => c.s >= 0.6).sort((x, y) => x.s - y.s);
          const m = [128, 64, 32, 16, 8, 4].find((k) => sorted.length > k && sorted[k]!.s < 0.9);
          expect(item.selection.lowest_pool_end).toBe(m ?? null);
          const pool = new Set((m === undefined ? sorted.slice(0, 3) : sorted.slice(0, m + 1)).map((c) => c.id));
          for (const id of item.distractors_id) expect(pool.has(id)).toBe(true);
        }
      }
      // Short windows are dropped with the relation named, and their member counts match the reference.
      const short = dropped.filter(
        (d) => d.task === 1 && (d.reason === 'window-empty' || d.reason === 'too-few-distractors'),
      );
      expect(short.length).toBeGreaterThan(0);
      for (const d of short) {
        expect(d.detail).toContain(`within relation "${byId.get(d.id)!.relation}"`);
        const ref = reference(byId.get(d.id)!, kept, true).filter(
          (c) => c.s >= 0.6 && (sampling === 'lowest' ? c.s < 0.9 : c.s <= 0.9),
        );
        expect(d.members).toBe(ref.length);
      }
    });
  }

  it('mixed scope (the default) does draw across relations, from the reference window', async () => {
    const options = { seed: 4, tasks: [1], strategy: 'enumerate' } as const;
    const { items } = await collectRecords(buildIntentionQaItems({ ...world, options }));
    let across = 0;
    for (const item of items as Task1Item[]) {
      const a = byId.get(item.id)!;
      expect(item.selection.members).toBe(reference(a, kept, false).filter((c) => c.s >= 0.6 && c.s <= 0.9).length);
      across += item.distractors_id.filter((id) => byId.get(id)!.relation !== a.relation).length;
    }
    expect(across).toBeGreaterThan(100);
  });
});

describe('the Task-2 universe against a reference', () => {
  const world = intentionQaWorld({ products: 1500, assertions: 500, dim: 16, clusters: 15, seed: 8 });
  const vectors = UnitVectors.fromVectorSet(world.embeddings);
  const row = (id: string) => vectors.row(id)!;
  const words = (id: string) => new Set((world.phrases.get(id) ?? []).flatMap((p) => p.split(' ')));
  const norm = (id: string) => normalizeOptionText(world.products.get(id)!);
  const kept = world.assertions.filter((a) => a.typicality > 0.5);
  const keptProducts = new Set(kept.flatMap((a) => [a.itemA, a.itemB]));
  const byId = new Map(world.assertions.map((a) => [a.id, a]));

  /** The eligible window members of assertion a's Task 2, scanning every product. */
  function reference(a: Assertion, anchorId: string, universe: 'assertions' | 'catalog'): Set<string> {
    const out = new Set<string>();
    const wa = words(a.itemA);
    for (const id of vectors.ids) {
      if (id === a.itemA || id === anchorId || !vectors.isValid(row(id))) continue;
      if (universe === 'assertions' && !keptProducts.has(id)) continue;
      if (norm(id) === norm(a.itemA) || ![...words(id)].some((w) => wa.has(w))) continue;
      const s = vectors.cosine(row(anchorId), row(id));
      if (s >= 0.7 && s < 0.9) out.add(id);
    }
    return out;
  }

  for (const universe of ['assertions', 'catalog'] as const) {
    for (const anchor of ['answer', 'given'] as const) {
      it(`${universe}, anchor ${anchor}: members and distractors are the reference's`, async () => {
        const options = { seed: 6, anchor, task2Universe: universe, tasks: [2], strategy: 'enumerate' } as const;
        const { items, dropped } = await collectRecords(buildIntentionQaItems({ ...world, options }));
        expect(items.length).toBeGreaterThan(150);
        let outsideKept = 0;
        for (const item of items as Task2Item[]) {
          checkItemInvariants(item, world, vectors);
          const a = byId.get(item.id)!;
          const ref = reference(a, anchor === 'answer' ? a.itemB : a.itemA, universe);
          expect(item.selection.members).toBe(ref.size);
          for (const id of item.distractors_id) {
            expect(ref.has(id)).toBe(true);
            if (!keptProducts.has(id)) outsideKept += 1;
          }
        }
        for (const d of dropped.filter((x) => x.task === 2 && x.members !== undefined)) {
          const a = byId.get(d.id)!;
          expect(d.members).toBe(reference(a, anchor === 'answer' ? a.itemB : a.itemA, universe).size);
        }
        // Not vacuous: most products are in no kept assertion, and the catalog draws them.
        if (universe === 'assertions') expect(outsideKept).toBe(0);
        else expect(outsideKept).toBeGreaterThan(100);
      });
    }
  }
});
