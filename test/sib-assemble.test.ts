import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../cli/main.js';
import { assembleSib, type AssembleSibOptions } from '../engine/items/sib/assemble-sib.js';
import type { DistractorItem, DistractorWindows } from '../engine/items/sib/distractors.js';
import { SAMPLE_ANNOTATIONS, SAMPLE_CATALOG, sampleSessionLines } from '../engine/demo/sib-sample-data.js';
import type { SibTaskRecord } from '../engine/items/sib/task-records.js';
import { engineCosine } from '../engine/items/sib/window-sampler.js';
import { productText } from '../engine/items/sib/serve-rules.js';
import { sessionJson, tempDir, WordHashEncoder, writeJsonl, type NodeSpec } from './support/sib.js';

const EXAMPLES = 'examples/sib';
const SESSIONS = join(EXAMPLES, 'sessions.jsonl');
const ANNOTATIONS = join(EXAMPLES, 'annotations.jsonl');
const CATALOG = join(EXAMPLES, 'catalog.jsonl');
// Wide windows: the word-hash test encoder gives low cosines to texts sharing few words.
const WIDE: DistractorWindows = {
  intention: { lo: 0.05, hi: 0.8 },
  attribute: { lo: 0.05, hi: 0.8 },
  comparison: { lo: 0.1, hi: 0.9 },
  nextProduct: { lo: 0.05, hi: 0.95 },
};

const readLines = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

function run(overrides: Partial<AssembleSibOptions> = {}) {
  const outDir = tempDir('sib-e2e-');
  const options: AssembleSibOptions = {
    sessions: SESSIONS,
    annotations: ANNOTATIONS,
    catalog: CATALOG,
    out: outDir,
    seed: 7,
    styles: ['zero-shot', 'five-shot', 'cot'],
    encoder: new WordHashEncoder(32),
    windows: WIDE,
    progress: false,
    ...overrides,
  };
  return { outDir, summary: assembleSib(options) };
}

describe('examples/sib', () => {
  it('are exactly what engine/demo/sib-sample-data.ts builds', () => {
    expect(readFileSync(SESSIONS, 'utf8')).toBe(sampleSessionLines().join('\n') + '\n');
    expect(readFileSync(ANNOTATIONS, 'utf8')).toBe(SAMPLE_ANNOTATIONS.map((r) => JSON.stringify(r)).join('\n') + '\n');
    expect(readFileSync(CATALOG, 'utf8')).toBe(SAMPLE_CATALOG.map((r) => JSON.stringify(r)).join('\n') + '\n');
  });
});

