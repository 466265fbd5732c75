// Worker threads run compiled JavaScript: when this code itself runs from TypeScript sources (vitest),
// point the pool at the compiled twin in dist/ (`npm test` builds it first).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function compiledWorkerFile(name: string): string {
  const beside = new URL(`./${name}.js`, import.meta.url);
  if (import.meta.url.endsWith('.js')) return fileURLToPath(beside);
  const compiled = fileURLToPath(new URL(`../dist/workers/${name}.js`, import.meta.url));
  if (!existsSync(compiled)) throw new Error(`worker ${compiled} is not built: run "npm run build" first`);
  return compiled;
}
