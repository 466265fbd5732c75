// What a blind review shows of an item (`review start --blind`): the question and the options, and
// nothing that names or hints the gold. Left out: the gold and its note, the item's id, key, file and
// line (an id can be looked up), the difficulty and the relation (a Task-1 gold is the assertion of
// that relation, so the relation names its wording), and, in Task 2, product B: it is the answer.
// IntentionQA options are shown in a seeded order of their own, relabelled A, B, … in that order, so
// that neither the item's letters nor their order carry where the gold is; the server maps the
// letters an annotator marks back to the item's before they are stored. SIB options are a scale
// (Yes … No) and keep their order.
import { createHash } from 'node:crypto';
import { Rng } from '../../core/rng.js';
import type { ReviewItem, ReviewOption } from './review-items.js';
import { REASONS, type Reason } from './review-store.js';

/** The reasons a blind page offers: without the gold shown, "gold wrong" is no reason one can give. */
export const BLIND_REASONS: readonly Reason[] = REASONS.filter((r) => r !== 'gold-wrong');

/** One item as a blind page (or a blind MTurk row) shows it. */
export interface BlindItemView {
  /** An opaque reference to the item (for an MTurk row): a hash of its key, not the key. */
  ref: string;
  /** `intentionqa-1`, `intentionqa-2`, `sib-1` …: the kind of question, which the question shows anyway. */
  task: string;
  products: string[];
  question: string;
  /** The options in the order shown, lettered A, B, … in that order (SIB: the item's own letters). */
  options: ReviewOption[];
}

const SHOWN_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];

/** The item's letters in the order a blind page shows them (a seeded shuffle for IntentionQA). */
export function blindOrder(item: ReviewItem, seed: number): string[] {
  const letters = item.options.map((o) => o.letter);
  if (item.benchmark !== 'intentionqa') return letters;
  return new Rng(`review-blind/${seed}/${item.key}`).shuffle(letters);
}

/** The letter shown for each of the item's letters, and back. */
export interface BlindLetters {
  toShown: Map<string, string>;
  toItem: Map<string, string>;
}

export function blindLetters(item: ReviewItem, seed: number): BlindLetters {
  const order = blindOrder(item, seed);
  const shown = item.benchmark === 'intentionqa' ? SHOWN_LETTERS.slice(0, order.length) : order;
  return {
    toShown: new Map(order.map((l, i) => [l, shown[i]!])),
    toItem: new Map(order.map((l, i) => [shown[i]!, l])),
  };
}

/** The opaque reference of an item in blind MTurk rows. */
export function blindRef(item: ReviewItem): string {
  return 'item-' + createHash('sha256').update(`intentsim-review-blind\u0000${item.key}`).digest('hex').slice(0, 16);
}

export function blindView(item: ReviewItem, seed: number): BlindItemView {
  const order = blindOrder(item, seed);
  const { toShown } = blindLetters(item, seed);
  const text = new Map(item.options.map((o) => [o.letter, o.text]));
  return {
    ref: blindRef(item),
    task: item.task,
    // Task 2 asks which product goes with product A: product B is the gold.
    products: item.task === 'intentionqa-2' ? item.products.slice(0, 1) : [...item.products],
    question: item.question,
    options: order.map((l) => ({ letter: toShown.get(l)!, text: text.get(l)! })),
  };
}

/** Shown letters → the item's letters (sorted); undefined for a letter the view does not have. */
export function itemLettersOf(shown: readonly string[], letters: BlindLetters): string[] | undefined {
  const out: string[] = [];
  for (const s of shown) {
    const l = letters.toItem.get(s);
    if (l === undefined) return undefined;
    out.push(l);
  }
  return [...new Set(out)].sort();
}

/** The item's letters → the letters shown (sorted). */
export function shownLettersOf(item: readonly string[], letters: BlindLetters): string[] {
  return [...new Set(item.map((l) => letters.toShown.get(l)!))].sort();
}
