// The demo opens one encoder for all its stages: the pipeline, its unfiltered twin, the
// SessionIntentBench distractors and the embedding solver. The stand-in announces itself once per
// opening (through the spec's warn), so the announcements count the openings; closes are counted too.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runDemo } from '../engine/demo/run-demo.js';
import { HASHING_ENCODER_NAME, HASHING_ENCODER_NOTICE, HashingSentenceEncoder } from '../embeddings/hashing-encoder.js';

describe('the demo and its encoder', () => {
  const out = mkdtempSync(join(tmpdir(), 'intentsim-demo-encoder-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('opens the encoder once, uses it in every stage, and closes it once', async () => {
    const warn = vi.fn();
    const close = vi.spyOn(HashingSentenceEncoder.prototype, 'close');
    const encode = vi.spyOn(HashingSentenceEncoder.prototype, 'encode');
    try {
      const demo = await runDemo({
        out,
        encoder: { spec: { encoder: HASHING_ENCODER_NAME, warn } },
        embed: { mode: 'induced' },
        items: { seed: 1, workers: 0 },
        onError: 'fail',
        log: () => undefined,
      });
      expect(warn.mock.calls).toEqual([[HASHING_ENCODER_NOTICE]]);
      expect(close).toHaveBeenCalledTimes(1);
      // Every stage ran with it: the filtered pipeline and its unfiltered twin (the solver comparison),
      // the SessionIntentBench distractors and the solver's answers.
      expect(demo.pipeline.encoder.model).toBe(HASHING_ENCODER_NAME);
      expect(demo.solverComparison).toBeDefined();
      expect(existsSync(join(out, 'intentionqa-unfiltered', 'manifest.json'))).toBe(true);
      expect(demo.sib.summary.settings.encoder).toBe(HASHING_ENCODER_NAME);
      expect(demo.sib.distractorItems).toBeGreaterThan(0);
      expect(existsSync(join(out, 'evaluation', 'responses_task1.jsonl'))).toBe(true);
      expect(existsSync(join(out, 'evaluation', 'unfiltered', 'responses_task2.jsonl'))).toBe(true);
      expect(encode.mock.instances.every((e) => e === encode.mock.instances[0])).toBe(true);
      expect(encode.mock.instances.length).toBeGreaterThan(4);
    } finally {
      close.mockRestore();
      encode.mockRestore();
    }
  });
});
