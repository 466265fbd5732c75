// The compact tokenizer record (embeddings/tokenizer-cache.ts): a tokenizer built from it tokenizes
// exactly as the library's own Tokenizer built from tokenizer.json; the record is reused only while
// tokenizer.json is unchanged and the record intact; anything it cannot represent is read from the
// file every time; a cache folder that cannot be written changes nothing but speed.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { SentenceTokenizer } from '../embeddings/tokenizer.js';
import { readTokenizerDefinition, tokenizerRecordPath } from '../embeddings/tokenizer-cache.js';
import { syntheticBertVocabulary, tinyVocabulary, wordPieceTokenizerFiles } from '../embeddings/wordpiece-files.js';
import { Rng } from '../core/rng.js';

const REAL = join(import.meta.dirname, '..', '..', 'shared', 'models', 'all-MiniLM-L6-v2-tokenizer');
const haveReal = existsSync(join(REAL, 'tokenizer.json'));
if (!haveReal) console.warn(`SKIPPED: the compact record of the real all-MiniLM-L6-v2 tokenizer (${REAL} is absent)`);

/** A folder holding a generated WordPiece tokenizer over `vocab`. */
function tokenizerDir(vocab: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-tokcache-'));
  for (const [name, text] of Object.entries(wordPieceTokenizerFiles(vocab, 512))) writeFileSync(join(dir, name), text);
  return dir;
}

/** Sentences of vocabulary words, pieces of words, unknown and odd characters, over-long words. */
function randomSentences(vocab: readonly string[], count: number, seed: number): string[] {
  const rng = new Rng(seed);
  const odd = ['Café', 'İstanbul', '😀', '\u200b', '\t', 'ﾃｽﾄ', '３', 'x'.repeat(120), '[CLS]', '[MASK]', '-', "'s"];
  const word = () => {
    const r = rng.next();
    if (r < 0.1) return odd[rng.int(odd.length)]!;
    const token = vocab[rng.int(vocab.length)]!.replace(/^##/, '');
    return r < 0.3 ? token.toUpperCase() : token;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + rng.int(14) }, word).join(rng.next() < 0.8 ? ' ' : ''),
  );
}

/** What the library builds from tokenizer.json itself: the reference. */
function libraryTokenizer(dir: string): Tokenizer {
  const json = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')) as object;
  const config = JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')) as object;
  return new Tokenizer(json, config);
}

function expectSameTokenization(dir: string, cacheRoot: string | undefined, vocab: readonly string[]) {
  return async () => {
    const reference = libraryTokenizer(dir);
    const ours = await SentenceTokenizer.load(dir, 100_000, cacheRoot);
    const sentences = ['', ' ', ...randomSentences(vocab, 1_000, 3)];
    const got = ours.tokenize(sentences);
    const expected = sentences.map((s) => reference.encode(s, { return_token_type_ids: true }));
    expect(got.map((t) => t.ids)).toEqual(expected.map((e) => e.ids));
    expect(got.map((t) => t.typeIds)).toEqual(expected.map((e) => e.token_type_ids));
  };
}