describe('assembleSib on the sample', async () => {
  const { outDir, summary: pending } = run();
  const summary = await pending;
  const tasks = readLines<SibTaskRecord>(join(outDir, 'sib-tasks.jsonl'));
  const items = readLines<DistractorItem>(join(outDir, 'sib-distractors.jsonl'));
  const encoder = new WordHashEncoder(32);
  const vec = async (text: string) => encoder.encode([text]);

  it('counts: 25 + 125 + 125 trajectories, four tasks each, T1/T2 shared by siblings', () => {
    expect(summary.sessions).toEqual({ read: 3, trajectories: 275, selected_trajectories: 275 });
    expect(summary.tasks.by_task).toEqual({ T1: 275, T2: 275, T3: 275, T4: 275 });
    expect(tasks).toHaveLength(1100);
    // T1/T2 keys are the nodes at step t-1: 5 (skincare, t=3) + 25 (coffee, t=4) + 125 (running, t=6).
    expect(summary.tasks.distinct_questions).toEqual({ T1: 155, T2: 155, T3: 275, T4: 275 });
    const byKey = new Map<string, string>();
    for (const t of tasks.filter((x) => x.task <= 2)) {
      const p = JSON.stringify(t.prompts);
      if (byKey.has(t.question_key)) expect(byKey.get(t.question_key)).toBe(p);
      byKey.set(t.question_key, p);
    }
  });

  it('labels from answers and votes, ties kept as ties', () => {
    const label = (id: string) => tasks.find((t) => t.id === id)!.label;
    expect(label('skincare-01/n1.1.1/T1')).toEqual({ letter: 'A', binary: 'positive', source: 'answer' });
    expect(label('skincare-01/n1.1.1/T2')).toEqual({
      letter: 'A',
      binary: 'positive',
      source: 'votes',
      votes: { A: 2, B: 1 },
    });
    expect(label('skincare-01/n1.1.1/T4')).toEqual({ letter: 'C', binary: 'negative', source: 'answer' });
    expect(label('skincare-01/n1.4.3/T1')).toEqual({
      letter: null,
      binary: 'positive',
      source: 'votes',
      votes: { A: 1, B: 1 },
      tied: ['A', 'B'],
    });
    expect(label('skincare-01/n1.5.4/T3')).toEqual({
      letter: null,
      binary: null,
      source: 'votes',
      votes: { B: 1, C: 1 },
      tied: ['B', 'C'],
    });
    expect(label('running-03/n1.5.3.5.1.1/T1')).toEqual({
      letter: 'D',
      binary: 'negative',
      source: 'votes',
      votes: { C: 1, D: 2 },
    });
    expect(label('skincare-01/n1.1.2/T1')).toBeNull();
    expect(summary.tasks.labelled).toEqual({ T1: 4, T2: 2, T3: 2, T4: 2 });
    expect(summary.tasks.label_ties).toBe(2);
    expect(summary.tasks.label_ties_without_binary).toBe(1);
    expect(summary.annotations).toMatchObject({ read: 10, used: 10, unused: 0 });
  });

  it('task records carry the trajectory, the block products and the answer letters', () => {
    const t = tasks.find((x) => x.id === 'coffee-02/n1.2.4.2/T4')!;
    expect(t).toMatchObject({
      session_id: 'coffee-02',
      leaf_id: 'n1.2.4.2',
      task: 4,
      step: 4,
      trajectory: ['n1', 'n1.2', 'n1.2.4', 'n1.2.4.2'],
      question_key: 'coffee-02/n1.2.4.2/T4',
      products: ['B0CF001', 'B0CF002', 'B0CF003', 'B0CF004'],
      answer_letters: ['A', 'B', 'C'],
    });
    expect(t.prompts.cot).toContain(
      'assuming you have the intention of Grinding fresh beans for every cup, do you still want',
    );
    expect(tasks.find((x) => x.id === 'coffee-02/n1.2.4.2/T1')!.question_key).toBe('coffee-02/n1.2.4/T1');
  });

  it('every distractor item is inside its window with the exact cosine it records', async () => {
    expect(items.length).toBeGreaterThan(50);
    const sessions = readLines<{ session_id: string; products: Array<{ id: string; title: string }> }>(SESSIONS);
    const sessionOf = new Map(sessions.map((s) => [s.session_id, s]));
    const catalog = new Map(SAMPLE_CATALOG.map((p) => [p.id, p]));
    // Catalogue products are embedded by what a reader sees of them: title and attributes.
    const textOf = (id: string) => {
      const p = catalog.get(id)!;
      return productText({ id, title: p.title, attributes: Object.entries(p.attributes) });
    };
    const made = { 't1-hard-negative': 0, 't2-hard-negative': 0, 't3-negative': 0, 'next-product-choice': 0 };
    const positions: Record<string, number> = { A: 0, B: 0, C: 0, D: 0 };
    for (const item of items) {
      made[item.kind] += 1;
      const s = sessionOf.get(item.session_id)!;
      const sessionTitles = new Set(s.products.map((p) => p.title.trim().toLowerCase()));
      const sessionIds = new Set(s.products.map((p) => p.id));
      const [lo, hi] = item.made_by.window;
      const q = await vec(item.made_by.query.text);
      if (item.kind === 'next-product-choice') {
        expect(item.options).toHaveLength(4);
        expect(new Set(item.options.map((o) => o.title.trim().toLowerCase())).size).toBe(4);
        const gold = item.options.filter((o) => o.gold);
        expect(gold).toHaveLength(1);
        expect(gold[0]!.letter).toBe(item.answer);
        expect(gold[0]!.product_id).toBe(s.products[item.step - 1]!.id);
        for (const o of item.options.filter((x) => !x.gold)) {
          expect(sessionIds.has(o.product_id)).toBe(false);
          expect(sessionTitles.has(o.title.trim().toLowerCase())).toBe(false);
          expect(o.score).toBe(engineCosine(q, await vec(textOf(o.product_id))));
          expect(o.score!).toBeGreaterThanOrEqual(lo);
          expect(o.score!).toBeLessThan(hi);
        }
        positions[item.answer]! += 1;
        continue;
      }
      const replacement = item.replaced.replacement;
      if ('title' in replacement) {
        // T1/T2: drawn around P_t (made_by.query); `score` is the cosine with I_{t-1} or A_{t-1}.
        const near = engineCosine(q, await vec(textOf(replacement.id)));
        expect(item.similarity!.to_replaced).toBe(near);
        expect(near).toBeGreaterThanOrEqual(lo);
        expect(near).toBeLessThan(hi);
        const query = await vec(item.serve_check!.query.text);
        expect(item.score).toBe(engineCosine(query, await vec(textOf(replacement.id))));
        expect(item.similarity!.to_query).toBe(item.score);
        // Not serving the query: below the best session product's cosine with it, less the margin.
        expect(item.score).toBeLessThan(item.serve_check!.reference_score - item.serve_check!.margin);
      } else {
        expect(item.score).toBe(engineCosine(q, await vec(replacement.text)));
        expect(item.score).toBeGreaterThanOrEqual(lo);
        expect(item.score).toBeLessThan(hi);
      }
      const task = tasks.find((t) => t.id === item.based_on)!;
      if (item.replaced.slot === 'last product') {
        const r = item.replaced;
        expect(sessionIds.has(r.replacement.id)).toBe(false);
        expect(sessionTitles.has(r.replacement.title.trim().toLowerCase())).toBe(false);
        expect(r.original.id).toBe(s.products[item.step - 1]!.id);
        // The prompt is the task's prompt with P_t's block lines and title swapped for the replacement's.
        const orig = task.prompts['zero-shot']!;
        expect(item.prompts['zero-shot']).not.toBe(orig);
        expect(item.prompts['zero-shot']!.split(r.replacement.title).length).toBeGreaterThan(1);
      } else {
        const r = item.replaced;
        expect(r.replacement.session_id).not.toBe(item.session_id);
        expect(r.replacement.text).not.toBe(r.original.text);
        expect(item.prompts['zero-shot']).toBe(task.prompts['zero-shot']!.replace(r.original.text, r.replacement.text));
      }
    }
    expect(summary.distractors!.made).toEqual(made);
    expect(summary.distractors!.next_product_gold_positions).toEqual(positions);
    const counts = Object.values(positions);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    // Every trajectory is either an item or a counted failure, for every kind.
    for (const kind of Object.keys(made) as Array<keyof typeof made>) {
      const failed = Object.values(summary.distractors!.failed[kind]).reduce((a, b) => a + b, 0);
      expect(made[kind] + failed).toBe(275);
    }
  });
});

