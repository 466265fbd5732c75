// The flag that sets a library option field, for messages: the library's errors name fields
// (`apiKeyEnv names the environment variable …`, `/x (nodeCacheDir): is a file`), and a command-line
// user must read the flag they typed (`--api-key-env`, `--node-cache`). A field is its flag in
// kebab case where the command line declares that flag (an old spelling, hidden from help, is
// never named); the few fields whose flag is named otherwise are listed.
import type { Command } from '@commander-js/extra-typings';
import { ConfigError, UserError } from '../core/errors.js';
import { PathCheckError } from '../core/check-paths.js';

/** Fields whose flag is not their kebab-case name. */
const FIELD_FLAGS: Readonly<Record<string, string>> = {
  baseUrl: '--endpoint',
  nodeCacheDir: '--node-cache',
  input: '--in',
  output: '--out',
  maxRetries: '--retries',
  'settings.temperature': '--temperature',
  'settings.maxTokens': '--max-completion-tokens',
  'settings.samples': '--samples',
};

/** Every long flag a command line declares, its subcommands' included. */
function declaredFlags(program: Command<unknown[], Record<string, unknown>, Record<string, unknown>>): Set<string> {
  const flags = new Set<string>();
  const visit = (c: typeof program) => {
    for (const o of c.options) if (o.long && !o.hidden) flags.add(o.long);
    for (const sub of c.commands) visit(sub as typeof program);
  };
  visit(program);
  return flags;
}

/** The flag of `field` on this command line, or undefined when it declares none. */
export function flagOf(field: string, program: Command | undefined): string | undefined {
  const flags = program === undefined ? new Set<string>() : declaredFlags(program as never);
  const listed = FIELD_FLAGS[field];
  if (listed !== undefined) return flags.size === 0 || flags.has(listed) ? listed : undefined;
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
  return err.message;
}
