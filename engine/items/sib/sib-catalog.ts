// The distractor catalog: products that may replace P_t, read with the catalog product parser
// (engine/products/catalog-products.ts), so that one catalog file serves `catalog index` and SIB
// assembly alike. An attribute with several values is shown as one, its values joined by ", " (as
// the catalog's embedding text writes them).
//
//   {"id": "c17", "title": "…", "attributes": {"brand": "…"}, "category": "Beauty > Skin Care > Serums"}
//
// `category` (optional, a path: serve-rules.ts) is read here, beside the catalog parser, which
// ignores fields it does not know.
import { readJsonl, type ReadJsonlOptions } from '../../../core/jsonl.js';
import { parseCatalogProduct, type CatalogProduct } from '../../products/catalog-products.js';
import type { SibProduct } from './sib-types.js';
import { InputError } from '../../../core/errors.js';
import { parseCategory } from './serve-rules.js';

export function sibProduct(p: CatalogProduct): SibProduct {
  return { id: p.id, title: p.title, attributes: p.attributes.map(([name, values]) => [name, values.join(', ')]) };
}

export async function loadCatalog(file: string, options: ReadJsonlOptions = {}): Promise<SibProduct[]> {
  const products: SibProduct[] = [];
  const parse = (json: unknown, at: { file: string; line: number }) => {
    const product = sibProduct(parseCatalogProduct(json, at));
    const raw = (json as Record<string, unknown>).category;
    const category = parseCategory(raw);
    if (category === undefined) return product;
    if ('reason' in category) throw new InputError({ ...at, field: 'category' }, category.reason);
    return { ...product, category };
  };
  const unique = { of: (p: SibProduct) => p.id, field: 'id', what: 'catalogue id' };
  for await (const { value } of readJsonl(file, parse, { ...options, unique })) products.push(value);
  return products;
}
