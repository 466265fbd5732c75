// Reads ShoppingBench targets in the released evaluator's format. One JSON object per line:
//   {"query_id": "q1", "intent": "voucher",            (intent optional: inferred, see inferIntent)
//    "reward": {...} | [{...}, ...],                    (one object per target product)
//    "voucher": {...}, "budget": 120}                   (voucher queries; also accepted inside reward)
// A reward: product_id, title (string or list of acceptable titles), price ([{mode: [lo, hi]}]),
// service ([..]), sku_options ([{name: value}]), attributes ([{name: [values]}]), knowledge (text).
// Every field is checked, and a bad one is an InputError naming file, line and field: prices, price
// bounds, budgets and voucher amounts are numbers ≥ 0, titles and knowledge are text, a price
// condition has one mode and at most two bounds, a query has 1 to MAX_TARGETS_PER_QUERY targets.
import { InputError } from '../../../core/errors.js';
import { describe, numericIdReason } from '../../../core/jsonl.js';
import {
  INTENTS,
  MAX_TARGETS_PER_QUERY,
  type Feature,
  type Intent,
  type PriceCondition,
  type TargetProduct,
  type TargetQuery,
  type Voucher,
} from './shoppingbench-types.js';

export interface At {
  file: string;
  line: number;
}

export type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function fail(at: At, field: string, reason: string): InputError {
  return new InputError({ ...at, field }, reason);
}

/** A finite number, or a numeric string (catalogue prices often come as text). */
export function numberField(v: unknown, at: At, field: string): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw fail(at, field, v === undefined ? 'missing' : `expected a number, got ${describe(v)}`);
  return n;
}

/** A price, a price bound, a budget or a voucher amount: a number (or numeric string) ≥ 0. */
export function amountField(v: unknown, at: At, field: string): number {
  if (v === null) throw fail(at, field, 'expected a number ≥ 0, got null (leave the field out when it is unknown)');
  const n = numberField(v, at, field);
  if (n < 0) throw fail(at, field, `must be ≥ 0, got ${n}`);
  return n;
}

/** Text that is only text: a string (a number is not a title). */
export function stringField(v: unknown, at: At, field: string): string {
  if (typeof v === 'string') return v;
  throw fail(at, field, v === undefined ? 'missing' : `expected a string, got ${describe(v)}`);
}

/** An id: a non-empty string (a number is refused: it has lost digits and form when parsed; core/jsonl.ts). */
export function idField(v: unknown, at: At, field: string): string {
  if (typeof v === 'number') throw fail(at, field, numericIdReason(v));
  if (typeof v === 'string' && v.trim() !== '') return v;
  throw fail(at, field, v === undefined ? 'missing' : `expected a non-empty string, got ${describe(v)}`);
}

/** A string, or a number written as one (attribute values such as sizes are often numbers). */
export function textField(v: unknown, at: At, field: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw fail(at, field, `expected a string, got ${describe(v)}`);
}

function listOf(v: unknown, at: At, field: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw fail(at, field, `expected a list, got ${describe(v)}`);
  return v;
}

const PRICE_MODES = ['less than', 'greater than', 'between'] as const;

/**
 * `{mode: [lo, hi]}`; `less than` reads its bound from hi (or a lone number), `greater than` from lo.
 * Every bound given is checked, the unused one too (null or a number ≥ 0); at most two.
 */
