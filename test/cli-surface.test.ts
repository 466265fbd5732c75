// The CLI's commands and options, as `buildProgram()` declares them, against the list taken from the
// program before the CLI was reorganised into one file per command group (test/cli-surface.expected.txt):
// a regrouping of files and options must leave every command path, option name, kind, requiredness
// and default as it was. (Options added since are added to the list: --max-line-bytes and
// --max-text-length with --on-error. Issue 27 §2 renamed options and commands: the new spellings
// are listed, and the old ones too, marked "| hidden", until they are removed. To update the list
// after a deliberate change, write cliSurface(await buildProgram()) to it, one line each.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../cli/main.js';
import { cliSurface } from './support/cli-surface.js';

describe('intentsim command line surface', () => {
  it('has the same commands and options (names, kinds, requiredness, defaults) as before', async () => {
    const expected = readFileSync(new URL('./cli-surface.expected.txt', import.meta.url), 'utf8')
      .trimEnd()
      .split('\n');
    expect(cliSurface(await buildProgram())).toEqual(expected);
  });

  it('lists what a command declares (the listing is not empty or blind)', async () => {
    const lines = cliSurface(await buildProgram());
    expect(lines).toContain('intentsim graph neighbours (alias neighbors)');
    expect(lines).toContain('intentsim embed --no-node-cache | negate');
    expect(lines).toContain('intentsim graph import --jsonl | variadic');
    expect(lines).toContain('intentsim pipeline --assertions | value | mandatory');
    expect(lines).toContain('intentsim score shoppingbench --batch-size | value | default 256');
    expect(lines).toContain('intentsim graph match | hidden');
    expect(lines).toContain('intentsim embed --cache-dir | value | hidden');
  });

  it('a run that names a command loads only that command, with the same options as in the full program', async () => {
    const full = cliSurface(await buildProgram());
    const names = (await buildProgram()).commands.map((c) => c.name());
    expect(names).toContain('encode');
    for (const name of names) {
      const alone = await buildProgram(name);
      expect(alone.commands.map((c) => c.name())).toEqual([name]);
      const own = full.filter((line) => line === `intentsim ${name}` || line.startsWith(`intentsim ${name} `));
      expect(cliSurface(alone).filter((line) => line.startsWith(`intentsim ${name}`))).toEqual(own);
    }
    expect((await buildProgram('no-such-command')).commands.map((c) => c.name())).toEqual(names);
  });
});