describe('a tokenizer built from the compact record tokenizes as one built from tokenizer.json', () => {
  const vocab = syntheticBertVocabulary();
  const dir = tokenizerDir(vocab);
  const cacheRoot = mkdtempSync(join(tmpdir(), 'intentsim-tokcache-root-'));

  it('the first load reads tokenizer.json and writes the record', async () => {
    expect((await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot)).source).toBe('file');
    expect(existsSync(tokenizerRecordPath(join(dir, 'tokenizer.json'), cacheRoot))).toBe(true);
  });

  it('the second load reads the record: same vocabulary, token ids and unknown-token id', async () => {
    const definition = await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot);
    expect(definition.source).toBe('cache');
    expect(definition.vocabulary).toEqual(vocab);
    const reference = libraryTokenizer(dir).model!;
    const ours = (await SentenceTokenizer.load(dir, 256, cacheRoot)) as unknown as { tokenizer: Tokenizer };
    expect(ours.tokenizer.model!.vocab).toEqual(reference.vocab);
    // Equal as maps (the library's keeps Object.entries order, integer-like tokens first; lookups ignore order).
    expect(ours.tokenizer.model!.tokens_to_ids.size).toBe(reference.tokens_to_ids.size);
    for (const [token, id] of reference.tokens_to_ids) expect(ours.tokenizer.model!.tokens_to_ids.get(token)).toBe(id);
    expect(ours.tokenizer.model!.unk_token_id).toBe(reference.unk_token_id);
    expect(reference.unk_token_id).toBe(vocab.indexOf('[UNK]'));
  });

  it(
    '1,000 random sentences: the same ids from the record as from the library',
    expectSameTokenization(dir, cacheRoot, vocab),
  );
  it('and without a cache folder', expectSameTokenization(dir, undefined, vocab));

  it.skipIf(!haveReal)('the real all-MiniLM-L6-v2 tokenizer, cold and then from its record', async () => {
    const realCache = mkdtempSync(join(tmpdir(), 'intentsim-tokcache-real-'));
    const realVocab = readFileSync(join(REAL, 'vocab.txt'), 'utf8')
      .split('\n')
      .filter((t) => t !== '');
    await expectSameTokenization(REAL, realCache, realVocab)();
    expect((await readTokenizerDefinition(join(REAL, 'tokenizer.json'), realCache)).source).toBe('cache');
    await expectSameTokenization(REAL, realCache, realVocab)();
  });
  it('an added token beyond the vocabulary gets its id, as the library gives it', async () => {
    const vocab = tinyVocabulary();
    const dir = tokenizerDir(vocab);
    const file = join(dir, 'tokenizer.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { added_tokens: object[] };
    const extra = { id: vocab.length, content: '[ITEM]', single_word: false, lstrip: false, rstrip: false };
    json.added_tokens.push({ ...extra, normalized: false, special: true });
    writeFileSync(file, JSON.stringify(json));
    const cacheRoot = mkdtempSync(join(tmpdir(), 'intentsim-tokcache-root-'));
    const text = 'PersonX buy [ITEM] a phone';
    const expected = libraryTokenizer(dir).encode(text).ids;
    expect(expected).toContain(vocab.length);
    const reference = libraryTokenizer(dir).model!;
    for (let i = 0; i < 2; i++) {
      const ours = await SentenceTokenizer.load(dir, 256, cacheRoot);
      expect(ours.tokenize([text])[0]!.ids).toEqual(expected);
      const model = (ours as unknown as { tokenizer: Tokenizer }).tokenizer.model!;
      expect(model.tokens_to_ids.get('[ITEM]')).toBe(reference.tokens_to_ids.get('[ITEM]'));
      expect(model.vocab).toEqual(reference.vocab);
    }
    expect((await readTokenizerDefinition(file, cacheRoot)).source).toBe('cache');
  });
});

