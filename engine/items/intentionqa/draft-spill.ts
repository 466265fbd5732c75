// Drafts made out of assertion order, held on disk until they can be finished in order.
//
// Drafting in pivot blocks (pivot-blocks.ts) makes an assertion's draft when its pivot's block comes,
// not in assertion order, while gold placement needs the drafts in order. At 1M assertions the drafts
// are gigabytes as objects, so each is written as one JSON line to a temporary file (numbers survive
// JSON exactly) and read back by its byte offset when its turn comes. The file is removed on close,
// by Ctrl-C or SIGTERM (core/interrupt.ts), and, when a run was killed outright, by the next spill
// of any run (its folder names the process): at 1M assertions it passes a gigabyte.
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makeScratchFolder } from '../../../core/temporary-files.js';
import type { AssertionDraft } from './draft.js';

/** The spill folders' names in the temporary folder: `intentsim-drafts-PID-…`. */
export const DRAFTS_PREFIX = 'intentsim-drafts';

/** Bytes gathered before one write (fewer system calls than one per draft). */
const WRITE_BUFFER = 4 * 1024 * 1024;

export class DraftSpill {
  /** The temporary folder of the spill file (gone after close or an interrupt). */
  readonly dir: string;
  private readonly fd: number;
  private readonly forgetOnInterrupt: () => void;
  private readonly offsets: Float64Array;
  private readonly lengths: Int32Array;
  private written = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private held = 0;

  /** A spill for drafts of assertion indices 0..size-1, in a new temporary directory. */
  constructor(readonly size: number) {
    ({ dir: this.dir, forget: this.forgetOnInterrupt } = makeScratchFolder(DRAFTS_PREFIX));
    this.fd = openSync(join(this.dir, 'drafts.jsonl'), 'w+');
    this.offsets = new Float64Array(size);
    this.lengths = new Int32Array(size).fill(-1);
  }

  /** Drafts held so far. */
  get count(): number {
    return this.held;
  }

  put(draft: AssertionDraft): void {
    const i = draft.index;
    if (!(i >= 0 && i < this.size)) throw new Error(`internal: draft index ${i} outside 0..${this.size - 1}`);
    if (this.lengths[i] !== -1) throw new Error(`internal: draft ${i} spilled twice`);
    const bytes = Buffer.from(JSON.stringify(draft) + '\n', 'utf8');
    this.offsets[i] = this.written + this.pendingBytes;
    this.lengths[i] = bytes.length;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.held += 1;
    if (this.pendingBytes >= WRITE_BUFFER) this.flush();
  }

  /** The draft of assertion i, as it was put. */
  get(i: number): AssertionDraft {
    const length = this.lengths[i]!;
    if (length < 0) throw new Error(`internal: no draft for assertion ${i}`);
    this.flush();
    const bytes = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const n = readSync(this.fd, bytes, read, length - read, this.offsets[i]! + read);
      if (n === 0) throw new Error(`internal: draft ${i} cut short in the spill file`);
      read += n;
    }
    return JSON.parse(bytes.toString('utf8')) as AssertionDraft;
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const all = Buffer.concat(this.pending, this.pendingBytes);
    let done = 0;
    while (done < all.length) done += writeSync(this.fd, all, done, all.length - done, this.written + done);
    this.written += all.length;
    this.pending = [];
    this.pendingBytes = 0;
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
    this.forgetOnInterrupt();
  }
}
