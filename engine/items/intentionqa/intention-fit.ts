// How well an intention text fits a product: the cosine between the intention's vector and the
// product title's vector, both made by the run's encoder (glove-100d by default, Sentence-BERT when
// present), each set centered on its own mean (averaged word vectors are all alike until the common
// part is removed; docs/embeddings.md). The validity rules that read a question as a person does use it
// (docs/intentionqa.md, "Validity filters"):
//
//   unexplained   a gold intention that fits neither of its own products (pair fit below a cut-off:
//                 "because he was not satisfied with the original products") explains nothing: no item;
//   fits-as-well  a Task-2 distractor product that the gold's intention fits within a margin of the
//                 intention's fit to the item's pair (the given product and the gold) is a second
//                 right answer: refused;
//   unanchored    a Task-1 distractor that does not fit the pair it was asserted for by a margin better
//                 than the item's pair belongs to no pair in particular: refused. (Task 1 has no
//                 fits-as-well: what fits the pair nearly as well as the gold is what an embedding
//                 solver picks, and unanchored catches the readers' second answers without it.)
//
// On the released IntentionQA data with glove-100d, an assertion's intention fits its own two titles
// better than a random pair's in 79% of comparisons (AUC 0.79; median pair fit 0.17 against -0.01).
import type { UnitVectors } from '../../search/unit-vectors.js';

/** The two vector sets a fit is read from, one row per intention key and one per product id. */
export interface IntentionFitVectors {
  /** Unit vectors of the intention texts, ids = intention keys (validity-filters.ts intentionKey). */
  intentions: UnitVectors;
  /** Unit vectors of the product titles, ids = product ids. */
  titles: UnitVectors;
}

/**
 * Fits by key id and product index (the validity index's numbering): rows are looked up once when
 * the index is built, so the rules inside the window draws are a dot product each.
 */
export class IntentionFit {
  /** Title row of each product index, or -1 (no title vector). */
  private readonly titleRow: Int32Array;
  /** Intention row of each key id, or -1 (no vector). */
  private readonly intentionRow: Int32Array;

  constructor(
    readonly vectors: IntentionFitVectors,
    keyOfId: readonly string[],
    productIdOfIndex: readonly string[],
  ) {
    const rowOf = (set: UnitVectors, id: string): number => {
      const row = set.row(id);
      return row !== undefined && set.isValid(row) ? row : -1;
    };
    this.intentionRow = Int32Array.from(keyOfId, (key) => rowOf(vectors.intentions, key));
    this.titleRow = Int32Array.from(productIdOfIndex, (id) => rowOf(vectors.titles, id));
  }

  /** The cosine of intention key id `key` with product index `product`'s title; NaN when either has no vector. */
  fit(key: number, product: number): number {
    const i = key >= 0 ? this.intentionRow[key]! : -1;
    const t = product >= 0 && product < this.titleRow.length ? this.titleRow[product]! : -1;
    if (i < 0 || t < 0) return NaN;
    const { intentions, titles } = this.vectors;
    const dim = intentions.dim;
    let dot = 0;
    for (let d = 0, x = i * dim, y = t * dim; d < dim; d++) dot += intentions.data[x + d]! * titles.data[y + d]!;
    return dot;
  }

  /** The mean of the fits to two products: how well an intention explains a pair (NaN when unknown). */
  pairFit(key: number, a: number, b: number): number {
    return (this.fit(key, a) + this.fit(key, b)) / 2;
  }
}
