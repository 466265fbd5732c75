// Collapsed similarities (every product nearly the same vector, as a random-weight model gives) are
// a warning of the library itself: runPipeline prints it and lists it in the manifest's `warnings`,
// so a library caller sees it as a CLI user does.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { makeTestModel } from '../embeddings/model-generator.js';
import { writeDemo } from '../engine/demo/demo-world.js';
import { COLLAPSED_SPREAD, collapsedSimilarityWarning } from '../engine/items/intentionqa/collapsed-similarities.js';
import type { SimilarityDistribution } from '../engine/items/intentionqa/similarity-distribution.js';
import { runPipeline } from '../engine/pipeline/run-pipeline.js';
import { openEncoder } from '../workers/open-encoder.js';

/** A distribution whose product-pair quantiles (0, 5, 25, 50, 75, 95, 100 %) are given. */
function distribution(quantiles: number[], inTask2Window = 0, inTask1Window = 0): SimilarityDistribution {
  const summary = { n: 1000, total: 1000, quantiles, histogram: [] };
  return {
    productPairs: { ...summary, inTask2Window },
    assertionPairs: { ...summary, inTask1Window },
    coBuyPairs: { ...summary, difficulty: { easy: 0, medium: 0, hard: 0 } },
  };
}

describe('collapsedSimilarityWarning', () => {
  it('warns when the central 90 % of product-pair cosines lie within COLLAPSED_SPREAD, naming the range', () => {
    const w = collapsedSimilarityWarning(distribution([0.98, 0.992, 0.995, 0.997, 0.998, 0.999, 1], 0, 5), 'tiny');
    expect(w).toBe(
      'similarities have collapsed: 90% of the sampled product-pair cosines lie in [0.992, 0.999], so the windows ' +
        'hold 0.0% (Task 2) and 0.5% (Task 1) of the pairs and few or no items come out. The encoder (tiny) gives ' +
        'every product nearly the same vector, as a generated model with random weights does: use the real model, or glove-100d.',
    );
  });

  it('is silent for a spread at or above the bound, and for raw averaged GloVe vectors (demo world: 0.870–0.967)', () => {
    expect(collapsedSimilarityWarning(distribution([0.5, 0.9, 0.91, 0.91, 0.91, 0.9 + COLLAPSED_SPREAD, 1]), 'x')).toBe(
      undefined,
    );
    expect(collapsedSimilarityWarning(distribution([0.75, 0.87, 0.896, 0.914, 0.934, 0.967, 1]), 'glove')).toBe(
      undefined,
    );
    expect(collapsedSimilarityWarning(distribution([]), 'nothing')).toBeUndefined();
  });

  it('runPipeline with a random-weight model prints the warning and lists it in the manifest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-collapsed-'));
    await writeDemo(join(dir, 'world'), { seed: 1 });
    await makeTestModel(join(dir, 'model'));
    const printed: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    const encoder = await openEncoder({ modelDir: join(dir, 'model') }, { kind: 'local', device: 'cpu' });
    try {
      const manifest = await runPipeline({
        embed: {
          graph: join(dir, 'world', 'graph.sqlite'),
          products: join(dir, 'world', 'products.jsonl'),
          concepts: join(dir, 'world', 'concepts.jsonl'),
          mode: 'induced',
          encoder,
        },
        assertions: join(dir, 'world', 'assertions.jsonl'),
        items: { seed: 1, workers: 0 },
        out: join(dir, 'run'),
        onError: 'fail',
      });
      expect(manifest.warnings).toHaveLength(1);
      expect(manifest.warnings[0]).toMatch(/^similarities have collapsed: 90% of the sampled product-pair cosines/);
      expect(printed.filter((l) => l.startsWith('warning: '))).toEqual([`warning: ${manifest.warnings[0]}\n`]);
      const saved = JSON.parse(readFileSync(join(dir, 'run', 'manifest.json'), 'utf8')) as { warnings: string[] };
      expect(saved.warnings).toEqual(manifest.warnings);
    } finally {
      stderr.mockRestore();
      await encoder.close();
    }
  });
});
