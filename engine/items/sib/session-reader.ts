// Reads the sessions JSONL format (one session per line) into validated sessions.
//
//   {"session_id": "s1",
//    "products": [{"id": "p1", "title": "…", "attributes": {"brand": "…", "size": "…"}}, …],
//    "tree": [{"id": "n1", "parent": null, "step": 1, "intention": "…", "attribute": "…",
//              "rationale": "…", "comparison": null}, …]}
//
// `attributes` is optional (values: strings, or numbers/booleans written as text), and so is
// `category` (a path, "A > B > C" or ["A", "B", "C"]: serve-rules.ts); `rationale` is
// optional (default ""); `comparison` may be null or absent at step 1 only. Tree rules: tree.ts.
import { InputError } from '../../../core/errors.js';
import { FieldReader, describe, readJsonl, type ReadJsonlOptions } from '../../../core/jsonl.js';
import { buildSession } from './tree.js';
import { parseCategory } from './serve-rules.js';
import type { IntentionNode, SibProduct, SibSession } from './sib-types.js';

interface At {
  file: string;
  line: number;
}

/** Runs `read` on a nested object; its errors name the field as `prefix.field`. */
function readNested<T>(json: unknown, at: At, prefix: string, read: (r: FieldReader) => T): T {
  try {
    return read(new FieldReader(json, at));
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    const field = err.location.field === undefined ? prefix : `${prefix}.${err.location.field}`;
    const reason =
      err.location.field === undefined && err.reason === 'expected a JSON object'
        ? `expected an object, got ${describe(json)}`
        : err.reason;
    throw new InputError({ ...err.location, field }, reason);
  }
}

function readArray(r: FieldReader, field: string): unknown[] {
  const v = r.raw(field);
  if (!Array.isArray(v)) throw r.error(field, v === undefined ? 'missing' : `expected an array, got ${describe(v)}`);
  return v;
}

/**
 * One product of a session; `field` prefixes error fields (e.g. "products[2]"). Stricter than a
 * catalog line (engine/products/catalog-products.ts): one non-empty value per attribute, since the
 * session format pairs each attribute with one value in the prompts.
 */
function parseSessionProduct(json: unknown, at: At, field: string): SibProduct {
  const read = (r: FieldReader): SibProduct => {
    const id = r.id('id');
    const title = r.string('title');
    const attributes: Array<readonly [string, string]> = [];
    if (r.raw('attributes') !== undefined) {
      const obj = r.object('attributes');
      for (const [name, value] of Object.entries(obj)) {
        if (name.trim() === '') throw r.error('attributes', 'an attribute name must not be empty');
        if (typeof value === 'string') {
          if (value.trim() === '') throw r.error(`attributes.${name}`, 'must not be empty');
          attributes.push([name, value]);
        } else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') {
          attributes.push([name, String(value)]);
        } else {
          throw r.error(`attributes.${name}`, `expected a string or number, got ${describe(value)}`);
        }
      }
    }
    const category = parseCategory(r.raw('category'));
    if (category !== undefined && 'reason' in category) throw r.error('category', category.reason);
    return category === undefined ? { id, title, attributes } : { id, title, attributes, category };
  };
  return readNested(json, at, field, read);
}

function readNode(json: unknown, at: At, field: string): IntentionNode {
  return readNested(json, at, field, (r) => {
    const id = r.id('id');
    const rawParent = r.raw('parent');
    if (rawParent === undefined) throw r.error('parent', 'missing (use null for the root)');
    const parent = rawParent === null ? null : r.id('parent');
    const step = r.number('step', { min: 1 });
    if (!Number.isInteger(step)) throw r.error('step', `expected a whole number (1-based product index), got ${step}`);
    const intention = r.string('intention');
    const attribute = r.string('attribute');
    const rationale = r.raw('rationale') === undefined ? '' : r.string('rationale', { allowEmpty: true });
    const rawComparison = r.raw('comparison');
    const comparison =
      rawComparison === undefined || rawComparison === null ? null : r.string('comparison', { allowEmpty: true });
    return { id, parent, step, intention, attribute, rationale, comparison };
  });
}

/** Parses and validates one sessions-JSONL record; throws an InputError naming line and field. */
export function parseSession(json: unknown, at: At): SibSession {
  const r = new FieldReader(json, at);
  const sessionId = r.id('session_id');
  const rawProducts = readArray(r, 'products');
  if (rawProducts.length === 0) throw r.error('products', 'a session needs at least one product');
  const products = rawProducts.map((p, i) => parseSessionProduct(p, at, `products[${i}]`));
  const nodes = readArray(r, 'tree').map((n, i) => readNode(n, at, `tree[${i}]`));
  return buildSession(sessionId, products, nodes, { ...at, field: 'tree' });
}

/** Streams sessions from a JSONL file, one at a time (memory: one session). */
export function readSessions(file: string, options: ReadJsonlOptions = {}) {
  return readJsonl(file, parseSession, options);
}
