// Context-embedding work on a generated graph with a realistic product catalogue
// (`intentsim graph generate … --products N`: power-law degrees, ASER-like sense frequencies, node
// texts from ../shared's real ASER eventualities when present):
//   1. sentences the engine encodes (each distinct node once, each distinct sentence once per chunk
//      of work) vs sentences the released pipeline's algorithm encodes (it rebuilt and re-embedded a
//      node's neighbourhood for every product and phrase that matched it) — both counts and the
//      ratio, for the induced and the incident neighbourhood; counts do not depend on the model, so
//      they are taken with the offline hashing stand-in;
//   2. wall time of the node step with the MiniLM-L6-shaped q8 model (random weights) for the engine,
//      and the released algorithm's time estimated from the same measured sentence rate;
//   3. a second run against the node cache: nodes recomputed (must be 0) and its time.
//
// Run: npx tsc -p . && node dist/bench/context.js [--quick]
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFileAtomic } from '../engine/io/atomic.js';
import { writeScaleGraph } from '../graph/generate-scale.js';
import { SqliteGraphStore } from '../graph/sqlite-store.js';
import { UserConcepts } from '../graph/concepts.js';
import { matchProducts } from '../graph/match.js';
import { readProducts } from '../graph/products.js';
import type { NeighbourhoodMode, NodeId } from '../graph/types.js';
import { ContextEmbedder, type ContextNode } from '../embeddings/context.js';
import { HashingSentenceEncoder } from '../embeddings/hashing-encoder.js';
import { makeBenchModel } from '../embeddings/model-generator.js';
import { NodeEmbeddingCache } from '../embeddings/node-cache.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { releasedPipelineSentenceCount, type ProductPhraseNodes } from '../embeddings/product-embedding.js';
import { sharedEventualitiesFile, sharedMiniLmTokenizerDir } from '../embeddings/shared-files.js';
import type { BenchOptions, BenchResult, BenchRow } from './types.js';

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const seed = opts.seed ?? 1;
  const [nodes, edges, productCount] = opts.quick ? [20_000, 60_000, 2_000] : opts.large ? [1_000_000, 3_000_000, 100_000] : [200_000, 600_000, 20_000];
  // The timed model run embeds the nodes of the first `timedProducts` products only (minutes otherwise).
  const timedProducts = opts.quick ? 30 : opts.large ? 5000 : 1000;
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-ctx-'));
  try {
    const graphPath = join(dir, 'graph.sqlite');
    const textSource = sharedEventualitiesFile();
    let t = performance.now();
    const g = await writeScaleGraph(graphPath, { nodes, edges, seed, products: productCount, textSource, progress: false });
    notes.push(
      `graph: intentsim graph generate --nodes ${nodes} --edges ${edges} --products ${productCount} --seed ${seed}` +
        `${textSource ? ' --text-source eventualities.txt (real ASER texts)' : ''} (${g.purchaseNodes} purchase nodes; ${((performance.now() - t) / 1000).toFixed(1)} s)`,
    );
    const store = SqliteGraphStore.open(graphPath, { mode: 'read' });
    try {
      const conceptualizer = await UserConcepts.load(g.conceptsOut!);
      const products: ProductPhraseNodes[] = [];
      const matched = new Map<NodeId, ContextNode>();
      for await (const o of matchProducts(store, readProducts(g.productsOut!), conceptualizer)) {
        if (!o.ok) throw o.error;
        products.push({ id: o.match.id, phrases: o.match.phrases.map((p) => ({ phrase: p.phrase, nodes: p.nodes.map((n) => n.id) })) });
        for (const p of o.match.phrases) for (const n of p.nodes) matched.set(n.id, { id: n.id, text: n.text });
      }
      const references = products.reduce((a, p) => a + p.phrases.reduce((b, ph) => b + ph.nodes.length, 0), 0);
      notes.push(`catalogue: ${products.length} products, ${references} (product, phrase, node) matches, ${matched.size} distinct matched nodes`);

      for (const mode of ['induced', 'incident'] as NeighbourhoodMode[]) {
        t = performance.now();
        const embedder = new ContextEmbedder(store, new HashingSentenceEncoder(), { mode });
        const nodeEmbeddings = await embedder.embedNodes([...matched.values()]);
        const released = releasedPipelineSentenceCount(products, nodeEmbeddings);
        const s = embedder.stats;
        rows.push({
          case: `sentences encoded, ${mode} neighbourhoods: engine vs released pipeline`,
          engine: s.sentencesEncoded,
          baseline: released,
          ratio: round(released / Math.max(1, s.sentencesEncoded)),
          detail: `Σ|S(v)| over distinct nodes ${s.sentenceOccurrences}; ${s.withoutSentences} nodes with nothing to embed; ${s.streamedHubs} hubs streamed`,
        });
        notes.push(`${mode}: counted in ${((performance.now() - t) / 1000).toFixed(1)} s (stand-in encoder: counts only)`);
      }

      // Timed with the MiniLM-shaped q8 model, on the nodes of the first products.
      const modelDir = join(dir, 'model');
      await makeBenchModel(modelDir, { seed, precisions: ['q8'], tokenizerFrom: sharedMiniLmTokenizerDir() });
      const threads = Math.max(1, availableParallelism());
      const encoder = await OnnxSentenceEncoder.open({ modelDir, dtype: 'q8', device: 'cpu', intraOpThreads: threads });
      const subset = products.slice(0, timedProducts);
      const subsetNodes = new Map<NodeId, ContextNode>();
      for (const p of subset) for (const ph of p.phrases) for (const id of ph.nodes) subsetNodes.set(id, matched.get(id)!);
      const cache = NodeEmbeddingCache.open(join(dir, 'node-embeddings.sqlite'), {
        encoder: encoder.fingerprint, model: encoder.name, dtype: 'q8', mode: 'induced', graph: 'bench', templates: 'bench', dim: encoder.dim,
      });
      t = performance.now();
      const first = new ContextEmbedder(store, encoder, { mode: 'induced', cache });
      const subsetEmbeddings = await first.embedNodes([...subsetNodes.values()]);
      const engineSeconds = (performance.now() - t) / 1000;
      const sentenceRate = first.stats.sentencesEncoded / (first.stats.encodeMs / 1000);
      const releasedSubset = releasedPipelineSentenceCount(subset, subsetEmbeddings);
      rows.push({
        case: `node step with the MiniLM-shaped q8 model (${subset.length} products, induced): engine seconds vs released-algorithm estimate`,
        engine: round(engineSeconds),
        baseline: round(releasedSubset / sentenceRate),
        ratio: round(releasedSubset / sentenceRate / engineSeconds),
        detail: `${first.stats.sentencesEncoded} vs ${releasedSubset} sentences at the measured ${Math.round(sentenceRate)} sentences/s (${threads} threads, CPU)`,
      });

      t = performance.now();
      const second = new ContextEmbedder(store, encoder, { mode: 'induced', cache });
      await second.embedNodes([...subsetNodes.values()]);
      const cachedSeconds = (performance.now() - t) / 1000;
      rows.push({
        case: 'second run over the same nodes: node cache vs first run (seconds)',
        engine: round(cachedSeconds, 3),
        baseline: round(engineSeconds),
        ratio: round(engineSeconds / Math.max(cachedSeconds, 1e-6), 1),
        detail: `nodes recomputed: ${second.stats.computed} (from cache: ${second.stats.fromCache})`,
      });
      cache.close();
      await encoder.close();
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  notes.push('ratio = baseline / engine (how many times less work or time the engine needs); random-weight model: timings only');
  notes.push(`Node ${process.version}`);
  return { name: 'Context embeddings: deduplicated work vs the released pipeline', rows, notes };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const large = process.argv.includes('--large');
  const result = await run({ quick, large });
  console.table(result.rows);
  for (const n of result.notes) console.log(`- ${n}`);
  await writeFileAtomic(join(process.cwd(), 'bench', 'results', 'context.json'), JSON.stringify(result, null, 2) + '\n');
}
