// The check that ask and audit share: a key may show up redacted (***) in what a run printed or
// wrote, and never in clear. Reads every file under the run's folder.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(root, e.name)) : [join(root, e.name)],
  );
}

/** `printed` (stdout, stderr) and every file under `dir` hold a redaction and no part of `secret` past its first 3 characters. */
export function expectSecretRedacted(secret: string, dir: string, printed: readonly string[]): void {
  const outputs = [...printed, ...filesUnder(dir).map((file) => readFileSync(file, 'utf8'))];
  expect(outputs.some((o) => o.includes('***'))).toBe(true);
  for (const o of outputs) expect(o).not.toContain(secret.slice(3));
}
