// Every command of the command line declares the files and folders its options name, and the
// declared paths are what the check before each action sees (issue 45: `items check`, `tune` and
// `review export --mturk-csv` wrote over their own inputs because each had to remember to call the
// check itself). The walk below covers every command, hidden old paths included, as
// test/cli-help.test.ts walks them: a new command with an `--out <dir>` and no declaration, or a
// declaration that leaves a path option out, fails here.
import { describe, expect, it } from 'vitest';
import { Command as PlainCommand } from '@commander-js/extra-typings';
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { buildProgram } from '../cli/main.js';
import {
  checkDeclaredPathsBeforeAction,
  declarePaths,
  declaredPaths,
  pathDeclarationOf,
} from '../cli/declared-paths.js';
import type { PathChecks } from '../core/check-paths.js';

/** An option that names a file or folder: its value placeholder says so. */
const PATH_VALUE = /<(file|dir|path|store)s?(\.\.\.)?>/;

/** Every command that runs an action (the leaves), with its path as typed after `intentsim`. */
function leafCommands(
  c: CommandUnknownOpts,
  path: string[] = [],
): Array<{ path: string; command: CommandUnknownOpts }> {
  if (c.commands.length === 0) return [{ path: path.join(' '), command: c }];
  return c.commands.flatMap((s) => leafCommands(s, [...path, s.name()]));
}

/** The path options of `command`, less the old spellings whose value moves to a new option that is checked. */
function pathOptions(command: CommandUnknownOpts) {
  return command.options.filter(
    (o) => PATH_VALUE.test(o.flags) && !(o.hidden && o.description.startsWith('deprecated')),
  );
}

/**
 * What is wrong with `command`'s declaration: none; or a path option whose value, given alone with
 * every other path option, does not appear among the declared paths (itself, or a path inside it). Each path option gets a
 * value of its own (two for a list), and every other option its default.
 */
async function undeclaredPathOptions(command: CommandUnknownOpts): Promise<string[]> {
  if (pathDeclarationOf(command) === undefined) return ['no declaration'];
  const opts: Record<string, unknown> = {};
  for (const o of command.options) if (o.defaultValue !== undefined) opts[o.attributeName()] = o.defaultValue;
  const given = new Map<string, string[]>();
  for (const o of pathOptions(command)) {
    const name = o.attributeName();
    const values = o.variadic ? [`/declared/${name}/0`, `/declared/${name}/1`] : [`/declared/${name}`];
    opts[name] = o.variadic ? values : values[0];
    given.set(o.long!, values);
  }
  const checks: PathChecks = await declaredPaths(command, opts);
  const declared = new Set(
    Object.values(checks).flatMap((paths: Record<string, string | undefined>) => Object.values(paths)),
  );
  // A folder may be declared by the file the command reads in it (`--review R`: R/review.sqlite).
  const covered = (v: string) => [...declared].some((d) => d === v || d?.startsWith(v + '/'));
  return [...given].flatMap(([flag, values]) => (values.every(covered) ? [] : [flag]));
}

const program = (await buildProgram()) as unknown as CommandUnknownOpts;
const leaves = leafCommands(program);

describe('every command declares its paths', () => {
  it('walks the whole command line, old paths included', () => {
    const paths = leaves.map((l) => l.path);
    for (const p of ['items check', 'tune', 'review export', 'model download', 'queue status', 'queue clean', 'worker'])
      expect(paths).toContain(p);
    expect(leaves.length).toBeGreaterThan(30);
  });

  it('each command has a declaration naming every path option it has', async () => {
    const problems: string[] = [];
    for (const { path, command } of leaves)
      for (const problem of await undeclaredPathOptions(command)) problems.push(`${path}: ${problem}`);
    expect(problems).toEqual([]);
  });

  it('the walk fails a command with an --out and no declaration, or a declaration that leaves it out', async () => {
    const bare = new PlainCommand('bare').option('--in <file>', 'input').option('--out <dir>', 'output');
    expect(await undeclaredPathOptions(bare as unknown as CommandUnknownOpts)).toEqual(['no declaration']);
    const partial = declarePaths(
      new PlainCommand('partial').option('--in <file>', 'input').option('--out <dir>', 'output'),
      (o) => ({ inputFiles: { in: o.in } }),
    );
    expect(await undeclaredPathOptions(partial as unknown as CommandUnknownOpts)).toEqual(['--out']);
    const whole = declarePaths(
      new PlainCommand('whole').option('--jsonl <files...>', 'inputs').option('--out <dir>', 'output'),
      (o) => ({ inputFiles: { 'jsonl[0]': o.jsonl?.[0], 'jsonl[1]': o.jsonl?.[1] }, outputDirs: { out: o.out } }),
    );
    expect(await undeclaredPathOptions(whole as unknown as CommandUnknownOpts)).toEqual([]);
  });

  it('the command line checks the declared paths before the action, and stops a command without a declaration', async () => {
    const p = (await buildProgram('tune')) as unknown as Command;
    p.exitOverride();
    await expect(
      p.parseAsync(['node', 'intentsim', 'tune', '--review', '/declared/none', '--settings-out', '/declared/x.json']),
    ).rejects.toThrow('/declared/none (reviewDir): no such folder');

    let ran = false;
    const bare = new PlainCommand('bare');
    bare
      .command('write')
      .option('--out <dir>', 'output')
      .action(() => {
        ran = true;
      });
    checkDeclaredPathsBeforeAction(bare as unknown as CommandUnknownOpts);
    await expect(bare.parseAsync(['node', 'bare', 'write', '--out', '/declared/o'])).rejects.toThrow(
      'the command `write` declares no paths',
    );
    expect(ran).toBe(false);
  });
});
