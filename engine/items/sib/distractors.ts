// Distractor-backed items: questions whose answer is known by construction, made from cosine
// windows in the embedding space instead of by annotators.
//
//   t1-hard-negative     T1 with P_t replaced by a catalogue product whose cosine with I_{t-1} is in
//                        the intention window (label: negative by construction)
//   t2-hard-negative     T2 with P_t replaced by a catalogue product whose cosine with A_{t-1} is in
//                        the attribute window (label: negative by construction)
//   t3-negative          T3 with C_t replaced by another session's comparison whose cosine with C_t
//                        is in the comparison window (label: negative by construction)
//   next-product-choice  "which product comes next": P_t and 3 catalogue products whose cosine with
//                        P_t is in the next-product window; 4 distinct titles, one gold, gold
//                        positions balanced over the run
//
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
  catalog: { products: ReadonlyMap<string, SibProduct>; sampler: CosineWindowSampler } | null;
  comparisons: { entries: ReadonlyMap<string, ComparisonEntry>; sampler: CosineWindowSampler } | null;
  windows: DistractorWindows;
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
}

/** The texts whose embeddings a trajectory's items query (empty at step 1, where no item applies). */
export function distractorQueryTexts(trajectory: Trajectory, texts: SessionProductTexts): string[] {
  const { path } = trajectory;
  const t = path.length;
  if (t < 2) return [];
  const prev = path[t - 2]!;
  const out = [prev.intention, prev.attribute, texts.title(t)];
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
  const out: DistractorOutcome = { items: [], failures: [] };
  const { session, path } = trajectory;
  const t = path.length;
  if (t < 2) return out;
  const leaf = trajectoryLeaf(trajectory);
  const prev = path[t - 2]!;
  const base = (kind: DistractorKind, suffix: string): ItemBase => ({
    id: `${session.sessionId}/${leaf.id}/${suffix}`,
    kind,
    session_id: session.sessionId,
    leaf_id: leaf.id,
    step: t,
    trajectory: path.map((n) => n.id),
  });
  const gold = session.products[t - 1]!;
  const scene = texts.scene(path);

  if (src.catalog === null) {
    for (const kind of ['t1-hard-negative', 't2-hard-negative', 'next-product-choice'] as const)
      out.failures.push({ kind, reason: 'no catalogue' });
  } else {
    const catalog = src.catalog;
    const excluded = (id: string) => exclusions.excludes(catalog.products.get(id)!);
    for (const task of [1, 2] as const) {
      const kind = task === 1 ? 't1-hard-negative' : 't2-hard-negative';
      const queryText = task === 1 ? prev.intention : prev.attribute;
      const window = task === 1 ? src.windows.intention : src.windows.attribute;
      const item = base(kind, `T${task}-hard-negative`);
      const query = src.vectorOf(queryText);
      if (!hasDirection(query)) {
        out.failures.push({ kind, reason: 'the query text has a zero embedding' });
        continue;
      }
      const draw = catalog.sampler.draw(query, {
        ...window,
        k: 1,
        exclude: excluded,
        rng: Rng.derive(src.seed, item.id),
      });
      if (draw.ids.length === 0) {
        out.failures.push({ kind, reason: 'no catalogue product in the window' });
        continue;
      }
      const replacement = catalog.products.get(draw.ids[0]!)!;
      const negScene: TaskScene = texts.sceneWithLastProduct(path, replacement);
      out.items.push({
        ...item,
        kind,
        task,
        based_on: `${session.sessionId}/${leaf.id}/T${task}`,
        replaced: {
          slot: 'last product',
          original: { id: gold.id, title: gold.title },
          replacement: { id: replacement.id, title: replacement.title },
        },
        score: draw.scores[0]!,
        gold_score: engineCosine(query, src.vectorOf(texts.title(t))),
        made_by: {
          sampler: draw.method,
          query: { kind: task === 1 ? 'intention' : 'attribute', text: queryText, node_id: prev.id },
          window: [window.lo, window.hi],
          eligible: draw.eligible,
          seed_label: item.id,
        },
        label: { binary: 'negative', source: 'constructed' },
        answer_letters: answerLettersOf(task).slice(),
        prompts: renderTaskPrompts(task, negScene, src.styles),
      });
    }
    const next = nextProductItem(
      base('next-product-choice', 'next-product'),
      gold,
      texts,
      t,
      prev.intention,
      excluded,
      src,
    );
    if ('reason' in next) out.failures.push(next);
    else out.items.push(next);
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

function nextProductItem(
  item: ItemBase,
  gold: SibProduct,
  texts: SessionProductTexts,
  t: number,
  intention: string,
  excluded: (id: string) => boolean,
  src: DistractorSources,
): NextProductItem | ItemFailure {
  const catalog = src.catalog!;
  const window = src.windows.nextProduct;
  const rng = Rng.derive(src.seed, item.id);
  const goldTitle = texts.title(t);
  const query = src.vectorOf(goldTitle);
  if (!hasDirection(query)) return { kind: 'next-product-choice', reason: 'the query text has a zero embedding' };
  // Options must have distinct titles (the session's titles, gold included, are already excluded):
  // a member with the title of an option already drawn is refused and the draw backfills.
  const titles = new Set<string>();
  const accept = (id: string): true | string => {
    const key = normalizedTitle(catalog.products.get(id)!.title);
    if (titles.has(key)) return 'same-title';
    titles.add(key);
    return true;
  };
  const draw = catalog.sampler.draw(query, { ...window, k: 3, exclude: excluded, accept, rng });
  if (draw.ids.length < 3) {
    return {
      kind: 'next-product-choice',
      reason:
        draw.eligible !== null && draw.eligible < 3
          ? 'fewer than 3 catalogue products in the window'
          : 'fewer than 3 distinct titles in the window',
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
        intention,
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
      query: { kind: 'product', text: goldTitle, product_id: gold.id },
      window: [window.lo, window.hi],
      eligible: draw.eligible,
      seed_label: item.id,
      refused_same_title: draw.refused['same-title'] ?? 0,
    },
    prompts,
  };
}
