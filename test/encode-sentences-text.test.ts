// encode's sentences file is text, not JSONL, but gets the same decoding rules as the JSONL readers:
// a UTF-8 byte-order mark is skipped, and bytes that are not UTF-8 are an error naming the line
// (decoded, they would turn silently into U+FFFD and another sentence would be encoded).
import { describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { decodeSentences, sentenceLines } from '../engine/pipeline/encode-file.js';

describe('the sentences file of encode', () => {
  it('skips a byte-order mark (the first sentence keeps its text)', () => {
    const text = decodeSentences(Buffer.from('\ufeffhello world\nsecond\n', 'utf8'), 's.txt');
    expect(sentenceLines(text)).toEqual(['hello world', 'second']);
  });

  it('names the line of bytes that are not UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from('ok\nfine é\n', 'utf8'),
      Buffer.from([0x61, 0xff, 0x0a]),
      Buffer.from('z'),
    ]);
    expect(() => decodeSentences(bytes, 's.txt')).toThrow(InputError);
    expect(() => decodeSentences(bytes, 's.txt')).toThrow('s.txt:3: is not valid UTF-8');
    // A multi-byte character cut off at the end of the file is caught on its line.
    expect(() => decodeSentences(Buffer.from([0x61, 0x0a, 0xc3]), 's.txt')).toThrow('s.txt:2:');
  });
});
