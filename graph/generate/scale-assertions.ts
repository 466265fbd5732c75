// Co-buy assertions for a generated catalog, in the FolkScope form the pipeline reads
// ({"id", "item_a_id", "item_b_id", "relation", "assertion", "typicality"}): item A is drawn
// uniformly, item B among the other products of A's kind (graph/generate/product-kinds.ts), and the
// reason from what that kind is for, or from A's or B's noun. Seeded and streamed: only one byte per
// product (its kind) and the products of each kind (one Int32Array) are held, whatever the count.
import { Rng } from '../../core/rng.js';
import { PRODUCT_KINDS } from './product-kinds.js';

export interface ScaleAssertion {
  id: string;
  item_a_id: string;
  item_b_id: string;
  relation: string;
  assertion: string;
  typicality: number;
}

/** What the generator needs of each product: its id and the kind and noun of its phrase. */
export interface AssertionCatalog {
  /** Number of products; product i has id `idOf(i)`. */
  size: number;
  idOf(i: number): string;
  /** Kind index (into PRODUCT_KINDS) of product i. */
  kindOf(i: number): number;
  /** Head noun of product i's phrase. */
  nounOf(i: number): string;
}

/** Reason templates: {p} a purpose of the kind, {k} the kind's name, {a}/{b} the nouns of A and B. */
const REASONS: ReadonlyArray<{ relation: string; template: string }> = [
  { relation: 'usedFor', template: 'they are both used for {p}' },
  { relation: 'usedFor', template: 'he needed them for {p}' },
  { relation: 'isA', template: 'they both are a type of {k}' },
  { relation: 'other', template: 'he wanted a {b} to go with his {a}' },
  { relation: 'other', template: 'she needed a spare {b}' },
  { relation: 'capableOf', template: 'they both are capable of {p}' },
];

/**
 * `count` assertions over `catalog`, ids FS_1…FS_count. A kind with one product pairs it with a
 * uniformly drawn other product (the only cross-kind pairs); a catalogue of fewer than two products
 * gives none.
 */
export function* scaleAssertions(catalog: AssertionCatalog, count: number, seed: number): Generator<ScaleAssertion> {
  const n = catalog.size;
  if (n < 2 || count <= 0) return;
  // Products of each kind, in index order (two passes: counts, then fill).
  const sizes = new Int32Array(PRODUCT_KINDS.length);
  const kindOf = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const k = catalog.kindOf(i);
    kindOf[i] = k;
    sizes[k]! += 1;
  }
  const starts = new Int32Array(PRODUCT_KINDS.length + 1);
  for (let k = 0; k < PRODUCT_KINDS.length; k++) starts[k + 1] = starts[k]! + sizes[k]!;
  const members = new Int32Array(n);
  const fill = starts.slice(0, PRODUCT_KINDS.length);
  for (let i = 0; i < n; i++) members[fill[kindOf[i]!]!++] = i;

  const rng = Rng.derive(seed, 'scale-assertions');
  for (let j = 0; j < count; j++) {
    const a = rng.int(n);
    const k = kindOf[a]!;
    const peers = starts[k + 1]! - starts[k]!;
    let b: number;
    if (peers > 1) {
      // A uniform other member of the kind: draw among peers − 1 and step over A.
      const r = rng.int(peers - 1);
      b = members[starts[k]! + r]!;
      if (b === a) b = members[starts[k]! + peers - 1]!;
    } else {
      b = (a + 1 + rng.int(n - 1)) % n;
    }
    const kind = PRODUCT_KINDS[k]!;
    const reason = REASONS[rng.int(REASONS.length)]!;
    const text = reason.template
      .replace('{p}', kind.purposes[rng.int(kind.purposes.length)]!)
      .replace('{k}', kind.name)
      .replace('{a}', catalog.nounOf(a))
      .replace('{b}', catalog.nounOf(b));
    yield {
      id: `FS_${j + 1}`,
      item_a_id: catalog.idOf(a),
      item_b_id: catalog.idOf(b),
      relation: reason.relation,
      assertion: `PersonX bought a product of Item A and a product of Item B because ${text}.`,
      typicality: (5 + rng.int(6)) / 10,
    };
  }
}
