#!/usr/bin/env node
// The compiled CLI lives in dist/: a clone builds it in `npm ci`/`npm install` (the "prepare" script);
// the package made by `npm pack` ships it (docs/install.md).
import { formatFailure, main } from '../dist/cli/main.js';

main(process.argv).catch((err) => {
  process.stderr.write(formatFailure(err));
  process.exit(1);
});
