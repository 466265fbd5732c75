// `pipeline --product-vectors` (engine/pipeline/run-from-vectors.ts): items from given product
// vectors, a `catalog index` folder or an .npy with its ids. On hand-made vectors: the windows and
// cut points are required (the calibration does not apply), the source is named, bad shapes are
// refused. On the released IntentionQA assertions and products (../shared/data/intentionqa, MIT;
// skipped with a message when absent): title vectors from `catalog index --encoder glove-100d`, items
// deterministic for a seed, the .npy and the index giving the same items, and `items check` flagging
// nothing in them.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNpyMatrix } from '../core/npy.js';
import { projectRoot } from '../core/shared-files.js';
import { checkItems } from '../engine/evaluation/check-items.js';
import { runPipelineFromVectors, type ProductVectorsPipelineOptions } from '../engine/pipeline/run-from-vectors.js';
import { cli } from './support/cli.js';
import { withEncoder } from '../workers/open-encoder.js';
import { LOCAL_EXECUTION } from '../workers/encoder-spec.js';
import type { SentenceEncoder } from '../embeddings/sentence-encoder.js';
import { intentionKey } from '../engine/items/intentionqa/validity-filters.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-vectors-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r) + '\n').join('');
const WINDOWS = {
  task1Window: { lo: 0.3, hi: 0.99 },
  task2Window: { lo: 0.3, hi: 0.99 },
  difficulty: { medium: 0.6, easy: 0.85 },
};

/** Twenty products in two families (cosines across families 0), ten assertions within families. */
async function handInputs(): Promise<Omit<ProductVectorsPipelineOptions, 'out' | 'items'>> {
  const kinds = ['Blue', 'Red', 'Green', 'Tall', 'Big', 'Small', 'Tea', 'Camp', 'Glass', 'Steel'];
  const products = [
    ...kinds.map((k, i) => ({ id: `m${i}`, title: `${k} Mug`, family: 0, i })),
    ...kinds.map((k, i) => ({ id: `s${i}`, title: `${k} Sock`, family: 1, i })),
  ];
  const data = new Float32Array(products.length * 3);
  products.forEach((p, k) => {
    data[k * 3 + p.family] = 1;
    data[k * 3 + 2] = 0.3 * (p.i % 5);
  });
  await writeNpyMatrix(join(dir, 'v.npy'), data, products.length, 3);
  writeFileSync(join(dir, 'ids.txt'), products.map((p) => p.id).join('\n') + '\n');
  writeFileSync(join(dir, 'products.jsonl'), jsonl(products.map(({ id, title }) => ({ id, title }))));
  const why = ['hold tea', 'hold coffee', 'go camping', 'make a gift', 'keep drinks hot'];
  const assertions = ['m', 's'].flatMap((f) =>
    why.map((w, k) => ({
      id: `${f}${k}`,
      item_a_id: `${f}${2 * k}`,
      item_b_id: `${f}${2 * k + 1}`,
      relation: 'usedFor',
      assertion: `PersonX bought a product of Item A and a product of Item B because they ${w} (${f}).`,
      typicality: 0.9,
    })),
  );
  writeFileSync(join(dir, 'assertions.jsonl'), jsonl(assertions));
  return {
    productVectors: join(dir, 'v.npy'),
    products: join(dir, 'products.jsonl'),
    assertions: join(dir, 'assertions.jsonl'),
    onError: 'fail',
  };
}

