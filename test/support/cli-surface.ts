// The command line's surface: every command path and every option of `buildProgram()`, one line
// each, so that a test can check that a restructuring left the commands and options as they were.
import type { CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';

function optionLine(path: string, o: Option): string {
  const value = o.variadic
    ? 'variadic'
    : o.required
      ? 'value'
      : o.optional
        ? 'optional value'
        : o.negate
          ? 'negate'
          : 'flag';
  const parts = [`${path} ${o.long ?? o.short}`, value];
  if (o.mandatory) parts.push('mandatory');
  // An old spelling, kept for one release: hidden from help (cli/options/deprecated-spellings.ts).
  if (o.hidden) parts.push('hidden');
  // A default is written as its text, so that "1" and 1 read the same: a default given as the text a
  // user would type, or as the value it parses to, is the same default.
  const d: unknown = o.defaultValue;
  if (d !== undefined) parts.push(`default ${typeof d === 'string' ? d : JSON.stringify(d)}`);
  return parts.join(' | ');
}

/**
 * "intentsim graph import", then one line per option (sorted), then each subcommand, recursively. A
 * command hidden from help (an old path, kept for one release) is marked "| hidden".
 */
export function cliSurface(cmd: Command, parent = '', hidden = false): string[] {
  const path = parent ? `${parent} ${cmd.name()}` : cmd.name();
  const aliases = cmd.aliases();
  const lines = [(aliases.length > 0 ? `${path} (alias ${aliases.join(', ')})` : path) + (hidden ? ' | hidden' : '')];
  lines.push(...cmd.options.map((o) => optionLine(path, o)).sort());
  const visible = new Set(cmd.createHelp().visibleCommands(cmd));
  for (const sub of cmd.commands) lines.push(...cliSurface(sub, path, !visible.has(sub)));
  return lines;
}