export function parsePriceCondition(v: unknown, at: At, field: string): PriceCondition {
  if (!isObject(v) || Object.keys(v).length !== 1)
    throw fail(at, field, `expected one {mode: [lo, hi]} object, got ${describe(v)}`);
  const [mode, raw] = Object.entries(v)[0]!;
  if (!(PRICE_MODES as readonly string[]).includes(mode))
    throw fail(at, `${field}.${mode}`, `price mode must be one of ${PRICE_MODES.join(', ')}`);
  const bounds = Array.isArray(raw) ? raw : [raw];
  if (bounds.length === 0 || bounds.length > 2)
    throw fail(at, `${field}.${mode}`, `expected [lo, hi] or one number, got ${describe(raw)}`);
  const values = bounds.map((b, i) =>
    b === null || (b === undefined && Array.isArray(raw))
      ? undefined
      : amountField(b, at, Array.isArray(raw) ? `${field}.${mode}[${i}]` : `${field}.${mode}`),
  );
  const bound = (i: number): number | undefined => values[i];
  if (mode === 'less than') {
    const hi = bounds.length === 1 ? bound(0) : bound(1);
    if (hi === undefined) throw fail(at, `${field}.${mode}`, 'needs an upper bound');
    return { mode, min: -Infinity, max: hi };
  }
  if (mode === 'greater than') {
    const lo = bound(0);
    if (lo === undefined) throw fail(at, `${field}.${mode}`, 'needs a lower bound');
    return { mode, min: lo, max: Infinity };
  }
  const lo = bound(0);
  const hi = bound(1);
  if (lo === undefined || hi === undefined) throw fail(at, `${field}.${mode}`, 'needs [lo, hi]');
  if (lo > hi) throw fail(at, `${field}.${mode}`, `lo ${lo} > hi ${hi}`);
  return { mode: 'between', min: lo, max: hi };
}

function parseFeatures(reward: Obj, at: At, field: string): Feature[] {
  const features: Feature[] = [];
  listOf(reward.service, at, `${field}.service`).forEach((s, i) =>
    features.push({ kind: 'service', value: textField(s, at, `${field}.service[${i}]`) }),
  );
  listOf(reward.sku_options, at, `${field}.sku_options`).forEach((o, i) => {
    if (!isObject(o)) throw fail(at, `${field}.sku_options[${i}]`, `expected {name: value}, got ${describe(o)}`);
    // Each name: value pair is one feature, even when several share an object.
    for (const [name, value] of Object.entries(o))
      features.push({ kind: 'sku_option', name, value: textField(value, at, `${field}.sku_options[${i}].${name}`) });
  });
  listOf(reward.attributes, at, `${field}.attributes`).forEach((a, i) => {
    if (!isObject(a)) throw fail(at, `${field}.attributes[${i}]`, `expected {name: [values]}, got ${describe(a)}`);
    for (const [name, raw] of Object.entries(a)) {
      const values = (Array.isArray(raw) ? raw : [raw]).map((x, j) =>
        textField(x, at, `${field}.attributes[${i}].${name}[${j}]`),
      );
      if (values.length === 0) throw fail(at, `${field}.attributes[${i}].${name}`, 'needs at least one value');
      features.push({ kind: 'attribute', name, values });
    }
  });
  return features;
}

/** `title`: one acceptable title, or a list of them (strings; empty ones are dropped, one must remain). */
function parseTitles(v: unknown, at: At, field: string): string[] {
  let titles: string[];
  if (typeof v === 'string') titles = [v];
  else if (Array.isArray(v)) titles = v.map((t, i) => stringField(t, at, `${field}[${i}]`));
  else
    throw fail(
      at,
      field,
      v === undefined ? 'missing' : `expected a title or a list of titles (strings), got ${describe(v)}`,
    );
  titles = titles.filter((t) => t.trim() !== '');
  if (titles.length === 0) throw fail(at, field, 'needs at least one non-empty title');
  return titles;
}

function parseTargetProduct(reward: unknown, at: At, field: string): TargetProduct {
  if (!isObject(reward)) throw fail(at, field, `expected an object, got ${describe(reward)}`);
  const titles = parseTitles(reward.title, at, `${field}.title`);
  const price = listOf(reward.price, at, `${field}.price`).map((p, i) =>
    parsePriceCondition(p, at, `${field}.price[${i}]`),
  );
  const knowledge =
    reward.knowledge === undefined || reward.knowledge === null
      ? undefined
      : stringField(reward.knowledge, at, `${field}.knowledge`);
  if (knowledge !== undefined && knowledge.trim() === '') throw fail(at, `${field}.knowledge`, 'must not be empty');
  return {
    productId: idField(reward.product_id, at, `${field}.product_id`),
    titles,
    price,
    features: parseFeatures(reward, at, field),
    knowledge,
  };
}

