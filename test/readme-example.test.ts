// The library example of docs/library.md (once the README's), type-checked and run exactly as
// printed: the ```ts block under "# Library API", importing 'intentsim' by its package name (the
// package's own `exports`, so the published surface, index.ts, is what the example sees), in a
// folder prepared as the page says.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../core/shared-files.js';
import { writeDemo } from '../engine/demo/demo-world.js';
import { GLOVE_TEST_CACHE, realGlovePackage } from './support/glove.js';

const root = projectRoot();

const page = 'docs/library.md';

/** The first ```ts block after the heading. */
function pageExample(heading: string): string {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const at = lines.indexOf(heading);
  if (at < 0) throw new Error(`${page} has no heading "${heading}"`);
  const after = lines.slice(at).join('\n');
  const block = /```ts\n([\s\S]*?)```/.exec(after);
  if (!block) throw new Error(`${page} has no \`\`\`ts block under "${heading}"`);
  return block[1]!;
}

describe('docs/library.md: the library example', () => {
  // Inside the project, so that 'intentsim' resolves to this package through its own name.
  mkdirSync(join(root, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(root, '.cache', 'readme-example-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const code = pageExample('# Library API');

  it('is about ten lines of calls, importing only the package', () => {
    expect(code).toMatch(/^import \{[^}]+\} from 'intentsim';\n/);
    expect(code.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('//')).length).toBeLessThanOrEqual(
      20,
    );
  });

  it('type-checks against the published declarations (dist/index.d.ts)', () => {
    expect(existsSync(join(root, 'dist', 'index.d.ts')), 'run `npm run build` first').toBe(true);
    const file = join(dir, 'example.ts');
    writeFileSync(file, code);
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });

  const glove = realGlovePackage('the library example of docs/library.md (glove-100d)');
  it.runIf(glove !== undefined)(
    'runs in a folder prepared as the page says, and prints what it promises: items',
    async () => {
      await writeDemo(join(dir, 'world'), { seed: 1 });
      const js = ts.transpileModule(code, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      writeFileSync(join(dir, 'example.mjs'), js);
      const { stdout, stderr } = await promisify(execFile)(process.execPath, ['example.mjs'], {
        cwd: dir,
        env: { ...process.env, INTENTSIM_CACHE_DIR: GLOVE_TEST_CACHE }, // the converted word vectors, shared
      });
      const lines = stdout.trim().split('\n');
      expect(lines[0]).toBe('100 dimensions a sentence'); // glove-100d's width
      expect(stdout).toMatch(/nodes: \d+,\s+edges: \d+/);
      // The numbers the page prints after the example.
      const printed =
        /prints `100 dimensions a sentence`, the graph's counts and `(Task 1: \d+ items, Task 2: \d+ items)`/.exec(
          readFileSync(join(root, page), 'utf8'),
        );
      expect(printed, `${page} states what the example prints`).not.toBeNull();
      expect(lines.at(-1)).toBe(printed![1]);
      expect(stderr).not.toMatch(/warning:/);
      const manifest = JSON.parse(readFileSync(join(dir, 'run', 'manifest.json'), 'utf8')) as {
        format: string;
        warnings: string[];
      };
      expect(manifest.format).toBe('intentsim-pipeline/1');
      expect(manifest.warnings).toEqual([]);
    },
  );
});
