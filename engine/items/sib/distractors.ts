// Distractor-backed items: questions whose answer is known by construction, made from cosine
// windows in the embedding space instead of by annotators.
//
//   t1-hard-negative     T1 with P_t replaced by a catalogue product close to P_t (its cosine with
//                        P_t in the T1 window; same or neighbouring category) that does not serve
//                        I_{t-1} (serve-rules.ts) (label: negative by construction)
//   t2-hard-negative     T2 likewise, the replacement not holding A_{t-1}; made only when A_{t-1} is
//                        visible in P_{t-1} (a word of it in its title or attributes), else no rule
//                        could tell who holds it (label: negative by construction)
//   t3-negative          T3 with C_t replaced by another session's comparison whose cosine with C_t
//                        is in the comparison window (label: negative by construction)
//   next-product-choice  "which product comes next": P_t and 3 catalogue products whose cosine with
//                        P_t is in the next-product window and that do not serve the intention asked
//                        with; 4 distinct titles, one gold, gold positions balanced over the run. The
//                        intention asked with is I_t (held after seeing P_t), and P_t must follow
//                        from it rather than P_{t-1} (`followsFrom`), else no item
//
// Refusals (a candidate that would make the label wrong) are counted per kind and reason.
// Never drawn: the session's own products (by id, and any catalogue product with the title of one of
// them, which would be a false negative); a comparison from the same session or with C_t's text.
// Every item records the query, the window, how many candidates were eligible, the sampler and the
// exact cosine of everything it drew; an item that cannot be made is counted with its reason.
import { Rng } from '../../../core/rng.js';
import type { BalancedPositions } from '../balanced-positions.js';
import { answerLettersOf, type AnswerLetter } from './labels.js';
import { renderNextProductPrompt, NEXT_PRODUCT_STYLES, type NextProductStyle } from './next-product-prompt.js';
import { collapseWhitespace } from './product-block.js';
import { renderTaskPrompts, type SessionProductTexts, type TaskScene } from './task-prompts.js';
import { trajectoryLeaf, type PromptStyle, type SibProduct, type Trajectory } from './sib-types.js';
import { engineCosine, hasDirection, type CosineWindowSampler } from './window-sampler.js';
import {
  categoryRelation,
  heldMarkers,
  markerWords,
  productText,
  type ServeRefusal,
  type ServeRules,
} from './serve-rules.js';

import { DEFAULT_WINDOWS, type CosineWindow, type DistractorWindows } from './distractor-windows.js';

export { DEFAULT_WINDOWS, type CosineWindow, type DistractorWindows };

export type DistractorKind = 't1-hard-negative' | 't2-hard-negative' | 't3-negative' | 'next-product-choice';
export const DISTRACTOR_KINDS: readonly DistractorKind[] = [
  't1-hard-negative',
  't2-hard-negative',
  't3-negative',
  'next-product-choice',
];

export interface ComparisonEntry {
  /** `<session>/<node>`, the id in the comparison pool's vector set. */
  id: string;
  sessionId: string;
  nodeId: string;
  text: string;
}

export interface DistractorSources {
  catalog: {
    products: ReadonlyMap<string, SibProduct>;
    sampler: CosineWindowSampler;
    /** Each product's vector (of productText), by id. */
    vectors: ReadonlyMap<string, Float32Array>;
  } | null;
  comparisons: { entries: ReadonlyMap<string, ComparisonEntry>; sampler: CosineWindowSampler } | null;
  windows: DistractorWindows;
  /** What refuses a candidate that serves the query (serve-rules.ts). */
  rules: ServeRules;
  seed: number | string;
  styles: readonly PromptStyle[];
  positions: BalancedPositions;
  /** The embedding of a query text (all of a trajectory's `distractorQueryTexts` are available). */
  vectorOf: (text: string) => Float32Array;
}

interface ItemBase {
  id: string;
  kind: DistractorKind;
  session_id: string;
  leaf_id: string;
  step: number;
  trajectory: string[];
}

export interface MadeBy {
  sampler: string;
  query: {
    kind: 'intention' | 'attribute' | 'comparison' | 'product';
    text: string;
    node_id?: string;
    product_id?: string;
  };
  window: [number, number];
  /** Window members that were not excluded (what the draw chose among); null when the draw did
   * not need to count them (rejection sampling found enough). */
  eligible: number | null;
  /** The item's random stream is Rng.derive(seed, seed_label). */
  seed_label: string;
}

