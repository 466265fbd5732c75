// The flag that sets a library option field, for messages: the library's errors name fields
// (`apiKeyEnv names the environment variable …`, `/x (nodeCacheDir): is a file`), and a command-line
// user must read the flag they typed (`--api-key-env`, `--node-cache`). A field is its flag in
// kebab case where the command line declares that flag (an old spelling, hidden from help, is
// never named); the few fields whose flag is named otherwise are listed.
import type { Command } from '@commander-js/extra-typings';
import { ConfigError, UserError } from '../core/errors.js';
import { PathCheckError, PathOverlapError } from '../core/check-paths.js';

/** Fields whose flag is not their kebab-case name (a list: the first the command declares). */
const FIELD_FLAGS: Readonly<Record<string, string | readonly string[]>> = {
  baseUrl: '--endpoint',
  nodeCacheDir: '--node-cache',
  input: '--in',
  output: '--out',
  itemsDir: '--items',
  cacheFile: '--cache',
  // `review export` and `import` name the review --review; `review start` creates it, as --out.
  reviewDir: ['--review', '--out'],
  maxRetries: '--retries',
  'settings.temperature': '--temperature',
  'settings.maxTokens': '--max-completion-tokens',
  'settings.samples': '--samples',
};

/** Every long flag a command line declares: its subcommands' and its parent commands' included. */
function declaredFlags(program: Command<unknown[], Record<string, unknown>, Record<string, unknown>>): Set<string> {
  const flags = new Set<string>();
  const add = (c: typeof program) => {
    for (const o of c.options) if (o.long && !o.hidden) flags.add(o.long);
  };
  const visit = (c: typeof program) => {
    add(c);
    for (const sub of c.commands) visit(sub as typeof program);
  };
  visit(program);
  for (let p = program.parent; p; p = p.parent) add(p as typeof program);
  return flags;
}

/** The flag of `field` on this command line, or undefined when it declares none. */
export function flagOf(field: string, program: Command | undefined): string | undefined {
  // One of a list's files (`jsonl[1]`, `responses[0]`): its flag, and which of the files.
  const listItem = /^(\w+)\[(\d+)\]$/.exec(field);
  if (listItem) {
    const flag = flagOf(listItem[1]!, program);
    return flag === undefined ? undefined : `${flag} #${Number(listItem[2]) + 1}`;
  }
  const flags = program === undefined ? new Set<string>() : declaredFlags(program as never);
  const listed = FIELD_FLAGS[field];
  if (typeof listed === 'string') return flags.size === 0 || flags.has(listed) ? listed : undefined;
  if (listed !== undefined) return listed.find((f) => flags.has(f));
  const kebab = '--' + field.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
  return flags.has(kebab) ? kebab : undefined;
}

/** An error's message in the command line's words: its option field replaced by the flag. */
export function messageInFlags(err: UserError, program: Command | undefined): string {
  if (err instanceof ConfigError) {
    const flag = flagOf(err.field, program);
    if (flag !== undefined) return `${flag} ${err.reason}`;
  }
  if (err instanceof PathCheckError) {
    const flag = flagOf(err.field, program);
    if (flag !== undefined) return `${err.path} (${flag}): ${err.problem}`;
  }
  if (err instanceof PathOverlapError) {
    const flag = (field: string) => flagOf(field, program) ?? field;
    return PathOverlapError.describe(err.path, flag(err.field), err.inputPath, flag(err.inputField), err.relation);
  }
  return err.message;
}
