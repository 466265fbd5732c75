// End to end: a generated graph and catalogue through `runPipeline` on the MiniLM-L6-shaped model
// (random weights: the items' similarities mean nothing, the times are real), reporting wall time per
// stage and where it goes, then a second run over the same node cache (what a resumed run costs).
// Sizes: --quick 20k nodes / 40k edges / 500 products; default 200k / 400k / 5,000; --large the
// issue's 1M / 2M / 100,000 (long).
//
// Run: npx tsc -p . && node dist/bench/pipeline.js [--quick|--large]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFileAtomic } from '../engine/io/atomic.js';
import { Rng } from '../engine/rng.js';
import { runPipeline, type PipelineManifest } from '../engine/pipeline.js';
import { makeBenchModel } from '../embeddings/model-generator.js';
import { sharedEventualitiesFile, sharedMiniLmTokenizerDir } from '../embeddings/shared-files.js';
import { writeScaleGraph } from '../graph/generate-scale.js';
import type { BenchOptions, BenchResult, BenchRow } from './types.js';

/** Co-buy assertions between products that share a concept word, in the FolkScope form. */
function writeAssertions(conceptsFile: string, out: string, seed: number): number {
  const rng = Rng.derive(seed, 'bench-assertions');
  const products = readFileSync(conceptsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; phrases: string[] });
  const byNoun = new Map<string, string[]>();
  for (const p of products) {
    const noun = p.phrases[p.phrases.length - 1]!;
    if (!byNoun.has(noun)) byNoun.set(noun, []);
    byNoun.get(noun)!.push(p.id);
  }
  const reasons = ['they are both used for {n}', 'he wanted a complete {n} set', 'they both are a type of {n}', 'she needed a spare {n}'];
  const lines: string[] = [];
  products.forEach((p, i) => {
    const noun = p.phrases[p.phrases.length - 1]!;
    const peers = byNoun.get(noun)!;
    const other = peers.length > 1 ? peers[rng.int(peers.length)]! : products[rng.int(products.length)]!.id;
    if (other === p.id) return;
    const reason = reasons[rng.int(reasons.length)]!.replace('{n}', noun);
    lines.push(
      JSON.stringify({
        id: `BA_${i + 1}`,
        item_a_id: p.id,
        item_b_id: other,
        relation: 'other',
        assertion: `PersonX bought a product of Item A and a product of Item B because ${reason}.`,
        typicality: 0.5 + rng.int(6) / 10,
      }),
    );
  });
  writeFileSync(out, lines.join('\n') + '\n');
  return lines.length;
}

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const seed = opts.seed ?? 1;
  const size = opts.quick
    ? { nodes: 20_000, edges: 40_000, products: 500 }
    : opts.large
      ? { nodes: 1_000_000, edges: 2_000_000, products: 100_000 }
      : { nodes: 200_000, edges: 400_000, products: 5_000 };
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-pipeline-'));
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const scaling: NonNullable<BenchResult['scaling']> = [];
  try {
    let t = performance.now();
    const graph = join(dir, 'graph.sqlite');
    const textSource = sharedEventualitiesFile();
    await writeScaleGraph(graph, { ...size, seed, textSource, progress: false });
    const generateSeconds = (performance.now() - t) / 1000;
    const assertions = writeAssertions(join(dir, 'graph.concepts.jsonl'), join(dir, 'assertions.jsonl'), seed);
    const modelDir = join(dir, 'model');
    await makeBenchModel(modelDir, { seed, precisions: ['q8'], tokenizerFrom: sharedMiniLmTokenizerDir() });
    notes.push(
      `graph: intentsim graph generate --nodes ${size.nodes} --edges ${size.edges} --products ${size.products} --seed ${seed}` +
        `${textSource ? ' --text-source ../shared/data/aser-style/eventualities.txt' : ''} (${generateSeconds.toFixed(1)} s); ${assertions} generated co-buy assertions`,
    );
    notes.push(`model: make-bench (MiniLM-L6 shape, random weights, q8), main thread × ${availableParallelism()} ORT threads; induced mode; seed ${seed}`);

    const once = async (name: string): Promise<PipelineManifest> =>
      runPipeline({
        graph,
        products: join(dir, 'graph.products.jsonl'),
        assertions: join(dir, 'assertions.jsonl'),
        concepts: join(dir, 'graph.concepts.jsonl'),
        out: join(dir, name),
        mode: 'induced',
        encoder: { modelDir, dtype: 'q8', offline: true, device: 'cpu' },
        workers: 0,
        cacheDir: join(dir, 'cache'),
        items: { seed },
        onError: 'fail',
      });
    const first = await once('run1');
    const second = await once('run2');
    const stages = ['embed.openEncoderMs', 'embed.matchMs', 'embed.nodesMs', 'embed.writeMs', 'loadInputs', 'index', 'items', 'total'];
    for (const stage of stages) {
      const a = first.timings[stage] ?? 0;
      const b = second.timings[stage] ?? 0;
      rows.push({
        case: `stage ${stage.replace(/^embed\./, 'embed: ').replace(/Ms$/, '')}`,
        first_run_s: Math.round(a) / 1000,
        share_of_first_run: first.timings.total ? `${((100 * a) / first.timings.total).toFixed(1)}%` : '',
        rerun_from_cache_s: Math.round(b) / 1000,
      });
    }
    rows.push({
      case: 'sentences embedded vs the released pipeline (same products)',
      engine: first.sentences.embeddedByEngine,
      released_pipeline: first.sentences.releasedPipelineWouldEmbed,
      ratio: Math.round((first.sentences.releasedPipelineWouldEmbed / Math.max(1, first.sentences.embeddedByEngine)) * 10) / 10,
    });
    rows.push({
      case: 'products/s end to end (first run; rerun from the node cache)',
      first_run: Math.round(size.products / (first.timings.total! / 1000)),
      rerun: Math.round(size.products / (second.timings.total! / 1000)),
      ratio: Math.round((first.timings.total! / second.timings.total!) * 10) / 10,
    });
    notes.push(
      `items: Task 1 ${first.counts.task1Items}, Task 2 ${first.counts.task2Items} (random-weight cosines rarely fall in the paper's windows; the item stage's cost is still the real one)`,
    );
    scaling.push({ series: 'pipeline end to end (products)', size: size.products, seconds: first.timings.total! / 1000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const result: BenchResult = { name: `Pipeline end to end (${size.nodes} nodes, ${size.edges} edges, ${size.products} products)`, rows, notes, scaling };
  await writeFileAtomic(join('bench', 'results', 'pipeline.json'), JSON.stringify(result, null, 2) + '\n');
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await run({ quick: process.argv.includes('--quick'), large: process.argv.includes('--large') });
  console.table(result.rows);
  for (const n of result.notes) console.log(`- ${n}`);
}