describe('when the record is not used', () => {
  it('a changed tokenizer.json is read again, and its new vocabulary is the one used', async () => {
    const vocab = tinyVocabulary();
    const dir = tokenizerDir(vocab);
    const cacheRoot = mkdtempSync(join(tmpdir(), 'intentsim-tokcache-root-'));
    const before = await SentenceTokenizer.load(dir, 256, cacheRoot);
    expect(before.tokenize(['then'])[0]!.ids[1]).toBe(vocab.indexOf('then'));
    // "then" and "when" trade ids: tokens of one length, so the file keeps its size; only its mtime moves.
    const swapped = vocab.map((t) => (t === 'then' ? 'when' : t === 'when' ? 'then' : t));
    const file = join(dir, 'tokenizer.json');
    const size = readFileSync(file).length;
    writeFileSync(file, wordPieceTokenizerFiles(swapped, 512)['tokenizer.json']);
    expect(readFileSync(file).length).toBe(size);
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect((await readTokenizerDefinition(file, cacheRoot)).source).toBe('file');
    const after = await SentenceTokenizer.load(dir, 256, cacheRoot);
    expect(after.tokenize(['then'])[0]!.ids[1]).toBe(vocab.indexOf('when'));
  });

  it('a damaged record is ignored and written again', async () => {
    const vocab = tinyVocabulary();
    const dir = tokenizerDir(vocab);
    const cacheRoot = mkdtempSync(join(tmpdir(), 'intentsim-tokcache-root-'));
    await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot);
    const record = tokenizerRecordPath(join(dir, 'tokenizer.json'), cacheRoot);
    const text = readFileSync(record, 'utf8');
    // One token renamed inside the body (a line of the vocabulary string): valid JSON, wrong content;
    // the checksum catches it.
    const damagedText = text.replace('\\nphone\\n', '\\nphona\\n');
    expect(damagedText).not.toBe(text);
    writeFileSync(record, damagedText);
    const damaged = await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot);
    expect(damaged.source).toBe('file');
    expect(damaged.vocabulary).toEqual(vocab);
    expect(readFileSync(record, 'utf8')).toBe(text);
    expect((await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot)).source).toBe('cache');
  });

  it('ids that are not exactly 0…n−1 are never recorded: the file is read each time', async () => {
    const dir = tokenizerDir(tinyVocabulary());
    const json = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')) as {
      model: { vocab: Record<string, number> };
    };
    json.model.vocab.phone = 10_000; // a gap
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(json));
    const cacheRoot = mkdtempSync(join(tmpdir(), 'intentsim-tokcache-root-'));
    for (let i = 0; i < 2; i++) {
      const definition = await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot);
      expect(definition.source).toBe('file');
      expect(definition.vocabulary).toBeUndefined();
    }
    expect(existsSync(join(cacheRoot, 'tokenizers'))).toBe(false);
    const tokenizer = await SentenceTokenizer.load(dir, 256, cacheRoot);
    expect(tokenizer.tokenize(['phone'])[0]!.ids).toEqual(libraryTokenizer(dir).encode('phone').ids);
  });

  it('a token holding a newline is never recorded (a record keeps a token a line): the file is read each time', async () => {
    const vocab = [...tinyVocabulary(), 'two\nlines'];
    const dir = tokenizerDir(vocab);
    const cacheRoot = mkdtempSync(join(tmpdir(), 'intentsim-tokcache-root-'));
    for (let i = 0; i < 2; i++)
      expect((await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot)).source).toBe('file');
    expect(existsSync(tokenizerRecordPath(join(dir, 'tokenizer.json'), cacheRoot))).toBe(false);
    const tokenizer = await SentenceTokenizer.load(dir, 256, cacheRoot);
    expect(tokenizer.tokenize(['PersonX buy a phone.'])[0]!.ids).toEqual(
      libraryTokenizer(dir).encode('PersonX buy a phone.').ids,
    );
  });

  it('a record of the earlier format (the tokens as a JSON array) is made again, then read', async () => {
    const vocab = tinyVocabulary();
    const dir = tokenizerDir(vocab);
    const cacheRoot = mkdtempSync(join(tmpdir(), 'intentsim-tokcache-root-'));
    const record = tokenizerRecordPath(join(dir, 'tokenizer.json'), cacheRoot);
    await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot);
    const [headerLine, bodyLine] = readFileSync(record, 'utf8').split('\n') as [string, string];
    const header = JSON.parse(headerLine) as { format: number };
    expect(header.format).toBe(2);
    const body = JSON.parse(bodyLine) as { json: object; vocabulary: string };
    expect(body.vocabulary.split('\n')).toEqual(vocab);
    // The format-1 record of the same file: the tokens as an array (its checksum made to match).
    const oldBody = JSON.stringify({ json: body.json, vocabulary: vocab });
    const { createHash } = await import('node:crypto');
    const oldHeader = { ...header, format: 1, bodySha256: createHash('sha256').update(oldBody).digest('hex') };
    writeFileSync(record, `${JSON.stringify(oldHeader)}\n${oldBody}`);
    expect((await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot)).source).toBe('file');
    const again = await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot);
    expect(again.source).toBe('cache');
    expect(again.vocabulary).toEqual(vocab);
  });

  it('a cache folder that cannot be written: the same tokens, nothing recorded', async () => {
    const vocab = tinyVocabulary();
    const dir = tokenizerDir(vocab);
    const parent = mkdtempSync(join(tmpdir(), 'intentsim-tokcache-root-'));
    const blocked = join(parent, 'not-a-folder');
    writeFileSync(blocked, 'a file where the cache folder would be');
    const tokenizer = await SentenceTokenizer.load(dir, 256, blocked);
    expect(tokenizer.tokenize(['PersonX buy a phone.'])[0]!.ids).toEqual(
      libraryTokenizer(dir).encode('PersonX buy a phone.').ids,
    );
    expect(readdirSync(parent)).toEqual(['not-a-folder']);
  });
});
