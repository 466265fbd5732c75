// Product kinds from title vectors, for catalogues whose only concepts are the titles' head phrases
// (`pipeline --product-vectors` without a concepts file). A head phrase splits one kind into many
// ("anklet", "ankle bracelet", "foot jewelry"), so the rules by kind (kind-asserted, substitute,
// group-generic) rarely fire on real titles; clusters of the titles' vectors group them as a reader
// would. Spherical k-means (engine/search/kmeans.ts), with a fixed seed (the kinds are the
// catalogue's, not the draw's: every seed and `items check` see the same), and
// k = round(√(products / 2)) clusters (39 for the 3,042 released IntentionQA titles: about 78 titles a
// kind). Every cluster is a kind: a product's kind is its cluster.
import type { UnitVectors } from '../../search/unit-vectors.js';
import { sphericalKMeans } from '../../search/kmeans.js';

/** How many kinds a catalogue of `products` titles is grouped into. */
export function titleKindCount(products: number): number {
  return Math.max(2, Math.round(Math.sqrt(products / 2)));
}

/** Product id → its kind label (`title kind N`), for every title with a vector. */
export function titleKinds(titles: UnitVectors): Map<string, string[]> {
  const { clusterOfRow } = sphericalKMeans(titles, { k: titleKindCount(titles.validRows.length), seed: 'title-kinds' });
  const labels = new Map<string, string[]>();
  clusterOfRow.forEach((c, row) => {
    if (c >= 0) labels.set(titles.ids[row]!, [`title kind ${c}`]);
  });
  return labels;
}
