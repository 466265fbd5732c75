// Issue 26's acceptance check on the first demo world (test/fixtures/demo-world-v1: seed 1,
// glove-100d, the paper preset with the three filters of that issue): no Task-1 item has a
// distractor asserted for its own product pair, and no distractor is a generic intention. Counted
// here with this file's own code, from the world's raw files (assertions.jsonl, concepts.jsonl) and
// the written items, never through the engine's filter code; the same counts on a run with the
// filters off must be above zero, so the check can see what it looks for.
//
// Issue 34's on the current demo world (seed 1, every rule on, the default): no Task-1 distractor is
// an intention asserted for another pair of the same two categories, and no Task-2 distractor is of
// the gold's or p_A's category or of a category asserted with p_A's for the gold's intention. Counted
// from the world's own categories (buildDemoWorld's categoryOf), not from the concept phrases the
// rules read; a run with every rule off must show such distractors.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoWorld, writeDemo } from '../engine/demo/demo-world.js';
import { VALIDITY_RULE_FIELDS } from '../engine/items/intentionqa/intentionqa-options.js';
import { runPipeline, type PipelineManifest } from '../engine/pipeline/run-pipeline.js';
import { GLOVE_TEST_CACHE, realGlovePackage } from './support/glove.js';
import { openEncoder } from '../workers/open-encoder.js';
import type { Encoder } from '../workers/encoder.js';

const pkg = realGlovePackage('test/intentionqa-validity-demo.test.ts (the demo world with glove-100d)');

function jsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);
}

/** normalize_name as the released findNode_aser.py wrote it: lower case, no ( … ), no punctuation, no a|an|the. */
function releasedNormalizeName(text: string): string {
  return text
    .replace(/\([^()]*\)/g, '')
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'a' && w !== 'an' && w !== 'the')
    .join(' ');
}

interface RawAssertion {
  item_a_id: string;
  item_b_id: string;
  assertion: string;
}

/** Everything this test knows about the world, from its raw files only. */
function readWorld(world: string) {
  const assertions = jsonl<RawAssertion>(join(world, 'assertions.jsonl'));
  const words = new Map<string, string[]>();
  for (const c of jsonl<{ id: string; phrases: string[] }>(join(world, 'concepts.jsonl')))
    words.set(
      c.id,
      c.phrases.flatMap((p) => releasedNormalizeName(p).split(' ')),
    );
  const intentionOf = (a: RawAssertion) => releasedNormalizeName(a.assertion.slice(a.assertion.indexOf('because')));
  const pair = (x: string, y: string) => [x, y].sort().join('+');
  const ofPair = new Map<string, Set<string>>();
  const pairsOfText = new Map<string, Map<string, string[]>>();
  for (const a of assertions) {
    const p = pair(a.item_a_id, a.item_b_id);
    const text = intentionOf(a);
    if (!ofPair.has(p)) ofPair.set(p, new Set());
    ofPair.get(p)!.add(text);
    if (!pairsOfText.has(text)) pairsOfText.set(text, new Map());
    pairsOfText.get(text)!.set(p, [...(words.get(a.item_a_id) ?? []), ...(words.get(a.item_b_id) ?? [])]);
  }
  // Concept groups, the slow way: breadth-first search over pairs that share a word.
  const generic = new Set<string>();
  for (const [text, pairs] of pairsOfText) {
    const sets = [...pairs.values()].map((w) => new Set(w));
    const seen = new Array<boolean>(sets.length).fill(false);
    let groups = 0;
    for (let s = 0; s < sets.length; s++) {
      if (seen[s]) continue;
      groups += 1;
      const queue = [s];
      seen[s] = true;
      while (queue.length > 0) {
        const k = queue.shift()!;
        for (let j = 0; j < sets.length; j++)
          if (!seen[j] && [...sets[k]!].some((w) => sets[j]!.has(w))) {
            seen[j] = true;
            queue.push(j);
          }
      }
    }
    if (groups >= 3) generic.add(text);
  }
  return { ofPair, generic, pair };
}

interface Item {
  id: string;
  item_a_id: string;
  item_b_id: string;
  distractors_asserstion: string[];
}

function count(runDir: string, world: ReturnType<typeof readWorld>) {
  const items = jsonl<Item>(join(runDir, 'items', 'intentionqa_task1.jsonl'));
  let assertedForPair = 0;
  let genericDistractors = 0;
  for (const item of items) {
    const asserted = world.ofPair.get(world.pair(item.item_a_id, item.item_b_id)) ?? new Set();
    if (item.distractors_asserstion.some((d) => asserted.has(releasedNormalizeName(d)))) assertedForPair += 1;
    genericDistractors += item.distractors_asserstion.filter((d) => world.generic.has(releasedNormalizeName(d))).length;
  }
  return { items: items.length, assertedForPair, genericDistractors };
}

/** Every validity rule off, or only the three of issue 26 on. */
const ALL_OFF = Object.fromEntries(VALIDITY_RULE_FIELDS.map((f) => [f, false]));
const ISSUE_26 = { ...ALL_OFF, excludePairAsserted: true, excludeGeneric: true, excludeSecondAnswers: true };

