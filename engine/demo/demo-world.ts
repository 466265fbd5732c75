// `intentsim graph generate --demo`: a small, deterministic, semantically coherent demo world (the
// vocabulary is data, demo-world.json, shaped and explained in demo-world-types.ts): an ASER-style
// graph, a product catalogue whose titles name the categories, FolkScope-style co-buy assertions
// and ChatGPT-style concept phrases.
//
// Everything is a pure function of the seed (`buildDemoWorld`); `writeDemo` writes it out:
//   graph.sqlite      the graph (through GraphWriter), written to a temporary file and renamed
//   edges.jsonl       the same edges as a JSONL edge list (`intentsim graph import` reads it back)
//   products.jsonl    {id, title}
//   assertions.jsonl  {id, item_a_id, item_b_id, relation, assertion, typicality}
//   concepts.jsonl    {id, phrases}  (for `catalog match --concepts`)
// Same seed → byte-identical JSONL files and the same graph content.
import { join } from 'node:path';
import { Rng } from '../../core/rng.js';
import { writeFileAtomic } from '../../core/atomic.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { phraseVariants } from '../products/normalize.js';
import { edgeToJsonl, openGraphOutput } from '../../graph/generate/graph-output.js';
import data from './demo-world.json' with { type: 'json' };
import type { DemoCategory, DemoCluster, DemoIntention, DemoWorldData } from './demo-world-types.js';
import { isRelationSense, type EdgeInput, type RelationSense, type SenseWeights } from '../../graph/graph-store.js';
import type { Product } from '../products/products.js';

/**
 * The demo world's vocabulary (demo-world.json). A JSON import types its tuples as arrays, hence the
 * cast; test/generate.test.ts checks the file against DemoWorldData's tuple shapes.
 */
export const DEMO_WORLD_DATA = data as unknown as DemoWorldData;
const {
  assertionPrefix: ASSERTION_PREFIX,
  brands: DEMO_BRANDS,
  bridges: DEMO_BRIDGES,
  clusters: DEMO_CLUSTERS,
  crossIntentions: DEMO_CROSS_INTENTIONS,
  hubs: DEMO_HUBS,
  isolated: DEMO_ISOLATED,
  isolatedCategories: DEMO_ISOLATED_CATEGORIES,
  isolatedCoBuys: DEMO_ISOLATED_CO_BUYS,
  nearNeighbours: DEMO_NEAR_NEIGHBOURS,
} = DEMO_WORLD_DATA;

/**
 * The version of the world's vocabulary (demo-world.json): a demo folder written by another version is
 * written again, not reused. 2: intentions specific to pairs of sub-kinds (issue 34); 1: intentions
 * per cluster, which fit every pair of it (the world of test/fixtures/demo-world-v1).
 */
export const DEMO_WORLD_VERSION = 2;

export interface DemoAssertion {
  id: string;
  item_a_id: string;
  item_b_id: string;
  relation: string;
  assertion: string;
  typicality: number;
}

export interface DemoConcepts {
  id: string;
  phrases: string[];
}

export interface DemoWorld {
  /** Edges in a fixed order; each (head, tail) once, senses merged. */
  edges: EdgeInput[];
  /** Every node text, in first-appearance order (edge endpoints, then isolated nodes). */
  nodes: string[];
  /** Node texts with no edge at all. */
  isolated: string[];
  products: Product[];
  assertions: DemoAssertion[];
  concepts: DemoConcepts[];
  /** Product id → category noun (for tests and reports). */
  categoryOf: Map<string, string>;
}

export interface DemoOptions {
  seed?: number;
  /** Products per category (default 8; isolated categories get 3). */
  productsPerCategory?: number;
}

const MASS_CLUSTER_NOUNS = new Set([
  'jewelry',
  'coffee supply',
  'camping gear',
  'fitness equipment',
  'pet supply',
  'school supply',
  'garden supply',
]);

function withArticle(noun: string, mass: boolean): string {
  if (mass) return noun;
  return (/^[aeiou]/.test(noun) ? 'an ' : 'a ') + noun;
}

