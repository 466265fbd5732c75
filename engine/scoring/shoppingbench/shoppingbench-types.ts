// The ShoppingBench records the scorer reads: targets (the released evaluator's `reward` format) and
// predictions (an agent run's recommended products, in the format this project defines).

/** A price condition `{mode: [lo, hi]}`; bounds are inclusive, as in r_pro's `min ≤ price ≤ max`. */
export interface PriceCondition {
  mode: 'less than' | 'greater than' | 'between';
  /** Lower bound (−∞ when the mode has none). */
  min: number;
  /** Upper bound (+∞ when the mode has none). */
  max: number;
}

/** One required feature of a target: F_t's elements. */
export type Feature =
  | { kind: 'service'; value: string }
  /** A SKU option `name: value` the product must offer (in one SKU, or among its attributes). */
  | { kind: 'sku_option'; name: string; value: string }
  /** An attribute `name` whose values must include one of `values` (any one is acceptable). */
  | { kind: 'attribute'; name: string; values: string[] };

/** One target product of a query (one `reward` object of the released evaluator). */
export interface TargetProduct {
  productId: string;
  /** Acceptable titles: title_sim is the best cosine against any of them. */
  titles: string[];
  /** All must hold; empty means no price condition (the price term is then 1). */
  price: PriceCondition[];
  features: Feature[];
  /** Knowledge intent: text that must occur in the predicted title (case-insensitive). */
  knowledge?: string;
}

export interface Voucher {
  voucherType: 'platform' | 'shop';
  /** The voucher applies when the total reaches this (0: always). */
  threshold: number;
  discountType: 'fixed' | 'percentage';
  /** fixed: amount taken off the total. */
  faceValue?: number;
  /** percentage: fraction taken off (0.1 = 10 %). */
  discount?: number;
  /** percentage: the most the voucher takes off (+∞ when absent). */
  cap?: number;
}

/**
 * Targets per query at most: pairing products with targets is an exact assignment over subsets of
 * targets (2^targets states; ShoppingBench's queries have a handful).
 */
export const MAX_TARGETS_PER_QUERY = 16;

export const INTENTS = ['product', 'knowledge', 'shop', 'voucher'] as const;
/** product: single-product queries; knowledge; shop: multi-product from one shop; voucher: voucher and budget. */
export type Intent = (typeof INTENTS)[number];

export interface TargetQuery {
  queryId: string;
  intent: Intent;
  targets: TargetProduct[];
  voucher?: Voucher;
  budget?: number;
  /** Where it was read (for messages). */
  line: number;
}

/** One SKU of a predicted product: its options and, when SKUs differ in price, its own price. */
export interface PredictedSku {
  options: Record<string, string>;
  price?: number;
}

export interface PredictedProduct {
  productId: string;
  title: string;
  price?: number;
  shopId?: string;
  service: string[];
  skus: PredictedSku[];
  /** Attribute name → values. */
  attributes: Record<string, string[]>;
}

export interface PredictionQuery {
  queryId: string;
  products: PredictedProduct[];
  line: number;
}
