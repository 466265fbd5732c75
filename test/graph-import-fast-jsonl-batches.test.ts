// readJsonlBatches (core/jsonl-batches.ts) must hand out exactly what a plain readline loop over the
// file does — records, line numbers, errors, rejects — whatever the chunk boundaries, and readJsonl
// (built on it) the same one record at a time; and the JSONL importer's lean line parser must agree
// with the field-by-field one on every input.
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import { InputError } from '../core/errors.js';
import { readJsonl } from '../core/jsonl.js';
import { parseJsonlLine, parseUnique, readJsonlBatches, type ReadJsonlOptions } from '../core/jsonl-batches.js';
import { RejectsSink } from '../core/rejects.js';
import { checkEdgeLine, parseEdgeLine } from '../graph/import/import-jsonl.js';
import { RELATION_SENSES } from '../graph/graph-store.js';

const dir = mkdtempSync(join(tmpdir(), 'intentsim-jsonl-batches-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** A sink that remembers what it was given, in order. */
class CapturingRejects extends RejectsSink {
  readonly seen: string[] = [];
  constructor() {
    super('');
  }
  override async reject(err: InputError, input: string): Promise<void> {
    this.count += 1;
    this.seen.push(`${err.message} <- ${input}`);
  }
  override async close(): Promise<void> {}
}

/** Accepts objects with a string `k`; throws an InputError for `bad`, a plain Error for `crash`. */
function parse(json: unknown, at: { file: string; line: number }): string {
  const o = json as Record<string, unknown>;
  if (o === null || typeof o !== 'object') throw new InputError(at, 'expected a JSON object');
  if (o.k === 'crash') throw new Error('not an input problem');
  if (typeof o.k !== 'string' || o.k === 'bad')
    throw new InputError({ ...at, field: 'k' }, `bad k ${JSON.stringify(o.k)}`);
  return o.k;
}

const KEY_K = { of: (k: string) => k, field: 'k', what: 'key' };

/** The reference: readline over the file, one line at a time (what readJsonl was before it read chunks). */
async function* readlineReference<T>(
  file: string,
  parseRecord: (json: unknown, at: { file: string; line: number }) => T,
  options: ReadJsonlOptions<T>,
): AsyncGenerator<{ line: number; value: T }> {
  const parseOne = parseUnique(parseRecord, options.unique);
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    let value: T;
    try {
      value = parseJsonlLine(text, file, line, parseOne);
    } catch (err) {
      if (!(err instanceof InputError) || options.onError !== 'skip') throw err;
      await options.rejects!.reject(err, text);
      continue;
    }
    yield { line, value };
  }
}

interface Outcome {
  records: string[];
  rejects: string[];
  error?: string;
}

async function collect(stream: AsyncIterable<unknown>, sink: CapturingRejects, flatten: boolean): Promise<Outcome> {
  const records: string[] = [];
  try {
    for await (const item of stream) {
      const list = (flatten ? item : [item]) as Array<{ line: number; value: string }>;
      if (flatten) expect(list.length).toBeGreaterThan(0);
      for (const r of list) records.push(`${r.line}:${r.value}`);
    }
  } catch (err) {
    return { records, rejects: sink.seen, error: (err as Error).message };
  }
  return { records, rejects: sink.seen };
}

const PIECES = [
  '{"k": "a"}',
  '{"k": "ü€𝄞"}',
  '{"k": "bad"}',
  'not json',
  '',
  '   ',
  '\t',
  '{"k": 1}',
  '[1]',
  '{"k": "x\\ny"}',
  '{"k": "crash"}',
];
const BREAKS = ['\n', '\r\n', '\r'];

function randomFile(rng: Rng, lines: number, allowCrash: boolean): string {
  let text = '';
  for (let i = 0; i < lines; i++) {
    let piece = PIECES[rng.int(PIECES.length)]!;
    if (piece.includes('crash') && !allowCrash) piece = '{"k": "ok"}';
    text += piece + BREAKS[rng.next() < 0.7 ? 0 : 1 + rng.int(2)]!;
  }
  if (rng.next() < 0.5) text = text.replace(/(\r\n|\n|\r)$/, ''); // no final line break
  return text;
}

describe('readJsonlBatches', () => {
  it('yields exactly what a readline loop yields, in batches, whatever the chunk size (random files, seeded)', async () => {
    for (let seed = 0; seed < 40; seed++) {
      const rng = new Rng(`jsonl-batches/${seed}`);
      const file = join(dir, `f${++n}.jsonl`);
      writeFileSync(file, randomFile(rng, 1 + rng.int(60), seed % 4 === 3));
      for (const onError of ['fail', 'skip'] as const) {
        const chunkBytes = [1, 2, 3, 5, 7, 64, 1 << 20][rng.int(7)]!;
        const batchSize = 1 + rng.int(5);
        const unique = seed % 2 === 1 ? KEY_K : undefined; // the pieces repeat keys: repeats are bad lines then
        const a = new CapturingRejects();
        const b = new CapturingRejects();
        const c = new CapturingRejects();
        const want = await collect(readlineReference(file, parse, { onError, rejects: a, unique }), a, false);
        const got = await collect(
          readJsonlBatches(file, parse, { onError, rejects: b, chunkBytes, batchSize, unique }),
          b,
          true,
        );
        expect(got, `seed ${seed}, ${onError}, chunks of ${chunkBytes} bytes`).toEqual(want);
        const oneByOne = await collect(readJsonl(file, parse, { onError, rejects: c, unique }), c, false);
        expect(oneByOne, `seed ${seed}, ${onError}, readJsonl`).toEqual(want);
      }
    }
  });

  it('numbers lines across \\r\\n split between chunks and multi-byte characters split between chunks', async () => {
    const file = join(dir, `f${++n}.jsonl`);
    writeFileSync(file, '{"k": "é"}\r\n\r\n{"k": "𝄞"}\r{"k": "z"}');
    for (const chunkBytes of [1, 2, 3, 4, 11, 12, 13]) {
      const sink = new CapturingRejects();
      const got = await collect(readJsonlBatches(file, parse, { chunkBytes, batchSize: 1 }), sink, true);
      expect(got).toEqual({ records: ['1:é', '3:𝄞', '4:z'], rejects: [] });
    }
  });

  it('unique: a repeat names its field and the first line; a rejected line does not count (both readers)', async () => {
    const file = join(dir, `f${++n}.jsonl`);
    writeFileSync(
      file,
      ['{"k": "a"}', '{"k": "b"}', '{"k": "a"}', '{"k": "bad"}', '{"k": "c"}', '{"k": "c"}'].join('\n'),
    );
    const repeat = (line: number, key: string, first: number) =>
      `${file}:${line} (field "k"): duplicate key "${key}" (first on line ${first}) <- {"k": "${key}"}`;
    for (const batches of [false, true]) {
      const read = (options: { onError?: 'skip'; rejects?: RejectsSink }) =>
        batches
          ? readJsonlBatches(file, parse, { ...options, unique: KEY_K, chunkBytes: 7 })
          : readJsonl(file, parse, { ...options, unique: KEY_K });
      const failed = await collect(read({}), new CapturingRejects(), batches);
      expect(failed).toEqual({
        records: ['1:a', '2:b'],
        rejects: [],
        error: `${file}:3 (field "k"): duplicate key "a" (first on line 1)`,
      });
      const sink = new CapturingRejects();
      expect(await collect(read({ onError: 'skip', rejects: sink }), sink, batches)).toEqual({
        records: ['1:a', '2:b', '5:c'],
        rejects: [repeat(3, 'a', 1), `${file}:4 (field "k"): bad k "bad" <- {"k": "bad"}`, repeat(6, 'c', 5)],
      });
    }
  });

  it('needs a rejects sink to skip, and a positive batch size', async () => {
    const file = join(dir, `f${++n}.jsonl`);
    writeFileSync(file, '{"k": "a"}\n');
    await expect(readJsonlBatches(file, parse, { onError: 'skip' }).next()).rejects.toThrow(/needs a rejects sink/);
    await expect(readJsonlBatches(file, parse, { batchSize: 0 }).next()).rejects.toThrow(/positive integer/);
  });
});

describe('parseEdgeLine', () => {
  it('agrees with the field-by-field reading on random lines, good and bad (seeded)', () => {
    const rng = new Rng('parse-edge-line');
    const texts = ['a', 'PersonX buy a phone', '', '  ', ' x ', 7, null, ['a'], { t: 1 }];
    const names = [...RELATION_SENSES, 'Causation', '__proto__', 'constructor', 'result', ''];
    const weights: unknown[] = [1, 0.25, 3e5, 0, -1, '1', null, true, Infinity, Number.MIN_VALUE];
    const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)]!;
    let good = 0;
    // Written as JSON text and parsed, as the importer sees lines: 1e999 becomes Infinity, and
    // "__proto__" an own key (which an object literal could not express).
    const value = (v: unknown) => (v === Number.POSITIVE_INFINITY ? '1e999' : JSON.stringify(v));
    for (let i = 0; i < 3000; i++) {
      const fields: string[] = [];
      const text = () => value(rng.next() < 0.85 ? pick(texts.slice(0, 2)) : pick(texts));
      if (rng.next() < 0.97) fields.push(`"head": ${text()}`);
      if (rng.next() < 0.97) fields.push(`"tail": ${text()}`);
      if (rng.next() < 0.95) {
        const entries: string[] = [];
        // Mostly valid senses and weights, so that the lean path is taken often.
        for (let k = rng.int(4); k > 0; k--) {
          entries.push(
            `${JSON.stringify(rng.next() < 0.8 ? pick(RELATION_SENSES) : pick(names))}: ${value(rng.next() < 0.8 ? 1 + rng.int(9) : pick(weights))}`,
          );
        }
        fields.push(`"relations": ${rng.next() < 0.95 ? `{${entries.join(', ')}}` : value(pick([[], 'x', null]))}`);
      }
      if (rng.next() < 0.1) fields.push('"extra": "ignored"');
      const json = JSON.parse(`{${fields.join(', ')}}`) as unknown;
      const at = { file: 'f.jsonl', line: i + 1 };
      const outcome = (f: typeof parseEdgeLine) => {
        try {
          return f(json, at);
        } catch (err) {
          return `${(err as Error).constructor.name}: ${(err as Error).message}`;
        }
      };
      const want = outcome(checkEdgeLine);
      expect(outcome(parseEdgeLine)).toEqual(want);
      if (typeof want !== 'string') good += 1;
    }
    expect(good).toBeGreaterThan(500);
  });

  it('treats a weight that JSON turns into Infinity, and a "__proto__" sense, as the field-by-field reading does', () => {
    const at = { file: 'f.jsonl', line: 1 };
    const infinite = JSON.parse('{"head": "a", "tail": "b", "relations": {"Result": 1e999}}') as unknown;
    expect(() => parseEdgeLine(infinite, at)).toThrow(/relations\.Result.*expected a positive number/);
    const proto = JSON.parse('{"head": "a", "tail": "b", "relations": {"__proto__": 1}}') as unknown;
    expect(() => parseEdgeLine(proto, at)).toThrow(/unknown relation sense "__proto__"/);
    expect(
      parseEdgeLine(JSON.parse('{"head": "a", "tail": "b", "relations": {"Result": 2, "Reason": 0.5}}'), at),
    ).toEqual({
      head: 'a',
      tail: 'b',
      senses: { Result: 2, Reason: 0.5 },
    });
  });
});