describe.skipIf(!pkg)('validity filters on the first demo world (glove-100d, seed 1), counted independently', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-validity-demo-'));
  const worldDir = join(import.meta.dirname, 'fixtures', 'demo-world-v1');
  const manifests: Record<'on' | 'off', PipelineManifest | undefined> = { on: undefined, off: undefined };
  let encoder: Encoder;
  const run = (name: 'on' | 'off', items: Record<string, unknown>) =>
    runPipeline({
      embed: {
        graph: join(worldDir, 'graph.sqlite'),
        products: join(worldDir, 'products.jsonl'),
        concepts: join(worldDir, 'concepts.jsonl'),
        mode: 'induced',
        encoder,
        nodeCacheDir: join(dir, 'cache'),
      },
      assertions: join(worldDir, 'assertions.jsonl'),
      items: { seed: 1, workers: 0, ...items },
      out: join(dir, name),
      onError: 'fail',
    });
  beforeAll(async () => {
    encoder = await openEncoder({ encoder: 'glove-100d', cacheDir: GLOVE_TEST_CACHE });
    manifests.on = await run('on', ISSUE_26);
    manifests.off = await run('off', ALL_OFF);
  }, 300_000);
  afterAll(async () => {
    await encoder.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the generic text the issue names, and only texts asserted across several concept groups', () => {
    const world = readWorld(worldDir);
    expect([...world.generic]).toEqual(['because they are both used for same purpose']);
    expect(manifests.on!.validity!.genericIntentions.map((g) => releasedNormalizeName(g.text))).toEqual([
      ...world.generic,
    ]);
  });

  it('with the filters (the default): no distractor asserted for the pair, no generic distractor', () => {
    const world = readWorld(worldDir);
    const on = count(join(dir, 'on'), world);
    expect(on.items).toBeGreaterThan(300);
    expect(on.assertedForPair).toBe(0);
    expect(on.genericDistractors).toBe(0);
  });

  it('without them both counts are above zero (what the issue found), so the check sees them', () => {
    const world = readWorld(worldDir);
    const off = count(join(dir, 'off'), world);
    expect(off.assertedForPair).toBeGreaterThan(0);
    expect(off.genericDistractors).toBeGreaterThan(0);
    expect(manifests.off!.validity).toBeNull();
    expect(manifests.on!.options).toMatchObject({
      excludePairAsserted: true,
      excludeGeneric: true,
      excludeSecondAnswers: true,
      genericMinGroups: 3,
      secondAnswerCosine: 0.75,
    });
  });
});

interface Task2Item {
  item_a_id: string;
  item_b_id: string;
  assertion: string;
  distractors_id: string[];
}

describe.skipIf(!pkg)('validity rules on the demo world (glove-100d, seed 1), counted from its categories', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-validity-demo-v2-'));
  const worldDir = join(dir, 'world');
  let encoder: Encoder;
  const world = buildDemoWorld({ seed: 1 });
  const category = (id: string) => world.categoryOf.get(id)!;
  const kinds = (x: string, y: string) => [category(x), category(y)].sort().join('+');
  /** Intention texts (normalised) asserted, at any typicality, for each unordered pair of categories. */
  const ofKinds = new Map<string, Set<string>>();
  for (const a of world.assertions) {
    const k = kinds(a.item_a_id, a.item_b_id);
    if (!ofKinds.has(k)) ofKinds.set(k, new Set());
    ofKinds.get(k)!.add(releasedNormalizeName(a.assertion.slice(a.assertion.indexOf('because'))));
  }
  const run = (name: string, items: Record<string, unknown>) =>
    runPipeline({
      embed: {
        graph: join(worldDir, 'graph.sqlite'),
        products: join(worldDir, 'products.jsonl'),
        concepts: join(worldDir, 'concepts.jsonl'),
        mode: 'induced',
        encoder,
        nodeCacheDir: join(dir, 'cache'),
      },
      assertions: join(worldDir, 'assertions.jsonl'),
      items: { seed: 1, workers: 0, ...items },
      out: join(dir, name),
      onError: 'fail',
    });
  /** Task-1 distractors asserted for the item's kinds; Task-2 distractors that fit (by category). */
  const secondAnswers = (name: string) => {
    let task1 = 0;
    for (const item of jsonl<Item>(join(dir, name, 'items', 'intentionqa_task1.jsonl'))) {
      const asserted = ofKinds.get(kinds(item.item_a_id, item.item_b_id)) ?? new Set();
      task1 += item.distractors_asserstion.filter((d) => asserted.has(releasedNormalizeName(d))).length;
    }
    const task2 = { substitutes: 0, asserted: 0 };
    for (const item of jsonl<Task2Item>(join(dir, name, 'items', 'intentionqa_task2.jsonl'))) {
      const gold = releasedNormalizeName(item.assertion.slice(item.assertion.indexOf('because')));
      for (const d of item.distractors_id) {
        if (category(d) === category(item.item_b_id) || category(d) === category(item.item_a_id))
          task2.substitutes += 1;
        else if (ofKinds.get(kinds(item.item_a_id, d))?.has(gold)) task2.asserted += 1;
      }
    }
    return { task1, task2 };
  };
  beforeAll(async () => {
    await writeDemo(worldDir, { seed: 1 });
    encoder = await openEncoder({ encoder: 'glove-100d', cacheDir: GLOVE_TEST_CACHE });
    await run('on', {});
    await run('off', ALL_OFF);
  }, 300_000);
  afterAll(async () => {
    await encoder.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('with every rule on (the default) no distractor fits the item by its categories', () => {
    expect(secondAnswers('on')).toEqual({ task1: 0, task2: { substitutes: 0, asserted: 0 } });
  });

  it('with every rule off such distractors are there, so the check sees them', () => {
    const off = secondAnswers('off');
    expect(off.task1).toBeGreaterThan(0);
    expect(off.task2.substitutes).toBeGreaterThan(0);
  });
});
