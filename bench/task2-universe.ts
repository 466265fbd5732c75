// Which products Task-2 distractors should come from (--task2-universe): the products of the kept
// assertions (the released code, which embedded no other) or every product with a vector (catalog).
// The paper does not say, so the default is chosen by the quality of the items each gives, measured
// here on two worlds, for both anchors:
//   - the demo world (`intentsim demo`'s 382 products and 495 assertions), embedded by the pipeline
//     with the offline stand-in encoder (the Sentence-BERT weights are not on this machine: its
//     cosines count shared words, so they say little about meaning);
//   - a generated world (bench/support/intentionqa-world.ts): 20,000 products in 200 clusters, 10,000
//     assertions, 64-d clustered vectors; about half the products are in no kept assertion.
// Per configuration, over the Task-2 items: items and drops; window occupancy (eligible members per
// window); distractors from products of no kept assertion; distractors that are "near-duplicates"
// of the gold (the same category phrases as p_B: another product of the answer's kind, which a
// reader may well take for a right answer); distractors that are a known co-purchase of p_A (the
// other product of some input assertion with p_A: a right answer to another item); the concept
// overlap of distractor and gold; the spread of distractor scores; the difficulty of the items.
//
//   npx tsc -p . && node dist/bench/task2-universe.js [--quick] [--seed N]
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDemo } from '../engine/demo/demo-world.js';
import { readAssertions, type Assertion } from '../engine/items/intentionqa/assertions.js';
import { IntentionQaRun } from '../engine/items/intentionqa/build-items.js';
import { passesTypicality } from '../engine/items/intentionqa/assertion-filter.js';
import {
  DEFAULT_INTENTIONQA_OPTIONS,
  type Anchor,
  type Task2Universe,
} from '../engine/items/intentionqa/intentionqa-options.js';
import type { Task2Item } from '../engine/items/intentionqa/item-types.js';
import { readEmbeddings, runPipeline } from '../engine/pipeline/run-pipeline.js';
import { withEncoder } from '../workers/open-encoder.js';
import { LOCAL_EXECUTION } from '../workers/encoder-spec.js';
import { readProducts } from '../engine/products/products.js';
import { UnitVectors } from '../engine/search/unit-vectors.js';
import type { VectorSet } from '../embeddings/sentence-encoder.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { intentionQaWorld } from './support/intentionqa-world.js';
import { runAlone } from './support/run-alone.js';

interface MeasuredWorld {
  name: string;
  products: Map<string, string>;
  assertions: Assertion[];
  embeddings: VectorSet | UnitVectors;
  phrases: Map<string, readonly string[]>;
}