export function parseVoucher(v: unknown, at: At, field: string): Voucher {
  if (!isObject(v)) throw fail(at, field, `expected an object, got ${describe(v)}`);
  const voucherType = v.voucher_type;
  if (voucherType !== 'platform' && voucherType !== 'shop')
    throw fail(at, `${field}.voucher_type`, `must be "platform" or "shop", got ${describe(voucherType)}`);
  const discountType = v.discount_type;
  const threshold =
    v.threshold === undefined || v.threshold === null ? 0 : amountField(v.threshold, at, `${field}.threshold`);
  if (discountType === 'fixed') {
    const faceValue = amountField(v.face_value, at, `${field}.face_value`);
    return { voucherType, threshold, discountType, faceValue };
  }
  if (discountType === 'percentage') {
    let discount = numberField(v.discount, at, `${field}.discount`);
    // Released data writes 10 % either as 0.1 or as 10; a value above 1 can only mean percent.
    if (discount > 1) discount /= 100;
    if (discount < 0 || discount > 1)
      throw fail(at, `${field}.discount`, 'must be a fraction in [0, 1] or a percent in [0, 100]');
    const cap = v.cap === undefined || v.cap === null ? Infinity : amountField(v.cap, at, `${field}.cap`);
    return { voucherType, threshold, discountType, discount, cap };
  }
  throw fail(at, `${field}.discount_type`, `must be "fixed" or "percentage", got ${describe(discountType)}`);
}

/** The intent when the record names none: a voucher or budget → voucher; several targets → shop; a knowledge attribute → knowledge; else product. */
export function inferIntent(query: Omit<TargetQuery, 'intent'>): Intent {
  if (query.voucher !== undefined || query.budget !== undefined) return 'voucher';
  if (query.targets.length > 1) return 'shop';
  if (query.targets.some((t) => t.knowledge !== undefined)) return 'knowledge';
  return 'product';
}

export function parseTargetRecord(json: unknown, at: At): TargetQuery {
  if (!isObject(json)) throw new InputError(at, 'expected a JSON object');
  const queryId = idField(
    json.query_id ?? json.id,
    at,
    json.query_id === undefined && json.id !== undefined ? 'id' : 'query_id',
  );
  const rewards = Array.isArray(json.reward) ? json.reward : json.reward === undefined ? undefined : [json.reward];
  if (rewards === undefined || rewards.length === 0)
    throw fail(at, 'reward', 'missing (needs one target product object, or a list of them)');
  if (rewards.length > MAX_TARGETS_PER_QUERY)
    throw fail(at, 'reward', `${rewards.length} target products, more than ${MAX_TARGETS_PER_QUERY}`);
  const targets = rewards.map((r, i) =>
    parseTargetProduct(r, at, Array.isArray(json.reward) ? `reward[${i}]` : 'reward'),
  );
  // The voucher and budget may sit at the top level, or inside a single reward object.
  const single = isObject(json.reward) ? json.reward : undefined;
  const voucherRaw = json.voucher ?? single?.voucher;
  const voucherField = json.voucher !== undefined ? 'voucher' : 'reward.voucher';
  const voucher =
    voucherRaw === undefined || voucherRaw === null ? undefined : parseVoucher(voucherRaw, at, voucherField);
  const budgetSources: Array<[unknown, string]> = [
    [json.budget, 'budget'],
    [isObject(voucherRaw) ? voucherRaw.budget : undefined, `${voucherField}.budget`],
    [single?.budget, 'reward.budget'],
  ];
  const budgetSource = budgetSources.find(([v]) => v !== undefined && v !== null);
  const budget = budgetSource ? amountField(budgetSource[0], at, budgetSource[1]) : undefined;
  const partial = { queryId, targets, voucher, budget, line: at.line };
  let intent: Intent;
  if (json.intent === undefined || json.intent === null) intent = inferIntent(partial);
  else if (typeof json.intent === 'string' && (INTENTS as readonly string[]).includes(json.intent))
    intent = json.intent as Intent;
  else throw fail(at, 'intent', `must be one of ${INTENTS.join(', ')}, got ${describe(json.intent)}`);
  if (intent === 'voucher' && budget === undefined) throw fail(at, 'budget', 'a voucher query needs a budget');
  if (intent === 'knowledge' && targets.every((t) => t.knowledge === undefined))
    throw fail(at, 'reward.knowledge', 'a knowledge query needs a knowledge attribute');
  return { ...partial, intent };
}