/** The purchase nodes of a category: its main node, a PeopleX variant, and a "new X" near-distractor for some. */
function purchaseNodes(category: DemoCategory, index: number): { primary: string; others: string[]; near?: string } {
  const primary = `PersonX buy ${withArticle(category.noun, category.mass === true)}`;
  const others = [`PeopleX buy ${category.noun}`];
  if (index % 3 === 1) others.push(`PersonY purchase ${withArticle(category.noun, category.mass === true)}`);
  const near = index % 2 === 0 ? `PersonX get a new ${category.noun}` : undefined;
  return { primary, others, near };
}

/** Purchase nodes for a category's concept phrases (singular forms) that differ from its noun. */
function conceptNodes(category: DemoCategory): string[] {
  const out: string[] = [];
  for (const raw of category.concepts) {
    const variants = phraseVariants(raw);
    const singular = variants[variants.length - 1]!;
    if (singular !== category.noun) out.push(`PersonX buy ${withArticle(singular, false)}`);
  }
  return out;
}

class EdgeCollector {
  private readonly byKey = new Map<string, EdgeInput>();
  private readonly order: string[] = [];
  private readonly nodeOrder: string[] = [];
  private readonly nodeSet = new Set<string>();

  constructor(private readonly rng: Rng) {}

  private node(text: string): void {
    if (!this.nodeSet.has(text)) {
      this.nodeSet.add(text);
      this.nodeOrder.push(text);
    }
  }

  /** Adds a sense to (head, tail) with a count-like ASER weight; a repeated sense keeps its first weight. */
  add(head: string, sense: RelationSense | string, tail: string): void {
    if (!isRelationSense(sense)) throw new Error(`demo world: unknown sense ${sense}`);
    if (head === tail) return;
    this.node(head);
    this.node(tail);
    const key = `${head}\u0000${tail}`;
    let edge = this.byKey.get(key);
    if (!edge) {
      edge = { head, tail, senses: {} };
      this.byKey.set(key, edge);
      this.order.push(key);
    }
    const senses: SenseWeights = edge.senses;
    if (senses[sense] === undefined) senses[sense] = 1 + this.rng.int(8) + (this.rng.next() < 0.3 ? 0.5 : 0);
  }

  edges(): EdgeInput[] {
    return this.order.map((k) => this.byKey.get(k)!);
  }

  nodes(): string[] {
    return [...this.nodeOrder];
  }
}

