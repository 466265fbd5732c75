// `intentsim graph generate --nodes N --edges M`: a synthetic ASER-like graph for tests and
// benchmarks, seeded and deterministic, streamed (1M nodes / 2M edges hold a few MB: one Uint32
// per node for the degree plan, and the text source if one is given).
//
// Shape:
// - exactly N nodes and M distinct directed edges (no self-loops);
// - power-law degrees: out-degree quotas follow a Zipf law over a random ranking of the nodes
//   (weight (r+1)^-s, s = 0.7); tails are drawn from a second random ranking with density
//   ∝ t^(1/α - 1) (α = 2.5), which gives in-degree hubs;
// - node text: a fraction of purchase-event nodes ("PersonX buy a wireless charger", built from a
//   product vocabulary so that product phrases find several nodes each); the others take lines of
//   a text source (e.g. ../shared/data/aser-style/eventualities.txt) when given, then synthetic
//   ASER-style events ("PersonX water the garden in the morning");
// - each edge carries 1–3 relation senses, drawn with ASER-like frequencies, and count-like weights.
// Node i's text is a pure function of (seed, i); edges are generated head by head from one seeded
// stream. Same options → the same graph, byte-identical JSONL.
import { readFile } from 'node:fs/promises';
import { Rng, hashString } from '../../core/rng.js';
import { createProgress } from '../../core/progress.js';
import { openAtomicWriter } from '../../core/atomic.js';
import { graphOutputKind, openGraphOutput, type GraphOutputKind } from './graph-output.js';
import { PURCHASE_SUBJECTS } from '../purchase-events.js';
import {
  EVENT_ADJUNCTS,
  EVENT_OBJECTS,
  EVENT_SUBJECTS,
  EVENT_VERBS,
  PRODUCT_MODIFIERS,
  PRODUCT_NOUNS,
  titleCase,
} from './scale-vocab.js';
import { type EdgeInput, type RelationSense, type SenseWeights } from '../graph-store.js';
import { ConfigError } from '../../core/errors.js';
import { checkNoOverlap, type PathChecks } from '../../core/check-paths.js';
import { kindOfNoun } from './product-kinds.js';
import { scaleAssertions } from './scale-assertions.js';

export interface ScaleGraphOptions {
  nodes: number;
  edges: number;
  seed?: number;
  /** Fraction of nodes that are purchase events (default 0.05). */
  purchaseFraction?: number;
  /** Zipf exponent of out-degree quotas (default 0.7). */
  outDegreeExponent?: number;
  /** Skew of tail popularity (default 2.5; 1 = uniform). */
  inDegreeSkew?: number;
}

/** Relative frequencies of senses on generated edges (roughly ASER's: co-occurrence dominates). */
const SENSE_FREQUENCIES: Array<[RelationSense, number]> = [
  ['Co_Occurrence', 40],
  ['Conjunction', 20],
  ['Precedence', 8],
  ['Synchronous', 8],
  ['Reason', 5],
  ['Result', 5],
  ['Condition', 4],
  ['Contrast', 4],
  ['Succession', 3],
  ['Concession', 1],
  ['Alternative', 1],
  ['Instantiation', 0.5],
  ['Restatement', 0.5],
  ['ChosenAlternative', 0.2],
  ['Exception', 0.1],
];
const SENSE_TOTAL = SENSE_FREQUENCIES.reduce((s, [, w]) => s + w, 0);

/** Purchase-node forms, most typical first: article × verb × subject (or none). */
const PURCHASE_FORM_VERBS = ['buy', 'get', 'purchase', 'have', 'obtain', 'shop'];
const PURCHASE_FORMS: Array<{ subject: string; verb: string; article: 'a' | 'the' | '' }> = [];
for (const article of ['a', '', 'the'] as const)
  for (const verb of PURCHASE_FORM_VERBS)
    for (const subject of [...PURCHASE_SUBJECTS, '']) PURCHASE_FORMS.push({ subject, verb, article });

/** Purchase nodes per product phrase that the generator aims at (so that products match several nodes). */
const NODES_PER_PHRASE = 8;

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** A seeded bijection of [0, n): i → (a·i + b) mod n with gcd(a, n) = 1. */
export class AffinePermutation {
  private readonly a: number;
  private readonly b: number;

