// The invariants every emitted IntentionQA item must satisfy, checked against the inputs (shared by
// the synthetic-world and the real-data suites).
import { expect } from 'vitest';
import type { World } from '../../bench/support/intentionqa-world.js';
import type { Assertion } from '../../engine/items/intentionqa/assertions.js';
import {
  PAPER_TASK1_WINDOW,
  PAPER_TASK2_WINDOW,
  type WindowBounds,
} from '../../engine/items/intentionqa/intentionqa-options.js';
import { PAPER_DIFFICULTY, difficultyOf, type DifficultyCuts } from '../../engine/items/intentionqa/difficulty.js';
import { extractIntention } from '../../engine/items/intentionqa/intention-text.js';
import type { IntentionQaItem } from '../../engine/items/intentionqa/item-types.js';
import { normalizeOptionText } from '../../engine/items/option-text.js';
import type { UnitVectors } from '../../engine/search/unit-vectors.js';
import { inWindow, type CosineWindow } from '../../engine/search/windows.js';

const byIdCache = new WeakMap<readonly Assertion[], Map<string, Assertion>>();
function assertionsById(list: readonly Assertion[]): Map<string, Assertion> {
  let m = byIdCache.get(list);
  if (!m) byIdCache.set(list, (m = new Map(list.map((x) => [x.id, x]))));
  return m;
}

/** The windows and cut points a run used (default: the paper's). */
export interface RunBounds {
  task1: WindowBounds;
  task2: WindowBounds;
  difficulty: DifficultyCuts;
}

const PAPER_BOUNDS: RunBounds = { task1: PAPER_TASK1_WINDOW, task2: PAPER_TASK2_WINDOW, difficulty: PAPER_DIFFICULTY };

/**
 * The invariants every emitted item must satisfy against the vectors the run compared (centered ones
 * when it centered); returns nothing, throws on the first violation.
 */
export function checkItemInvariants(
  item: IntentionQaItem,
  world: Pick<World, 'products'> & { assertions: readonly Assertion[] },
  vectors: UnitVectors,
  bounds: RunBounds = PAPER_BOUNDS,
): void {
  const letters = Object.keys(item.options);
  expect(letters).toEqual(['A', 'B', 'C', 'D']);
  const texts = Object.values(item.options);
  expect(new Set(texts.map(normalizeOptionText)).size).toBe(4);
  const gold = item.task === 1 ? extractIntention(item.assertion)! : world.products.get(item.item_b_id)!;
  expect(item.options[item.gold_ind]).toBe(gold);
  expect(texts.filter((t) => normalizeOptionText(t) === normalizeOptionText(gold)).length).toBe(1);
  expect(item.distractors_id.length).toBe(3);
  expect(new Set(item.distractors_id).size).toBe(3);
  const a = vectors.row(item.item_a_id)!;
  const b = vectors.row(item.item_b_id)!;
  expect(Number.isFinite(item.pair_similarity)).toBe(true); // never NaN (JSON would print it as null)
  expect(item.pair_similarity).toBe(vectors.cosine(a, b));
  expect(item.difficulty).toBe(difficultyOf(item.pair_similarity, bounds.difficulty));
  for (const s of item.distractors_score) expect(Number.isFinite(s)).toBe(true);
  if (item.task === 2) {
    const w: CosineWindow = { ...bounds.task2, loInclusive: true, hiInclusive: false };
    const anchor = vectors.row(item.selection.anchor_id!)!;
    item.distractors_id.forEach((id, k) => {
      expect(id).not.toBe(item.item_a_id);
      expect(id).not.toBe(item.item_b_id);
      expect(item.distractors_score[k]).toBe(vectors.cosine(anchor, vectors.row(id)!));
      expect(inWindow(item.distractors_score[k]!, w)).toBe(true);
    });
  } else {
    const w: CosineWindow = { ...bounds.task1, loInclusive: true, hiInclusive: item.selection.sampling !== 'lowest' };
    for (const s of item.distractors_score) expect(inWindow(s, w)).toBe(true);
    const byId = assertionsById(world.assertions);
    const mine = [item.item_a_id, item.item_b_id];
    item.distractors_id.forEach((id, k) => {
      const d = byId.get(id)!;
      expect(mine.includes(d.itemA) || mine.includes(d.itemB)).toBe(false); // never shares a product
      const [ra, rb, rc, rd] = [item.item_a_id, item.item_b_id, d.itemA, d.itemB].map((p) => vectors.row(p)!) as [
        number,
        number,
        number,
        number,
      ];
      const simI = Math.min(
        vectors.cosine(ra, rc),
        vectors.cosine(ra, rd),
        vectors.cosine(rb, rc),
        vectors.cosine(rb, rd),
      );
      expect(item.distractors_score[k]).toBe(simI);
      expect(item.distractors_overlap[k]).toBe(1);
      expect(item.distractors_asserstion[k]).toBe(d.intention);
    });
  }
}
