// Ctrl-C (SIGINT) and `kill` (SIGTERM) end a command cleanly: every temporary file still open is
// removed and every output lock released before the process exits, with one line on stderr and the
// shell's exit code for the signal (128 + its number: 130 and 143). Whatever writes a temporary file
// or takes a lock registers how to undo it here, and unregisters once it is committed or released.
// The undo actions are synchronous (rmSync): a signal handler must finish before process.exit.

const undoActions = new Set<() => void>();

/** Registers `undo` to run if the process is interrupted; returns a function that unregisters it. */
export function undoOnInterrupt(undo: () => void): () => void {
  undoActions.add(undo);
  return () => {
    undoActions.delete(undo);
  };
}

/** Runs (and forgets) every registered undo action; returns how many there were. */
export function undoAllForInterrupt(): number {
  const actions = [...undoActions];
  undoActions.clear();
  for (const undo of actions) {
    try {
      undo();
    } catch {
      // best effort: the other files must still be removed
    }
  }
  return actions.length;
}

/** The exit code of a process ended by a signal, as shells report it: 128 + the signal's number. */
export const INTERRUPT_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
export type InterruptSignal = keyof typeof INTERRUPT_EXIT_CODES;

let installed = false;

/**
 * Makes SIGINT and SIGTERM undo every registered action, call `report` (one line for the user) and
 * exit with 130 or 143. Installed once per process, by the command line only: a library caller
 * keeps its own signal handling.
 */
export function exitCleanlyOnInterrupt(report: (signal: InterruptSignal, undone: number) => void): void {
  if (installed) return;
  installed = true;
  for (const signal of Object.keys(INTERRUPT_EXIT_CODES) as InterruptSignal[]) {
    process.on(signal, () => {
      const undone = undoAllForInterrupt();
      report(signal, undone);
      process.exit(INTERRUPT_EXIT_CODES[signal]);
    });
  }
}