  constructor(
    readonly n: number,
    rng: Rng,
  ) {
    if (n > 94_906_265) throw new RangeError('AffinePermutation: n too large for exact double arithmetic');
    if (n <= 1) {
      this.a = 1;
      this.b = 0;
      return;
    }
    let a = 1 + rng.int(n - 1);
    while (gcd(a, n) !== 1) a = (a % (n - 1)) + 1;
    this.a = a;
    this.b = rng.int(n);
  }

  at(i: number): number {
    return (this.a * i + this.b) % this.n;
  }
}

/** Number of product phrases of the built-in vocabulary: nouns, modifier+noun, modifier+modifier+noun. */
const NOUNS = PRODUCT_NOUNS.length;
const MODS = PRODUCT_MODIFIERS.length;
export const PRODUCT_PHRASE_COUNT = NOUNS + MODS * NOUNS + MODS * MODS * NOUNS;

/** The q-th product phrase: bare nouns first, then one modifier, then two. */
export function productPhrase(q: number): { phrase: string; noun: string; modifiers: string[] } {
  if (q < NOUNS) return { phrase: PRODUCT_NOUNS[q]!, noun: PRODUCT_NOUNS[q]!, modifiers: [] };
  let r = q - NOUNS;
  if (r < MODS * NOUNS) {
    const noun = PRODUCT_NOUNS[r % NOUNS]!;
    const m = PRODUCT_MODIFIERS[Math.floor(r / NOUNS)]!;
    return { phrase: `${m} ${noun}`, noun, modifiers: [m] };
  }
  r -= MODS * NOUNS;
  const noun = PRODUCT_NOUNS[r % NOUNS]!;
  const m1 = PRODUCT_MODIFIERS[Math.floor(r / NOUNS) % MODS]!;
  const m2 = PRODUCT_MODIFIERS[Math.floor(r / (NOUNS * MODS))]!;
  return { phrase: `${m2} ${m1} ${noun}`, noun, modifiers: [m2, m1] };
}

/**
 * Adjunct index c → its words: 0 → none, then each single adjunct, then each ordered pair of
 * adjuncts (a bijection onto these lists; EVENT_ADJUNCTS[0] is the empty adjunct).
 */
function adjunctsOf(c: number): string[] {
  const k = EVENT_ADJUNCTS.length - 1;
  if (c === 0) return [];
  if (c <= k) return [EVENT_ADJUNCTS[c]!];
  const pair = c - 1 - k;
  if (pair >= k * k) throw new RangeError('the built-in event vocabulary is exhausted');
  return [EVENT_ADJUNCTS[1 + (pair % k)]!, EVENT_ADJUNCTS[1 + Math.floor(pair / k)]!];
}

function withArticle(article: 'a' | 'the' | '', phrase: string): string {
  if (article === '') return phrase;
  if (article === 'the') return `the ${phrase}`;
  return (/^[aeiou]/.test(phrase) ? 'an ' : 'a ') + phrase;
}

/** The model of one generated graph: node texts by index, the degree plan, the edge stream. */
export class ScaleGraph {
  readonly nodes: number;
  readonly edges: number;
  readonly purchaseNodes: number;
  /** Distinct phrases used by purchase nodes (the first `phraseCount` of productPhrase). */
  readonly phraseCount: number;
  private readonly seed: number;
  private readonly source: readonly string[];
  private readonly sourceSet: ReadonlySet<string>;
  private readonly textPerm: AffinePermutation;
  private readonly outPerm: AffinePermutation;
  private readonly inPerm: AffinePermutation;
  private readonly s: number;
  private readonly alpha: number;
  private readonly scramble: number[];

