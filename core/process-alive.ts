// Whether a process of this machine still runs: how a lock or a temporary file left by a killed run
// is told apart from one that a running process still owns.

/** True when a process with this id exists on this machine (signal 0 checks without sending anything). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
