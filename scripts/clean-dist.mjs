#!/usr/bin/env node
// `npm pack` (prepack): remove dist/ before the build that goes into the package, so that a module
// deleted from the sources cannot ship as a stale compiled file.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

rmSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'), { recursive: true, force: true });