/** How a T1/T2 replacement was checked not to serve the query (serve-rules.ts). */
export interface ServeCheck {
  query: { kind: 'intention' | 'attribute'; text: string; node_id: string };
  /** The session products known to serve the query, and the best of their cosines with it. */
  servers: string[];
  reference_score: number;
  margin: number;
  /** The query's marker words (none of which the replacement holds). */
  markers: string[];
  /** The replacement's category vs P_t's (null: one has none). */
  category: 'same' | 'neighbour' | 'other' | null;
}

export interface ReplacementItem extends ItemBase {
  kind: 't1-hard-negative' | 't2-hard-negative' | 't3-negative';
  task: 1 | 2 | 3;
  /** The task record this item is a negative twin of. */
  based_on: string;
  replaced:
    | { slot: 'last product'; original: { id: string; title: string }; replacement: { id: string; title: string } }
    | {
        slot: 'last intention comparison';
        original: { node_id: string; text: string };
        replacement: { session_id: string; node_id: string; text: string };
      };
  /** Exact cosine of the query with the replacement, and (T1/T2) with the true P_t. */
  score: number;
  gold_score?: number;
  /** T1/T2: the replacement's cosine with the query (I_{t-1} or A_{t-1}) and with the replaced P_t. */
  similarity?: { to_query: number; to_replaced: number };
  /** T1/T2: the draw is around P_t (made_by.query); the check that the replacement does not serve. */
  serve_check?: ServeCheck;
  made_by: MadeBy;
  label: { binary: 'negative'; source: 'constructed' };
  answer_letters: AnswerLetter[];
  prompts: Partial<Record<PromptStyle, string>>;
}

export interface NextProductOption {
  letter: AnswerLetter;
  product_id: string;
  title: string;
  gold: boolean;
  /** Exact cosine with P_t; null for the gold option itself. */
  score: number | null;
}

export interface NextProductItem extends ItemBase {
  kind: 'next-product-choice';
  options: NextProductOption[];
  answer: AnswerLetter;
  /** `refused_same_title`: window members skipped because an option already had their title. */
  made_by: MadeBy & { refused_same_title: number };
  /** The intention asked with (I_t), its cosine with the gold and its marker words. */
  intention: { node_id: string; text: string; gold_score: number; markers: string[] };
  /** Window members refused because they serve the intention as well as the gold, by reason. */
  refused: Partial<Record<ServeRefusal, number>>;
  prompts: Partial<Record<NextProductStyle, string>>;
}

export type DistractorItem = ReplacementItem | NextProductItem;

export interface ItemFailure {
  kind: DistractorKind;
  reason: string;
}

export interface DistractorOutcome {
  items: DistractorItem[];
  failures: ItemFailure[];
  /** Candidates refused (serve-rules.ts) while drawing, by kind and reason. */
  refusals: Array<{ kind: DistractorKind; reason: string; count: number }>;
}

/** The texts whose embeddings a trajectory's items query (empty at step 1, where no item applies). */
export function distractorQueryTexts(trajectory: Trajectory, _texts: SessionProductTexts): string[] {
  const { path } = trajectory;
  const t = path.length;
  if (t < 2) return [];
  const prev = path[t - 2]!;
  const products = trajectory.session.products;
  const out = [prev.intention, prev.attribute, path[t - 1]!.intention];
  out.push(productText(products[t - 2]!), productText(products[t - 1]!));
  const c = path[t - 1]!.comparison;
  if (c !== null) out.push(c);
  return out;
}

export function normalizedTitle(title: string): string {
  return collapseWhitespace(title).toLowerCase();
}

/** What the session's own products rule out of the catalogue. */
export class SessionExclusions {
  private readonly ids: Set<string>;
  private readonly titles: Set<string>;

  constructor(products: readonly SibProduct[]) {
    this.ids = new Set(products.map((p) => p.id));
    this.titles = new Set(products.map((p) => normalizedTitle(p.title)));
  }

  excludes(product: SibProduct): boolean {
    return this.ids.has(product.id) || this.titles.has(normalizedTitle(product.title));
  }
}

