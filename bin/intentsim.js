#!/usr/bin/env node
// The compiled CLI lives in dist/: a clone builds it in `npm ci`/`npm install` (the "prepare" script);
// the package made by `npm pack` ships it (docs/install.md). It runs the bundle of dist/cli/
// (dist/cli-bundle/, scripts/bundle-cli.mjs: fewer files to resolve and read at start-up) when that
// was built after dist/cli/main.js, and dist/cli/ itself after a build by `tsc` alone.
import { statSync } from 'node:fs';

const bundle = new URL('../dist/cli-bundle/main.js', import.meta.url);
const modules = new URL('../dist/cli/main.js', import.meta.url);
const builtAt = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;
const { formatFailure, main } = await import(builtAt(bundle) >= builtAt(modules) ? bundle : modules);

main(process.argv).catch((err) => {
  process.stderr.write(formatFailure(err));
  process.exit(1);
});
