// docs/commands.md's table names every command a user can run: each visible command without
// subcommands (`items check` was missing, issue 47), as `intentsim --help` lists them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from '@commander-js/extra-typings';
import { buildProgram } from '../cli/main.js';
import { projectRoot } from '../core/shared-files.js';

/** The paths of the visible commands that have no subcommands (`graph import`, `demo`, …). */
function leafCommands(c: Command, path: string[] = []): string[] {
  if ((c as unknown as { _hidden?: boolean })._hidden === true) return [];
  const subs = c.commands.filter((s) => s.name() !== 'help');
  if (subs.length === 0) return path.length === 0 ? [] : [path.join(' ')];
  return subs.flatMap((s) => leafCommands(s as unknown as Command, [...path, s.name()]));
}

describe('docs/commands.md', () => {
  it("has a row for every command, in its table's first column", async () => {
    const program = (await buildProgram()) as unknown as Command;
    const text = readFileSync(join(projectRoot(), 'docs', 'commands.md'), 'utf8');
    const named = new Set(
      text
        .split('\n')
        .filter((l) => l.startsWith('| `'))
        .flatMap((l) => [...l.split(' | ')[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)),
    );
    const commands = leafCommands(program);
    expect(commands).toContain('items check');
    expect(commands.filter((c) => !named.has(c))).toEqual([]);
  });
});
