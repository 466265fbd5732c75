// What every JSONL reader (core/jsonl-batches.ts) guarantees about encoding and size: a UTF-8
// byte-order mark is skipped; bytes that are not UTF-8 and lone surrogates make a line bad (file:line,
// and the field for a surrogate); a line over maxLineBytes and a text over maxTextLength are bad,
// with their limit named, and are skipped under onError 'skip' without holding the line whole. The
// graph importers apply the text limit to node texts, the ASER dump's included.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { readJsonl } from '../core/jsonl.js';
import {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_TEXT_LENGTH,
  InputLimitError,
  readJsonlBatches,
} from '../core/jsonl-batches.js';
import { RejectsSink, type RejectRecord } from '../core/rejects.js';
import { importGraph } from '../graph/import/import-graph.js';
import { openGraphStore } from '../graph/open-store.js';
import { readProducts } from '../engine/products/products.js';
import { RELATION_SENSES } from '../graph/graph-store.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');
const dir = mkdtempSync(join(tmpdir(), 'intentsim-input-encoding-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => join(dir, `${++n}-${name}`);

/** Accepts objects with a string `k`. */
function parseK(json: unknown, at: { file: string; line: number }): string {
  const k = (json as { k?: unknown }).k;
  if (typeof k !== 'string') throw new InputError({ ...at, field: 'k' }, 'expected a string');
  return k;
}

interface Read {
  records: string[];
  rejects: RejectRecord[];
  error?: InputError;
}

/** Every record of `file` as `line:value`, the rejects written (skip) or the error that stopped it (fail). */
async function readAll(
  file: string,
  options: { onError?: 'skip'; maxLineBytes?: number; maxTextLength?: number; chunkBytes?: number } = {},
): Promise<Read> {
  const rejectsPath = fresh('rejects.jsonl');
  const rejects = new RejectsSink(rejectsPath);
  const records: string[] = [];
  let error: InputError | undefined;
  try {
    for await (const batch of readJsonlBatches(file, parseK, { ...options, rejects, batchSize: 1 }))
      for (const r of batch) records.push(`${r.line}:${r.value}`);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    error = err;
  }
  await rejects.close();
  const written =
    rejects.count === 0
      ? []
      : readFileSync(rejectsPath, 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as RejectRecord);
  return { records, rejects: written, error };
}

describe('the JSONL readers: encoding', () => {
  it('skip a UTF-8 byte-order mark at the start of the file: the first record is read', async () => {
    const file = fresh('bom.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"k": "a"}\n{"k": "b"}\n')]));
    for (const chunkBytes of [1, 2, 3, 4, 1 << 20]) {
      expect(await readAll(file, { chunkBytes })).toEqual({ records: ['1:a', '2:b'], rejects: [], error: undefined });
    }
    const products = fresh('bom-products.jsonl');
    writeFileSync(products, '\ufeff{"id": "p1", "title": "Phone Case"}\n{"id": "p2", "title": "Charger"}\n');
    const read: string[] = [];
    for await (const p of readProducts(products)) read.push(`${p.line}:${p.id}`);
    expect(read).toEqual(['1:p1', '2:p2']);
    // Only at the start of the file: a U+FEFF elsewhere is text like any other.
    const later = fresh('feff-later.jsonl');
    writeFileSync(later, '{"k": "a"}\n\ufeff{"k": "b"}\n');
    expect((await readAll(later)).error?.message).toBe(`${later}:2: invalid JSON: ${jsonError('\ufeff{"k": "b"}')}`);
  });

  it('reject bytes that are not UTF-8 with file:line, whatever the chunk boundaries', async () => {
    const file = fresh('latin1.jsonl');
    // "café" written in Latin-1 on line 2: the byte 0xE9 is not UTF-8.
    writeFileSync(
      file,
      Buffer.concat([Buffer.from('{"k": "a"}\r\n{"k": "caf'), Buffer.from([0xe9]), Buffer.from('"}\r\n{"k": "é"}\n')]),
    );
    for (const chunkBytes of [1, 2, 5, 13, 1 << 20]) {
      const failed = await readAll(file, { chunkBytes });
      expect(failed.records).toEqual(['1:a']);
      expect(failed.error?.message).toBe(
        `${file}:2: not valid UTF-8 (convert the file to UTF-8, e.g. iconv -f LATIN1 -t UTF-8)`,
      );
      const skipped = await readAll(file, { chunkBytes, onError: 'skip' });
      expect(skipped.records).toEqual(['1:a', '3:é']);
      expect(skipped.rejects).toEqual([
        {
          file,
          line: 2,
          reason: 'not valid UTF-8 (convert the file to UTF-8, e.g. iconv -f LATIN1 -t UTF-8)',
          input: '{"k": "caf\ufffd"}',
          // The line's bytes as they were, 0xE9 included.
          input_base64: Buffer.concat([Buffer.from('{"k": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]).toString(
            'base64',
          ),
        },
      ]);
      expect(Buffer.from(skipped.rejects[0]!.input_base64!, 'base64')).toEqual(
        readFileSync(file).subarray(12, 12 + 13),
      );
    }
  });

  it('reject a lone surrogate, naming the field; a surrogate pair is a character like any other', async () => {
    const file = fresh('surrogates.jsonl');
    writeFileSync(
      file,
      ['{"k": "\\ud83d\\ude00"}', '{"k": "x", "more": [{"t": "ok"}, {"t": "a\\ud800b"}]}', '{"k": "\\udc00"}'].join(
        '\n',
      ),
    );
    const skipped = await readAll(file, { onError: 'skip' });
    expect(skipped.records).toEqual(['1:😀']);
    expect(skipped.rejects.map((r) => [r.line, r.field, r.reason])).toEqual([
      [2, 'more[1].t', 'contains a lone surrogate (\\ud800–\\udfff without its pair), which is not text'],
      [3, 'k', 'contains a lone surrogate (\\ud800–\\udfff without its pair), which is not text'],
    ]);
    // An escaped backslash before "ud800" is text, not an escape.
    const literal = fresh('literal.jsonl');
    writeFileSync(literal, '{"k": "\\\\ud800"}\n');
    expect((await readAll(literal)).records).toEqual(['1:\\ud800']);
  });

  it('keep a lone surrogate out of the graph store (the JSONL importer)', async () => {
    const edges = fresh('edges.jsonl');
    writeFileSync(
      edges,
      '{"head": "PersonX buy a phone", "tail": "PersonX call \\ud800", "relations": {"Result": 1}}\n' +
        '{"head": "PersonX buy a phone", "tail": "PersonX smile", "relations": {"Result": 1}}\n',
    );
    const to = fresh('g.sqlite');
    await expect(importGraph({ to, jsonl: [edges] })).rejects.toThrow(
      `${edges}:1 (field "tail"): contains a lone surrogate`,
    );
    const skipped = fresh('g2.sqlite');
    const result = await importGraph({ to: skipped, jsonl: [edges], onError: 'skip' });
    expect(result.rejects?.count).toBe(1);
    const store = await openGraphStore(skipped);
    expect(await store.counts()).toMatchObject({ nodes: 2, edges: 1 });
    await store.close();
  });
});

describe('the JSONL readers: size limits', () => {
  it('default to 16 MiB a line and 65,536 characters a text', () => {
    expect(DEFAULT_MAX_LINE_BYTES).toBe(16 * 1024 * 1024);
    expect(DEFAULT_MAX_TEXT_LENGTH).toBe(65_536);
  });

  it('reject a line over maxLineBytes, naming the limit; skipped, it is not held whole and the next line is read', async () => {
    const file = fresh('long-line.jsonl');
    const long = `{"k": "${'x'.repeat(100)}"}`;
    writeFileSync(file, `{"k": "a"}\n${long}\n{"k": "b"}`);
    for (const chunkBytes of [1, 7, 50, 1 << 20]) {
      const failed = await readAll(file, { chunkBytes, maxLineBytes: 20 });
      expect(failed.records).toEqual(['1:a']);
      expect(failed.error).toBeInstanceOf(InputLimitError);
      expect((failed.error as InputLimitError).limit).toBe('maxLineBytes');
      expect(failed.error?.message).toBe(`${file}:2: a line of 109 bytes, more than the limit of 20 (maxLineBytes)`);
      const skipped = await readAll(file, { chunkBytes, maxLineBytes: 20, onError: 'skip' });
      expect(skipped.records).toEqual(['1:a', '3:b']);
      expect(skipped.rejects.map((r) => [r.line, r.reason])).toEqual([
        [2, 'a line of 109 bytes, more than the limit of 20 (maxLineBytes)'],
      ]);
      expect(skipped.rejects[0]!.input).toBe(`${long}… (109 bytes)`);
    }
  });

  it('skip a 20 MB line at the default limit, keeping 1,000 characters of it for the rejects', async () => {
    const file = fresh('huge.jsonl');
    const huge = Buffer.alloc(20 * 1024 * 1024, 'y');
    writeFileSync(file, Buffer.concat([Buffer.from('{"k": "a"}\n{"k": "'), huge, Buffer.from('"}\n{"k": "b"}\n')]));
    const skipped = await readAll(file, { onError: 'skip' });
    expect(skipped.records).toEqual(['1:a', '3:b']);
    expect(skipped.rejects).toHaveLength(1);
    expect(skipped.rejects[0]!.reason).toBe(
      `a line of ${huge.length + 9} bytes, more than the limit of ${DEFAULT_MAX_LINE_BYTES} (maxLineBytes)`,
    );
    expect(skipped.rejects[0]!.input.length).toBeLessThan(1100);
  });

  it('reject a text over maxTextLength, naming its field; both readers', async () => {
    const file = fresh('long-text.jsonl');
    writeFileSync(file, '{"k": "a", "a": {"b": ["short", "twelve chars"]}}\n{"k": "0123456789"}\n');
    const skipped = await readAll(file, { maxTextLength: 10, onError: 'skip' });
    expect(skipped.records).toEqual(['2:0123456789']);
    expect(skipped.rejects.map((r) => [r.line, r.field, r.reason])).toEqual([
      [1, 'a.b[1]', 'a text of 12 characters, more than the limit of 10 (maxTextLength)'],
    ]);
    await expect(
      (async () => {
        for await (const _ of readJsonl(file, parseK, { maxTextLength: 10 })) void _;
      })(),
    ).rejects.toThrow(`${file}:1 (field "a.b[1]"): a text of 12 characters, more than the limit of 10 (maxTextLength)`);
    await expect(readJsonlBatches(file, parseK, { maxTextLength: 0 }).next()).rejects.toThrow(
      'maxTextLength must be a positive integer, got 0',
    );
  });

  it('apply the text limit to the node texts of an ASER dump', async () => {
    const src = fresh('aser.db');
    const db = new Database(src);
    db.exec('CREATE TABLE Eventualities (_id TEXT PRIMARY KEY, words TEXT)');
    db.exec(
      `CREATE TABLE Relations (_id TEXT PRIMARY KEY, hid TEXT, tid TEXT, ${RELATION_SENSES.map((s) => `${s} REAL`).join(', ')})`,
    );
    const ev = db.prepare('INSERT INTO Eventualities (_id, words) VALUES (?, ?)');
    ev.run('e1', 'PersonX buy a phone');
    ev.run('e2', `PersonX say ${'blah '.repeat(20)}`);
    ev.run('e3', 'it rain');
    const rel = db.prepare('INSERT INTO Relations (_id, hid, tid, Result) VALUES (?, ?, ?, 1)');
    rel.run('r1', 'e1', 'e2');
    rel.run('r2', 'e1', 'e3');
    db.close();
    await expect(
      importGraph({ to: fresh('g.sqlite'), aserSqlite: src, limits: { maxTextLength: 50 } }),
    ).rejects.toThrow(
      `${src}:2 (field "Eventualities.words"): eventuality _id "e2": a text of 112 characters, more than the limit of 50 (maxTextLength)`,
    );
    const to = fresh('g.sqlite');
    const result = await importGraph({ to, aserSqlite: src, onError: 'skip', limits: { maxTextLength: 50 } });
    // The eventuality and the relation that would have brought it in anyway.
    expect(result.rejects?.count).toBe(2);
    const store = await openGraphStore(to);
    expect(await store.counts()).toMatchObject({ nodes: 2, edges: 1 });
    await store.close();
  });

  it('are options of every command that reads JSONL (--max-text-length), and the error says how to raise them', async () => {
    const catalog = fresh('catalog.jsonl');
    writeFileSync(
      catalog,
      '{"id": "p1", "title": "Phone Case"}\n{"id": "p2", "title": "A very long title of forty-odd characters"}\n',
    );
    const failed = await run(
      process.execPath,
      [
        CLI,
        'catalog',
        'index',
        '--products',
        catalog,
        '--out',
        fresh('cat'),
        '--encoder',
        'offline-hashing-v1',
        '--max-text-length',
        '20',
      ],
      { cwd: ROOT, env: { ...process.env, INTENTSIM_QUIET: '1' } },
    ).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(
      `intentsim: ${catalog}:2 (field "title"): a text of 41 characters, more than the limit of 20 (maxTextLength)\n` +
        '  If such texts are meant to be there, raise the limit with --max-text-length N.\n',
    );
  });
});

/** JSON.parse's own message for `text`. */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  return '';
}