export function buildDistractorItems(
  trajectory: Trajectory,
  texts: SessionProductTexts,
  exclusions: SessionExclusions,
  src: DistractorSources,
): DistractorOutcome {
  const out: DistractorOutcome = { items: [], failures: [], refusals: [] };
  const { session, path } = trajectory;
  const t = path.length;
  if (t < 2) return out;
  const leaf = trajectoryLeaf(trajectory);
  const base = (kind: DistractorKind, suffix: string): ItemBase => ({
    id: `${session.sessionId}/${leaf.id}/${suffix}`,
    kind,
    session_id: session.sessionId,
    leaf_id: leaf.id,
    step: t,
    trajectory: path.map((n) => n.id),
  });
  const scene = texts.scene(path);

  if (src.catalog === null) {
    for (const kind of ['t1-hard-negative', 't2-hard-negative', 'next-product-choice'] as const)
      out.failures.push({ kind, reason: 'no catalogue' });
  } else {
    const catalog = src.catalog;
    const excluded = (id: string) => exclusions.excludes(catalog.products.get(id)!);
    for (const task of [1, 2] as const) {
      const made = replacementItem(task, base, trajectory, texts, excluded, src);
      if ('reason' in made) out.failures.push(made);
      else out.items.push(made.item);
      for (const [reason, count] of Object.entries(made.refused))
        out.refusals.push({ kind: task === 1 ? 't1-hard-negative' : 't2-hard-negative', reason, count });
    }
    const next = nextProductItem(base('next-product-choice', 'next-product'), trajectory, texts, excluded, src);
    if ('reason' in next) out.failures.push(next);
    else out.items.push(next);
    const refused =
      'reason' in next ? next.refused : { ...next.refused, 'same-title': next.made_by.refused_same_title };
    for (const [reason, count] of Object.entries(refused))
      if (count) out.refusals.push({ kind: 'next-product-choice', reason, count });
  }

  if (src.comparisons === null) {
    out.failures.push({ kind: 't3-negative', reason: 'no comparison pool' });
  } else {
    const pool = src.comparisons;
    const own = leaf.comparison!;
    const ownText = collapseWhitespace(own);
    const item = base('t3-negative', 'T3-negative');
    const query = src.vectorOf(own);
    const excluded = (id: string) => {
      const e = pool.entries.get(id)!;
      return e.sessionId === session.sessionId || collapseWhitespace(e.text) === ownText;
    };
    const window = src.windows.comparison;
    const draw = hasDirection(query)
      ? pool.sampler.draw(query, { ...window, k: 1, exclude: excluded, rng: Rng.derive(src.seed, item.id) })
      : null;
    if (draw === null) {
      out.failures.push({ kind: 't3-negative', reason: 'the query text has a zero embedding' });
    } else if (draw.ids.length === 0) {
      out.failures.push({ kind: 't3-negative', reason: "no other session's comparison in the window" });
    } else {
      const other = pool.entries.get(draw.ids[0]!)!;
      out.items.push({
        ...item,
        kind: 't3-negative',
        task: 3,
        based_on: `${session.sessionId}/${leaf.id}/T3`,
        replaced: {
          slot: 'last intention comparison',
          original: { node_id: leaf.id, text: own },
          replacement: { session_id: other.sessionId, node_id: other.nodeId, text: other.text },
        },
        score: draw.scores[0]!,
        made_by: {
          sampler: draw.method,
          query: { kind: 'comparison', text: own, node_id: leaf.id },
          window: [window.lo, window.hi],
          eligible: draw.eligible,
          seed_label: item.id,
        },
        label: { binary: 'negative', source: 'constructed' },
        answer_letters: answerLettersOf(3).slice(),
        prompts: renderTaskPrompts(3, { ...scene, comparison: other.text }, src.styles),
      });
    }
  }
  return out;
}

/** A refusal count by reason, from a draw's `refused` (reasons other than the rules' kept as they are). */
type Refused = Record<string, number>;

/** The accept test of a draw: the first serve rule a candidate breaks, or true. */
function serveTest(
  src: DistractorSources,
  query: Float32Array,
  reference: number,
  markers: readonly string[],
  servers: readonly SibProduct[],
  near: SibProduct,
  farRefused: boolean,
): (id: string) => true | ServeRefusal {
  const catalog = src.catalog!;
  return (id) => {
    const c = catalog.products.get(id)!;
    const relation = categoryRelation(c, near);
    if (farRefused && relation === 'other') return 'other-category';
    if (servers.some((s) => categoryRelation(c, s) === 'same')) return 'same-kind';
    if (heldMarkers(markers, c).length > 0) return 'query-words';
    if (engineCosine(catalog.vectors.get(id)!, query) >= reference - src.rules.margin) return 'serves-query';
    return true;
  };
}

/**
 * A T1 or T2 hard negative: P_t replaced by a window member around P_t (same or neighbouring
 * category) that passes the serve rules against the query, I_{t-1} (servers: P_{t-1} and P_t, since
 * a tree may read I_{t-1} as the reason for either) or A_{t-1} (server: P_{t-1}, whose attribute it is).
 */
