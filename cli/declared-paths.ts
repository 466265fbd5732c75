// Every command declares the paths it reads and writes, next to its options, and the command line
// checks them before the command's action runs (issue 45: `items check`, `tune` and `review export
// --mturk-csv` each forgot to call checkPaths, and wrote over their own inputs). A declaration is a
// function of the command's parsed options returning core/check-paths.ts's PathChecks, usually the
// library's own `…Paths` function plus the options the library derives nothing from. The check runs
// in one place, a preAction hook that buildProgram gives every command (after the hooks that move
// a deprecated option's value to its new name), so no command can skip it; a command without a
// declaration is a bug that stops before any work, and test/declared-paths.test.ts fails for a
// command with a path option (`--out <dir>`, `--items <file>`, …) its declaration leaves out.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { checkPaths, type NamedPaths, type PathChecks } from '../core/check-paths.js';

/** The paths of one run of a command, from its parsed options (a promise: it may load library code). */
export type PathDeclaration<Opts> = (opts: Opts) => PathChecks | Promise<PathChecks>;

const declarations = new WeakMap<CommandUnknownOpts, PathDeclaration<Record<string, unknown>>>();

/** Declares the paths `cmd` reads and writes; returns `cmd`, to chain. */
export function declarePaths<C extends CommandUnknownOpts>(cmd: C, paths: PathDeclaration<ReturnType<C['opts']>>): C {
  declarations.set(cmd, paths as PathDeclaration<Record<string, unknown>>);
  return cmd;
}

/** A command that names no file or folder (queue status, model info without a model folder, …). */
export const NO_PATHS: PathDeclaration<unknown> = () => ({});

/** The declaration of `cmd`, or undefined when it has none. */
export function pathDeclarationOf(cmd: CommandUnknownOpts): PathDeclaration<Record<string, unknown>> | undefined {
  return declarations.get(cmd);
}

/** The paths `cmd` declares for these options (an internal error when it declares none). */
export async function declaredPaths(cmd: CommandUnknownOpts, opts: Record<string, unknown>): Promise<PathChecks> {
  const declaration = declarations.get(cmd);
  if (declaration === undefined)
    throw new Error(`the command \`${cmd.name()}\` declares no paths (cli/declared-paths.ts: declarePaths)`);
  return declaration(opts);
}

/** The files of a list option (`--items a b`), each named as core/check-paths.ts names one: `items[0]`. */
export function listPaths(field: string, files: readonly string[] | undefined): NamedPaths {
  return Object.fromEntries((files ?? []).map((file, i) => [`${field}[${i}]`, file]));
}

/** One PathChecks of several: a library's paths and the ones a command adds. */
export function mergePaths(...checks: PathChecks[]): PathChecks {
  const merged: Record<string, NamedPaths> = {};
  for (const c of checks)
    for (const [group, paths] of Object.entries(c)) merged[group] = { ...merged[group], ...(paths as NamedPaths) };
  return merged as PathChecks;
}

/**
 * Gives every command below `program` (every one that runs an action: the leaves) the preAction hook
 * that checks its declared paths. Hooks run in the order they were added, the program's first: this
 * one, added last, sees the options after the deprecated spellings have moved their values.
 */
export function checkDeclaredPathsBeforeAction(program: CommandUnknownOpts): void {
  for (const sub of program.commands) {
    if (sub.commands.length > 0) {
      checkDeclaredPathsBeforeAction(sub);
      continue;
    }
    sub.hook('preAction', async (_hooked, action) => {
      checkPaths(await declaredPaths(action, action.opts()));
    });
  }
}