  constructor(options: ScaleGraphOptions, sourceLines: readonly string[] = []) {
    const { nodes: n, edges: m } = options;
    if (!Number.isInteger(n) || n < 1) throw new ConfigError('nodes', `must be a positive integer, got ${n}`);
    if (!Number.isInteger(m) || m < 0) throw new ConfigError('edges', `must be a non-negative integer, got ${m}`);
    if (m > n * (n - 1))
      throw new ConfigError('edges', `${m} is more than the ${n * (n - 1)} distinct directed edges ${n} nodes allow`);
    const fraction = options.purchaseFraction ?? 0.05;
    if (!(fraction >= 0 && fraction <= 1)) throw new RangeError(`purchase fraction must be in [0, 1], got ${fraction}`);
    this.nodes = n;
    this.edges = m;
    this.seed = options.seed ?? 1;
    this.s = options.outDegreeExponent ?? 0.7;
    this.alpha = options.inDegreeSkew ?? 2.5;
    this.purchaseNodes = Math.round(fraction * n);
    this.phraseCount = Math.min(PRODUCT_PHRASE_COUNT, Math.max(1, Math.ceil(this.purchaseNodes / NODES_PER_PHRASE)));
    if (this.purchaseNodes > this.phraseCount * PURCHASE_FORMS.length) {
      throw new RangeError(
        `${this.purchaseNodes} purchase nodes exceed the built-in vocabulary (${PRODUCT_PHRASE_COUNT * PURCHASE_FORMS.length})`,
      );
    }
    // Dedupe the source, keep its order; never feed it empty lines.
    const seen = new Set<string>();
    const lines: string[] = [];
    for (const raw of sourceLines) {
      const line = raw.trim();
      if (line !== '' && !seen.has(line)) {
        seen.add(line);
        lines.push(line);
      }
    }
    this.source = lines;
    this.sourceSet = seen;
    this.textPerm = new AffinePermutation(n, Rng.derive(this.seed, 'text-permutation'));
    this.outPerm = new AffinePermutation(n, Rng.derive(this.seed, 'out-permutation'));
    this.inPerm = new AffinePermutation(n, Rng.derive(this.seed, 'in-permutation'));
    const r = Rng.derive(this.seed, 'synthetic-scramble');
    this.scramble = [r.nextUint32(), r.nextUint32(), r.nextUint32()];
  }

  /** Steps around a text-source line that a generated text happens to equal (never a synthetic or purchase text). */
  private unique(text: string): string {
    while (this.sourceSet.has(text)) text += ' again';
    return text;
  }

  /** Text of purchase node k ∈ [0, purchaseNodes): phrase k mod phraseCount in form k div phraseCount. */
  purchaseText(k: number): string {
    const { phrase } = productPhrase(k % this.phraseCount);
    const form = PURCHASE_FORMS[Math.floor(k / this.phraseCount)]!;
    const parts = [form.subject, form.verb, withArticle(form.article, phrase)].filter((p) => p !== '');
    return this.unique(parts.join(' '));
  }

  /**
   * The j-th synthetic event. Subject, verb and object digits are mixed (each offset by a hash of
   * the lower digits: a bijection), so neighbouring j differ everywhere; adjunct digits are not, so
   * short events come first, as in ASER.
   */
  syntheticText(j: number): string {
    const rs = EVENT_SUBJECTS.length;
    const rv = EVENT_VERBS.length;
    const ro = EVENT_OBJECTS.length;
    let rest = j;
    const d0 = rest % rs;
    rest = Math.floor(rest / rs);
    const d1raw = rest % rv;
    rest = Math.floor(rest / rv);
    const d2raw = rest % ro;
    rest = Math.floor(rest / ro);
    const subject = (d0 + (this.scramble[0]! % rs)) % rs;
    const verb = (d1raw + (hashString(`${this.scramble[1]} ${subject}`) % rv)) % rv;
    const object = (d2raw + (hashString(`${this.scramble[2]} ${subject} ${verb}`) % ro)) % ro;
    return this.unique(
      [EVENT_SUBJECTS[subject]!, EVENT_VERBS[verb]!, EVENT_OBJECTS[object]!, ...adjunctsOf(rest)].join(' '),
    );
  }

  /** Text of node i ∈ [0, nodes). */
  nodeText(i: number): string {
    const k = this.textPerm.at(i);
    if (k < this.purchaseNodes) return this.purchaseText(k);
    const j = k - this.purchaseNodes;
    if (j < this.source.length) return this.source[j]!;
    return this.syntheticText(j - this.source.length);
  }

  /** How many nodes take their text from the text source. */
  get sourceLinesUsed(): number {
    return Math.min(this.source.length, this.nodes - this.purchaseNodes);
  }

  /** Whether node i is one of the generated purchase nodes (text-source lines may be purchase events too). */
  isGeneratedPurchaseNode(i: number): boolean {
    return this.textPerm.at(i) < this.purchaseNodes;
  }

