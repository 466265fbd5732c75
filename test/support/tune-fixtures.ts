// Reviews for the `tune` tests: IntentionQA Task-1 items as the pipeline writes them (options, gold,
// `distractors[]` with their Sim_i, `selection.window`), and a blind review of them labelled by one
// annotator whose marks are drawn (seeded) from the known curve σ(−12 + 16·s).
import { join } from 'node:path';
import { Rng } from '../../core/rng.js';
import { openReview } from '../../engine/review/open-review.js';
import { sigmoid } from '../../engine/review/logistic-fit.js';
import { writeItemsDir } from './review-fixtures.js';

/** A Task-1 item line: the options, the gold, the distractors with their Sim_i (and what the rules read, when given). */
export function tuneItemLine(
  i: number,
  scores: [number, number, number],
  gold: 'A' | 'B' | 'C' | 'D',
  readings?: readonly object[],
): string {
  const texts = scores.map((_, k) => `because reason ${i}.${k}.`);
  const all = [...texts];
  all.splice('ABCD'.indexOf(gold), 0, `because the gold ${i}.`);
  const options = Object.fromEntries(all.map((t, k) => ['ABCD'[k], t]));
  return JSON.stringify({
    id: `T${i}`,
    item_a_name: `A${i}`,
    item_b_name: `B${i}`,
    relation: 'usedFor',
    gold_ind: gold,
    options,
    task: 1,
    difficulty: 'easy',
    prompts: {
      zero_shot: `A customer buys A${i} and B${i}. Why?\nA. x`,
      cot: `A customer buys A${i} and B${i}. Why?\nA. x`,
    },
    distractors: texts.map((text, k) => ({
      id: `d${k}`,
      text,
      score: scores[k],
      overlap: 0,
      method: 'exact',
      ...(readings?.[k] ?? {}),
    })),
    selection: { window: '[0.3, 0.9]' },
  });
}

/**
 * `n` items (similarities uniform on [0.3, 0.9]) in DIR/items and a blind review of them in
 * DIR/review, labelled: the gold, and each distractor with probability σ(−12 + 16·s).
 */
export async function labelledReview(dir: string, n: number): Promise<{ right: string[][] }> {
  const rng = new Rng('review-synthetic');
  const lines: string[] = [];
  const right: string[][] = [];
  for (let i = 0; i < n; i++) {
    const scores = [0, 1, 2].map(() => 0.3 + 0.6 * rng.next()) as [number, number, number];
    const gold = 'ABCD'[i % 4] as 'A';
    lines.push(tuneItemLine(i, scores, gold));
    const distractorLetters = [...'ABCD'].filter((l) => l !== gold);
    right.push([gold, ...distractorLetters.filter((_, k) => rng.next() < sigmoid(-12 + 16 * scores[k]!))]);
  }
  const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': lines });
  const { store } = await openReview({ itemsDir: items, reviewDir: join(dir, 'review'), blind: true });
  for (const item of store.items()) {
    const i = Number(item.id.slice(1));
    store.save(
      'annotator',
      store.positionOf(item.key)!,
      { correct: [...right[i]!].sort(), validity: 'valid', reasons: [], otherText: '', ms: 1 },
      new Date(0),
      'browser',
    );
  }
  store.close();
  return { right };
}
