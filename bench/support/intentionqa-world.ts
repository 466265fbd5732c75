// A seeded synthetic IntentionQA world for tests and benchmarks: products in clusters (clustered
// vectors, so the windows are populated), co-buy assertions mostly inside a cluster (some across
// clusters, which become "hard" items or have empty windows), intentions drawn from a small
// vocabulary (so false negatives and duplicate option texts occur), a few duplicated titles, a few
// products without phrases, and optionally products without vectors. Nothing here is real data.
import type { VectorSet } from '../../embeddings/sentence-encoder.js';
import type { Assertion } from '../../engine/items/intentionqa/assertions.js';
import { extractIntention } from '../../engine/items/intentionqa/intention-text.js';
import { Rng } from '../../core/rng.js';
import { clusterOf, clusteredVectors } from './clustered-vectors.js';

export interface WorldOptions {
  products: number;
  assertions: number;
  dim: number;
  clusters: number;
  seed: number;
  /** Fraction of assertions whose two products come from different clusters (default 0.1). */
  crossCluster?: number;
  /** Product rows with no vector (default none). */
  zeroRows?: ReadonlySet<number>;
  /** Distinct intention phrasings per cluster (default 6): fewer → more false negatives. */
  intentionsPerCluster?: number;
}

export interface World {
  products: Map<string, string>;
  assertions: Assertion[];
  embeddings: VectorSet;
  phrases: Map<string, string[]>;
}

const TYPICALITIES = [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

export function intentionQaWorld(o: WorldOptions): World {
  const rng = new Rng(`world/${o.seed}`);
  const embeddings = clusteredVectors({
    count: o.products,
    dim: o.dim,
    clusters: o.clusters,
    seed: o.seed,
    prefix: 'P',
    zeroRows: o.zeroRows,
  });
  const products = new Map<string, string>();
  const phrases = new Map<string, string[]>();
  for (let i = 0; i < o.products; i++) {
    const c = clusterOf(i, o.clusters);
    // Every 97th product repeats the title of an earlier product of its cluster (a duplicate listing).
    const title = i % 97 === 0 && i >= o.clusters ? products.get(`P${i - o.clusters}`)! : `Product ${i} from line ${c}`;
    products.set(`P${i}`, title);
    // Every 23rd product has no category phrases (it can never overlap). The others hold one phrase
    // shared by their whole line (words: type<c>, goods, family<c mod 7>): a phrase shared by products
    // that share nothing else says no kind (product-kinds.ts), so the validity rules that work by kind
    // of product never fire here, and what these worlds measure (windows, sampling, cost) stays theirs.
    if (i % 23 !== 0) phrases.set(`P${i}`, [`type${c} goods family${c % 7}`]);
  }
  const perCluster = o.intentionsPerCluster ?? 6;
  const cross = o.crossCluster ?? 0.1;
  const assertions: Assertion[] = [];
  const membersOf = (c: number) => Math.floor((o.products - 1 - c) / o.clusters) + 1;
  for (let k = 0; k < o.assertions; k++) {
    const c = rng.int(o.clusters);
    const n = membersOf(c);
    const ia = c + o.clusters * rng.int(n);
    let ib: number;
    if (rng.next() < cross) {
      do ib = rng.int(o.products);
      while (ib === ia);
    } else {
      if (n < 2) {
        k -= 1;
        continue;
      }
      do ib = c + o.clusters * rng.int(n);
      while (ib === ia);
    }
    const v = rng.int(perCluster);
    const assertion =
      v % 5 === 4
        ? `PersonX bought a product of Item A and a product of Item B as a result, the person can use line ${c} thing ${v}.`
        : `PersonX bought a product of Item A and a product of Item B because they both serve purpose ${v} of line ${c}.`;
    assertions.push({
      id: `A${k}`,
      itemA: `P${ia}`,
      itemB: `P${ib}`,
      relation: ['isA', 'usedFor', 'capableOf'][k % 3]!,
      assertion,
      intention: extractIntention(assertion)!,
      typicality: TYPICALITIES[rng.int(TYPICALITIES.length)]!,
    });
  }
  return { products, assertions, embeddings, phrases };
}