  /** Out-degree of each out-rank: Zipf quotas summing to exactly `edges`, each ≤ nodes − 1. */
  degreePlan(): Uint32Array {
    const n = this.nodes;
    const m = this.edges;
    const cap = n - 1;
    const plan = new Uint32Array(n);
    let total = 0;
    for (let r = 0; r < n; r++) total += (r + 1) ** -this.s;
    let prefix = 0;
    let assigned = 0;
    let overflow = 0;
    for (let r = 0; r < n; r++) {
      prefix += (r + 1) ** -this.s;
      const cumulative = r === n - 1 ? m : Math.min(m, Math.floor((m * prefix) / total));
      let d = cumulative - assigned;
      assigned = cumulative;
      if (d > cap) {
        overflow += d - cap;
        d = cap;
      }
      plan[r] = d;
    }
    // Quotas above the cap (tiny dense graphs only) go to the next ranks with room.
    for (let r = 0; overflow > 0; r = (r + 1) % n) {
      if (plan[r]! < cap) {
        plan[r]! += 1;
        overflow -= 1;
      }
    }
    return plan;
  }

  /** Edges in batches, head by head in out-rank order. */
  *edgeBatches(batchSize = 10_000): Generator<EdgeInput[]> {
    const n = this.nodes;
    const plan = this.degreePlan();
    const rng = Rng.derive(this.seed, 'edges');
    let batch: EdgeInput[] = [];
    for (let r = 0; r < n; r++) {
      const d = plan[r]!;
      if (d === 0) continue;
      const head = this.outPerm.at(r);
      const headText = this.nodeText(head);
      for (const tail of this.tailsOf(head, d, rng)) {
        batch.push({ head: headText, tail: this.nodeText(tail), senses: this.senses(rng) });
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
    }
    if (batch.length > 0) yield batch;
  }

  /** `d` distinct tails ≠ head, drawn by popularity (rejection), or by a full shuffle when d is most of the graph. */
  private tailsOf(head: number, d: number, rng: Rng): number[] {
    const n = this.nodes;
    if (d * 2 > n - 1) {
      const others: number[] = [];
      for (let t = 0; t < n; t++) if (t !== head) others.push(t);
      return rng.sample(others, d).sort((a, b) => a - b);
    }
    const chosen = new Set<number>();
    const out: number[] = [];
    while (out.length < d) {
      const rank = Math.min(n - 1, Math.floor(n * rng.next() ** this.alpha));
      const tail = this.inPerm.at(rank);
      if (tail === head || chosen.has(tail)) continue;
      chosen.add(tail);
      out.push(tail);
    }
    return out;
  }

  private senses(rng: Rng): SenseWeights {
    const u = rng.next();
    const count = u < 0.7 ? 1 : u < 0.95 ? 2 : 3;
    const senses: SenseWeights = {};
    for (let c = 0; c < count; c++) {
      let x = rng.next() * SENSE_TOTAL;
      let sense: RelationSense = SENSE_FREQUENCIES[0]![0];
      for (const [name, w] of SENSE_FREQUENCIES) {
        if (x < w) {
          sense = name;
          break;
        }
        x -= w;
      }
      // Count-like weights: mostly 1–3, with a long tail.
      senses[sense] = 1 + Math.floor(-Math.log(1 - rng.next()) * 1.5);
    }
    return senses;
  }

  /** Nodes in index order, in batches (written first, so that store ids follow node indices). */
  *nodeBatches(batchSize = 50_000): Generator<string[]> {
    for (let i = 0; i < this.nodes; i += batchSize) {
      const batch: string[] = [];
      for (let k = i; k < Math.min(this.nodes, i + batchSize); k++) batch.push(this.nodeText(k));
      yield batch;
    }
  }
}

/** Reads a text source: one eventuality a line (blank lines and duplicates are skipped). */
export async function readTextSource(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).split(/\r?\n/);
}

export interface ScaleProduct {
  id: string;
  title: string;
}

const BRAND_SYLLABLES = [
  'zen',
  'tri',
  'lu',
  'mar',
  'ko',
  'vel',
  'ora',
  'pix',
  'sol',
  'nor',
  'qua',
  'ri',
  'ta',
  'vo',
  'ex',
  'ly',
];
const TITLE_EXTRAS = [
  'for Home',
  'for Travel',
  'with Storage Bag',
  ', 2 Pack',
  '- Black',
  ', Large',
  'for Kids',
  ', Gift Set',
  '',
];

