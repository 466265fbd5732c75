// The old spellings of issue 27 §2 (CHANGELOG.md, "Renamed options and commands"): each one still works for
// one release, and prints one line on stderr that names its new spelling. For every old spelling,
// the command line is parsed twice, with the old spelling and with the new one, and the options its
// action receives must be the same (the old option's own hidden value aside); then a few old
// spellings run for real and must give the new spelling's output, byte for byte.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../cli/main.js';
import { commandDeprecationNote, deprecationNote } from '../cli/options/deprecated-spellings.js';

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'intentsim-deprecations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let stderr: string[] = [];
beforeEach(() => {
  stderr = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

/** The command that `args` runs, in a program of only its top-level command. */
function leafOf(program: CommandUnknownOpts, args: readonly string[]): CommandUnknownOpts {
  let cmd = program;
  for (const arg of args) {
    const sub = cmd.commands.find((c) => c.name() === arg);
    if (sub === undefined) break;
    cmd = sub;
  }
  return cmd;
}

/** The option values the action of `args` receives (the hidden old options' own values left out). */
async function parsedOptions(args: readonly string[]): Promise<Record<string, unknown>> {
  const program = (await buildProgram(args[0])) as unknown as CommandUnknownOpts;
  const leaf = leafOf(program, args);
  let seen: Record<string, unknown> | undefined;
  leaf.action(() => {
    seen = { ...leaf.opts() };
  });
  // A parse error throws (CommanderError) instead of exiting, from whichever command finds it.
  const throwing = (c: CommandUnknownOpts): void => {
    c.exitOverride();
    c.commands.forEach(throwing);
  };
  throwing(program);
  await program.parseAsync(['node', 'intentsim', ...args]);
  if (seen === undefined) throw new Error(`no action ran for ${args.join(' ')}`);
  for (const o of leaf.options) if (o.hidden) delete seen[o.attributeName()];
  return seen;
}

const note = deprecationNote;
const responses = join(dir, 'responses.jsonl');

/** [old command line, new command line, the notes the old one prints]. */
const CASES: ReadonlyArray<[old: string[], now: string[], notes: string[]]> = [
  // Options
  [
    ['graph', 'import', '--to', 'g.sqlite', '--jsonl', 'e.jsonl', '--batch', '7'],
    ['graph', 'import', '--to', 'g.sqlite', '--jsonl', 'e.jsonl', '--batch-records', '7'],
    [note('--batch', '--batch-records')],
  ],
  [
    ['embed', '--graph', 'g', '--products', 'p', '--out', 'o', '--cache-dir', 'C'],
    ['embed', '--graph', 'g', '--products', 'p', '--out', 'o', '--model-cache', 'C', '--node-cache', 'C'],
    [note('--cache-dir', '--model-cache')],
  ],
  [
    ['embed', '--graph', 'g', '--products', 'p', '--out', 'o', '--cache-dir', 'C', '--no-node-cache'],
    ['embed', '--graph', 'g', '--products', 'p', '--out', 'o', '--model-cache', 'C', '--no-node-cache'],
    [note('--cache-dir', '--model-cache')],
  ],
  [
    ['embed', '--graph', 'g', '--products', 'p', '--out', 'o', '--work-sentences', '9', '--unit-nodes', '3'],
    ['embed', '--graph', 'g', '--products', 'p', '--out', 'o', '--chunk-sentences', '9', '--chunk-nodes', '3'],
    [note('--work-sentences', '--chunk-sentences'), note('--unit-nodes', '--chunk-nodes')],
  ],
  [
    ['pipeline', '--graph', 'g', '--products', 'p', '--assertions', 'a', '--out', 'o', '--cache-dir', 'C'],
    [
      'pipeline',
      '--graph',
      'g',
      '--products',
      'p',
      '--assertions',
      'a',
      '--out',
      'o',
      '--model-cache',
      'C',
      '--node-cache',
      'C',
    ],
    [note('--cache-dir', '--model-cache')],
  ],
  [
    ['demo', '--out', 'o', '--cache-dir', 'C'],
    ['demo', '--out', 'o', '--model-cache', 'C'],
    [note('--cache-dir', '--model-cache')],
  ],
  [
    ['encode', '--in', 'i', '--out', 'o', '--cache-dir', 'C'],
    ['encode', '--in', 'i', '--out', 'o', '--model-cache', 'C'],
    [note('--cache-dir', '--model-cache')],
  ],
  [
    ['model', 'download', '--cache-dir', 'C'],
    ['model', 'download', '--model-cache', 'C'],
    [note('--cache-dir', '--model-cache')],
  ],
  [
    ['ask', '--items', 'i', '--out', 'o', '--cache-dir', 'C'],
    ['ask', '--items', 'i', '--out', 'o', '--model-cache', 'C', '--cache', join('C', 'chat-responses.jsonl')],
    [note('--cache-dir', '--model-cache')],
  ],
  [
    ['ask', '--items', 'i', '--out', 'o', '--cache-dir', 'C', '--no-cache'],
    ['ask', '--items', 'i', '--out', 'o', '--model-cache', 'C', '--no-cache'],
    [note('--cache-dir', '--model-cache')],
  ],
  [
    ['ask', '--items', 'i', '--out', 'o', '--style', 'zero-shot'],
    ['ask', '--items', 'i', '--out', 'o', '--style', 'zero_shot'],
    [note('--style zero-shot', '--style zero_shot')],
  ],
  [
    ['score', 'sib', '--tasks', 't', '--responses', responses, '--out', 'o', '--style', 'five-shot'],
    ['score', 'sib', '--tasks', 't', '--responses', responses, '--out', 'o', '--style', 'five_shot'],
    [note('--style five-shot', '--style five_shot')],
  ],
  [
    ['catalog', 'index', '--products', 'p', '--out', 'o', '--chunk-size', '5', '--cache-dir', 'C'],
    ['catalog', 'index', '--products', 'p', '--out', 'o', '--chunk-products', '5', '--model-cache', 'C'],
    [note('--chunk-size', '--chunk-products'), note('--cache-dir', '--model-cache')],
  ],
  [
    [
      'catalog',
      'match',
      '--graph',
      'g',
      '--products',
      'p',
      '--out',
      'o',
      '--batch',
      '5',
      '--openai-base-url',
      'http://h/v1',
      '--openai-model',
      'm',
      '--openai-key-env',
      'K',
      '--openai-cache',
      'c.jsonl',
      '--openai-rpm',
      '6',
      '--openai-concurrency',
      '2',
    ],
    [
      'catalog',
      'match',
      '--graph',
      'g',
      '--products',
      'p',
      '--out',
      'o',
      '--batch-products',
      '5',
      '--endpoint',
      'http://h/v1',
      '--model',
      'm',
      '--api-key-env',
      'K',
      '--cache',
      'c.jsonl',
      '--requests-per-minute',
      '6',
      '--concurrency',
      '2',
    ],
    [
      note('--batch', '--batch-products'),
      note('--openai-base-url', '--endpoint'),
      note('--openai-model', '--model'),
      note('--openai-key-env', '--api-key-env'),
      note('--openai-cache', '--cache'),
      note('--openai-rpm', '--requests-per-minute'),
      note('--openai-concurrency', '--concurrency'),
    ],
  ],
  [
    [
      'items',
      'sib',
      '--sessions',
      's',
      '--out',
      'o',
      '--window-intention',
      '0.1,0.2',
      '--window-attribute',
      '0.2,0.3',
      '--window-comparison',
      '0.3,0.4',
      '--window-next',
      '0.4,0.5',
      '--styles',
      'zero-shot,five-shot',
    ],
    [
      'items',
      'sib',
      '--sessions',
      's',
      '--out',
      'o',
      '--task1-window',
      '0.1,0.2',
      '--task2-window',
      '0.2,0.3',
      '--task3-window',
      '0.3,0.4',
      '--next-product-window',
      '0.4,0.5',
      '--styles',
      'zero_shot,five_shot',
    ],
    [
      note('--styles zero-shot', '--styles zero_shot'),
      note('--styles five-shot', '--styles five_shot'),
      note('--window-intention', '--task1-window'),
      note('--window-attribute', '--task2-window'),
      note('--window-comparison', '--task3-window'),
      note('--window-next', '--next-product-window'),
    ],
  ],
  [
    ['items', 'catalog', '--index', 'x', '--questions', 'q', '--out', 'o', '--lo', '0.2', '--hi', '0.8'],
    ['items', 'catalog', '--index', 'x', '--questions', 'q', '--out', 'o', '--window', '0.2,0.8'],
    [note('--lo', '--window lo,hi'), note('--hi', '--window lo,hi')],
  ],
  [
    ['queue', 'worker', '--queue', 'redis://h:1', '--encoder', 'sentence-bert', '--sif', '--batch-size', '8'],
    ['queue', 'worker', '--queue', 'redis://h:1'],
    [
      deprecationNote('--encoder', '', 'leave it out: each job names its encoder (and glove-100d its weighting)'),
      deprecationNote('--sif', '', 'leave it out: each job names its encoder (and glove-100d its weighting)'),
      deprecationNote('--batch-size', '', "leave it out: each job brings its coordinator's batch size"),
    ],
  ],
  // Command paths
  [
    ['graph', 'match', '--graph', 'g', '--products', 'p', '--out', 'o'],
    ['catalog', 'match', '--graph', 'g', '--products', 'p', '--out', 'o'],
    [commandDeprecationNote('graph match', 'catalog match')],
  ],
  [
    ['assemble', 'sib', '--sessions', 's', '--out', 'o'],
    ['items', 'sib', '--sessions', 's', '--out', 'o'],
    [commandDeprecationNote('assemble sib', 'items sib')],
  ],
  [
    ['catalog', 'items', '--index', 'x', '--questions', 'q', '--out', 'o', '--lo', '0.3'],
    ['items', 'catalog', '--index', 'x', '--questions', 'q', '--out', 'o'],
    [commandDeprecationNote('catalog items', 'items catalog'), note('--lo', '--window lo,hi')],
  ],
  [
    ['worker', '--queue', 'redis://h:1'],
    ['queue', 'worker', '--queue', 'redis://h:1'],
    [commandDeprecationNote('worker', 'queue worker')],
  ],
];

describe('the note of an old command path', () => {
  it('names the old path once, and the new one as it is typed', () => {
    // It said "intentsim: intentsim assemble sib is deprecated …".
    expect(commandDeprecationNote('assemble sib', 'items sib')).toBe(
      'intentsim: the command `assemble sib` is deprecated and will be removed in the next release; use `intentsim items sib`\n',
    );
  });
});

describe('old spellings (one release): the same options, and one note each', () => {
  // Every command checks the paths it declares before its action (cli/declared-paths.ts): the
  // relative paths of the cases name files and folders that exist, in a folder of this test's own.
  const cwd = process.cwd();
  beforeAll(() => {
    const inputs = join(dir, 'inputs');
    mkdirSync(join(inputs, 'x'), { recursive: true });
    for (const f of ['g.sqlite', 'e.jsonl', 'g', 'p', 'a', 'i', 'q', 's', 't']) writeFileSync(join(inputs, f), '');
    if (!existsSync(responses)) writeFileSync(responses, '');
    process.chdir(inputs);
  });
  afterAll(() => process.chdir(cwd));

  it.each(CASES)('%j', async (old, now, notes) => {
    const expected = await parsedOptions(now);
    expect(stderr).toEqual([]); // the new spelling prints nothing
    const got = await parsedOptions(old);
    if (old.includes('--lo') && !old.includes('--hi')) expect(got.window).toEqual({ lo: 0.3 });
    else expect(got).toEqual(expected);
    expect([...stderr].sort()).toEqual([...notes].sort());
    // An old command path's note comes first, before its options' own.
    if (notes[0]!.startsWith('intentsim: the command ')) expect(stderr[0]).toBe(notes[0]);
  });

  it('lists every hidden option of the command line in the table above', async () => {
    const covered = new Set(CASES.flatMap(([old]) => old.filter((a) => a.startsWith('--'))));
    const hidden = new Set<string>();
    const visit = (c: CommandUnknownOpts) => {
      for (const o of c.options) if (o.hidden && o.long) hidden.add(o.long);
      c.commands.forEach(visit);
    };
    visit((await buildProgram()) as unknown as CommandUnknownOpts);
    expect([...hidden].filter((flag) => !covered.has(flag))).toEqual([]);
  });

  it('an old spelling and its new one together are refused, naming both', async () => {
    await expect(
      parsedOptions(['graph', 'import', '--to', 'g', '--jsonl', 'e', '--batch', '1', '--batch-records', '2']),
    ).rejects.toThrow("option '--batch <n>' cannot be used with option '--batch-records <n>'");
  });

  it('an old style spelling that names no style is still refused', async () => {
    await expect(parsedOptions(['ask', '--items', 'i', '--out', 'o', '--style', 'zero-shots'])).rejects.toThrow(
      'Allowed choices are zero_shot, cot, cot_sc, five_shot.',
    );
  });

  it("a worker's old --encoder is ignored with its note, whatever it names: each job names its encoder", async () => {
    const expected = await parsedOptions(['worker', '--queue', 'redis://h:1']);
    stderr.length = 0;
    expect(await parsedOptions(['worker', '--queue', 'redis://h:1', '--encoder', 'glove-100d'])).toEqual(expected);
    expect(stderr).toEqual([
      commandDeprecationNote('worker', 'queue worker'),
      deprecationNote('--encoder', '', 'leave it out: each job names its encoder (and glove-100d its weighting)'),
    ]);
  });
});

/** Runs the whole command, as `intentsim ARGS` would, in this process. */
async function run(args: readonly string[]): Promise<void> {
  await (await buildProgram(args[0])).exitOverride().parseAsync(['node', 'intentsim', ...args]);
}

function files(folder: string): Record<string, string> {
  return Object.fromEntries(readdirSync(folder).map((f) => [f, readFileSync(join(folder, f), 'utf8')]));
}

describe('old spellings still do what they did', () => {
  it('assemble sib --styles zero-shot,cot writes what items sib --styles zero_shot,cot writes, byte for byte', async () => {
    const sessions = join(ROOT, 'examples', 'sib', 'sessions.jsonl');
    const common = ['--sessions', sessions, '--no-distractors', '--seed', '3'];
    await run(['items', 'sib', ...common, '--styles', 'zero_shot,cot', '--out', join(dir, 'sib-new')]);
    expect(stderr).toEqual([]);
    await run(['assemble', 'sib', ...common, '--styles', 'zero-shot,cot', '--out', join(dir, 'sib-old')]);
    expect(stderr.sort()).toEqual(
      [commandDeprecationNote('assemble sib', 'items sib'), note('--styles zero-shot', '--styles zero_shot')].sort(),
    );
    const written = files(join(dir, 'sib-new'));
    expect(Object.keys(written).length).toBeGreaterThan(1);
    expect(written['sib-tasks.jsonl']).toContain('"zero-shot"'); // the files' own keys are unchanged
    expect(files(join(dir, 'sib-old'))).toEqual(written);
  });

  it('graph import --batch N imports as --batch-records N does', async () => {
    const edges = join(dir, 'edges.jsonl');
    writeFileSync(
      edges,
      [
        { head: 'PersonX buy a phone', tail: 'PersonX call', relations: { Result: 1 } },
        { head: 'PersonX call', tail: 'PersonX talk', relations: { Succession: 2 } },
        { head: 'PersonX buy a case', tail: 'PersonX buy a phone', relations: { Reason: 1 } },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n',
    );
    const summaries: string[] = [];
    for (const [store, flag] of [
      ['new.sqlite', '--batch-records'],
      ['old.sqlite', '--batch'],
    ] as const) {
      vi.mocked(process.stdout.write).mockClear();
      await run(['graph', 'import', '--to', join(dir, store), '--jsonl', edges, flag, '1', '--json']);
      const out = JSON.parse(String(vi.mocked(process.stdout.write).mock.calls[0]?.[0])) as {
        imports: Array<{ nodesWritten: number; edgesWritten: number }>;
      };
      summaries.push(JSON.stringify(out.imports.map((i) => [i.nodesWritten, i.edgesWritten])));
    }
    expect(summaries).toEqual(['[[4,3]]', '[[4,3]]']); // 4 distinct texts, 3 edges
    expect(stderr).toEqual([note('--batch', '--batch-records')]);
  });
});