describe('determinism and streaming', () => {
  const files = (dir: string) =>
    Object.fromEntries(
      readdirSync(dir)
        .sort()
        .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
    );

  it('same seed: byte-identical outputs, whatever the chunk size; another seed: other draws', async () => {
    const a = run();
    const b = run({ chunkSessions: 1 });
    const c = run({ seed: 8 });
    await Promise.all([a.summary, b.summary, c.summary]);
    const fa = files(a.outDir);
    expect(Object.keys(fa)).toEqual(['sib-distractors.jsonl', 'sib-summary.json', 'sib-tasks.jsonl']);
    expect(files(b.outDir)).toEqual(fa);
    const fc = files(c.outDir);
    expect(fc['sib-tasks.jsonl']).toBe(fa['sib-tasks.jsonl']); // no sampling: tasks do not depend on the seed
    expect(fc['sib-distractors.jsonl']).not.toBe(fa['sib-distractors.jsonl']);
  });

  it('--per-session: k trajectories per session, the unsampled annotations reported', async () => {
    const { outDir, summary } = run({ perSession: 3, encoder: null });
    const s = await summary;
    expect(s.sessions.selected_trajectories).toBe(9);
    expect(readLines<SibTaskRecord>(join(outDir, 'sib-tasks.jsonl'))).toHaveLength(36);
    expect(s.annotations!.used + s.annotations!.unused).toBe(10);
    expect(Object.keys(s.annotations!.unused_by_reason)).toEqual([
      'trajectory not among the sampled ones (--per-session)',
    ]);
    expect(existsSync(join(outDir, 'sib-distractors.jsonl'))).toBe(false);
    expect(s.distractors).toBeNull();
  });
});

