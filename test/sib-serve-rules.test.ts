// The serve rules' pieces on hand-checked inputs (serve-rules.ts): categories and their neighbours,
// marker words, the product text the catalogue is embedded by, and the `category` field's errors.
import { describe, expect, it } from 'vitest';
import {
  categoryRelation,
  heldMarkers,
  markerWords,
  parseCategory,
  productText,
} from '../engine/items/sib/serve-rules.js';
import { contentWords, wordsMatch } from '../engine/items/content-words.js';
import type { SibProduct } from '../engine/items/sib/sib-types.js';
import { parseSession } from '../engine/items/sib/session-reader.js';

const product = (title: string, attributes: Record<string, string> = {}, category?: string[]): SibProduct => ({
  id: title,
  title,
  attributes: Object.entries(attributes),
  ...(category ? { category } : {}),
});

describe('serve rules', () => {
  it('categories: same path, neighbours share all but the last part, else other; none without both', () => {
    const sun = product('a', {}, ['Beauty', 'Skin Care', 'Sunscreens']);
    expect(categoryRelation(sun, product('b', {}, ['beauty', ' Skin  Care', 'SUNSCREENS']))).toBe('same');
    expect(categoryRelation(sun, product('c', {}, ['Beauty', 'Skin Care', 'Serums']))).toBe('neighbour');
    expect(categoryRelation(sun, product('d', {}, ['Beauty', 'Hair Care', 'Serums']))).toBe('other');
    expect(categoryRelation(sun, product('e', {}, ['Beauty', 'Skin Care']))).toBe('other');
    expect(categoryRelation(sun, product('f'))).toBeNull();
  });

  it('words: stopwords and short words out; stems equal, or a stem of ≥ 4 letters starts the other', () => {
    expect(contentWords('Running safely in the early-morning darkness, 2 x')).toEqual([
      'running',
      'safely',
      'early',
      'morning',
      'darkness',
    ]);
    expect(wordsMatch('dark', 'darkness')).toBe(true);
    expect(wordsMatch('ceramides', 'ceramide')).toBe(true);
    expect(wordsMatch('run', 'running')).toBe(false);
    expect(wordsMatch('safely', 'safety')).toBe(true); // safe + ly, safe…
    expect(wordsMatch('dryness', 'dry')).toBe(true); // a stem of 3 letters matches only itself
    expect(wordsMatch('cleansing', 'cleanser')).toBe(true);
    expect(wordsMatch('night', 'overnight')).toBe(false);
    expect(wordsMatch('dry', 'drying')).toBe(true);
    expect(wordsMatch('dry', 'dryer')).toBe(true);
    expect(wordsMatch('dry', 'drywall')).toBe(false);
  });

  it('marker words: the query words that at most one session product holds', () => {
    const session = [
      product('Trail Running Shoes', { surface: 'trail' }),
      product('Running Socks', { material: 'merino' }),
      product('Reflective Running Jacket'),
    ];
    // "running" is in all three products, "trail" in one: only words that say what this query asks stay.
    expect(markerWords('Running on dark trails', session)).toEqual(['dark', 'trails']);
    expect(heldMarkers(['dark', 'trails'], product('Headlamp for Dark Mornings'))).toEqual(['dark']);
    expect(heldMarkers(['dark', 'trails'], product('Cap', { use: 'trail runs' }))).toEqual(['trails']);
    expect(heldMarkers(['dark', 'trails'], product('Sunglasses'))).toEqual([]);
  });

  it('product text: the title, then the attributes as the prompt lists them', () => {
    expect(productText(product('Socks,  3 Pairs', { material: 'merino  blend', pack: '3' }))).toBe(
      'Socks, 3 Pairs. material: merino blend; pack: 3',
    );
    expect(productText(product('Socks'))).toBe('Socks');
  });

  it('the category field: "A > B" or ["A", "B"]; errors name the line and field', () => {
    expect(parseCategory('Sports > Running >Shoes')).toEqual(['Sports', 'Running', 'Shoes']);
    expect(parseCategory(['Sports', 'Running'])).toEqual(['Sports', 'Running']);
    expect(parseCategory(undefined)).toBeUndefined();
    expect(parseCategory('Sports > > Shoes')).toEqual({ reason: 'a category path has an empty part' });
    const line = (category: unknown) => ({
      session_id: 's',
      products: [{ id: 'p1', title: 'Shoes', category }],
      tree: [{ id: 'n1', parent: null, step: 1, intention: 'I', attribute: 'A' }],
    });
    expect(parseSession(line('Sports > Shoes'), { file: 'x.jsonl', line: 3 }).products[0]!.category).toEqual([
      'Sports',
      'Shoes',
    ]);
    expect(() => parseSession(line(7), { file: 'x.jsonl', line: 3 })).toThrow(
      'x.jsonl:3 (field "products[0].category"): expected a string ("A > B > C") or an array of strings',
    );
  });
});
