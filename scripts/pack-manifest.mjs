#!/usr/bin/env node
// The package.json that goes into the package (`npm pack`, `npm publish`) has no "prepare" script.
// In a clone, "prepare" compiles dist/ during `npm ci`; the package ships dist/ (prepack builds it),
// so an install from the package has nothing to compile, and without the script npm has nothing of
// intentsim's own to list as "install scripts not yet covered by allowScripts" in the user's project.
//
//   node scripts/pack-manifest.mjs strip [DIR]     (prepack, after the build): DIR/package.json without
//                                                  "prepare", the original kept as DIR/package.json.prepack
//   node scripts/pack-manifest.mjs restore [DIR]   (postpack): the original back
//
// DIR is the project root by default (a test gives another).
//
// A pack that failed between the two leaves the copy behind: the next strip (or restore) puts it back first.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[3] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const kept = join(root, 'package.json.prepack');

/** The manifest as packed: the same fields, less scripts.prepare (2-space indents, as npm writes it). */
function packedManifest(text) {
  const pkg = JSON.parse(text);
  if (pkg.scripts !== undefined) delete pkg.scripts.prepare;
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function restore() {
  if (existsSync(kept)) renameSync(kept, manifest);
}

function strip() {
  restore();
  const text = readFileSync(manifest, 'utf8');
  writeFileSync(kept, text);
  const tmp = `${manifest}.tmp-${process.pid}`;
  writeFileSync(tmp, packedManifest(text));
  renameSync(tmp, manifest);
}

const command = process.argv[2];
if (command === 'strip') strip();
else if (command === 'restore') restore();
else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exitCode = 2;
}