/** Id of the i-th generated product (0-based). */
export function scaleProductId(i: number): string {
  return `G${String(i + 1).padStart(9, '0')}`;
}

const NOUN_INDEX = new Map(PRODUCT_NOUNS.map((n, i) => [n, i]));

/**
 * A catalogue of `count` products whose phrases have purchase nodes in `graph`: each product takes
 * the phrase of a random generated purchase node. Concepts: the phrase, the noun with its nearest
 * modifier, and the bare noun (each matches nodes whenever the graph has them).
 */
export function* scaleProducts(
  graph: ScaleGraph,
  count: number,
  seed: number,
): Generator<{ product: ScaleProduct; phrases: string[]; noun: string }> {
  if (count > 0 && graph.purchaseNodes === 0)
    throw new RangeError('--products needs purchase nodes (purchase fraction > 0)');
  const rng = Rng.derive(seed, 'products');
  for (let i = 0; i < count; i++) {
    const k = rng.int(graph.purchaseNodes);
    const { phrase, noun, modifiers } = productPhrase(k % graph.phraseCount);
    const brandLength = 2 + rng.int(2);
    let brand = '';
    for (let s = 0; s < brandLength; s++) brand += BRAND_SYLLABLES[rng.int(BRAND_SYLLABLES.length)];
    const extra = TITLE_EXTRAS[rng.int(TITLE_EXTRAS.length)]!;
    const title = `${titleCase(brand)} ${titleCase(phrase)}${extra === '' ? '' : extra.startsWith(',') ? extra : ' ' + extra}`;
    const phrases = [phrase];
    if (modifiers.length === 2) phrases.push(`${modifiers[1]} ${noun}`);
    if (modifiers.length > 0) phrases.push(noun);
    yield { product: { id: scaleProductId(i), title }, phrases, noun };
  }
}

export interface WriteScaleOptions extends ScaleGraphOptions {
  /** Text source file (e.g. ../shared/data/aser-style/eventualities.txt). */
  textSource?: string;
  /** Products to generate (default 0) and where (defaults: `<out stem>.products.jsonl` / `.concepts.jsonl`). */
  products?: number;
  productsOut?: string;
  conceptsOut?: string;
  /**
   * Co-buy assertions to write over the catalogue (default 0; needs products), and where (default
   * `<out stem>.assertions.jsonl`): graph/generate/scale-assertions.ts.
   */
  assertions?: number;
  assertionsOut?: string;
  /** Show progress (default: on a terminal). */
  progress?: boolean;
}

export interface WriteScaleResult {
  out: string;
  kind: GraphOutputKind;
  nodes: number;
  edges: number;
  purchaseNodes: number;
  sourceLines: number;
  productsOut?: string;
  conceptsOut?: string;
  products: number;
  assertionsOut?: string;
  assertions: number;
}

export function defaultCatalogFiles(out: string): { productsOut: string; conceptsOut: string; assertionsOut: string } {
  const stem = out.replace(/\.(sqlite|db|jsonl)$/i, '');
  return {
    productsOut: `${stem}.products.jsonl`,
    conceptsOut: `${stem}.concepts.jsonl`,
    assertionsOut: `${stem}.assertions.jsonl`,
  };
}

/** The files `graph generate` reads and writes (core/check-paths.ts); a Neo4j URL is no file. */
export function writeScalePaths(out: string, options: WriteScaleOptions): PathChecks {
  const catalog = (options.products ?? 0) > 0 ? defaultCatalogFiles(out) : undefined;
  return {
    inputFiles: { textSource: options.textSource },
    outputFiles: {
      out: graphOutputKind(out) === 'neo4j' ? undefined : out,
      productsOut: catalog && (options.productsOut ?? catalog.productsOut),
      conceptsOut: catalog && (options.conceptsOut ?? catalog.conceptsOut),
      assertionsOut:
        catalog !== undefined && (options.assertions ?? 0) > 0
          ? (options.assertionsOut ?? catalog.assertionsOut)
          : undefined,
    },
  };
}