describe('pipeline --product-vectors on hand-made vectors', () => {
  it('needs the windows and cut points, naming them and why', async () => {
    const inputs = await handInputs();
    await expect(
      runPipelineFromVectors({ ...inputs, out: join(dir, 'no-windows'), items: { task1Window: WINDOWS.task1Window } }),
    ).rejects.toThrow(
      /task2Window must be given with productVectors \(missing: task2Window, difficulty\): the vectors were given, not made by the pipeline's encoder/,
    );
  });

  it('refuses an .npy whose rows and ids do not match, naming both', async () => {
    const inputs = await handInputs();
    writeFileSync(join(dir, 'short-ids.txt'), 'm1\nm2\n');
    await expect(
      runPipelineFromVectors({
        ...inputs,
        productIds: join(dir, 'short-ids.txt'),
        out: join(dir, 'bad'),
        items: WINDOWS,
      }),
    ).rejects.toThrow(
      `${join(dir, 'v.npy')} has 20 rows but ${join(dir, 'short-ids.txt')} lists 2 ids: one id per row`,
    );
  });

  it('builds items from the vectors, names the source in the manifest and the report, and is the same for a seed', async () => {
    const inputs = await handInputs();
    const run = (out: string) =>
      runPipelineFromVectors({
        ...inputs,
        out: join(dir, out),
        // Substitutes, the kind's words and shared title words allowed: every mug is a mug (its title
        // says so), and all mugs' intentions share words.
        items: {
          ...WINDOWS,
          seed: 7,
          workers: 0,
          excludeSubstitutes: false,
          excludeKindWords: false,
          excludeTitleWords: false,
        },
      });
    const m = await run('a');
    expect(m.inputs).toMatchObject({
      productVectors: join(dir, 'v.npy'),
      productVectorsKind: 'npy',
      productIds: join(dir, 'ids.txt'),
    });
    expect(m.counts).toMatchObject({ vectors: 20, dim: 3, products: 20, productsWithoutVector: 0, assertions: 10 });
    expect(m.notes[0]).toMatch(/calibration does not apply/);
    // (Substitutes allowed: every mug is a mug.) Every assertion gets both items; distractors come from its own family only (the other family's
    // cosine is 0, outside the windows, and its titles share no concept word).
    expect([m.counts.task1Items, m.counts.task2Items]).toEqual([10, 10]);
    for (const f of ['intentionqa_task1.jsonl', 'intentionqa_task2.jsonl']) {
      const items = readFileSync(join(dir, 'a', 'items', f), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; distractors_id: string[] });
      for (const item of items) for (const d of item.distractors_id) expect(d[0]).toBe(item.id[0]);
      // No encoder, so no vectors for the rules: the distractor records carry no readings.
      const records = readFileSync(join(dir, 'a', 'items', f), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { distractors: object[]; gold_fit?: number });
      for (const r of records) {
        expect(r.gold_fit).toBeUndefined();
        for (const d of r.distractors) expect(Object.keys(d)).toEqual(['id', 'text', 'score', 'overlap', 'method']);
      }
    }
    expect(readFileSync(m.outputs.report, 'utf8')).toContain(`product vectors given: .npy ${join(dir, 'v.npy')}`);
    await run('b');
    for (const f of ['intentionqa_task1.jsonl', 'intentionqa_task2.jsonl', 'intentionqa_dropped.jsonl'])
      expect(readFileSync(join(dir, 'b', 'items', f), 'utf8')).toBe(readFileSync(join(dir, 'a', 'items', f), 'utf8'));
  });
});

/** A hand-made text encoder: a fixed 3-d vector from each text's characters (not unit length). */
function textVector(text: string): [number, number, number] {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) % 1009;
  return [Math.cos(h), Math.sin(h), (h % 7) / 7];
}
const handEncoder: SentenceEncoder = {
  name: 'hand-table',
  provider: 'none',
  dim: 3,
  encode: (texts) => {
    const out = new Float32Array(texts.length * 3);
    texts.forEach((t, i) => out.set(textVector(t), i * 3));
    return Promise.resolve(out);
  },
  close: () => Promise.resolve(),
};

/** The cosine of two texts' vectors, computed plainly (the encoder's float32 values, in double). */
function textCosine(x: string, y: string): number {
  const [u, v] = [Float32Array.from(textVector(x)), Float32Array.from(textVector(y))];
  const dot = (p: Float32Array, q: Float32Array) => p[0]! * q[0]! + p[1]! * q[1]! + p[2]! * q[2]!;
  return dot(u, v) / Math.sqrt(dot(u, u) * dot(v, v));
}

