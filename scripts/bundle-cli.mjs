#!/usr/bin/env node
// The command line as a bundle (issue 50): dist/cli-bundle/. A start-up of dist/cli/ resolves, reads
// and compiles a hundred modules or more, one file each; the bundle's start-up reads two files:
// main.js and the chunk that holds every module `--help` needs (the command definitions, their
// options and the core helpers they use). It is built from tsc's output (run after
// `tsc -p tsconfig.json`: the build, prepare and pretest scripts), so it is dist/'s code.
// - Packages stay outside it (packages: 'external'): native add-ons, onnxruntime-node, their files.
// - Library code stays lazy: each `import()` target is an entry of its own (splitting), loaded when
//   a command's action imports it.
// - The command modules, which dist/cli/main.js imports one by one so that a run of dist/ loads only
//   its command's, are imported statically here: in the bundle they cost a part of one file.
// - Each `import()` target imports dist/cli/main.js first (a no-op at run time: the CLI's entry is
//   always loaded before any action runs). esbuild puts a module in a chunk of its own for each set
//   of entries that reach it; with this edge every entry reaches the whole front, so the front is
//   one chunk rather than dozens split by which commands' libraries share a helper.
// - Worker threads' entry files: `new URL('./x-worker.js', import.meta.url)` names a file beside the
//   module that wrote it; here it is rewritten to name that module's compiled twin in dist/.
// Files the code reads from the project (prompts, review assets, WordNet, package.json) are found
// from the project root (core/shared-files.ts), which the bundle finds as dist/ does.
// bin/intentsim.js runs the bundle when it is not older than dist/cli/main.js, and dist/cli/ otherwise
// (after a build by `tsc` alone).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const BUNDLE_DIR = join(DIST, 'cli-bundle');
const ENTRY = join(DIST, 'cli', 'main.js');

/** `new URL('./file', import.meta.url)` with a relative literal: the pattern Node and bundlers know. */
const FILE_URL = /new URL\((['"])(\.\.?\/[^'"]+)\1,\s*import\.meta\.url\)/g;
/** dist/cli/main.js's import of a command module. */
const COMMAND_IMPORT = /await import\('\.\/commands\/([a-z-]+)\.js'\)/g;

const COMMON = {
  entryPoints: { main: ENTRY },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  absWorkingDir: ROOT,
};

/** Whether `offset` is on a comment line (tsc keeps comments, and some show the pattern). */
function inComment(source, offset) {
  const line = source.slice(source.lastIndexOf('\n', offset) + 1, offset).trimStart();
  return line.startsWith('//') || line.startsWith('*') || line.startsWith('/*');
}

/** The worker entry files a module names, rewritten relative to the bundle's folder. */
function rewriteFileUrls(path, source, errors) {
  return source.replace(FILE_URL, (match, _quote, spec, offset) => {
    if (inComment(source, offset)) return match;
    const target = resolve(dirname(path), spec);
    if (!existsSync(target)) errors.push({ text: `${spec} (${target}) does not exist` });
    const fromBundle = relative(BUNDLE_DIR, target).split(sep).join('/');
    return `new URL(${JSON.stringify(fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`)}, import.meta.url)`;
  });
}

/** dist/cli/main.js with its command modules imported statically. */
function staticCommands(source, errors) {
  const imports = [];
  const body = source.replace(COMMAND_IMPORT, (_match, name) => {
    const id = `command_${name.replace(/-/g, '_')}`;
    imports.push(`import * as ${id} from './commands/${name}.js';`);
    return `await Promise.resolve(${id})`;
  });
  if (imports.length === 0 || /import\(/.test(body.replace(/^\s*(\/\/|\*).*$/gm, '')))
    errors.push({ text: `${ENTRY}: expected only "await import('./commands/x.js')" imports` });
  return `${imports.join('\n')}\n${body}`;
}

/** dist/ modules as the bundle sees them; `targets`: the `import()` targets, to import the entry. */
function loadPlugin(targets) {
  return {
    name: 'intentsim-cli',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        if (!args.path.startsWith(DIST + sep)) return undefined;
        const errors = [];
        let contents = rewriteFileUrls(args.path, readFileSync(args.path, 'utf8'), errors);
        if (args.path === ENTRY) contents = staticCommands(contents, errors);
        else if (targets.has(args.path)) contents = `import ${JSON.stringify(ENTRY)};\n${contents}`;
        return { contents, loader: 'js', errors };
      });
    },
  };
}

/** The modules `import()` loads: pass 1, which writes nothing. */
async function dynamicImportTargets() {
  const pass = { ...COMMON, outdir: BUNDLE_DIR, write: false, metafile: true, plugins: [loadPlugin(new Set())] };
  const { metafile } = await build(pass);
  const targets = new Set();
  for (const input of Object.values(metafile.inputs))
    for (const imported of input.imports)
      if (imported.kind === 'dynamic-import' && !imported.external) targets.add(resolve(ROOT, imported.path));
  return targets;
}

if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is not built: run "tsc -p tsconfig.json" first`);
// esbuild is a devDependency with a native binary from an optional one: where it cannot load (an
// install without optional packages, a platform it has no binary for), the build still succeeds
// without the bundle, and bin runs dist/cli/. An error of the bundling itself fails the build.
let build;
try {
  ({ build } = await import('esbuild'));
} catch (err) {
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  console.warn(`intentsim: the CLI bundle is not built (esbuild: ${err.message.split('\n')[0]}); bin runs dist/cli/`);
  process.exit(0);
}
const targets = await dynamicImportTargets();
rmSync(BUNDLE_DIR, { recursive: true, force: true });
await build({ ...COMMON, outdir: BUNDLE_DIR, splitting: true, plugins: [loadPlugin(targets)] });
