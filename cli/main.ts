// The `intentsim` command line: one file per command group (cli/commands/), each declaring its
// options (shared groups in cli/options/) and calling one library function; this file wires them up.
import { Command } from '@commander-js/extra-typings';
import { UserError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import { exitCleanlyOnInterrupt } from '../core/interrupt.js';
import { cliHint } from './error-hints.js';
import { registerGraphCommands } from './commands/graph.js';
import { registerPipelineCommand } from './commands/pipeline.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerEmbedCommand } from './commands/embed.js';
import { registerEncodeCommand } from './commands/encode.js';
import { registerModelCommands } from './commands/model.js';
import { registerAssembleCommands } from './commands/assemble.js';
import { registerScoreCommands } from './commands/score.js';
import { registerAskCommand } from './commands/ask.js';
import { registerCatalogCommands } from './commands/catalog.js';

export function buildProgram(): Command {
  const program = new Command('intentsim')
    .description(
      'Context embeddings from the ASER eventuality graph, and distractor-backed multiple-choice items\n' +
        'for IntentionQA and SessionIntentBench.',
    )
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: false, helpWidth: 110 });

  registerGraphCommands(program);
  registerPipelineCommand(program);
  registerDemoCommand(program);
  registerEmbedCommand(program);
  registerEncodeCommand(program);
  registerModelCommands(program);
  registerAssembleCommands(program);
  registerAskCommand(program);
  registerScoreCommands(program);
  registerCatalogCommands(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  // Ctrl-C and SIGTERM: temporary files removed, locks released, one line, exit 130 / 143.
  exitCleanlyOnInterrupt((signal, undone) =>
    process.stderr.write(
      `intentsim: interrupted by ${signal}: removed ${undone} temporary file(s) and lock(s) of this run\n`,
    ),
  );
  await buildProgram().parseAsync(argv);
}

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
export function formatFailure(err: unknown): string {
  return redact(describeFailure(err));
}

function describeFailure(err: unknown): string {
  if (err instanceof UserError || isSystemError(err)) {
    const hint = cliHint(err);
    return `intentsim: ${err.message}\n${hint === undefined ? '' : hint + '\n'}`;
  }
  if (err instanceof Error) return `intentsim: internal error: ${err.stack ?? err.message}\n`;
  return `intentsim: internal error: ${String(err)}\n`;
}
