#!/usr/bin/env node
// After TypeDoc: every export of index.ts has its API page, and docs/api/index.md links to it.
// The exports come from the TypeScript compiler (the same program as `tsc -p tsconfig.lib.json`), so
// a re-export, a type-only export or a renamed one counts as it does for a user of the package.
// Exit status 1, naming each export that has no page, or each page that no export explains.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const apiDir = join(root, 'docs', 'api');

/** The names index.ts exports, sorted. */
export function exportsOf(entry) {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.lib.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  const program = ts.createProgram([entry], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (source === undefined) throw new Error(`${entry}: not found`);
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${entry}: not a module`);
  return checker
    .getExportsOfModule(module)
    .map((s) => s.getName())
    .sort();
}

/** Page names linked from the API index: `- [Name](kind/Name.md)`. */
export function pagesListed(indexText) {
  const pages = new Map();
  // The names are Markdown text: `AUDIT\_FILES` is AUDIT_FILES.
  for (const m of indexText.matchAll(/^- \[([^\]]+)\]\(([^)]+\.md)\)$/gm))
    pages.set(m[1].replace(/\\(.)/g, '$1'), m[2]);
  return pages;
}

function main() {
  const index = join(apiDir, 'index.md');
  if (!existsSync(index)) {
    console.error(`${index}: missing; run typedoc first (npm run docs:build does)`);
    return 1;
  }
  const names = exportsOf(join(root, 'index.ts'));
  const pages = pagesListed(readFileSync(index, 'utf8'));
  const problems = [];
  for (const name of names) {
    const page = pages.get(name);
    if (page === undefined) problems.push(`export ${name}: not listed in docs/api/index.md`);
    else if (!existsSync(join(apiDir, page))) problems.push(`export ${name}: docs/api/${page} missing`);
  }
  const exported = new Set(names);
  for (const name of pages.keys()) {
    if (!exported.has(name)) problems.push(`docs/api/index.md lists ${name}, which index.ts does not export`);
  }
  for (const p of problems) console.error(p);
  if (problems.length > 0) return 1;
  console.log(`API pages: all ${names.length} exports of index.ts listed in docs/api/index.md, each with its page`);
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}