function buildGraph(rng: Rng): { edges: EdgeInput[]; nodes: string[]; primaryOf: Map<string, string> } {
  const g = new EdgeCollector(rng);
  const primaryOf = new Map<string, string>();
  const clusterNode = (c: DemoCluster) =>
    `PersonX buy ${withArticle(c.clusterNoun, MASS_CLUSTER_NOUNS.has(c.clusterNoun))}`;

  for (const cluster of DEMO_CLUSTERS) {
    const cNode = clusterNode(cluster);
    for (const s of cluster.shared) g.add(cNode, 'Co_Occurrence', s);
    g.add(cNode, 'Reason', cluster.shared[0]!);
    for (const [h, sense, t] of cluster.chains) g.add(h, sense, t);

    cluster.categories.forEach((cat, k) => {
      const { primary, others, near } = purchaseNodes(cat, k);
      primaryOf.set(cat.noun, primary);
      for (const r of cat.reasons) g.add(primary, 'Reason', r);
      cat.results.forEach((r, i) => {
        g.add(primary, 'Result', r);
        if (i === 0) g.add(primary, 'Precedence', r);
      });
      for (const s of cluster.shared) g.add(primary, 'Co_Occurrence', s);
      g.add(DEMO_HUBS.before, 'Precedence', primary);
      g.add(primary, 'Condition', DEMO_HUBS.condition);
      g.add(primary, 'Result', DEMO_HUBS.after);
      g.add(primary, 'Instantiation', cNode);
      for (const o of others) {
        g.add(o, 'Reason', cat.reasons[0]!);
        g.add(o, 'Result', cat.results[0]!);
        g.add(o, 'Co_Occurrence', cluster.shared[0]!);
        g.add(o, 'Restatement', primary);
      }
      if (near !== undefined) {
        g.add(near, 'Reason', cat.reasons[cat.reasons.length - 1]!);
        g.add(near, 'Result', DEMO_HUBS.after);
        g.add(DEMO_HUBS.before, 'Precedence', near);
      }
      for (const c of conceptNodes(cat)) {
        g.add(c, 'Reason', cat.reasons[0]!);
        g.add(c, 'Result', cat.results[0]!);
        g.add(c, 'Co_Occurrence', cluster.shared[k % cluster.shared.length]!);
      }
    });
    // Co-buys inside the cluster: each category with the next.
    for (let k = 0; k + 1 < cluster.categories.length; k++) {
      g.add(
        primaryOf.get(cluster.categories[k]!.noun)!,
        'Conjunction',
        primaryOf.get(cluster.categories[k + 1]!.noun)!,
      );
    }
  }
  for (const [event, clusters] of DEMO_BRIDGES) {
    for (const name of clusters) {
      const cluster = DEMO_CLUSTERS.find((c) => c.name === name);
      if (!cluster) throw new Error(`demo world: bridge names unknown cluster ${name}`);
      g.add(clusterNode(cluster), 'Co_Occurrence', event);
      g.add(primaryOf.get(cluster.categories[0]!.noun)!, 'Reason', event);
    }
  }
  for (const [a, sense, b] of DEMO_NEAR_NEIGHBOURS) {
    const pa = primaryOf.get(a);
    const pb = primaryOf.get(b);
    if (!pa || !pb) throw new Error(`demo world: near neighbours name an unknown category (${a}, ${b})`);
    g.add(pa, sense, pb);
  }
  return { edges: g.edges(), nodes: g.nodes(), primaryOf };
}

interface CategoryProducts {
  cluster: string | null;
  category: DemoCategory;
  ids: string[];
}

/**
 * The drawn modifier, or the next one that shares no word with the noun: no "Wireless Wireless
 * Controller" or "Vacuum Insulated Insulated Tumbler". The draw itself is unchanged, so the rest of
 * the world stays as it was.
 */
function modifierFor(noun: string, modifiers: readonly string[], drawn: number): string {
  const wordsOf = (text: string) => text.toLowerCase().split(' ');
  const nounWords = new Set(wordsOf(noun));
  for (let k = 0; k < modifiers.length; k++) {
    const modifier = modifiers[(drawn + k) % modifiers.length]!;
    if (!wordsOf(modifier).some((w) => nounWords.has(w))) return modifier;
  }
  return modifiers[drawn]!;
}

function titleOf(rng: Rng, cat: DemoCategory, i: number): string {
  const brand = DEMO_BRANDS[rng.int(DEMO_BRANDS.length)]!;
  const noun = cat.titleNouns[i % cat.titleNouns.length]!;
  const modifier = modifierFor(noun, cat.modifiers, rng.int(cat.modifiers.length));
  const extra = cat.extras[rng.int(cat.extras.length)]!;
  // Attachments ("for …", "with …") follow the noun; other extras are a separate segment.
  let title = /^(for|with|in)\b/.test(extra)
    ? `${brand} ${modifier} ${noun} ${extra}`
    : `${brand} ${modifier} ${noun}, ${extra}`;
  if (cat.attributes.length > 0 && rng.next() < 0.5) title += ` - ${cat.attributes[rng.int(cat.attributes.length)]}`;
  return title;
}

