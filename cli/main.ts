// The `intentsim` command line: one file per command group (cli/commands/), each declaring its
// options (shared groups in cli/options/) and calling one library function; this file wires them up.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import { UserError } from '../core/errors.js';
import { projectRoot } from '../core/shared-files.js';
import { redact } from '../core/redact.js';
import { exitCleanlyOnInterrupt, undoAllForInterrupt } from '../core/interrupt.js';
import { cliHint } from './error-hints.js';
import { messageInFlags } from './option-flags.js';
import { checkDeclaredPathsBeforeAction } from './declared-paths.js';

type Register = (program: Command) => void;

/**
 * Each top-level command, in help order, and the module that declares it. A module imports its
 * command's library code, and importing all of them costs about 0.3 s, so a run loads only the
 * module of the command it names (every module for help, or a name that is not a command).
 */
const COMMANDS: ReadonlyArray<[name: string, load: () => Promise<Register>]> = [
  ['graph', async () => (await import('./commands/graph.js')).registerGraphCommands],
  ['pipeline', async () => (await import('./commands/pipeline.js')).registerPipelineCommand],
  ['demo', async () => (await import('./commands/demo.js')).registerDemoCommand],
  ['embed', async () => (await import('./commands/embed.js')).registerEmbedCommand],
  ['encode', async () => (await import('./commands/encode.js')).registerEncodeCommand],
  ['model', async () => (await import('./commands/model.js')).registerModelCommands],
  ['items', async () => (await import('./commands/items.js')).registerItemsCommands],
  ['ask', async () => (await import('./commands/ask.js')).registerAskCommand],
  ['audit', async () => (await import('./commands/audit.js')).registerAuditCommand],
  ['score', async () => (await import('./commands/score.js')).registerScoreCommands],
  ['catalog', async () => (await import('./commands/catalog.js')).registerCatalogCommands],
  ['queue', async () => (await import('./commands/queue.js')).registerQueueCommands],
  ['review', async () => (await import('./commands/review.js')).registerReviewCommands],
  ['tune', async () => (await import('./commands/tune.js')).registerTuneCommand],
  // Old paths, hidden from help, kept for one release: `assemble sib` is `items sib`, `worker` is
  // `queue worker` (CHANGELOG.md, "Renamed options and commands").
  ['assemble', async () => (await import('./commands/assemble.js')).registerAssembleCommands],
  ['worker', async () => (await import('./commands/worker.js')).registerDeprecatedWorkerCommand],
];

/** The flags that print the version: the program's own option, which needs no command declared. */
const VERSION_FLAGS: ReadonlySet<string | undefined> = new Set(['-V', '--version']);

/**
 * The command line with every command, with only `commandName`'s when that names one, or with none
 * for `--version` (which prints what the program itself declares).
 */
export async function buildProgram(commandName?: string): Promise<Command> {
  const program = new Command('intentsim')
    .description(
      'Context embeddings from the ASER eventuality graph, and distractor-backed multiple-choice items\n' +
        'for IntentionQA and SessionIntentBench.',
    )
    .version(packageVersion(), '-V, --version', 'print the version of intentsim')
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: false, helpWidth: 110 });

  const named = COMMANDS.filter(([name]) => name === commandName);
  const wanted = VERSION_FLAGS.has(commandName) ? [] : named.length > 0 ? named : COMMANDS;
  // Loaded together (the module loader overlaps their reads), registered in help order.
  const registers = await Promise.all(wanted.map(([, load]) => load()));
  for (const register of registers) register(program);
  inheritHelpSettings(program);
  // Every command's declared paths are checked before its action (cli/declared-paths.ts).
  checkDeclaredPathsBeforeAction(program);
  return program;
}

/**
 * Gives every command the program's help settings (its own, where it has some, win). A command built
 * apart and added with addCommand (`queue worker`) inherits none, so commander wrapped its help text,
 * already wrapped at 110 columns, a second time at 80.
 */
function inheritHelpSettings(parent: Command): void {
  for (const sub of parent.commands) {
    sub.configureHelp({ ...parent.configureHelp(), ...sub.configureHelp() });
    inheritHelpSettings(sub as unknown as Command);
  }
}

/** The command line of this run, once built: failures name its flags rather than library fields. */
let running: Command | undefined;

/** The version in intentsim's package.json (the installed package's own). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export async function main(argv: string[]): Promise<void> {
  // Ctrl-C and SIGTERM: temporary files removed, locks released, one line, exit 130 / 143.
  exitCleanlyOnInterrupt((signal, undone) =>
    process.stderr.write(
      `intentsim: interrupted by ${signal}: removed ${undone} temporary file(s) and lock(s) of this run\n`,
    ),
  );
  exitQuietlyOnClosedStdout();
  // argv is [node, script, command, …]: only that command's module is loaded.
  running = await buildProgram(argv[2]);
  // Failures name the flags of the command that ran (`review start --out` and `review export
  // --review` give one field, reviewDir), not those of its siblings.
  running.hook('preAction', (_program, action) => {
    running = action as Command;
  });
  await running.parseAsync(argv);
}

/**
 * `intentsim graph stats … | head`: when the reader of stdout goes away, writing to it fails with
 * EPIPE. Unix tools are ended by SIGPIPE then, silently; so is this one (issue 35: it printed a
 * stack trace): its temporary files and locks are removed as on Ctrl-C, nothing is printed, and it
 * exits with the shell's code for SIGPIPE (141).
 */
function exitQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    undoAllForInterrupt();
    process.exit(SIGPIPE_EXIT_CODE);
  });
}

/** 128 + SIGPIPE's number, as shells report a process that signal ended. */
const SIGPIPE_EXIT_CODE = 141;

/** An error of the operating system about the user's files (ENOENT, EACCES, ENOSPC, …): Node gives it a syscall. */
function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * What the command line prints for an error that ended a command: a UserError (bad input, option,
 * store, missing model, …) or a system error about a file by its message alone; anything else is a
 * bug, printed with its stack. Whatever it prints is redacted (core/redact.ts) once more, in case
 * a message quoted a secret its author did not expect.
 */
export function formatFailure(err: unknown, program: Command | undefined = running): string {
  return redact(describeFailure(err, program));
}

function describeFailure(err: unknown, program: Command | undefined): string {
  if (err instanceof UserError || isSystemError(err)) {
    const hint = cliHint(err, program);
    const message = err instanceof UserError ? messageInFlags(err, program) : (err as Error).message;
    return `intentsim: ${message}\n${hint === undefined ? '' : hint + '\n'}`;
  }
  if (err instanceof Error) return `intentsim: internal error: ${err.stack ?? err.message}\n`;
  return `intentsim: internal error: ${String(err)}\n`;
}
