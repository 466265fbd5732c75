// Ids are strings (issue 29, item 4): every reader of ids refuses a JSON number, naming file, line
// and field, as it refuses null and objects. JSON.parse rounds 12345678901234567891 to
// 12345678901234567000 (two ids then collide as a "duplicate" the file does not hold) and reads 1.50
// as 1.5, so no id can be rebuilt from the number.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { FieldReader } from '../core/jsonl.js';
import { ResponsesFile } from '../engine/evaluation/responses-file.js';
import { parseProductQuestion } from '../engine/items/catalog/product-items.js';
import { parseAssertion } from '../engine/items/intentionqa/assertions.js';
import { parseAnnotation } from '../engine/items/sib/annotations.js';
import { parseSession } from '../engine/items/sib/session-reader.js';
import { parseCatalogProduct } from '../engine/products/catalog-products.js';
import { loadUserConcepts } from '../engine/products/concepts.js';
import { parseProduct, readProducts } from '../engine/products/products.js';
import { parseIntentionQaQuestion } from '../engine/scoring/intentionqa/intentionqa-questions.js';
import { responseRecordParser } from '../engine/scoring/responses.js';
import { parsePredictionRecord } from '../engine/scoring/shoppingbench/parse-predictions.js';
import { idField } from '../engine/scoring/shoppingbench/parse-targets.js';
import { parseSibQuestion } from '../engine/scoring/sib/sib-questions.js';

const at = { file: 'in.jsonl', line: 3 };
const BIG = JSON.parse('12345678901234567891') as number;
const dir = mkdtempSync(join(tmpdir(), 'intentsim-ids-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error a parse throws, as file:line (field): reason. */
function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
  return 'accepted';
}

const numeric = (field: string, value: number) =>
  new RegExp(
    `^in\\.jsonl:3 \\(field "${field.replace(/[[\].]/g, '\\$&')}"\\): an id must be a JSON string, got the number ${String(value).replace('.', '\\.')} as read`,
  );

describe('every id reader refuses a numeric id, naming file, line and field', () => {
  const cases: Array<[string, (json: unknown) => unknown, Record<string, unknown>, string]> = [
    ['products', (j) => parseProduct(j, at), { id: BIG, title: 'T' }, 'id'],
    ['catalog products', (j) => parseCatalogProduct(j, at), { id: 1.5, title: 'T' }, 'id'],
    ['assertions: id', (j) => parseAssertion(j, at), { id: 7, item_a_id: 'a', item_b_id: 'b' }, 'id'],
    ['assertions: item_a_id', (j) => parseAssertion(j, at), { id: 'FS_1', item_a_id: 7, item_b_id: 'b' }, 'item_a_id'],
    ['assertions: item_b_id', (j) => parseAssertion(j, at), { id: 'FS_1', item_a_id: 'a', item_b_id: 8 }, 'item_b_id'],
    ['catalog questions', (j) => parseProductQuestion(j, at), { id: 'q', context: 'c', product_id: 7 }, 'product_id'],
    [
      'SIB annotations: session_id',
      (j) => parseAnnotation(j, at),
      { session_id: 3, leaf_id: 'n1', task: 1 },
      'session_id',
    ],
    ['SIB annotations: leaf_id', (j) => parseAnnotation(j, at), { session_id: 's', leaf_id: 4, task: 1 }, 'leaf_id'],
    ['SIB sessions: session_id', (j) => parseSession(j, at), { session_id: 5, products: [], tree: [] }, 'session_id'],
    [
      'SIB sessions: a product id',
      (j) => parseSession(j, at),
      { session_id: 's', products: [{ id: 9, title: 'T' }], tree: [] },
      'products[0].id',
    ],
    ['SIB questions', (j) => parseSibQuestion(j, at), { id: 5, task: 1 }, 'id'],
    ['IntentionQA questions', (j) => parseIntentionQaQuestion(j, at), { id: 5, gold_ind: 'A' }, 'id'],
    ['responses', (j) => responseRecordParser('zero_shot')(j, at), { id: BIG, response: 'A' }, 'id'],
    ['ShoppingBench predictions', (j) => parsePredictionRecord(j, at), { query_id: 5, products: [] }, 'query_id'],
  ];
  for (const [what, parse, json, field] of cases)
    it(what, () => {
      const value = field === 'products[0].id' ? 9 : (json[field] as number);
      expect(refusal(() => parse(json))).toMatch(numeric(field, value));
      // The same id as a string goes past the id check (later fields may still be refused).
      const quoted = JSON.parse(JSON.stringify(json).replace(/:(\d[\d.e+]*)/g, ':"$1"')) as unknown;
      expect(refusal(() => parse(quoted))).not.toMatch(/an id must be a JSON string/);
    });

  it('FieldReader.id and ShoppingBench idField: strings pass, numbers, null, objects and empty strings do not', () => {
    const r = new FieldReader({ a: 'x', b: 12, c: null, d: {}, e: '' }, at);
    expect(r.id('a')).toBe('x');
    expect(refusal(() => r.id('b'))).toMatch(numeric('b', 12));
    expect(refusal(() => r.id('c'))).toMatch(/field "c"\): expected a string, got null/);
    expect(refusal(() => r.id('d'))).toMatch(/field "d"\): expected a string, got an object/);
    expect(refusal(() => r.id('e'))).toMatch(/field "e"\): must not be empty/);
    expect(idField('p1', at, 'product_id')).toBe('p1');
    expect(refusal(() => idField(1.5, at, 'reward.product_id'))).toMatch(numeric('reward.product_id', 1.5));
  });

  it('two long numeric ids are refused at the first line, not reported as a duplicate', async () => {
    const file = join(dir, 'products.jsonl');
    writeFileSync(file, '{"id": 12345678901234567891, "title": "A"}\n{"id": 12345678901234567892, "title": "B"}\n');
    const read = async () => {
      for await (const _ of readProducts(file)) void _;
    };
    await expect(read()).rejects.toThrow(
      `${file}:1 (field "id"): an id must be a JSON string, got the number 12345678901234567000 as read`,
    );
  });

  it('user concepts refuse a numeric id; a responses file does not take a numeric-id line as an answer', async () => {
    const concepts = join(dir, 'concepts.jsonl');
    writeFileSync(concepts, '{"id": "p1", "phrases": ["cup"]}\n{"id": 1.50, "phrases": ["mug"]}\n');
    await expect(loadUserConcepts(concepts)).rejects.toThrow(
      `${concepts}:2 (field "id"): an id must be a JSON string, got the number 1.5`,
    );
    const responses = join(dir, 'responses.jsonl');
    writeFileSync(responses, '{"id": 1, "response": "A"}\n{"id": "1", "response": "B"}\n');
    const f = await ResponsesFile.open(responses);
    expect([...f.stored.keys()]).toEqual(['1']);
    expect(f.stored.get('1')!.json.response).toBe('B');
    expect(f.unreadable).toBe(1);
  });
});