describe('bad input', () => {
  const good: NodeSpec[] = [
    { id: 'r', parent: null, step: 1 },
    { id: 'a', parent: 'r', step: 2 },
    { id: 'b', parent: 'r', step: 2 },
  ];

  it('fails with file, line and field, and leaves no output behind', async () => {
    const dir = tempDir();
    const sessions = writeJsonl(dir, 's.jsonl', [
      sessionJson('s1', 2, good),
      sessionJson('s2', 2, [good[0]!, { id: 'a', parent: 'r', step: 3 }]),
    ]);
    const out = join(dir, 'out');
    await expect(
      assembleSib({ sessions, out, seed: 1, styles: ['cot'], encoder: null, progress: false }),
    ).rejects.toThrow(`${sessions}:2 (field "tree[1].step"): step 3 is out of range`);
    expect(existsSync(out) ? readdirSync(out).filter((f) => !f.startsWith('.')) : []).toEqual([]);
  });

  it('--on-error skip: bad sessions and annotations go to the rejects file; unused annotations are explained', async () => {
    const dir = tempDir();
    const sessions = writeJsonl(dir, 's.jsonl', [
      sessionJson('s1', 2, good),
      sessionJson('s2', 2, [good[0]!, { id: 'x', parent: 'y', step: 2 }, { id: 'y', parent: 'x', step: 2 }]),
      '{"session_id": "s3", "products": [',
      sessionJson('s1', 2, good),
      sessionJson('s4', 2, good),
    ]);
    const annotations = writeJsonl(dir, 'a.jsonl', [
      { session_id: 's1', leaf_id: 'a', task: 1, answer: 'A' },
      { session_id: 's1', leaf_id: 'r', task: 1, answer: 'A' },
      { session_id: 's1', leaf_id: 'zz', task: 2, answer: 'A' },
      { session_id: 's2', leaf_id: 'x', task: 2, answer: 'B' },
      { session_id: 's4', leaf_id: 'b', task: 4, answer: 'D' },
    ]);
    const out = join(dir, 'out');
    const s = await assembleSib({
      sessions,
      annotations,
      out,
      seed: 1,
      styles: ['zero-shot'],
      encoder: null,
      onError: 'skip',
      progress: false,
    });
    expect(s.sessions.read).toBe(2);
    expect(s.tasks.written).toBe(16);
    expect(s.rejects.count).toBe(4);
    const rejects = readLines<{ file: string; line: number; field?: string; reason: string }>(
      join(out, 'sib-rejects.jsonl'),
    );
    expect(rejects.map((r) => `${r.file === sessions ? 'S' : 'A'}:${r.line}:${r.field ?? ''}`)).toEqual([
      'A:5:answer',
      'S:2:tree[1].parent',
      'S:3:',
      'S:4:session_id',
    ]);
    expect(rejects[3]!.reason).toBe('duplicate session id "s1" (first on line 1)');
    expect(s.annotations).toMatchObject({ read: 4, used: 1, unused: 3 });
    expect(s.annotations!.unused_by_reason).toEqual({
      'leaf_id is not a leaf (the node has children)': 1,
      'leaf_id is not a node of the session tree': 1,
      'no session with this session_id was assembled': 1,
    });
  });
});