describe('the readings of the rules, per distractor (rule-readings.ts)', () => {
  it('equal a plain recomputation of the fits and cosines, after the existing keys; same seed, same bytes', async () => {
    const inputs = await handInputs();
    // Cut-offs that refuse (nearly) nothing, so that the items are made and read.
    const items = {
      ...WINDOWS,
      seed: 7,
      workers: 0,
      excludeSubstitutes: false,
      excludeKindWords: false,
      excludeTitleWords: false,
      excludeKindAsserted: false,
      anchorMargin: -1,
      fitMargin: -1,
      explainedMinFit: -1,
      secondAnswerCosine: 0.999,
    };
    const run = (out: string) =>
      runPipelineFromVectors({ ...inputs, encoder: handEncoder, out: join(dir, out), items });
    const m = await run('readings');
    expect([m.counts.task1Items, m.counts.task2Items]).toEqual([9, 10]);
    const products = new Map(
      readFileSync(join(dir, 'products.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; title: string })
        .map((p) => [p.id, p.title]),
    );
    const assertions = new Map(
      readFileSync(join(dir, 'assertions.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; item_a_id: string; item_b_id: string; assertion: string })
        .map((a) => [a.id, a]),
    );
    const read = (f: string) =>
      readFileSync(join(dir, 'readings', 'items', f), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    type Item = {
      id: string;
      item_a_id: string;
      item_b_id: string;
      options: Record<string, string>;
      gold_ind: string;
      gold_fit: number;
      distractors: Array<Record<string, number | string>>;
    };
    const task1 = read('intentionqa_task1.jsonl') as unknown as Item[];
    const task2 = read('intentionqa_task2.jsonl') as unknown as Item[];
    // An assertion's intention: its text from "because" on.
    const intentionOf = new Map(
      [...assertions.values()].map((a) => [a.id, a.assertion.slice(a.assertion.indexOf('because'))]),
    );
    // A vector is per intentionKey, which drops "( … )" groups: "hold tea (s)" reads "hold tea (m)"'s
    // vector, the first text seen for the key (assertions m0..m4 come first).
    const firstText = new Map<string, string>();
    for (const id of assertions.keys()) {
      const text = intentionOf.get(id);
      if (text !== undefined && !firstText.has(intentionKey(text))) firstText.set(intentionKey(text), text);
    }
    const stands = (text: string) => firstText.get(intentionKey(text)) ?? text;
    const fit = (intention: string, product: string) => textCosine(stands(intention), products.get(product)!);
    const pairFit = (intention: string, a: string, b: string) => (fit(intention, a) + fit(intention, b)) / 2;
    for (const item of task1) {
      const gold = intentionOf.get(item.id)!;
      expect(item.gold_fit).toBeCloseTo(pairFit(gold, item.item_a_id, item.item_b_id), 6);
      for (const d of item.distractors) {
        expect(Object.keys(d)).toEqual([
          'id',
          'text',
          'score',
          'overlap',
          'method',
          'fit',
          'own_fit',
          'asserted_cosine',
        ]);
        const own = assertions.get(d.id as string)!;
        const text = d.text as string;
        expect(d.fit).toBeCloseTo(pairFit(text, item.item_a_id, item.item_b_id), 6);
        expect(d.own_fit).toBeCloseTo(pairFit(text, own.item_a_id, own.item_b_id), 6);
        // The pair's only asserted intention is the gold's.
        expect(d.asserted_cosine).toBeCloseTo(textCosine(stands(text), stands(gold)), 6);
      }
    }
    for (const item of task2) {
      const gold = intentionOf.get(item.id)!;
      const pair = pairFit(gold, item.item_a_id, item.item_b_id);
      expect(item.gold_fit).toBeCloseTo(pair, 6);
      for (const d of item.distractors) {
        // Nothing is asserted for p_A with a distractor: no cosine to read.
        expect(Object.keys(d)).toEqual(['id', 'text', 'score', 'overlap', 'method', 'fit', 'pair_fit']);
        expect(d.fit).toBeCloseTo(fit(gold, d.id as string), 6);
        expect(d.pair_fit).toBeCloseTo(pair, 6);
      }
    }
    // One hand-checked value: the readings are not all alike (a rule reading a constant would pass the above).
    const fits = task1.flatMap((i) => i.distractors.map((d) => d.fit as number));
    expect(new Set(fits).size).toBeGreaterThan(5);
    await run('readings-again');
    for (const f of ['intentionqa_task1.jsonl', 'intentionqa_task2.jsonl'])
      expect(readFileSync(join(dir, 'readings-again', 'items', f), 'utf8')).toBe(
        readFileSync(join(dir, 'readings', 'items', f), 'utf8'),
      );
  });
});

const SHARED = join(projectRoot(), '..', 'shared', 'data', 'intentionqa');
const present = existsSync(join(SHARED, 'assertions.jsonl')) && existsSync(join(SHARED, 'products.jsonl'));
if (!present) console.warn(`SKIPPED "pipeline --product-vectors on the released data": ${SHARED} is absent`);

describe.skipIf(!present)('pipeline --product-vectors on the released assertions and products', () => {
  it('glove-100d title vectors → items, deterministic for a seed, the .npy giving the same as the index, nothing flagged by items check', async () => {
    const products = join(SHARED, 'products.jsonl');
    const assertions = join(SHARED, 'assertions.jsonl');
    const index = join(dir, 'glove-index');
    await cli(['catalog', 'index', '--products', products, '--encoder', 'glove-100d', '--out', index]);
    // The documented real-data command (docs/real-data.md): the released code's Task-2 anchor.
    const flags = ['--products', products, '--assertions', assertions, '--anchor', 'given', '--seed', '1'];
    // The documented command types no numbers: the index names glove-100d, whose calibration on title
    // vectors applies.
    const printed = await cli(['pipeline', '--product-vectors', index, ...flags, '--out', join(dir, 'r1')]);
    expect(printed).toContain(
      "note: windows, difficulty cut points and the rules' cut-offs not given are glove-100d's calibration on title vectors",
    );
    expect(printed).toContain('similarity: centered; Task 1 window [0.2, 0.7], Task 2 window [0.4, 0.8)');
    await cli(['pipeline', '--product-vectors', index, ...flags, '--out', join(dir, 'r2')]);
    // An .npy names no encoder: the same numbers typed give the same items.
    const calibration = ['--center', '--task1-window', '0.2,0.7', '--task2-window', '0.4,0.8'];
    const windows = [
      ...calibration,
      '--difficulty-cuts',
      '0.6,0.85',
      '--explained-min-fit',
      '0.05',
      '--fit-margin',
      '0.05',
      '--anchor-margin',
      '0.2',
      '--second-answer-cosine',
      '0.75',
      '--no-require-overlap',
    ];
    // The index's one chunk as an .npy, with its ids: the same vectors, so the same items.
    const chunk = join(index, 'chunks', 'chunk-000000');
    const ids = readFileSync(`${chunk}.jsonl`, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: string }).id);
    writeFileSync(join(dir, 'glove-ids.txt'), ids.join('\n') + '\n');
    await cli([
      'pipeline',
      '--product-vectors',
      `${chunk}.npy`,
      '--product-ids',
      join(dir, 'glove-ids.txt'),
      ...flags,
      ...windows,
      '--out',
      join(dir, 'r3'),
    ]);
    const manifest = JSON.parse(readFileSync(join(dir, 'r1', 'manifest.json'), 'utf8')) as {
      inputs: { productVectors: string; vectorsModel: string };
      counts: { task1Items: number; task2Items: number };
    };
    expect(manifest.inputs).toMatchObject({ productVectors: index, vectorsModel: 'glove-100d' });
    // Issue 44's floor: items for at least 35% of the 2,315 assertions in each task.
    expect(manifest.counts.task1Items).toBeGreaterThanOrEqual(Math.ceil(0.35 * 2315));
    expect(manifest.counts.task2Items).toBeGreaterThanOrEqual(Math.ceil(0.35 * 2315));
    // Every difficulty level is at least 5% of a task's items.
    for (const f of ['intentionqa_task1.jsonl', 'intentionqa_task2.jsonl']) {
      const levels = readFileSync(join(dir, 'r1', 'items', f), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { difficulty: string }).difficulty);
      for (const level of ['easy', 'medium', 'hard'])
        expect(levels.filter((d) => d === level).length).toBeGreaterThanOrEqual(0.05 * levels.length);
    }
    for (const f of ['intentionqa_task1.jsonl', 'intentionqa_task2.jsonl', 'intentionqa_dropped.jsonl']) {
      const first = readFileSync(join(dir, 'r1', 'items', f), 'utf8');
      expect(readFileSync(join(dir, 'r2', 'items', f), 'utf8')).toBe(first);
      expect(readFileSync(join(dir, 'r3', 'items', f), 'utf8')).toBe(first);
    }
    // items check with the run's encoder applies every rule as the pipeline did: nothing flagged.
    const check = await withEncoder({ encoder: 'glove-100d' }, LOCAL_EXECUTION, (encoder) =>
      checkItems({ items: join(dir, 'r1', 'items'), assertions, products, encoder }),
    );
    expect(check.summary.files.map((f) => [f.items, f.malformed, f.flagged])).toEqual([
      [manifest.counts.task1Items, 0, 0],
      [manifest.counts.task2Items, 0, 0],
    ]);
  });
});
