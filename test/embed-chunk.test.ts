// The per-chunk step of `intentsim embed` without I/O: matched products + node embeddings → rows,
// ids, phrase lines, unembedded lines and counts, on values small enough to check by hand.
import { describe, expect, it } from 'vitest';
import { PendingChunk, chunkOutputs } from '../engine/pipeline/embed-chunk.js';
import { EmbedSummary } from '../engine/pipeline/embed-summary.js';
import type { NodeEmbedding } from '../embeddings/node-cache.js';
import type { ProductMatch } from '../engine/products/match.js';
import { HashingSentenceEncoder } from '../embeddings/hashing-encoder.js';

// dim 2. Node 1 → (1, 0) from 2 sentences, node 2 → (0, 1) from 3, node 3 has no context sentence.
const nodeEmbeddings = new Map<number, NodeEmbedding>([
  [1, { sentences: 2, vector: Float32Array.of(1, 0) }],
  [2, { sentences: 3, vector: Float32Array.of(0, 1) }],
  [3, { sentences: 0, vector: null }],
]);

const products = [
  // one phrase over nodes 1 and 2: (0.5, 0.5)
  { id: 'p1', phrases: [{ phrase: 'a', nodes: [1, 2] }] },
  // phrase b = node 1 = (1, 0); phrase c has only node 3 (no vector) and does not count
  {
    id: 'p2',
    phrases: [
      { phrase: 'b', nodes: [1] },
      { phrase: 'c', nodes: [3] },
    ],
  },
  { id: 'p3', phrases: [] },
  { id: 'p4', phrases: [{ phrase: 'd', nodes: [] }] },
  { id: 'p5', phrases: [{ phrase: 'e', nodes: [3] }] },
  // mean of phrase means, not of nodes: f = (0, 1), g = (0.5, 0.5) → (0.25, 0.75)
  {
    id: 'p6',
    phrases: [
      { phrase: 'f', nodes: [2] },
      { phrase: 'g', nodes: [1, 2] },
    ],
  },
];

describe('chunkOutputs', () => {
  it('gives the rows, ids, phrase and unembedded lines and counts of a chunk', () => {
    const out = chunkOutputs(products, nodeEmbeddings, 2);
    expect(Array.from(out.rows)).toEqual([0.5, 0.5, 1, 0, 0.25, 0.75]);
    expect(out.ids).toBe('p1\np2\np6\n');
    expect(out.embedded).toBe(3);
    expect(out.phraseLines).toBe(
      [
        '{"id":"p1","phrases":["a"]}',
        '{"id":"p2","phrases":["b","c"]}',
        '{"id":"p3","phrases":[]}',
        '{"id":"p4","phrases":["d"]}',
        '{"id":"p5","phrases":["e"]}',
        '{"id":"p6","phrases":["f","g"]}',
      ].join('\n') + '\n',
    );
    expect(out.unembeddedLines).toBe(
      [
        '{"id":"p3","reason":"no-phrases","phrases":[]}',
        '{"id":"p4","reason":"no-matched-nodes","phrases":["d"]}',
        '{"id":"p5","reason":"no-context-sentences","phrases":["e"]}',
      ].join('\n') + '\n',
    );
    expect(out.unembedded).toEqual({ 'no-phrases': 1, 'no-matched-nodes': 1, 'no-context-sentences': 1 });
    // Every (product, phrase, node) match costs the node's sentences: 5 + 2 + 0 + 0 + 0 + (3 + 2 + 3).
    expect(out.releasedPipelineSentences).toBe(15);
  });

  it('an empty chunk adds nothing', () => {
    const out = chunkOutputs([], nodeEmbeddings, 2);
    expect([out.rows.length, out.ids, out.phraseLines, out.unembeddedLines, out.embedded]).toEqual([0, '', '', '', 0]);
  });
});

describe('PendingChunk and EmbedSummary', () => {
  const match = (id: string, phrases: Array<[string, number[]]>): ProductMatch => ({
    id,
    title: id,
    concepts: 'user-file',
    phrases: phrases.map(([phrase, nodes]) => ({ phrase, nodes: nodes.map((n) => ({ id: n, text: `node ${n}` })) })),
  });

  it('collects products and their distinct nodes, and counts phrases and node references', () => {
    const chunk = new PendingChunk();
    const summary = new EmbedSummary();
    for (const m of [
      match('p1', [['a', [2, 1]]]),
      match('p2', [
        ['b', [1]],
        ['c', []],
      ]),
    ]) {
      chunk.add(m);
      summary.addProduct(m);
    }
    expect(chunk.size).toBe(2);
    expect(chunk.products).toEqual([
      { id: 'p1', phrases: [{ phrase: 'a', nodes: [2, 1] }] },
      {
        id: 'p2',
        phrases: [
          { phrase: 'b', nodes: [1] },
          { phrase: 'c', nodes: [] },
        ],
      },
    ]);
    expect([...chunk.nodes.values()]).toEqual([
      { id: 2, text: 'node 2' },
      { id: 1, text: 'node 1' },
    ]);
    summary.addChunk(chunkOutputs(chunk.products, nodeEmbeddings, 2));
    const m = summary.manifest({
      rejected: 1,
      rows: 2,
      dim: 2,
      encoder: new HashingSentenceEncoder(2).describe(),
      mode: 'induced',
      graph: { spec: 'g', kind: 'sqlite', nodes: 3, edges: 0 },
      inputs: { products: 'p', concepts: null, conceptualizer: 'user-file' },
      distinctMatchedNodes: 2,
      context: {
        nodes: 2,
        fromCache: 0,
        computed: 2,
        withoutSentences: 0,
        missingFromGraph: 0,
        streamedHubs: 0,
        cappedHubs: 0,
        edges: 3,
        sentenceOccurrences: 5,
        sentencesEncoded: 5,
        sentencesWithoutVector: 0,
        workChunks: 1,
        encodeMs: 0.4,
      },
      nodeCache: null,
      totalMs: 1,
      openEncoderMs: 0,
    });
    expect(m.counts).toMatchObject({
      products: 3, // 2 accepted + 1 rejected
      rejected: 1,
      embedded: 2,
      unembedded: { 'no-phrases': 0, 'no-matched-nodes': 0, 'no-context-sentences': 0 },
      phrases: 3,
      matchedNodeReferences: 3,
      releasedPipelineSentences: 7, // p1: 3 + 2; p2: 2
    });
    expect(m.counts.context.encodeMs).toBe(0);
    chunk.clear();
    expect([chunk.size, chunk.nodes.size]).toEqual([0, 0]);
  });
});
