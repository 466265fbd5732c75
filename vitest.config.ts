import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Native add-ons (better-sqlite3, onnxruntime) are safer in forked processes than in threads.
    pool: 'forks',
    // CI also writes a JSON report, from which .ci/run prints its `N passed, M failed` line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/test-results.json' }]] : ['default'],
  },
});
