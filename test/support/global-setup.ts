// Once per test run (vitest.config.ts): removes the run's own folder (cache root and TMPDIR) at the end.
import { rmSync } from 'node:fs';

export function teardown(): void {
  const root = process.env.INTENTSIM_TEST_RUN_ROOT;
  if (root) rmSync(root, { recursive: true, force: true });
}
