// Every command's --help, read as a newcomer reads it: text wrapped once (as written), one default
// per option, no old spelling of a command or of the command's own options, and the commands whose
// options differ (ask and audit) each stating their own defaults.
import { describe, expect, it } from 'vitest';
import type { Command } from '@commander-js/extra-typings';
import { buildProgram } from '../cli/main.js';
import { DEFAULT_JUDGE_SETTINGS } from '../engine/evaluation/audit.js';

interface Visible {
  path: string;
  command: Command;
}

/** The commands shown in help (a hidden command's subcommands are hidden with it). */
function visibleCommands(c: Command, path: string[] = []): Visible[] {
  const hidden = (c as unknown as { _hidden?: boolean })._hidden === true;
  if (hidden) return [];
  return [
    { path: ['intentsim', ...path].join(' '), command: c },
    ...c.commands.flatMap((s) => visibleCommands(s as unknown as Command, [...path, s.name()])),
  ];
}

/** Every hidden command's path below `c` (its old spelling), as a user types it after `intentsim`. */
function hiddenCommandPaths(c: Command, path: string[] = []): string[] {
  return c.commands.flatMap((s) => {
    const p = [...path, s.name()];
    if ((s as unknown as { _hidden?: boolean })._hidden === true)
      return [p.join(' '), ...s.commands.map((t) => [...p, t.name()].join(' '))];
    return hiddenCommandPaths(s as unknown as Command, p);
  });
}

const program = await buildProgram();
const commands = visibleCommands(program as unknown as Command);

describe('every --help', () => {
  it('covers the command line (the walk is not blind)', () => {
    const paths = commands.map((c) => c.path);
    expect(paths).toContain('intentsim queue worker');
    expect(paths).toContain('intentsim review start');
    expect(paths).not.toContain('intentsim worker');
    expect(hiddenCommandPaths(program as unknown as Command)).toEqual(
      expect.arrayContaining(['assemble sib', 'graph match', 'catalog items', 'worker']),
    );
  });

  it('prints a pre-wrapped description as written, not wrapped a second time', () => {
    for (const { path, command } of commands) {
      const description = command.description();
      if (!description.includes('\n')) continue;
      // `queue worker`'s was wrapped again at 80 columns: it was added with addCommand, without the program's help width.
      expect(command.helpInformation(), path).toContain(description);
    }
  });

  it('states one default per option', () => {
    for (const { path, command } of commands)
      for (const o of command.options) {
        if (o.hidden || o.defaultValue === undefined) continue;
        // commander prints "(default: …)" for a declared default: a second one in the text may disagree.
        expect(o.description, `${path} ${o.long}`).not.toMatch(/\bdefault\b/);
      }
  });

  it('names no old spelling: no hidden command path, and none of the command’s own deprecated options', () => {
    const oldPaths = hiddenCommandPaths(program as unknown as Command);
    for (const { path, command } of commands) {
      const help = command.helpInformation();
      for (const old of oldPaths) {
        // "worker" alone is a common word: its old path is `intentsim worker` or `worker` in backquotes.
        const pattern = old === 'worker' ? /intentsim worker\b|`worker`/ : new RegExp(`\\b${old}\\b`);
        expect(help, `${path}: the old command path "${old}"`).not.toMatch(pattern);
      }
      for (const o of command.options) {
        if (!o.hidden || !o.description.startsWith('deprecated') || !o.long) continue;
        expect(help, `${path}: its old option ${o.long}`).not.toMatch(new RegExp(`${o.long}(?![-\\w])`));
      }
    }
  });
});

describe('ask and audit --help', () => {
  const help = (path: string) => commands.find((c) => c.path === path)!.command.helpInformation();

  it("audit states the judge's defaults, the ones it uses, and offers no --samples (it refuses them)", () => {
    const audit = help('intentsim audit');
    expect(audit).not.toMatch(/--samples <n>/);
    expect(audit).toMatch(
      new RegExp(`--temperature <t> +sampling temperature \\(default: ${DEFAULT_JUDGE_SETTINGS.temperature}\\)`),
    );
    expect(audit).toMatch(
      new RegExp(
        `--max-completion-tokens <n> +the request's max_tokens \\(default: ${DEFAULT_JUDGE_SETTINGS.maxTokens}\\)`,
      ),
    );
    expect(audit).toContain(
      `temperature ${DEFAULT_JUDGE_SETTINGS.temperature} and max_tokens ${DEFAULT_JUDGE_SETTINGS.maxTokens} unless`,
    );
    // ask's style defaults are ask's only.
    expect(audit).not.toMatch(/zero-shot 10|cot_sc 0\.7/);
  });

  it("ask states the styles' defaults and offers --samples", () => {
    const ask = help('intentsim ask');
    expect(ask).toMatch(/--samples <n> +cot_sc: samples per item \(default 5\)/);
    expect(ask).toMatch(
      /--max-completion-tokens <n> +the request's max_tokens \(default: the style's: zero-shot 10, CoT 200\)/,
    );
  });

  it('review start names the items command by its new path', () => {
    expect(help('intentsim review start')).toContain('`items sib` wrote');
  });

  it('score shoppingbench prints its --batch-size default once', () => {
    expect(help('intentsim score shoppingbench')).toMatch(
      /--batch-size <n> +sentences per model call \(default: 256\)\n/,
    );
  });
});
