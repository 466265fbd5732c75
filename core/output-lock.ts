// One writer per output: a command that writes an output folder (or file, or SQLite graph store)
// first creates a lock file there with O_EXCL, recording its process id, host and command, and
// removes it when done (also on Ctrl-C and SIGTERM, through core/interrupt.ts). A second run into the
// same output stops with a message naming the holder. A lock whose process is gone (a run killed by
// `kill -9`) is stale: it is reported and taken over. A holder on another host cannot be checked from
// here, so its lock is never taken over; the message says how to remove it.
//
// A small O_EXCL file rather than proper-lockfile: that package judges staleness by the lock's age
// (a holder must refresh it on a timer, and a long synchronous step such as an HNSW build would let
// it go stale) and records no pid, while the holder's pid and host are what the message must name.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UserError } from './errors.js';
import { undoOnInterrupt } from './interrupt.js';
import { isProcessAlive } from './process-alive.js';

/** Who holds a lock: written into the lock file as JSON. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The holder's program and subcommand (`intentsim.js catalog index`), for the message; never its
   * options, which may hold a password (`--graph bolt://user:password@host`). */
  command: string;
  /** ISO time the lock was taken. */
  since: string;
}

/** A held lock; `release` removes the lock file (once). */
export interface OutputLock {
  readonly path: string;
  /** The stale holder this lock was taken over from, if any. */
  readonly tookOverFrom?: LockHolder;
  release(): void;
}

/** The output is being written by another run. */
export class OutputLockedError extends UserError {
  constructor(
    readonly target: string,
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
    why: string,
  ) {
    super(`${target} is locked: ${why}`);
    this.name = 'OutputLockedError';
  }
}

/** The lock file of an output: inside a folder, beside a file. */
export function lockPathFor(target: string, kind: 'folder' | 'file'): string {
  return kind === 'folder'
    ? join(target, '.intentsim.lock')
    : join(dirname(target), `.${basename(target)}.intentsim.lock`);
}

/** A lock file that cannot be read or parsed is left alone this long (its writer may be between open and write). */
const UNREADABLE_LOCK_GRACE_MS = 10_000;

/**
 * Takes the lock of `target` (the folder or file must be creatable: the caller makes the folder).
 * Throws OutputLockedError when a live process holds it; takes over a stale one, calling `onStale`.
 */
export function lockOutput(
  target: string,
  kind: 'folder' | 'file',
  onStale: (holder: LockHolder, lockPath: string) => void = () => {},
): OutputLock {
  const path = lockPathFor(target, kind);
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    command: commandName(process.argv),
    since: new Date().toISOString(),
  };
  let tookOverFrom: LockHolder | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path, me)) {
      let released = false;
      const forget = undoOnInterrupt(() => rmSync(path, { force: true }));
      return {
        path,
        tookOverFrom,
        release() {
          if (released) return;
          released = true;
          forget();
          rmSync(path, { force: true });
        },
      };
    }
    const holder = readHolder(path);
    if (holder === 'gone') continue; // released between our attempt and the read: try again
    if (holder === 'unreadable') {
      if (Date.now() - mtimeMs(path) < UNREADABLE_LOCK_GRACE_MS)
        throw new OutputLockedError(target, path, undefined, `${path} is being created by another run; try again`);
      // A lock file left empty or garbled by a crash between its creation and its first write.
      rmSync(path, { force: true });
      continue;
    }
    const held = heldError(target, path, holder, me.host);
    if (held) throw held;
    // Stale: its process is gone. Remove it only if it is still the same lock (another run may have
    // taken it over since we read it), then race for it again like everybody else.
    const again = readHolder(path);
    if (typeof again === 'object' && again.pid === holder.pid && again.since === holder.since) {
      rmSync(path, { force: true });
      tookOverFrom = holder;
      onStale(holder, path);
    }
  }
  throw new OutputLockedError(target, path, undefined, `could not take ${path} (other runs keep taking it); try again`);
}

/** The error for a lock that `holder` keeps (on another host, or alive on this one); undefined when it is stale. */
function heldError(target: string, path: string, holder: LockHolder, myHost: string): OutputLockedError | undefined {
  if (holder.host !== myHost)
    return new OutputLockedError(
      target,
      path,
      holder,
      `intentsim pid ${holder.pid} on host ${holder.host} has been writing it since ${holder.since} (${holder.command}). ` +
        `Its process cannot be checked from ${myHost}: if it no longer runs, delete ${path}`,
    );
  if (isProcessAlive(holder.pid))
    return new OutputLockedError(
      target,
      path,
      holder,
      `intentsim pid ${holder.pid} on host ${holder.host} has been writing it since ${holder.since} (${holder.command}); ` +
        'wait for it to finish or stop it, or write to another output',
    );
  return undefined;
}

/**
 * Throws the OutputLockedError that lockOutput would throw now, without taking the lock: for a
 * command that opens something slow (a model) before its run claims the output, so that it fails at
 * once, having written nothing. The run's own claim still decides (another run may come in between).
 */
export function checkNotLocked(target: string, kind: 'folder' | 'file'): void {
  const path = lockPathFor(target, kind);
  const holder = readHolder(path);
  if (typeof holder !== 'object') return;
  const held = heldError(target, path, holder, hostname());
  if (held) throw held;
}

/** The program and the words before the first option: `intentsim.js catalog index`. */
function commandName(argv: readonly string[]): string {
  const words: string[] = [];
  for (const arg of argv.slice(2)) {
    if (arg.startsWith('-') || words.length === 3) break;
    words.push(arg);
  }
  return [basename(argv[1] ?? argv[0] ?? 'node'), ...words].join(' ');
}

function tryCreate(path: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(holder) + '\n');
  } finally {
    closeSync(fd);
  }
  return true;
}

function readHolder(path: string): LockHolder | 'gone' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw err;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid === 'number' && typeof h.host === 'string')
      return { pid: h.pid, host: h.host, command: String(h.command ?? '?'), since: String(h.since ?? '?') };
  } catch {
    // fall through
  }
  return 'unreadable';
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