describe('intentsim items sib (CLI)', () => {
  it('runs with the offline stand-in encoder and writes the three outputs', async () => {
    const out = tempDir('sib-cli-');
    const write = process.stdout.write;
    let printed = '';
    process.stdout.write = ((chunk: string) => {
      printed += chunk;
      return true;
    }) as typeof process.stdout.write;
    try {
      await (
        await buildProgram()
      ).parseAsync(
        [
          'items',
          'sib',
          '--sessions',
          SESSIONS,
          '--catalog',
          CATALOG,
          '--encoder',
          'offline-hashing-v1',
          '--per-session',
          '4',
          '--styles',
          'cot,zero_shot',
          '--next-product-window',
          '0,0.99',
          '--out',
          out,
        ],
        { from: 'user' },
      );
    } finally {
      process.stdout.write = write;
    }
    expect(readdirSync(out).sort()).toEqual(['sib-distractors.jsonl', 'sib-summary.json', 'sib-tasks.jsonl']);
    const summary = JSON.parse(readFileSync(join(out, 'sib-summary.json'), 'utf8'));
    expect(summary.settings).toMatchObject({
      styles: ['zero-shot', 'cot'],
      per_session: 4,
      encoder: 'offline-hashing-v1',
      seed: 1,
    });
    expect(summary.settings.windows.nextProduct).toEqual({ lo: 0, hi: 0.99 });
    expect(printed).toContain('tasks: 48 (T1 12, T2 12, T3 12, T4 12)');
    const first = readLines<SibTaskRecord>(join(out, 'sib-tasks.jsonl'))[0]!;
    expect(Object.keys(first.prompts)).toEqual(['zero-shot', 'cot']);
  });

  it('rejects bad option values with a clear message', async () => {
    const program = (await buildProgram()).exitOverride().configureOutput({ writeErr: () => {} });
    for (const sub of program.commands) sub.exitOverride().configureOutput({ writeErr: () => {} });
    for (const sub of program.commands.find((c) => c.name() === 'items')!.commands)
      sub.exitOverride().configureOutput({ writeErr: () => {} });
    await expect(
      program.parseAsync(['items', 'sib', '--sessions', SESSIONS, '--out', 'x', '--styles', 'two-shot'], {
        from: 'user',
      }),
    ).rejects.toThrow(/option '--styles <list>' argument 'two-shot' is invalid\. Unknown style "two-shot"/);
    await expect(
      program.parseAsync(['items', 'sib', '--sessions', SESSIONS, '--out', 'x', '--next-product-window', '0.9,0.5'], {
        from: 'user',
      }),
    ).rejects.toThrow(/option '--next-product-window <lo,hi>' argument '0\.9,0\.5' is invalid\. Expected -1 ≤ lo < hi/);
  });
});

describe('comparison pool (first pass, for T3 negatives)', async () => {
  const { collectComparisonPool } = await import('../engine/items/sib/assemble-sib.js');
  const dir = tempDir();
  // 3 sessions × 4 nodes after step 1 = 12 distinct comparisons.
  const nodes = (sid: string): NodeSpec[] => [
    { id: 'r', parent: null, step: 1 },
    ...[1, 2, 3, 4].map((i) => ({ id: `c${i}`, parent: 'r', step: 2, comparison: `${sid} comparison ${i}` })),
  ];
  const file = writeJsonl(
    dir,
    'pool.jsonl',
    ['a', 'b', 'c'].map((sid) => sessionJson(sid, 2, nodes(sid))),
  );
  const base = { sessions: file, out: dir, styles: ['cot' as const], encoder: null };

  it('keeps everything, in file order, when it fits; drops repeated texts', async () => {
    const pool = await collectComparisonPool({ ...base, seed: 1 }, 100);
    expect(pool.map((e) => e.id)).toEqual(['a', 'b', 'c'].flatMap((s) => [1, 2, 3, 4].map((i) => `${s}/c${i}`)));
    const dup = writeJsonl(dir, 'dup.jsonl', [sessionJson('x', 2, nodes('same')), sessionJson('y', 2, nodes('same'))]);
    expect((await collectComparisonPool({ ...base, sessions: dup, seed: 1 }, 100)).map((e) => e.id)).toEqual([
      'x/c1',
      'x/c2',
      'x/c3',
      'x/c4',
    ]);
  });

  it('a seeded reservoir: k entries, the same for a seed, each comparison about equally likely', async () => {
    const a = await collectComparisonPool({ ...base, seed: 3 }, 5);
    expect(a).toHaveLength(5);
    expect(await collectComparisonPool({ ...base, seed: 3 }, 5)).toEqual(a);
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 600; seed++)
      for (const e of await collectComparisonPool({ ...base, seed }, 5)) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
    // Expected 600·5/12 = 250 each; binomial sd ≈ 12, allow 5 sd.
    expect(counts.size).toBe(12);
    for (const n of counts.values()) expect(Math.abs(n - 250)).toBeLessThan(60);
  });
});
