// One line on stderr for what the user should know although nothing failed: a damaged derived file
// that is recomputed, a stale lock taken over, temporary files of a killed run removed. Results and
// summaries go to stdout and manifests; these lines say why a run did more work than expected.

export function notice(message: string): void {
  process.stderr.write(`note: ${message}\n`);
}

/**
 * One line on stderr for what makes a finished run's results doubtful although nothing failed (e.g.
 * similarities that have collapsed, so the windows hold nothing). The run's result records it too.
 */
export function warning(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}
