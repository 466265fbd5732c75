// WordPiece tokenization through Tokenizers.js (@huggingface/tokenizers: the tokenizer.json pipeline
// of the Python `tokenizers` library, BertNormalizer lower-casing, BertPreTokenizer, WordPiece,
// [CLS] … [SEP]). It is the library transformers.js tokenizes with; we call it directly because
// importing transformers.js costs about 0.4 s of every start-up and this one 0.02 s.
// Sentences are tokenized without padding; the encoder pads each length-sorted batch itself.
// Truncation is done here, not by transformers.js: its `truncation` cuts the finished sequence and so
// drops the final [SEP], whereas Python's tokenizers (what sentence-transformers uses) truncate the
// text's tokens and keep [CLS] … [SEP]. We keep the special tokens, as Python does.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { ConfigError, InputError } from '../core/errors.js';
import { installVocabulary, readTokenizerDefinition } from './tokenizer-cache.js';

/** Token ids of one sentence, [CLS] and [SEP] included, truncated to the maximum length. */
export interface TokenizedSentence {
  ids: number[];
  typeIds: number[];
  /** Set when the sentence was longer than maxTokens and cut. */
  truncated?: true;
}

/**
 * Tokenization on other threads (workers/tokenizer-threads.ts): the same tokenizer.json and token
 * limit as the encoder's own SentenceTokenizer, so the same tokens, off the thread that feeds the
 * device. Results come back in input order.
 */
export interface ParallelTokenizer {
  readonly threads: number;
  tokenize(sentences: readonly string[]): Promise<TokenizedSentence[]>;
  close(): Promise<void>;
}

export class SentenceTokenizer {
  /** Special tokens the post-processor appends after the text (1 for BERT: [SEP]). */
  private readonly suffixSpecials: number;

  private constructor(
    private readonly tokenizer: Tokenizer,
    /** Longest token sequence fed to the model, special tokens included. */
    readonly maxTokens: number,
  ) {
    // The empty sentence is exactly the special tokens: [CLS] [SEP] for BERT. The first is the prefix.
    const specials = this.encodeUntruncated([''])[0]!.ids.length;
    this.suffixSpecials = Math.max(0, specials - 1);
    if (maxTokens < specials)
      throw new ConfigError('maxTokens', `must be at least ${specials} (the special tokens), got ${maxTokens}`);
  }

  /**
   * Loads tokenizer.json (and tokenizer_config.json) from a local folder; never touches the network.
   * With `cacheRoot`, tokenizer.json is read through its compact record there (tokenizer-cache.ts).
   */
  static async load(dir: string, maxTokens: number, cacheRoot?: string): Promise<SentenceTokenizer> {
    const definition = await readTokenizerDefinition(join(dir, 'tokenizer.json'), cacheRoot);
    const configPath = join(dir, 'tokenizer_config.json');
    const config = existsSync(configPath) ? readJson(configPath) : {};
    const tokenizer = new Tokenizer(definition.json, config);
    if (definition.vocabulary) installVocabulary(tokenizer, definition.vocabulary, definition.json.added_tokens);
    return new SentenceTokenizer(tokenizer, maxTokens);
  }

  /** Token ids of each sentence, [CLS] … [SEP], at most maxTokens long (the text's tokens are cut). */
  tokenize(sentences: readonly string[]): TokenizedSentence[] {
    const max = this.maxTokens;
    const keepTail = this.suffixSpecials;
    return this.encodeUntruncated(sentences).map((t) => {
      if (t.ids.length <= max) return t;
      const cut = (row: number[]) => [...row.slice(0, max - keepTail), ...row.slice(row.length - keepTail)];
      return { ids: cut(t.ids), typeIds: cut(t.typeIds), truncated: true };
    });
  }

  private encodeUntruncated(sentences: readonly string[]): TokenizedSentence[] {
    return sentences.map((sentence) => {
      // return_token_type_ids as transformers.js's BertTokenizer asks for them; a post-processor
      // without segment ids gives none, and then every token is segment 0.
      const encoding = this.tokenizer.encode(sentence, { return_token_type_ids: true });
      return { ids: encoding.ids, typeIds: encoding.token_type_ids ?? encoding.ids.map(() => 0) };
    });
  }
}

function readJson(path: string): object {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InputError({ file: path }, `cannot be read: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as object;
  } catch (err) {
    throw new InputError({ file: path }, `is not valid JSON: ${(err as Error).message}`);
  }
}
