import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The default cache root of every test and of every command a test runs: a fresh folder per test
// run, removed at the end (test/support/global-setup.ts), so that tests never write model
// fingerprints, tokenizers or word vectors into the user's ~/.cache/intentsim. A test that needs
// another root passes INTENTSIM_CACHE_DIR or --cache-dir itself.
const testCacheRoot = mkdtempSync(join(tmpdir(), 'intentsim-test-cache-'));
process.env.INTENTSIM_TEST_CACHE_ROOT = testCacheRoot;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Native add-ons (better-sqlite3, onnxruntime) are safer in forked processes than in threads.
    pool: 'forks',
    // Progress bars and periodic progress lines stay quiet inside tests; the cache root is the run's own.
    env: { INTENTSIM_QUIET: '1', INTENTSIM_CACHE_DIR: testCacheRoot },
    globalSetup: ['test/support/global-setup.ts'],
    // CI also writes a JSON report, from which .ci/run prints its `N passed, M failed` line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/test-results.json' }]] : ['default'],
  },
});