function buildCatalog(rng: Rng, perCategory: number) {
  const products: Product[] = [];
  const concepts: DemoConcepts[] = [];
  const categoryOf = new Map<string, string>();
  const groups: CategoryProducts[] = [];
  const titles = new Set<string>();
  const all: Array<[string | null, DemoCategory, number]> = [
    ...DEMO_CLUSTERS.flatMap((c) =>
      c.categories.map((cat): [string, DemoCategory, number] => [c.name, cat, perCategory]),
    ),
    ...DEMO_ISOLATED_CATEGORIES.map((cat): [null, DemoCategory, number] => [null, cat, 3]),
  ];
  for (const [cluster, cat, n] of all) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      let title = titleOf(rng, cat, i);
      for (let model = 2; titles.has(title); model++) title = `${titleOf(rng, cat, i)} (Model ${model})`;
      titles.add(title);
      const id = `D${String(products.length + 1).padStart(9, '0')}`;
      products.push({ id, title });
      categoryOf.set(id, cat.noun);
      ids.push(id);
      // ChatGPT-style answers: the category's three phrases, sometimes in another order.
      const phrases = [...cat.concepts];
      if (rng.next() < 0.3) phrases.reverse();
      concepts.push({ id, phrases });
    }
    groups.push({ cluster, category: cat, ids });
  }
  return { products, concepts, categoryOf, groups };
}

const TYPICALITIES = [0.3, 0.4, 0.5, 0.6, 0.6, 0.7, 0.7, 0.7, 0.8, 0.8, 0.9, 1.0];

function buildAssertions(rng: Rng, groups: CategoryProducts[]): DemoAssertion[] {
  const out: DemoAssertion[] = [];
  const seen = new Set<string>();
  const push = (a: string, b: string, intention: DemoIntention) => {
    const key = `${a}\u0000${b}\u0000${intention.clause}`;
    if (a === b || seen.has(key)) return;
    seen.add(key);
    const clause = intention.clause.endsWith('.') ? intention.clause : intention.clause + '.';
    out.push({
      id: `DEMO_${out.length + 1}`,
      item_a_id: a,
      item_b_id: b,
      relation: intention.relation,
      assertion: ASSERTION_PREFIX + clause,
      typicality: TYPICALITIES[rng.int(TYPICALITIES.length)]!,
    });
  };
  const byCluster = new Map<string, CategoryProducts[]>();
  for (const g of groups) if (g.cluster !== null) byCluster.set(g.cluster, [...(byCluster.get(g.cluster) ?? []), g]);
  const pick = (g: CategoryProducts) => g.ids[rng.int(g.ids.length)]!;
  const byNoun = new Map(groups.map((g) => [g.category.noun, g]));
  const group = (noun: string, where: string) => {
    const g = byNoun.get(noun);
    if (!g) throw new Error(`demo world: ${where} names an unknown category "${noun}"`);
    return g;
  };
  /**
   * A pair of the listed ones, in either order (the assertion reads the same both ways): draw n takes
   * the n-th listed pair while there is one, so that every pair an intention fits is asserted at least
   * once (the validity rules learn what fits from the assertions), then a random one.
   */
  const pickPair = (
    pairs: ReadonlyArray<[string, string]>,
    where: string,
    n: number,
  ): [CategoryProducts, CategoryProducts] => {
    const [x, y] = n < pairs.length ? pairs[n]! : pairs[rng.int(pairs.length)]!;
    const pair: [CategoryProducts, CategoryProducts] = [group(x, where), group(y, where)];
    return rng.next() < 0.5 ? pair : [pair[1], pair[0]];
  };

  for (const cluster of DEMO_CLUSTERS) {
    const cats = byCluster.get(cluster.name)!;
    for (const intention of cluster.intentions) {
      for (let n = 0; n < 8; n++) {
        if (intention.pairs) {
          const [a, b] = pickPair(intention.pairs, `the intention "${intention.clause}"`, n);
          push(pick(a), pick(b), intention);
          continue;
        }
        const i = rng.int(cats.length);
        let j = rng.int(cats.length - 1);
        if (j >= i) j += 1;
        push(pick(cats[i]!), pick(cats[j]!), intention);
      }
    }
    // The vague FolkScope kind, which matches many pairs.
    for (let n = 0; n < 3; n++) {
      const a = cats[rng.int(cats.length)]!;
      push(pick(a), pick(a), { relation: 'usedFor', clause: 'they are both used for the same purpose' });
    }
  }
  for (const { intention, pairs } of DEMO_CROSS_INTENTIONS) {
    for (let n = 0; n < 6; n++) {
      const [a, b] = pickPair(pairs, `the intention "${intention.clause}"`, n);
      push(pick(a), pick(b), intention);
    }
  }
  // Products of the isolated categories take part too (their context is empty: the pipeline must cope).
  const isolated = groups.filter((g) => g.cluster === null);
  const partners = DEMO_ISOLATED_CO_BUYS.partners.map((noun) => group(noun, 'isolatedCoBuys'));
  for (const g of isolated) {
    for (let n = 0; n < 2; n++)
      push(pick(g), pick(partners[rng.int(partners.length)]!), DEMO_ISOLATED_CO_BUYS.intention);
  }
  return out;
}