/** Generates and writes a scale graph (and optionally its catalogue and co-buy assertions); outputs appear atomically. */
export async function writeScaleGraph(out: string, options: WriteScaleOptions): Promise<WriteScaleResult> {
  // Only the overlap of outputs and the text source is checked here: the CLI checks the rest.
  checkNoOverlap(writeScalePaths(out, options));
  const source = options.textSource ? await readTextSource(options.textSource) : [];
  const graph = new ScaleGraph(options, source);
  const output = await openGraphOutput(out);
  const bar = createProgress({
    label: 'generate',
    total: graph.nodes + graph.edges,
    unit: 'rows',
    enabled: options.progress,
  });
  try {
    // JSONL edge lists cannot hold nodes; SQLite and Neo4j get every node first, in index order.
    if (output.kind !== 'jsonl') {
      for (const batch of graph.nodeBatches()) {
        await output.writeNodes(batch);
        bar.increment(batch.length);
      }
    } else {
      bar.increment(graph.nodes);
    }
    for (const batch of graph.edgeBatches()) {
      await output.writeEdges(batch);
      bar.increment(batch.length);
    }
  } catch (err) {
    bar.stop();
    await output.abort();
    throw err;
  }
  await output.commit();
  bar.stop();

  const count = options.products ?? 0;
  const assertionCount = options.assertions ?? 0;
  if (assertionCount > 0 && count < 2) throw new ConfigError('assertions', 'need a catalogue of at least 2 products');
  const result: WriteScaleResult = {
    out,
    kind: output.kind,
    nodes: graph.nodes,
    edges: graph.edges,
    purchaseNodes: graph.purchaseNodes,
    sourceLines: graph.sourceLinesUsed,
    products: count,
    assertions: 0,
  };
  if (count > 0) {
    const defaults = defaultCatalogFiles(out);
    const productsOut = options.productsOut ?? defaults.productsOut;
    const conceptsOut = options.conceptsOut ?? defaults.conceptsOut;
    const pw = await openAtomicWriter(productsOut);
    const cw = await openAtomicWriter(conceptsOut);
    // One byte per product: the index of its noun, for the assertions' kinds and reasons.
    const nouns = new Uint8Array(count);
    let i = 0;
    try {
      for (const { product, phrases, noun } of scaleProducts(graph, count, options.seed ?? 1)) {
        nouns[i++] = NOUN_INDEX.get(noun)!;
        await pw.write(JSON.stringify(product) + '\n');
        await cw.write(JSON.stringify({ id: product.id, phrases }) + '\n');
      }
    } catch (err) {
      await pw.abort();
      await cw.abort();
      throw err;
    }
    await pw.commit();
    await cw.commit();
    result.productsOut = productsOut;
    result.conceptsOut = conceptsOut;
    if (assertionCount > 0) {
      const assertionsOut = options.assertionsOut ?? defaults.assertionsOut;
      const aw = await openAtomicWriter(assertionsOut);
      const catalog = {
        size: count,
        idOf: scaleProductId,
        kindOf: (p: number) => kindOfNoun(PRODUCT_NOUNS[nouns[p]!]!),
        nounOf: (p: number) => PRODUCT_NOUNS[nouns[p]!]!,
      };
      try {
        for (const a of scaleAssertions(catalog, assertionCount, options.seed ?? 1))
          await aw.write(JSON.stringify(a) + '\n');
      } catch (err) {
        await aw.abort();
        throw err;
      }
      await aw.commit();
      result.assertionsOut = assertionsOut;
      result.assertions = assertionCount;
    }
  }
  return result;
}

/**
 * The scale generator in the shape bench/store.ts accepts as its graph generator
 * (`run({ quick, generator: scaleBenchGraph })`): node texts by index and a lazy edge stream.
 */
export function scaleBenchGraph(nodes: number, edges: number, seed: number) {
  const graph = new ScaleGraph({ nodes, edges, seed });
  return {
    nodeCount: nodes,
    nodeText: (i: number) => graph.nodeText(i),
    *edges(): Iterable<EdgeInput> {
      for (const batch of graph.edgeBatches()) yield* batch;
    },
    description: `graph generate --nodes ${nodes} --edges ${edges} --seed ${seed} (power-law degrees, ${graph.purchaseNodes} purchase nodes)`,
  };
}
