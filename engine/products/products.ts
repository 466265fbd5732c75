// Product catalogues: JSONL, one product a line, `{"id": "B00…", "title": "…"}` (other fields ignored).
import { FieldReader, readJsonl, type ReadJsonlOptions } from '../../core/jsonl.js';

export interface Product {
  id: string;
  title: string;
}

/** A product with where it came from, so that later errors can name the file and line. */
export interface ProductRecord extends Product {
  file: string;
  line: number;
  /** The line as it was in the file (absent for products made in memory). */
  text?: string;
}

/** What a rejects file records for a product rejected after it was read: its line as it was. */
export function rejectedProductInput(p: ProductRecord): string {
  return p.text ?? JSON.stringify({ id: p.id, title: p.title });
}

export function parseProduct(json: unknown, at: { file: string; line: number }): Product {
  const r = new FieldReader(json, at);
  return { id: r.id('id'), title: r.string('title') };
}

/**
 * Streams a products file. A repeated id is an error (naming both lines): products are keyed by id
 * everywhere downstream, and a silent "last one wins" would hide a broken catalogue.
 */
export async function* readProducts(file: string, options: ReadJsonlOptions = {}): AsyncGenerator<ProductRecord> {
  const unique = { of: (p: Product) => p.id, field: 'id', what: 'product id' };
  for await (const { line, value, text } of readJsonl(file, parseProduct, { ...options, unique, keepText: true }))
    yield { ...value, file, line, text };
}
