// `demo` with a Task-2 window that yields no item (issue 45, fault 20): it used to write the items
// and then exit 1 at the evaluation step ("the file has no items"); now the empty task is not
// answered or scored, and the log says so.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDemo } from '../engine/demo/run-demo.js';
import { HASHING_ENCODER_NAME } from '../embeddings/hashing-encoder.js';

describe('demo with a window that yields no Task-2 item', () => {
  const out = mkdtempSync(join(tmpdir(), 'intentsim-demo-empty-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('evaluates Task 1 only, saying that Task 2 has no items', async () => {
    const log: string[] = [];
    const demo = await runDemo({
      out,
      encoder: { spec: { encoder: HASHING_ENCODER_NAME, warn: () => undefined } },
      embed: { mode: 'induced' },
      items: { seed: 1, workers: 0, task2Window: { lo: 0.999, hi: 1 } },
      onError: 'fail',
      log: (text) => log.push(text),
    });
    expect(readFileSync(join(out, 'intentionqa', 'items', 'intentionqa_task2.jsonl'), 'utf8')).toBe('');
    expect(log).toContain('demo: Task 2 has no items (its window yielded none): not answered or scored\n');
    expect(demo.evaluation.summary.tasks.map((t) => t.task)).toEqual([1]);
    expect(demo.evaluation.summary.tasks[0]!.counts.items).toBeGreaterThan(0);
    expect(existsSync(join(out, 'evaluation', 'responses_task1.jsonl'))).toBe(true);
    expect(existsSync(join(out, 'evaluation', 'responses_task2.jsonl'))).toBe(false);
    expect(demo.solverComparison?.task2.filtered).toEqual({ items: 0, correct: 0 });
  }, 120_000);
});
