// Whether a catalogue product serves a query (an intention, or a valued attribute), for the SIB
// distractor-backed items. A T1/T2 hard negative is labelled negative by construction, and a
// next-product distractor is counted wrong, so a candidate that serves the query as well as the
// product known to serve it would make the label wrong: it is refused, with one of these reasons.
//
//   same-kind        the candidate's category equals that of a product known to serve the query (a
//                    substitute: a second sunscreen serves "protecting the skin during the day" as
//                    the first one did);
//   other-category   both have categories and the candidate's is neither the reference product's nor
//                    a neighbour of it (same parent path): not a hard negative, the issue's "Energy
//                    Gels" for a skincare intention;
//   query-words      the candidate's text (title and attribute values) holds a word of the query
//                    that is not common to the session (in two or more of its products): "barrier"
//                    in a serum for "Repairing the skin barrier overnight";
//   serves-query     cosine(candidate, query) ≥ cosine(known server, query) − margin: the embedding
//                    puts it as near the query as the product that serves it;
//   substitute       (next-product) cosine(candidate, gold) ≥ substituteCosine.
//
// A product's category is an optional path ("Beauty > Skin Care > Sunscreens"); two categories are
// neighbours when they share everything but their last part. Without categories the rules by
// category refuse nothing, and only the words and the cosines decide.
import type { SibProduct } from './sib-types.js';
import { collapseWhitespace } from './product-block.js';
import { contentWords, wordsMatch } from '../content-words.js';

export const SERVE_REFUSALS = ['same-kind', 'other-category', 'query-words', 'serves-query', 'substitute'] as const;
export type ServeRefusal = (typeof SERVE_REFUSALS)[number];

export interface ServeRules {
  /** serves-query: refuse when cos(candidate, query) ≥ cos(server, query) − margin. */
  margin: number;
  /** substitute (next-product distractors): refuse when cos(candidate, gold) ≥ this. */
  substituteCosine: number;
}

/**
 * Measured on the demo session set with glove-100d (docs/sib.md, "Hard negatives and one right
 * answer"): margin 0.05 and substituteCosine 0.9 refuse every catalogue product a reader took for a
 * second right answer there, and leave every trajectory of the demo an item of each kind but those
 * the other rules empty.
 */
export const DEFAULT_SERVE_RULES: ServeRules = { margin: 0.15, substituteCosine: 0.85 };

/** The text a product is embedded by: what a reader sees of it (title, then its attributes). */
export function productText(p: SibProduct): string {
  const title = collapseWhitespace(p.title);
  if (p.attributes.length === 0) return title;
  return `${title}. ${p.attributes.map(([n, v]) => `${collapseWhitespace(n)}: ${collapseWhitespace(v)}`).join('; ')}`;
}

/** Category path → its key (parts trimmed, lower case, joined by " > "); empty parts dropped. */
export function categoryKey(parts: readonly string[]): string {
  return parts
    .map((p) => collapseWhitespace(p).toLowerCase())
    .filter((p) => p !== '')
    .join(' > ');
}

/** How two products' categories relate: null when either has none. */
export function categoryRelation(a: SibProduct, b: SibProduct): 'same' | 'neighbour' | 'other' | null {
  if (!a.category || !b.category || a.category.length === 0 || b.category.length === 0) return null;
  const ka = categoryKey(a.category);
  const kb = categoryKey(b.category);
  if (ka === kb) return 'same';
  if (a.category.length > 1 && categoryKey(a.category.slice(0, -1)) === categoryKey(b.category.slice(0, -1)))
    return 'neighbour';
  return 'other';
}

function holdsWord(words: readonly string[], w: string): boolean {
  return words.some((x) => wordsMatch(x, w));
}

/**
 * The query's marker words: its content words that at most one of the session's products holds
 * (a word in two or more, "running" in a running session, says nothing about what this query asks).
 */
export function markerWords(query: string, sessionProducts: readonly SibProduct[]): string[] {
  const productWords = sessionProducts.map((p) => contentWords(productText(p)));
  return [...new Set(contentWords(query))].filter((w) => productWords.filter((ws) => holdsWord(ws, w)).length < 2);
}

/** The marker words a candidate holds (empty: none). */
export function heldMarkers(markers: readonly string[], candidate: SibProduct): string[] {
  const words = contentWords(productText(candidate));
  return markers.filter((m) => holdsWord(words, m));
}

/**
 * The optional `category` field of a session or catalogue product: a path written as one string
 * with " > " between its parts ("Beauty > Skin Care > Sunscreens") or as an array of strings.
 * Returns undefined when absent; a reason (for the caller's InputError) when malformed.
 */
export function parseCategory(raw: unknown): readonly string[] | undefined | { reason: string } {
  if (raw === undefined || raw === null) return undefined;
  const parts =
    typeof raw === 'string'
      ? raw.split('>')
      : Array.isArray(raw) && raw.every((x) => typeof x === 'string')
        ? (raw as string[])
        : null;
  if (parts === null) return { reason: 'expected a string ("A > B > C") or an array of strings' };
  const clean = parts.map((x) => collapseWhitespace(x));
  if (clean.length === 0 || clean.some((x) => x === '')) return { reason: 'a category path has an empty part' };
  return clean;
}
