// Progress reporting: a cli-progress bar on a terminal; on a pipe or in CI, a line every few seconds.
// cli-progress (about 20 modules) loads only when a bar is drawn: a piped run does not pay for it.
import { createRequire } from 'node:module';
import type * as CliProgress from 'cli-progress';

export interface Progress {
  /** Advances by `n` units; `extra` fills the bar's {rate2} style fields. */
  increment(n?: number, extra?: Record<string, string | number>): void;
  setTotal(total: number): void;
  stop(): void;
}

export interface ProgressOptions {
  label: string;
  total?: number;
  unit?: string;
  /** Set false (or INTENTSIM_QUIET=1) to report nothing, e.g. inside tests. */
  enabled?: boolean;
  /** Show a free-text field after the rate, set through `increment(n, { detail: '…' })` (e.g. a second rate). */
  detail?: boolean;
  /** Remove the bar from the terminal when stopped (a sub-task's bar, e.g. one call's queue jobs). */
  transient?: boolean;
}

/**
 * Whether progress is reported when the caller does not say: yes, unless INTENTSIM_QUIET=1. A
 * command reports it on a pipe too (a line every 5 s): a log is where a long run is watched from.
 */
export function progressWanted(): boolean {
  return process.env.INTENTSIM_QUIET !== '1';
}

let terminalBars: CliProgress.MultiBar | undefined;
let openBars = 0;

export function createProgress({
  label,
  total = 0,
  unit = 'items',
  enabled,
  detail = false,
  transient = false,
}: ProgressOptions): Progress {
  const on = enabled ?? progressWanted();
  if (!on) return { increment() {}, setTotal() {}, stop() {} };
  const started = Date.now();
  let done = 0;
  let knownTotal = total;
  if (process.stderr.isTTY) {
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof CliProgress;
    // One MultiBar for the process: a stage's bar and the queue's bar under it share the terminal.
    const bars = (terminalBars ??= new cliProgress.MultiBar(
      { stream: process.stderr, hideCursor: true, etaBuffer: 50, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    ));
    const bar = bars.create(
      total,
      0,
      { speed: '0', detail: '' },
      {
        format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {speed} ${unit}/s${detail ? ' | {detail}' : ''} | ETA {eta_formatted}`,
      },
    );
    openBars += 1;
    return {
      increment(n = 1, extra = {}) {
        done += n;
        const secs = (Date.now() - started) / 1000;
        bar.increment(n, { speed: secs > 0 ? Math.round(done / secs).toString() : '0', ...extra });
      },
      setTotal(t) {
        knownTotal = t;
        bar.setTotal(t);
      },
      stop() {
        bar.stop();
        if (transient) bars.remove(bar);
        openBars -= 1;
        if (openBars === 0) {
          bars.stop();
          terminalBars = undefined;
        }
      },
    };
  }
  let lastPrint = started;
  let lastDetail = '';
  const line = () => {
    const secs = (Date.now() - started) / 1000;
    const rate = secs > 0 ? done / secs : 0;
    const eta = knownTotal > 0 && rate > 0 ? ` ETA ${Math.max(0, Math.round((knownTotal - done) / rate))}s` : '';
    const of = knownTotal > 0 ? `/${knownTotal}` : '';
    const more = detail && lastDetail !== '' ? `, ${lastDetail}` : '';
    process.stderr.write(`${label}: ${done}${of} ${unit} (${Math.round(rate)} ${unit}/s${more})${eta}\n`);
  };
  return {
    increment(n = 1, extra = {}) {
      done += n;
      if (typeof extra.detail === 'string') lastDetail = extra.detail;
      const now = Date.now();
      if (now - lastPrint >= 5000) {
        lastPrint = now;
        line();
      }
    },
    setTotal(t) {
      knownTotal = t;
    },
    stop() {
      if (!transient) line();
    },
  };
}