function replacementItem(
  task: 1 | 2,
  base: (kind: DistractorKind, suffix: string) => ItemBase,
  trajectory: Trajectory,
  texts: SessionProductTexts,
  excluded: (id: string) => boolean,
  src: DistractorSources,
): { item: ReplacementItem; refused: Refused } | (ItemFailure & { refused: Refused }) {
  const catalog = src.catalog!;
  const { session, path } = trajectory;
  const t = path.length;
  const leaf = trajectoryLeaf(trajectory);
  const prev = path[t - 2]!;
  const gold = session.products[t - 1]!;
  const kind = task === 1 ? 't1-hard-negative' : 't2-hard-negative';
  const queryText = task === 1 ? prev.intention : prev.attribute;
  const window = task === 1 ? src.windows.intention : src.windows.attribute;
  const item = base(kind, `T${task}-hard-negative`);
  const query = src.vectorOf(queryText);
  const goldVector = src.vectorOf(productText(gold));
  if (!hasDirection(query) || !hasDirection(goldVector))
    return { kind, reason: 'the query text has a zero embedding', refused: {} };
  const servers = task === 1 ? [session.products[t - 2]!, gold] : [session.products[t - 2]!];
  const markers = markerWords(queryText, session.products);
  if (task === 2 && heldMarkers(markers, servers[0]!).length === 0)
    return { kind, reason: 'the valued attribute is not visible in the product it belongs to', refused: {} };
  const reference = Math.max(...servers.map((p) => engineCosine(query, src.vectorOf(productText(p)))));
  const draw = catalog.sampler.draw(goldVector, {
    ...window,
    k: 1,
    exclude: excluded,
    // A substitute of P_t would be judged as P_t is: never the negative's replacement.
    accept: (id, toGold) =>
      toGold >= src.rules.substituteCosine
        ? 'substitute'
        : serveTest(src, query, reference, markers, servers, gold, true)(id),
    rng: Rng.derive(src.seed, item.id),
  });
  if (draw.ids.length === 0) {
    const reason =
      draw.eligible === 0 || Object.keys(draw.refused).length === 0
        ? 'no catalogue product in the window'
        : 'every window member serves the query or is of another category';
    return { kind, reason, refused: draw.refused };
  }
  const replacement = catalog.products.get(draw.ids[0]!)!;
  const score = engineCosine(query, catalog.vectors.get(replacement.id)!);
  const negScene: TaskScene = texts.sceneWithLastProduct(path, replacement);
  return {
    refused: draw.refused,
    item: {
      ...item,
      kind,
      task,
      based_on: `${session.sessionId}/${leaf.id}/T${task}`,
      replaced: {
        slot: 'last product',
        original: { id: gold.id, title: gold.title },
        replacement: { id: replacement.id, title: replacement.title },
      },
      score,
      gold_score: engineCosine(query, goldVector),
      similarity: { to_query: score, to_replaced: draw.scores[0]! },
      serve_check: {
        query: { kind: task === 1 ? 'intention' : 'attribute', text: queryText, node_id: prev.id },
        servers: servers.map((p) => p.id),
        reference_score: reference,
        margin: src.rules.margin,
        markers,
        category: categoryRelation(replacement, gold),
      },
      made_by: {
        sampler: draw.method,
        query: { kind: 'product', text: productText(gold), product_id: gold.id },
        window: [window.lo, window.hi],
        eligible: draw.eligible,
        seed_label: item.id,
      },
      label: { binary: 'negative', source: 'constructed' },
      answer_letters: answerLettersOf(task).slice(),
      prompts: renderTaskPrompts(task, negScene, src.styles),
    },
  };
}

/**
 * Whether product `next` follows from an intention rather than product `previous` does: `next` holds
 * more of the intention's marker words, or, when both hold as many, its vector is nearer the
 * intention's. The next-product item asks with I_t, the intention held after seeing P_t (the node
 * whose attribute A_t is P_t's), and is made only when P_t follows from it rather than P_{t-1}:
 * else the gold would not follow from the intention the question states.
 */
export function followsFrom(
  intention: { text: string; vector: Float32Array; markers: readonly string[] },
  previous: { product: SibProduct; vector: Float32Array },
  next: { product: SibProduct; vector: Float32Array },
): boolean {
  const byWords =
    heldMarkers(intention.markers, next.product).length - heldMarkers(intention.markers, previous.product).length;
  if (byWords !== 0) return byWords > 0;
  return engineCosine(intention.vector, next.vector) > engineCosine(intention.vector, previous.vector);
}