async function demoWorld(seed: number): Promise<MeasuredWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'intentsim-task2-universe-'));
  try {
    const world = join(dir, 'world');
    await writeDemo(world, { seed });
    await withEncoder({ encoder: 'offline-hashing-v1', warn: () => {} }, LOCAL_EXECUTION, (encoder) =>
      runPipeline({
        embed: {
          graph: join(world, 'graph.sqlite'),
          products: join(world, 'products.jsonl'),
          concepts: join(world, 'concepts.jsonl'),
          mode: 'induced',
          encoder,
        },
        assertions: join(world, 'assertions.jsonl'),
        items: { seed, tasks: [2] },
        out: join(dir, 'run'),
        onError: 'fail',
      }),
    );
    const products = new Map<string, string>();
    for await (const p of readProducts(join(world, 'products.jsonl'))) products.set(p.id, p.title);
    const assertions: Assertion[] = [];
    for await (const a of readAssertions(join(world, 'assertions.jsonl'))) assertions.push(a);
    const phrases = new Map<string, readonly string[]>();
    const lines = (await readFile(join(dir, 'run', 'embeddings', 'phrases.jsonl'), 'utf8')).split('\n');
    for (const line of lines.filter(Boolean)) {
      const { id, phrases: list } = JSON.parse(line) as { id: string; phrases: string[] };
      phrases.set(id, list);
    }
    const embeddings = await readEmbeddings(join(dir, 'run', 'embeddings'));
    return { name: `demo world (seed ${seed}, stand-in encoder)`, products, assertions, embeddings, phrases };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function generatedWorld(seed: number, quick: boolean): MeasuredWorld {
  const products = quick ? 4_000 : 20_000;
  const assertions = quick ? 2_000 : 10_000;
  const w = intentionQaWorld({ products, assertions, dim: 64, clusters: products / 100, seed });
  return { name: `generated world (${products} products, ${assertions} assertions)`, ...w };
}

const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`);

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function measure(world: MeasuredWorld, anchor: Anchor, universe: Task2Universe, seed: number): Promise<BenchRow> {
  const run = await IntentionQaRun.prepare({
    ...world,
    options: { seed, anchor, task2Universe: universe, tasks: [2] },
  });
  const o = run.options;
  // Independent of the engine's own universe: the products of the assertions the filters keep.
  const kept = new Set<string>();
  for (const a of world.assertions) {
    if (passesTypicality(a.typicality, o) && !o.excludeRelations.includes(a.relation)) kept.add(a.itemA).add(a.itemB);
  }
  const partners = new Map<string, Set<string>>();
  for (const a of world.assertions) {
    for (const [x, y] of [
      [a.itemA, a.itemB],
      [a.itemB, a.itemA],
    ] as const) {
      let set = partners.get(x);
      if (!set) partners.set(x, (set = new Set()));
      set.add(y);
    }
  }
  const category = (id: string) => [...(world.phrases.get(id) ?? [])].sort().join('|');
  const words = (id: string) => new Set((world.phrases.get(id) ?? []).flatMap((p) => p.split(' ')));
  const vectors = run.context.vectors;
  let items = 0;
  let dropped = 0;
  let distractors = 0;
  let outsideKept = 0;
  let sameCategoryAsGold = 0;
  let coPurchaseOfA = 0;
  let overlapWithGold = 0;
  let cosToGold = 0;
  const members: number[] = [];
  const scores: number[] = [];
  const difficulty = { easy: 0, medium: 0, hard: 0 };
  for await (const r of run.records()) {
    if (r.kind === 'dropped') {
      if (r.dropped.task === 2) {
        dropped += 1;
        if (r.dropped.members !== undefined && r.dropped.members !== null) members.push(r.dropped.members);
      }
      continue;
    }
    const item = r.item as Task2Item;
    items += 1;
    difficulty[item.difficulty] += 1;
    if (item.selection.members !== null) members.push(item.selection.members);
    const goldWords = words(item.item_b_id);
    for (const [k, id] of item.distractors_id.entries()) {
      distractors += 1;
      scores.push(item.distractors_score[k]!);
      if (!kept.has(id)) outsideKept += 1;
      if (category(id) === category(item.item_b_id)) sameCategoryAsGold += 1;
      if (partners.get(item.item_a_id)?.has(id)) coPurchaseOfA += 1;
      if ([...words(id)].some((w) => goldWords.has(w))) overlapWithGold += 1;
      cosToGold += vectors.cosine(vectors.row(id)!, vectors.row(item.item_b_id)!);
    }
  }
  members.sort((a, b) => a - b);
  scores.sort((a, b) => a - b);
  const mean = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
  const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, scores.length));
  return {
    world: world.name,
    anchor,
    universe,
    'Task-2 items': items,
    'dropped (window)': dropped,
    'window members median (p10–p90)': `${quantile(members, 0.5)} (${quantile(members, 0.1)}–${quantile(members, 0.9)})`,
    'distractors from no kept assertion': percent(outsideKept, distractors),
    'same category as the gold': percent(sameCategoryAsGold, distractors),
    'co-purchase of p_A': percent(coPurchaseOfA, distractors),
    'concept overlap with the gold': percent(overlapWithGold, distractors),
    'mean cos to the gold': (cosToGold / Math.max(1, distractors)).toFixed(3),
    'distractor score mean ± sd': `${mean.toFixed(3)} ± ${sd.toFixed(3)}`,
    'difficulty easy / medium / hard': `${difficulty.easy} / ${difficulty.medium} / ${difficulty.hard}`,
  };
}

export async function run(options: BenchOptions): Promise<BenchResult> {
  const seed = options.seed ?? 1;
  const worlds = [await demoWorld(seed), generatedWorld(seed, options.quick)];
  const rows: BenchRow[] = [];
  for (const world of worlds)
    for (const anchor of ['answer', 'given'] as const)
      for (const universe of ['assertions', 'catalog'] as const)
        rows.push(await measure(world, anchor, universe, seed));
  return {
    name: 'task2-universe',
    rows,
    notes: [
      `Seed ${seed}; the other options at their defaults (typicality ${DEFAULT_INTENTIONQA_OPTIONS.typicalityComparison} ${DEFAULT_INTENTIONQA_OPTIONS.typicalityThreshold}, concept overlap with p_A required).`,
      'Same category as the gold: the distractor has exactly the category phrases of p_B. Co-purchase of p_A: some input assertion pairs the distractor with p_A.',
      'The demo world is embedded with the offline stand-in encoder (word-overlap cosines); the generated world has clustered random vectors: neither says how Sentence-BERT would rank real titles.',
    ],
  };
}

await runAlone(import.meta.url, 'task2-universe', run);
