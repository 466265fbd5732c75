// Reads an agent run's predictions, one query per line (format defined by this project):
//   {"query_id": "q1", "products": [
//     {"product_id": "p9", "title": "…", "price": 19.9, "shop_id": "s1",
//      "service": ["free shipping"],
//      "skus": [{"options": {"color": "red", "size": "M"}, "price": 21.5}],   (price optional per SKU)
//      "attributes": {"material": ["cotton"]}}]}
// `sku_options: [{name: value}]` (the target format) is accepted in place of `skus`; `attributes` may
// also be a list of {name: [values]} objects. Every field is checked (parse-targets.ts's rules): a
// price is a number ≥ 0 (left out when unknown, never null), a title is a string.
import { InputError } from '../../../core/errors.js';
import { describe } from '../../../core/jsonl.js';
import { amountField, fail, idField, isObject, stringField, textField, type At, type Obj } from './parse-targets.js';
import type { PredictedProduct, PredictedSku, PredictionQuery } from './shoppingbench-types.js';

function optionalList(v: unknown, at: At, field: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw fail(at, field, `expected a list, got ${describe(v)}`);
  return v;
}

function optionsObject(v: unknown, at: At, field: string): Record<string, string> {
  if (!isObject(v)) throw fail(at, field, `expected {name: value}, got ${describe(v)}`);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(v)) out[name] = textField(value, at, `${field}.${name}`);
  return out;
}

function parseSkus(p: Obj, at: At, field: string): PredictedSku[] {
  if (p.skus !== undefined && p.skus !== null) {
    return optionalList(p.skus, at, `${field}.skus`).map((s, i) => {
      if (!isObject(s)) throw fail(at, `${field}.skus[${i}]`, `expected {options, price?}, got ${describe(s)}`);
      const options =
        s.options === undefined || s.options === null
          ? {}
          : optionsObject(s.options, at, `${field}.skus[${i}].options`);
      const price = s.price === undefined ? undefined : amountField(s.price, at, `${field}.skus[${i}].price`);
      return price === undefined ? { options } : { options, price };
    });
  }
  return optionalList(p.sku_options, at, `${field}.sku_options`).map((o, i) => ({
    options: optionsObject(o, at, `${field}.sku_options[${i}]`),
  }));
}

function parseAttributes(v: unknown, at: At, field: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (o: unknown, f: string) => {
    if (!isObject(o)) throw fail(at, f, `expected {name: [values]}, got ${describe(o)}`);
    for (const [name, raw] of Object.entries(o)) {
      const values = (Array.isArray(raw) ? raw : [raw]).map((x, j) => textField(x, at, `${f}.${name}[${j}]`));
      (out[name] ??= []).push(...values);
    }
  };
  if (v === undefined || v === null) return out;
  if (Array.isArray(v)) v.forEach((o, i) => add(o, `${field}[${i}]`));
  else add(v, field);
  return out;
}

function parseProduct(v: unknown, at: At, field: string): PredictedProduct {
  if (!isObject(v)) throw fail(at, field, `expected a product object, got ${describe(v)}`);
  const title = v.title === undefined ? '' : stringField(v.title, at, `${field}.title`);
  const price = v.price === undefined ? undefined : amountField(v.price, at, `${field}.price`);
  const shopId = v.shop_id === undefined || v.shop_id === null ? undefined : idField(v.shop_id, at, `${field}.shop_id`);
  return {
    productId: idField(v.product_id, at, `${field}.product_id`),
    title,
    price,
    shopId,
    service: optionalList(v.service, at, `${field}.service`).map((s, i) => textField(s, at, `${field}.service[${i}]`)),
    skus: parseSkus(v, at, field),
    attributes: parseAttributes(v.attributes, at, `${field}.attributes`),
  };
}

export function parsePredictionRecord(json: unknown, at: At): PredictionQuery {
  if (!isObject(json)) throw new InputError(at, 'expected a JSON object');
  const queryId = idField(json.query_id ?? json.id, at, 'query_id');
  if (!Array.isArray(json.products))
    throw fail(
      at,
      'products',
      json.products === undefined
        ? 'missing (an empty list means no recommendation)'
        : `expected a list, got ${describe(json.products)}`,
    );
  return { queryId, products: json.products.map((p, i) => parseProduct(p, at, `products[${i}]`)), line: at.line };
}