function nextProductItem(
  item: ItemBase,
  trajectory: Trajectory,
  texts: SessionProductTexts,
  excluded: (id: string) => boolean,
  src: DistractorSources,
): NextProductItem | (ItemFailure & { refused: Refused }) {
  const catalog = src.catalog!;
  const { session, path } = trajectory;
  const t = path.length;
  const gold = session.products[t - 1]!;
  const window = src.windows.nextProduct;
  const rng = Rng.derive(src.seed, item.id);
  const query = src.vectorOf(productText(gold));
  if (!hasDirection(query))
    return { kind: 'next-product-choice', reason: 'the query text has a zero embedding', refused: {} };
  const node = path[t - 1]!;
  const asked = {
    node,
    text: node.intention,
    vector: src.vectorOf(node.intention),
    markers: markerWords(node.intention, session.products),
  };
  if (!hasDirection(asked.vector))
    return { kind: 'next-product-choice', reason: 'the query text has a zero embedding', refused: {} };
  const previous = session.products[t - 2]!;
  const before = { product: previous, vector: src.vectorOf(productText(previous)) };
  if (!followsFrom(asked, before, { product: gold, vector: query }))
    return { kind: 'next-product-choice', reason: 'the next product does not follow from the intention', refused: {} };
  const reference = engineCosine(asked.vector, query);
  // Options must have distinct titles (the session's titles, gold included, are already excluded):
  // a member with the title of an option already drawn is refused and the draw backfills; so is one
  // that serves the intention as well as the gold (serve-rules.ts), a substitute of the gold first.
  const serves = serveTest(src, asked.vector, reference, asked.markers, [gold], gold, false);
  const titles = new Set<string>();
  const accept = (id: string): true | string => {
    if (engineCosine(catalog.vectors.get(id)!, query) >= src.rules.substituteCosine) return 'substitute';
    const verdict = serves(id);
    if (verdict !== true) return verdict;
    const key = normalizedTitle(catalog.products.get(id)!.title);
    if (titles.has(key)) return 'same-title';
    titles.add(key);
    return true;
  };
  const draw = catalog.sampler.draw(query, { ...window, k: 3, exclude: excluded, accept, rng });
  const { 'same-title': sameTitle, ...refused } = draw.refused;
  if (draw.ids.length < 3) {
    return {
      kind: 'next-product-choice',
      reason:
        draw.eligible !== null && draw.eligible < 3
          ? 'fewer than 3 catalogue products in the window'
          : Object.keys(refused).length > 0
            ? 'fewer than 3 window members that do not serve the intention'
            : 'fewer than 3 distinct titles in the window',
      refused: draw.refused,
    };
  }
  const picked = draw.ids.map((id, i) => ({ id, score: draw.scores[i]! }));
  const goldAt = src.positions.next();
  const letters = answerLettersOf(1);
  const ordered: Array<Omit<NextProductOption, 'letter'>> = picked.map((p) => {
    const product = catalog.products.get(p.id)!;
    return { product_id: product.id, title: product.title, gold: false, score: p.score };
  });
  ordered.splice(goldAt, 0, { product_id: gold.id, title: gold.title, gold: true, score: null });
  const options: NextProductOption[] = ordered.map((o, i) => ({ letter: letters[i]!, ...o }));
  const prompts: Partial<Record<NextProductStyle, string>> = {};
  const optionTexts = options.map((o) => ({ letter: o.letter, title: collapseWhitespace(o.title) }));
  for (const style of NEXT_PRODUCT_STYLES) {
    if (src.styles.includes(style))
      prompts[style] = renderNextProductPrompt(
        style,
        texts.block(t - 1),
        texts.titlesThrough(t - 1),
        asked.node.intention,
        optionTexts,
      );
  }
  return {
    ...item,
    kind: 'next-product-choice',
    options,
    answer: letters[goldAt]!,
    made_by: {
      sampler: draw.method,
      query: { kind: 'product', text: productText(gold), product_id: gold.id },
      window: [window.lo, window.hi],
      eligible: draw.eligible,
      seed_label: item.id,
      refused_same_title: sameTitle ?? 0,
    },
    intention: {
      node_id: asked.node.id,
      text: asked.node.intention,
      gold_score: reference,
      markers: asked.markers,
    },
    refused: refused as Partial<Record<ServeRefusal, number>>,
    prompts,
  };
}
