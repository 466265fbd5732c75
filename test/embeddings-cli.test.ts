// The commands end to end: `model make-test`, `encode`, `embed` (outputs, manifest, cache reuse,
// byte-identical reruns, rejects) on a small hand-made graph, with the generated tiny model.
import { describe, expect, it, beforeAll, vi } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram, formatFailure } from '../cli/main.js';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-store.js';
import { readNpyFloat32 } from '../core/npy.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import type { EmbedManifest } from '../engine/pipeline/run-embed.js';

const work = mkdtempSync(join(tmpdir(), 'intentsim-cli-'));
const modelDir = join(work, 'model');
const graph = join(work, 'graph.sqlite');
const cacheDir = join(work, 'cache');

async function cli(...args: string[]): Promise<string> {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  try {
    await (await buildProgram()).exitOverride().parseAsync(['node', 'intentsim', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out.join('');
}

const PHONE = 'PersonX buy a phone';
const CASE = 'PersonX buy the phone case';
const LAMP = 'PersonX buy a lamp';

beforeAll(async () => {
  await cli('model', 'make-test', '--out', modelDir);
  const store = SqliteGraphStore.open(graph, { mode: 'write' });
  await store.upsertNodes([LAMP]);
  await store.upsertEdges([
    { head: PHONE, tail: 'PersonX call PersonY', senses: { Result: 1 } },
    { head: PHONE, tail: 'PersonX be happy', senses: { Precedence: 2 } },
    // Between two neighbours of PHONE: in PHONE's induced neighbourhood.
    { head: 'PersonX call PersonY', tail: 'PersonX be happy', senses: { Conjunction: 1 } },
    // Leaves N(PHONE): not in its induced neighbourhood.
    { head: 'PersonX call PersonY', tail: 'PersonY answer', senses: { Reason: 1 } },
    { head: CASE, tail: 'PersonX protect phone', senses: { Reason: 1 } },
  ]);
  await store.close();
  writeFileSync(
    join(work, 'products.jsonl'),
    [
      { id: 'p1', title: 'Smart Phone' },
      { id: 'p2', title: 'Phone Case' },
      { id: 'p3', title: 'Desk Lamp' },
      { id: 'p4', title: 'Running Shoe' },
    ]
      .map((p) => JSON.stringify(p))
      .join('\n') + '\n',
  );
  writeFileSync(
    join(work, 'concepts.jsonl'),
    [
      { id: 'p1', phrases: ['Phone'] },
      { id: 'p2', phrases: ['phone case', 'phone'] },
      { id: 'p3', phrases: ['lamp'] },
      { id: 'p4', phrases: ['shoe'] },
    ]
      .map((p) => JSON.stringify(p))
      .join('\n') + '\n',
  );
});

const embedArgs = (out: string, ...more: string[]) => [
  'embed',
  '--graph',
  graph,
  '--products',
  join(work, 'products.jsonl'),
  '--concepts',
  join(work, 'concepts.jsonl'),
  '--out',
  out,
  '--model-dir',
  modelDir,
  '--model-cache',
  cacheDir,
  '--node-cache',
  cacheDir,
  '--device',
  'cpu',
  ...more,
];

describe('intentsim embed', () => {
  it('writes embeddings.npy, ids.txt, unembedded.jsonl and a manifest with the right numbers', async () => {
    const out = join(work, 'out1');
    const printed = await cli(...embedArgs(out));
    expect(printed).toContain('products: 4 read, 0 rejected, 2 embedded');
    expect(readFileSync(join(out, 'ids.txt'), 'utf8')).toBe('p1\np2\n');
    const m = await readNpyFloat32(join(out, 'embeddings.npy'));
    expect(m.shape).toEqual([2, 32]);
    const unembedded = readFileSync(join(out, 'unembedded.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; reason: string });
    expect(readFileSync(join(out, 'phrases.jsonl'), 'utf8')).toBe(
      [
        { id: 'p1', phrases: ['phone'] },
        { id: 'p2', phrases: ['phone case', 'phone'] },
        { id: 'p3', phrases: ['lamp'] },
        { id: 'p4', phrases: ['shoe'] },
      ]
        .map((x) => JSON.stringify(x) + '\n')
        .join(''),
    );
    expect(unembedded.map((u) => [u.id, u.reason])).toEqual([
      ['p3', 'no-context-sentences'],
      ['p4', 'no-matched-nodes'],
    ]);

    // p1's CE is the context embedding of its one node: the mean of its three induced sentences
    // (PHONE → call, PHONE → happy, call → happy; call → answer leaves N(PHONE)).
    const encoder = await OnnxSentenceEncoder.open({ modelDir, device: 'cpu' });
    const s = await encoder.encode([
      'If PersonX buy a phone, then PersonX call PersonY.',
      'PersonX buy a phone. Then, PersonX be happy.',
      'PersonX call PersonY and PersonX be happy both happen.',
    ]);
    const expected = Array.from({ length: 32 }, (_, d) => (s[d]! + s[32 + d]! + s[64 + d]!) / 3);
    expect(Math.max(...expected.map((x, d) => Math.abs(x - m.data[d]!)))).toBeLessThan(1e-5);
    await encoder.close();

    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as EmbedManifest;
    expect(manifest.outputs.shape).toEqual([2, 32]);
    expect(manifest.encoder).toMatchObject({ provider: 'cpu', dtype: 'fp32', sentenceBert: true });
    expect(manifest.counts).toMatchObject({
      products: 4,
      embedded: 2,
      unembedded: { 'no-phrases': 0, 'no-matched-nodes': 1, 'no-context-sentences': 1 },
      distinctMatchedNodes: 3,
      // Per (product, phrase, node) the released pipeline re-embeds S(v): p1 3, p2 1 + 3, p3 0.
      releasedPipelineSentences: 7,
    });
    expect(manifest.counts.context).toMatchObject({
      computed: 3,
      fromCache: 0,
      withoutSentences: 1,
      sentencesEncoded: 4,
    });
  });

  it('a second run takes every node from the cache', async () => {
    const out = join(work, 'out2');
    await cli(...embedArgs(out));
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as EmbedManifest;
    expect(manifest.counts.context).toMatchObject({ fromCache: 3, computed: 0, sentencesEncoded: 0 });
    expect(readFileSync(join(out, 'embeddings.npy')).equals(readFileSync(join(work, 'out1', 'embeddings.npy')))).toBe(
      true,
    );
  });

  it('the same inputs give byte-identical outputs without the cache too', async () => {
    await cli(...embedArgs(join(work, 'out3'), '--no-node-cache'));
    await cli(...embedArgs(join(work, 'out4'), '--no-node-cache'));
    for (const f of ['embeddings.npy', 'ids.txt', 'unembedded.jsonl']) {
      expect(readFileSync(join(work, 'out3', f)).equals(readFileSync(join(work, 'out4', f))), f).toBe(true);
    }
    const manifest = JSON.parse(readFileSync(join(work, 'out3', 'manifest.json'), 'utf8')) as EmbedManifest;
    expect(manifest.nodeCache).toBeNull();
  });

  it('products streamed one per chunk give the same bytes and counts as one chunk, with and without the cache', async () => {
    const one = join(work, 'out-chunked');
    await cli(
      ...embedArgs(
        one,
        '--chunk-products',
        '1',
        '--model-cache',
        join(work, 'cache-chunked'),
        '--node-cache',
        join(work, 'cache-chunked'),
      ),
    );
    const uncached = join(work, 'out-chunked-nocache');
    await cli(...embedArgs(uncached, '--chunk-products', '1', '--no-node-cache'));
    for (const out of [one, uncached]) {
      for (const f of ['embeddings.npy', 'ids.txt', 'unembedded.jsonl', 'phrases.jsonl']) {
        expect(readFileSync(join(out, f)).equals(readFileSync(join(work, 'out1', f))), `${out}/${f}`).toBe(true);
      }
      const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as EmbedManifest;
      // p2 meets PHONE again in its own chunk: read back from the cache, not embedded twice.
      expect(manifest.counts).toMatchObject({
        products: 4,
        embedded: 2,
        distinctMatchedNodes: 3,
        releasedPipelineSentences: 7,
      });
      expect(manifest.counts.context).toMatchObject({ nodes: 3, computed: 3, fromCache: 0, sentencesEncoded: 4 });
    }
    // The temporary cache of --no-node-cache is gone; nothing else is left behind.
    expect(readdirSync(uncached).sort()).toEqual([
      'embeddings.npy',
      'ids.txt',
      'manifest.json',
      'phrases.jsonl',
      'unembedded.jsonl',
    ]);
  });

  it('a graph changed without changing its node and edge counts does not reuse the cached nodes', async () => {
    const changed = join(work, 'graph-changed.sqlite');
    copyFileSync(graph, changed);
    const cache = join(work, 'cache-changed');
    const args = (out: string) =>
      embedArgs(out, '--model-cache', cache, '--node-cache', cache).map((a) => (a === graph ? changed : a));
    await cli(...args(join(work, 'out-before')));
    const store = SqliteGraphStore.open(changed, { mode: 'write' });
    const before = await store.counts();
    // The same edge with another sense: same counts, another sentence in PHONE's neighbourhood.
    await store.upsertEdges([{ head: PHONE, tail: 'PersonX call PersonY', senses: { Reason: 1 } }]);
    expect(await store.counts()).toEqual(before);
    await store.close();
    await cli(...args(join(work, 'out-after')));
    const manifest = JSON.parse(readFileSync(join(work, 'out-after', 'manifest.json'), 'utf8')) as EmbedManifest;
    expect(manifest.counts.context).toMatchObject({ fromCache: 0, computed: 3 });
    expect(
      readFileSync(join(work, 'out-after', 'embeddings.npy')).equals(
        readFileSync(join(work, 'out-before', 'embeddings.npy')),
      ),
    ).toBe(false);
  });

  it('--on-error skip writes bad product lines to rejects.jsonl and counts them', async () => {
    const products = join(work, 'products-bad.jsonl');
    writeFileSync(
      products,
      readFileSync(join(work, 'products.jsonl'), 'utf8') + '{"id": "p5"}\n{"id": "p6", "title": "Lamp"}\n',
    );
    const out = join(work, 'out5');
    await expect(cli(...embedArgs(out).map((a) => (a.endsWith('products.jsonl') ? products : a)))).rejects.toThrow(
      /products-bad\.jsonl:5 \(field "title"\): missing/,
    );
    await cli(...embedArgs(out, '--on-error', 'skip').map((a) => (a.endsWith('products.jsonl') ? products : a)));
    const rejects = readFileSync(join(out, 'rejects.jsonl'), 'utf8').trim().split('\n');
    expect(rejects.length).toBe(2); // p5: no title; p6: no concepts in the concepts file
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as EmbedManifest;
    expect(manifest.counts).toMatchObject({ products: 6, rejected: 2, embedded: 2 });
  });

  it('without a model it fails before touching the graph, saying what was tried', async () => {
    const out = join(work, 'out6');
    const args = embedArgs(out).filter((a, i, all) => a !== '--model-dir' && all[i - 1] !== '--model-dir');
    const err = await cli(
      ...args,
      '--offline',
      '--model-cache',
      join(work, 'empty-cache'),
      '--node-cache',
      join(work, 'empty-cache'),
    ).catch((e: unknown) => e);
    expect(String(err)).toMatch(/Tried, in order:[\s\S]*skipped: offline/);
    expect(formatFailure(err)).toContain('intentsim model make-test');
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
  });
});

describe('intentsim model info', () => {
  it('prints the resolved model and the provider that ran, as JSON', async () => {
    const info = JSON.parse(
      await cli('model', 'info', '--model-dir', modelDir, '--device', 'cpu', '--dtype', 'q8'),
    ) as Record<string, unknown>;
    expect(info).toMatchObject({
      provider: 'cpu',
      dtype: 'q8',
      dim: 32,
      source: 'model-dir',
      onnxFile: join(modelDir, 'onnx/model_quantized.onnx'),
    });
  });
});

describe('intentsim encode', () => {
  it('one row per line (a blank line is an empty sentence), unit rows, a manifest beside', async () => {
    const input = join(work, 'sentences.txt');
    writeFileSync(input, 'PersonX buy a phone.\n\nPersonY answer.\n');
    const output = join(work, 'vectors.npy');
    await cli(
      'encode',
      '--in',
      input,
      '--out',
      output,
      '--model-dir',
      modelDir,
      '--device',
      'cpu',
      '--batch-size',
      '2',
    );
    const m = await readNpyFloat32(output);
    expect(m.shape).toEqual([3, 32]);
    for (let r = 0; r < 3; r++) expect(Math.hypot(...m.data.subarray(r * 32, r * 32 + 32))).toBeCloseTo(1, 5);
    const encoder = await OnnxSentenceEncoder.open({ modelDir, device: 'cpu' });
    const direct = await encoder.encode(['PersonX buy a phone.', '', 'PersonY answer.']);
    expect(Math.max(...Array.from(direct, (x, i) => Math.abs(x - m.data[i]!)))).toBeLessThan(1e-6);
    await encoder.close();
    const manifest = JSON.parse(readFileSync(output + '.manifest.json', 'utf8')) as {
      shape: number[];
      encoder: { provider: string };
    };
    expect(manifest.shape).toEqual([3, 32]);
    expect(manifest.encoder.provider).toBe('cpu');
  });

  it('--encoder offline-hashing-v1 announces itself as a stand-in', async () => {
    const input = join(work, 'sentences.txt');
    const output = join(work, 'hash.npy');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await cli('encode', '--in', input, '--out', output, '--encoder', 'offline-hashing-v1');
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toContain('not a Sentence-BERT model');
    } finally {
      stderr.mockRestore();
    }
    expect((await readNpyFloat32(output)).shape).toEqual([3, 384]);
    const manifest = JSON.parse(readFileSync(output + '.manifest.json', 'utf8')) as {
      encoder: { sentenceBert: boolean; encoder: string };
    };
    expect(manifest.encoder).toMatchObject({ sentenceBert: false, encoder: 'offline-hashing-v1' });
  });
});
