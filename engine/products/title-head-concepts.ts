// Concept phrases of products without a graph: each title's head phrases (the 2-gram and 1-gram at
// its head word), as the offline conceptualizer takes them when the graph has no purchase node for any
// candidate. What `items check` groups pairs by, and what `pipeline --product-vectors` uses for concept
// overlap when no concepts file is given.
import { OfflineConceptualizer } from './concepts-offline.js';
import type { Product } from './products.js';

/** Product id → normalised head phrases of its title (empty when the title has none). */
export async function titleHeadPhrases(products: readonly Product[]): Promise<Map<string, string[]>> {
  const conceptualizer = new OfflineConceptualizer({ purchaseNodesByObject: () => Promise.resolve(new Map()) });
  const outcomes = await conceptualizer.conceptualize(products);
  const phrases = new Map<string, string[]>();
  outcomes.forEach((o, k) => phrases.set(products[k]!.id, o.ok ? o.concepts.phrases : []));
  return phrases;
}
