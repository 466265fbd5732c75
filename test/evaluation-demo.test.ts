// End to end on the demo world: the pipeline's items, `ask --solver embedding`, then `score
// intentionqa`, which must give a well-formed table whose numbers agree with its per-item lines;
// the solver's answers agree with an independent computation. Plus the pieces of the shared client
// that keep the key out of every message.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDemo } from '../engine/demo/demo-world.js';
import { runPipeline } from '../engine/pipeline/run-pipeline.js';
import { INTENTIONQA_FILES } from '../engine/items/intentionqa/write-items.js';
import { HashingSentenceEncoder } from '../embeddings/hashing-encoder.js';
import { nearestOption } from '../engine/evaluation/embedding-solver.js';
import type { IntentionQaScoreSummary } from '../engine/scoring/intentionqa/intentionqa-score-types.js';
import { ChatCompletionsClient, publicUrl } from '../core/chat-completions.js';
import { redact } from '../core/redact.js';
import { cli } from './support/cli.js';
import { openEncoder } from '../workers/open-encoder.js';

let dir: string;
const itemsFile = (task: 1 | 2) => join(dir, 'run', 'items', INTENTIONQA_FILES[`task${task}`]);
const responsesFile = (task: 1 | 2) => join(dir, `responses_task${task}.jsonl`);
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-evaluation-'));
  const world = join(dir, 'world');
  await writeDemo(world, { seed: 1 });
  await runPipeline({
    embed: {
      graph: join(world, 'graph.sqlite'),
      products: join(world, 'products.jsonl'),
      concepts: join(world, 'concepts.jsonl'),
      mode: 'induced',
      encoder: await openEncoder({ encoder: 'offline-hashing-v1', warn: () => {} }),
      nodeCacheDir: join(dir, 'cache'),
    },
    assertions: join(world, 'assertions.jsonl'),
    items: { seed: 1 },
    out: join(dir, 'run'),
    onError: 'fail',
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ask --solver embedding, then score, on the demo world', () => {
  it('answers every item with the option nearest to its products, as an independent computation finds', async () => {
    for (const task of [1, 2] as const) {
      const stdout = await cli([
        'ask',
        '--solver',
        'embedding',
        '--encoder',
        'offline-hashing-v1',
        '--items',
        itemsFile(task),
        '--out',
        responsesFile(task),
      ]);
      expect(stdout).toMatch(/embedding solver \(offline-hashing-v1\): \d+ items answered/);
    }
    const encoder = new HashingSentenceEncoder();
    const embed = async (text: string) => encoder.encode([text]);
    const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, k) => s + x * b[k]!, 0);
    for (const task of [1, 2] as const) {
      const items = lines(itemsFile(task));
      const answers = lines(responsesFile(task));
      expect(answers.map((a) => a.id)).toEqual(items.map((i) => i.id));
      for (const [k, item] of items.slice(0, 25).entries()) {
        const products = task === 1 ? [item.item_a_name, item.item_b_name] : [item.item_a_name];
        const scores: Record<string, number> = {};
        for (const [letter, text] of Object.entries(item.options as Record<string, string>)) {
          const o = await embed(text);
          let s = 0;
          for (const p of products) s += cosine(await embed(p as string), o);
          scores[letter] = s;
        }
        const answer = answers[k]!;
        for (const letter of Object.keys(scores))
          expect((answer.option_scores as Record<string, number>)[letter]).toBeCloseTo(scores[letter]!, 6);
        expect(answer.response).toBe(nearestOption(scores));
        expect(answer).toMatchObject({ solver: 'embedding', model: 'offline-hashing-v1', style: 'zero_shot' });
      }
    }
  });

  it('score gives a well-formed table that agrees with its per-item lines', async () => {
    const out = join(dir, 'scores');
    const stdout = await cli([
      'score',
      'intentionqa',
      '--items',
      itemsFile(1),
      itemsFile(2),
      '--responses',
      responsesFile(1),
      responsesFile(2),
      '--out',
      out,
    ]);
    const table = stdout.split('\n').filter((l) => l.startsWith('| '));
    expect(table[0]).toBe(
      '| | Task 1 easy | Task 1 medium | Task 1 hard | Task 1 all | Task 2 easy | Task 2 medium | Task 2 hard | Task 2 all |',
    );
    const rows = table.slice(1, 5).map((l) => l.split(' | '));
    expect(rows.map((r) => r[0])).toEqual([
      '| embedding solver (offline-hashing-v1), zero-shot',
      '| RANDOM (expected)',
      '| RANDOM (seed 1)',
      '| MAJORITY',
    ]);
    for (const row of rows) {
      expect(row).toHaveLength(9);
      for (const cell of row.slice(1)) {
        const value = cell.replace(/ \|$/, '');
        if (value === '–') continue;
        expect(value).toMatch(/^\d{1,3}\.\d\d$/);
        expect(Number(value)).toBeLessThanOrEqual(100);
      }
    }
    // RANDOM's expectation on four options is 25 % everywhere.
    expect(rows[1]!.slice(1).every((c) => c.replace(/ \|$/, '') === '25.00' || c.startsWith('–'))).toBe(true);

    // The summary recomputed from scores.jsonl: every item answered and scored, accuracy per cell.
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as IntentionQaScoreSummary;
    const scores = lines(join(out, 'scores.jsonl'));
    for (const t of summary.tasks) {
      const mine = scores.filter((s) => s.task === t.task);
      expect(mine).toHaveLength(lines(itemsFile(t.task)).length);
      expect(t.counts).toMatchObject({ items: mine.length, scored: mine.length, missing: 0, unparseable: 0 });
      for (const column of summary.columns) {
        const cell = mine.filter((s) => column === 'all' || s.difficulty === column);
        expect(t.model[column]).toEqual({
          correct: cell.filter((s) => s.correct === true).length,
          n: cell.length,
          accuracy: cell.length === 0 ? null : cell.filter((s) => s.correct === true).length / cell.length,
        });
      }
    }
  });
});

describe('the chat-completions client keeps the key out of messages', () => {
  it('redacts the key in use, sk- keys and bearer tokens', () => {
    expect(redact('bad key abc123XYZ here', ['abc123XYZ'], {})).toBe('bad key *** here');
    expect(redact('Incorrect API key provided: sk-proj-AbCdEf0123456789.', [], {})).not.toContain('AbCdEf0123456789');
    expect(redact('header Authorization: Bearer tok.en-123', [], {})).not.toContain('tok.en-123');
    expect(redact('nothing secret', [], {})).toBe('nothing secret');
  });

  it('names endpoints without credentials, and refuses a base URL that carries them', () => {
    expect(publicUrl('http://user:pw@127.0.0.1:8000/v1/chat/completions?key=1')).toBe(
      'http://127.0.0.1:8000/v1/chat/completions',
    );
    expect(() => new ChatCompletionsClient({ baseUrl: 'http://user:pw@127.0.0.1:8000/v1' })).toThrow(
      /baseUrl must not carry credentials/,
    );
    expect(() => new ChatCompletionsClient({ baseUrl: 'not a url' })).toThrow(/baseUrl is not a URL/);
  });
});
