// Old spellings of options, option values and command paths, kept for one release after the CLI's
// vocabulary was made one (issue 27 §2, CHANGELOG.md, "Renamed options and commands"). An old spelling is
// hidden from --help, still does what it did, and prints one line on stderr that names the new one.
import { InvalidArgumentError, Option, type CommandUnknownOpts } from '@commander-js/extra-typings';

/** The one line an old spelling prints on stderr; `instead` says what to do when no spelling replaces it. */
export function deprecationNote(old: string, replacement: string, instead?: string): string {
  return `intentsim: ${old} is deprecated and will be removed in the next release; ${instead ?? `use ${replacement}`}\n`;
}

/** The note of an old command path (`assemble sib`), naming the new one (`items sib`) as it is typed. */
export function commandDeprecationNote(oldPath: string, newPath: string): string {
  return deprecationNote(`the command \`${oldPath}\``, `\`intentsim ${newPath}\``);
}

function warn(old: string, replacement: string, instead?: string): void {
  process.stderr.write(deprecationNote(old, replacement, instead));
}

/** An old option spelling: its flags, the new spelling, and where its value goes. */
export interface DeprecatedOption {
  /** The old flags, as they were declared: '--batch <n>'. */
  flags: string;
  /** The new spelling, as the note names it: '--batch-records'. */
  use: string;
  /** For an option that nothing replaces: what the note says instead of "use …". */
  instead?: string;
  /** The parser of the new option, so that the old spelling accepts and rejects the same values. */
  parse?: (value: string) => unknown;
  /**
   * The attributes (option values) that the old value sets: default the new option's. The old
   * value goes to each one that the command line did not give itself.
   */
  to?: readonly string[];
  /** The options it cannot be given with (default: its one target, the same option spelled anew). */
  conflictsWith?: readonly string[];
  /** Instead of `to`: how the old value is put into the new option (e.g. one bound of a window). */
  apply?: (value: unknown, cmd: CommandUnknownOpts) => void;
}

/** Declares each old spelling on `cmd` (hidden from help), and moves its value to the new option. */
export function addDeprecatedOptions<C extends CommandUnknownOpts>(cmd: C, olds: readonly DeprecatedOption[]): C {
  for (const old of olds) {
    const option = new Option(old.flags, `deprecated: ${old.instead ?? `use ${old.use}`}`).hideHelp();
    if (old.parse) option.argParser(old.parse);
    const targets = old.to ?? (old.instead === undefined ? [new Option(old.use).attributeName()] : []);
    // Both spellings of one option at once: commander refuses them, naming both.
    option.conflicts([...(old.conflictsWith ?? (targets.length === 1 ? targets : []))]);
    cmd.addOption(option);
    const from = option.attributeName();
    cmd.hook('preAction', (hooked) => {
      if (hooked.getOptionValueSource(from) !== 'cli') return;
      warn(option.long ?? old.flags, old.use, old.instead);
      const value: unknown = hooked.getOptionValue(from);
      if (old.apply) {
        old.apply(value, hooked);
        return;
      }
      for (const t of targets)
        if (hooked.getOptionValueSource(t) !== 'cli') hooked.setOptionValueWithSource(t, value, 'cli');
    });
  }
  return cmd;
}

/**
 * Marks `cmd` (a command or a group of commands) as the old path of `use`: a run of it (or of a
 * command under it) prints the note first. Its parent hides it (`{ hidden: true }`).
 */
export function deprecateCommand<C extends CommandUnknownOpts>(cmd: C, use: string): C {
  cmd.hook('preAction', () => {
    process.stderr.write(commandDeprecationNote(commandPath(cmd), use));
  });
  return cmd;
}

function commandPath(cmd: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * A parser for a choice among `choices` whose words are joined by `_` (zero_shot, five_shot), that
 * also takes the `-` spelling (zero-shot) with a note. `flag` names the option in the note.
 */
export function underscoreChoice<S extends string>(flag: string, choices: readonly S[]): (value: string) => S {
  return (value) => canonicalChoice(flag, value, choices);
}

/** The `_` spelling of `value`, one of `choices`; a `-` spelling is accepted with a note. */
export function canonicalChoice<S extends string>(flag: string, value: string, choices: readonly S[]): S {
  const canonical = value.replaceAll('-', '_');
  const found = choices.find((c) => c === canonical);
  if (found === undefined) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
  if (canonical !== value) warn(`${flag} ${value}`, `${flag} ${canonical}`);
  return found;
}
