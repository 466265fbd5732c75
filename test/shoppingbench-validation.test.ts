// `score shoppingbench` refuses nonsense in targets and predictions (issue 16, item 12): each case
// below was accepted before and is now an InputError naming file, line and field.
import { describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { parsePredictionRecord } from '../engine/scoring/shoppingbench/parse-predictions.js';
import { parseTargetRecord } from '../engine/scoring/shoppingbench/parse-targets.js';
import { MAX_TARGETS_PER_QUERY } from '../engine/scoring/shoppingbench/shoppingbench-types.js';

const at = { file: 'runs.jsonl', line: 3 };
const target = (reward: unknown) => () => parseTargetRecord({ query_id: 'q', reward }, at);
const prediction = (product: unknown) => () => parsePredictionRecord({ query_id: 'q', products: [product] }, at);
const A = { product_id: 'A', title: 'red shirt' };

describe('score shoppingbench input validation', () => {
  it('refuses negative and null prices in targets and predictions, naming the field', () => {
    expect(target({ ...A, price: [{ 'less than': -5 }] })).toThrow(
      /runs.jsonl:3 \(field "reward.price\[0\].less than"\): must be ≥ 0, got -5/,
    );
    expect(target({ ...A, price: [{ between: [null, -1] }] })).toThrow(/reward.price\[0\].between\[1\]/);
    expect(prediction({ product_id: 'P', title: 't', price: -3 })).toThrow(/field "products\[0\].price"/);
    expect(prediction({ product_id: 'P', title: 't', price: null })).toThrow(/got null/);
    expect(prediction({ product_id: 'P', title: 't', skus: [{ options: {}, price: -1 }] })).toThrow(
      /products\[0\].skus\[0\].price/,
    );
    expect(target({ ...A, budget: -10 })).toThrow(/reward.budget/);
  });

  it('refuses a non-numeric price bound and more than two bounds', () => {
    expect(target({ ...A, price: [{ 'less than': 'a' }] })).toThrow(/field "reward.price\[0\].less than"/);
    expect(target({ ...A, price: [{ 'less than': [null, 'a'] }] })).toThrow(/less than\[1\]/);
    expect(target({ ...A, price: [{ between: [1, 2, 3] }] })).toThrow(/expected \[lo, hi\] or one number/);
    expect(target({ ...A, price: [{ 'greater than': [] }] })).toThrow(InputError);
  });

  it('refuses titles that are not strings (a title may be one string or a list of strings)', () => {
    expect(target({ product_id: 'A', title: 42 })).toThrow(/field "reward.title"/);
    expect(target({ product_id: 'A', title: ['ok', 7] })).toThrow(/field "reward.title\[1\]"/);
    expect(target({ product_id: 'A', title: { en: 'x' } })).toThrow(/expected a title or a list of titles/);
    expect(prediction({ product_id: 'P', title: 5 })).toThrow(/field "products\[0\].title"/);
    expect(target({ ...A, knowledge: 3 })).toThrow(/reward.knowledge/);
    // The valid forms still parse.
    expect(target(A)().targets[0]!.titles).toEqual(['red shirt']);
    expect(target({ product_id: 'A', title: ['', 'b'] })().targets[0]!.titles).toEqual(['b']);
  });

  it('refuses more targets per query than the exact assignment can take', () => {
    const many = Array.from({ length: MAX_TARGETS_PER_QUERY + 1 }, (_, i) => ({ product_id: `T${i}`, title: 't' }));
    expect(target(many)).toThrow(new RegExp(`${MAX_TARGETS_PER_QUERY + 1} target products, more than`));
  });
});
