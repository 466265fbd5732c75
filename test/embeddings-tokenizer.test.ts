// WordPiece tokenization as the encoder feeds it to the model. Expected ids are worked out by hand:
// split the text into WordPiece pieces, then take each piece's id as its 0-based line number in
// vocab.txt (which is how BERT vocabularies assign ids).
import { describe, expect, it, beforeAll } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { SentenceTokenizer } from '../embeddings/tokenizer.js';
import { Rng } from '../core/rng.js';
import { makeTestModel } from '../embeddings/model-generator.js';
import { tinyVocabulary } from '../embeddings/wordpiece-files.js';

const REAL = join(import.meta.dirname, '..', '..', 'shared', 'models', 'all-MiniLM-L6-v2-tokenizer');
const haveReal = existsSync(join(REAL, 'tokenizer.json'));
if (!haveReal) console.warn(`SKIPPED: real all-MiniLM-L6-v2 tokenizer tests (${REAL} is absent)`);

function vocabIds(vocabFile: string): (piece: string) => number {
  const lines = readFileSync(vocabFile, 'utf8').split('\n');
  return (piece) => {
    const id = lines.indexOf(piece);
    if (id < 0) throw new Error(`test setup: ${piece} is not in ${vocabFile}`);
    return id;
  };
}

describe.skipIf(!haveReal)('the real all-MiniLM-L6-v2 tokenizer (../shared)', () => {
  let tokenizer: SentenceTokenizer;
  let id: (piece: string) => number;
  beforeAll(async () => {
    tokenizer = await SentenceTokenizer.load(REAL, 256);
    id = vocabIds(join(REAL, 'vocab.txt'));
  });

  it('"PersonX buy a phone." → [CLS] person ##x buy a phone . [SEP]', () => {
    const expected = ['[CLS]', 'person', '##x', 'buy', 'a', 'phone', '.', '[SEP]'].map((p) => id(p));
    expect(expected).toEqual([101, 2711, 2595, 4965, 1037, 3042, 1012, 102]); // the vocab.txt line numbers, checked by hand
    const [t] = tokenizer.tokenize(['PersonX buy a phone.']);
    expect(t!.ids).toEqual(expected);
    expect(t!.typeIds).toEqual(expected.map(() => 0));
  });

  it('lower-cases, strips accents and splits punctuation (BertNormalizer + BertPreTokenizer)', () => {
    const [t] = tokenizer.tokenize(['PeopleX purchased an UMBRELLA because it rains at the Café.']);
    const pieces = [
      '[CLS]',
      'people',
      '##x',
      'purchased',
      'an',
      'umbrella',
      'because',
      'it',
      'rains',
      'at',
      'the',
      'cafe',
      '.',
      '[SEP]',
    ];
    expect(t!.ids).toEqual(pieces.map((p) => id(p)));
  });

  it('truncation keeps [CLS] first and [SEP] last, like Python tokenizers', async () => {
    const short = await SentenceTokenizer.load(REAL, 5);
    const [t] = short.tokenize(['PersonX buy a phone today.']);
    expect(t!.ids).toEqual(['[CLS]', 'person', '##x', 'buy', '[SEP]'].map((p) => id(p)));
    expect(t!.truncated).toBe(true);
    const [fits] = short.tokenize(['a phone']);
    expect(fits!.ids).toEqual(['[CLS]', 'a', 'phone', '[SEP]'].map((p) => id(p)));
    expect(fits!.truncated).toBeUndefined();
  });
});

describe("the tiny test model's generated tokenizer", () => {
  let tokenizer: SentenceTokenizer;
  const vocab = tinyVocabulary();
  const id = (piece: string) => {
    const i = vocab.indexOf(piece);
    if (i < 0) throw new Error(`test setup: ${piece} not in the tiny vocabulary`);
    return i;
  };
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-tok-'));
    await makeTestModel(dir);
    tokenizer = await SentenceTokenizer.load(dir, 256);
    // vocab.txt's line numbers are the ids too.
    expect(readFileSync(join(dir, 'vocab.txt'), 'utf8').split('\n').slice(0, vocab.length)).toEqual(vocab);
  });

  it('whole words where the vocabulary has them, letters and ## continuations otherwise', () => {
    const [a, b] = tokenizer.tokenize(['PersonX buy a phone.', 'Zebra!']);
    expect(a!.ids).toEqual(['[CLS]', 'personx', 'buy', 'a', 'phone', '.', '[SEP]'].map(id));
    expect(b!.ids).toEqual(['[CLS]', 'z', '##e', '##b', '##r', '##a', '!', '[SEP]'].map(id));
  });

  it('the empty sentence is [CLS] [SEP]', () => {
    expect(tokenizer.tokenize([''])[0]!.ids).toEqual([id('[CLS]'), id('[SEP]')]);
  });
});

/**
 * Random sentences over the characters that exercise BertNormalizer and BertPreTokenizer: accents,
 * CJK (split per character), punctuation, digits, control and zero-width characters, emoji, words
 * longer than the WordPiece limit.
 */
function randomSentences(count: number, seed: number): string[] {
  const rng = new Rng(seed);
  const random = () => rng.next();
  const pieces = [
    'PersonX',
    'buy',
    'a',
    'phone',
    'Café',
    'naïve',
    'ÉCOLE',
    '東京',
    '购买',
    'ß',
    'ﬁ',
    '½',
    '３',
    '.',
    ',',
    '!',
    "'s",
    '-',
    '(',
    ')',
    '$',
    '12',
    '3.5',
    '\t',
    '\u0000',
    '\u200b',
    '\u00a0',
    '😀',
    'x'.repeat(120),
    '##',
    '[CLS]',
    'un-believable',
    'co-purchase',
    'e-mail',
    'PeopleY',
    'İstanbul',
    'Ωmega',
    'ﾃｽﾄ',
  ];
  return Array.from({ length: count }, () => {
    const words = Array.from(
      { length: 1 + Math.floor(random() * 12) },
      () => pieces[Math.floor(random() * pieces.length)]!,
    );
    return words.join(random() < 0.7 ? ' ' : '');
  });
}

describe.skipIf(!haveReal)('same ids as transformers.js on the real tokenizer', () => {
  it('matches AutoTokenizer (input_ids and token_type_ids) on 2,000 random sentences', async () => {
    const ours = await SentenceTokenizer.load(REAL, 100_000);
    const reference = await AutoTokenizer.from_pretrained(REAL, { local_files_only: true });
    const sentences = ['', ' ', ...randomSentences(2_000, 7)];
    const expected = reference._call(sentences, {
      padding: false,
      truncation: false,
      return_tensor: false,
    }) as unknown as {
      input_ids: number[][];
      token_type_ids: number[][];
    };
    const got = ours.tokenize(sentences);
    expect(got.map((t) => t.ids)).toEqual(expected.input_ids);
    expect(got.map((t) => t.typeIds)).toEqual(expected.token_type_ids);
  });
});