/** The whole demo world, a pure function of the seed. */
export function buildDemoWorld(options: DemoOptions = {}): DemoWorld {
  const seed = options.seed ?? 1;
  const graph = buildGraph(Rng.derive(seed, 'demo-graph'));
  const nodeSet = new Set(graph.nodes);
  const isolated = DEMO_ISOLATED.filter((t) => !nodeSet.has(t));
  const { products, concepts, categoryOf, groups } = buildCatalog(
    Rng.derive(seed, 'demo-catalogue'),
    options.productsPerCategory ?? 8,
  );
  const assertions = buildAssertions(Rng.derive(seed, 'demo-assertions'), groups);
  return {
    edges: graph.edges,
    nodes: [...graph.nodes, ...isolated],
    isolated,
    products,
    assertions,
    concepts,
    categoryOf,
  };
}

function jsonl(records: readonly unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length > 0 ? '\n' : '');
}

export interface WriteDemoResult {
  dir: string;
  graph: string;
  files: string[];
  nodes: number;
  edges: number;
  products: number;
  assertions: number;
}

/**
 * Writes the demo world into `dir` (created if needed). The graph is built in a temporary file and
 * renamed into place, so a re-run replaces it whole and an interrupted run leaves no half graph.
 */
/** Writes the demo world into `dir`, claimed meanwhile (core/output-claim.ts: locked, temporary files of killed runs removed). */
export async function writeDemo(dir: string, options: DemoOptions = {}): Promise<WriteDemoResult> {
  return withClaimedOutput(dir, 'folder', {}, () => writeClaimed(dir, options));
}

async function writeClaimed(dir: string, options: DemoOptions): Promise<WriteDemoResult> {
  const world = buildDemoWorld(options);
  const graphPath = join(dir, 'graph.sqlite');
  await writeGraphFile(graphPath, world.nodes, world.edges);
  const files: Array<[string, string]> = [
    ['edges.jsonl', world.edges.map((e) => edgeToJsonl(e) + '\n').join('')],
    ['products.jsonl', jsonl(world.products)],
    ['assertions.jsonl', jsonl(world.assertions)],
    ['concepts.jsonl', jsonl(world.concepts)],
  ];
  for (const [name, text] of files) await writeFileAtomic(join(dir, name), text);
  return {
    dir,
    graph: graphPath,
    files: ['graph.sqlite', ...files.map(([n]) => n)],
    nodes: world.nodes.length,
    edges: world.edges.length,
    products: world.products.length,
    assertions: world.assertions.length,
  };
}

/** Writes nodes (in order, so ids follow it) and edges to a graph output (SQLite file: atomically). */
export async function writeGraphFile(
  target: string,
  nodes: readonly string[],
  edges: readonly EdgeInput[],
): Promise<void> {
  const out = await openGraphOutput(target);
  try {
    for (let i = 0; i < nodes.length; i += 10_000) await out.writeNodes(nodes.slice(i, i + 10_000));
    for (let i = 0; i < edges.length; i += 10_000) await out.writeEdges(edges.slice(i, i + 10_000));
  } catch (err) {
    await out.abort();
    throw err;
  }
  await out.commit();
}
