import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Every test run gets one folder of its own, removed at the end (test/support/global-setup.ts):
// `cache/`, the default cache root of every test and of every command a test runs, so that tests
// never write model fingerprints, tokenizers or word vectors into the user's ~/.cache/intentsim (a
// test that needs another root passes INTENTSIM_CACHE_DIR or --cache-dir itself); and `tmp/`, the
// TMPDIR of the tests and their child processes, so that the temporary folders tests make
// (hundreds a run) go with it. This file is evaluated more than once per run: the first
// evaluation's folder is reused through the environment.
const testRunRoot = process.env.INTENTSIM_TEST_RUN_ROOT ?? mkdtempSync(join(tmpdir(), 'intentsim-test-run-'));
process.env.INTENTSIM_TEST_RUN_ROOT = testRunRoot;
const testCacheRoot = join(testRunRoot, 'cache');
const testTmp = join(testRunRoot, 'tmp');
mkdirSync(testCacheRoot, { recursive: true });
mkdirSync(testTmp, { recursive: true });

/**
 * The integration tier (`npm run test:integration`): files that spawn processes (the built CLI, a
 * Redis server, crash and interrupt injection), start a server (the simulated Bolt server) or a
 * worker-thread pool, run whole commands in-process, read the real data sets in ../shared, or sweep
 * large random inputs for seconds. Every other file is in the unit tier (`npm run test:unit`, the
 * edit-and-test loop, under a minute on 2 cores with its two workers, needs no build). A new test file is a unit test
 * unless it matches a pattern here: add it when it does any of the above.
 */
export const integrationFiles = [
  'test/faults/**/*.test.ts',
  'test/queue*.test.ts',
  'test/ask.test.ts',
  'test/ask-key.test.ts',
  'test/audit-cli.test.ts',
  'test/catalog-encoder.test.ts',
  'test/catalog-index.test.ts',
  'test/check-paths.test.ts',
  'test/declared-paths-faults.test.ts',
  'test/demo-docs.test.ts',
  'test/demo-encoder.test.ts',
  'test/cli-bundle.test.ts',
  'test/cli-errors.test.ts',
  'test/cli-lazy-loading.test.ts',
  'test/embeddings-npy.test.ts',
  'test/embeddings-glove.test.ts',
  'test/embeddings-stand-in.test.ts',
  'test/encode-pipeline.test.ts',
  'test/evaluation-demo.test.ts',
  'test/file-errors.test.ts',
  'test/first-hour-lines.test.ts',
  'test/generate.test.ts',
  'test/glove-semantic.test.ts',
  'test/import.test.ts',
  'test/input-encoding.test.ts',
  'test/intentionqa-fidelity.test.ts',
  'test/intentionqa-pool.test.ts',
  'test/intentionqa-real.test.ts',
  'test/intentionqa-released-preset.test.ts',
  'test/released-preset-v1.test.ts',
  'test/match.test.ts',
  'test/matrix-ranges-pipelined.test.ts',
  'test/neo4j-bench.test.ts',
  'test/neo4j-driver.test.ts',
  'test/normalize.test.ts',
  'test/output-claim.test.ts',
  'test/pipeline.test.ts',
  'test/pipeline-vectors.test.ts',
  'test/purchase-events.test.ts',
  'test/readme-example.test.ts',
  'test/package-contents.test.ts',
  'test/released-items.test.ts',
  'test/review-browser.test.ts',
  'test/score-intentionqa.test.ts',
  'test/score-malformed.test.ts',
  'test/secrets.test.ts',
  'test/sib-assemble.test.ts',
  'test/tune-cli.test.ts',
  'test/windows.test.ts',
  'test/wordnet-morphy.test.ts',
  'test/workers-pool.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Native add-ons (better-sqlite3, onnxruntime) are safer in forked processes than in threads.
    pool: 'forks',
    // Progress bars and periodic progress lines stay quiet inside tests; the cache root and the temporary folder are the run's own.
    env: { INTENTSIM_QUIET: '1', INTENTSIM_CACHE_DIR: testCacheRoot, TMPDIR: testTmp },
    globalSetup: ['test/support/global-setup.ts'],
    // CI also writes a JSON report, from which .ci/run prints its `N passed, M failed` line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/test-results.json' }]] : ['default'],
    // `npm test` runs both tiers; `npm run test:unit` (`vitest run --project unit`) the first.
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: integrationFiles } },
      { extends: true, test: { name: 'integration', include: integrationFiles } },
    ],
  },
});
