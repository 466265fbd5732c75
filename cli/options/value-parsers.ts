// Parsers of option values (commander argParsers). They throw commander's InvalidArgumentError, whose
// message commander prefixes with the flag and the value: "option '--batch <n>' argument '0' is
// invalid. Expected a positive integer."
import { InvalidArgumentError } from '@commander-js/extra-typings';

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('Expected a positive integer.');
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('Expected a non-negative integer.');
  return n;
}

/** A TCP port, 0–65535 (0: any free one); refused while the options are parsed, before any file is made. */
export function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('Expected a port, 0 to 65535.');
  return n;
}

/** `auto`, or a non-negative integer (e.g. a worker count that the engine may choose itself). */
export function autoOrNonNegativeInt(value: string): number | 'auto' {
  if (value === 'auto') return value;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('Expected "auto" or a non-negative integer.');
  return n;
}

/** A number in [0, 1]. */
export function fraction(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError('Expected a number in [0, 1].');
  return n;
}

/** Any number (as `Number` reads it), but not NaN. */
export function number(value: string): number {
  const n = Number(value);
  if (Number.isNaN(n)) throw new InvalidArgumentError('Expected a number.');
  return n;
}

/** A seed: an integer is a number, anything else a string (both seed the same generators). */
export function seed(value: string): number | string {
  return /^-?\d+$/.test(value) ? Number(value) : value;
}

/** "lo,hi" → cosine window bounds, -1 ≤ lo < hi ≤ 1 (which bound is inclusive is the window's own rule). */
export function cosineBounds(value: string): { lo: number; hi: number } {
  const parts = value.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 2 || !parts.every(Number.isFinite))
    throw new InvalidArgumentError('Expected "lo,hi" (two numbers).');
  const [lo, hi] = parts as [number, number];
  if (!(lo >= -1 && lo < hi && hi <= 1)) throw new InvalidArgumentError('Expected -1 ≤ lo < hi ≤ 1.');
  return { lo, hi };
}

/** "medium,easy" → difficulty cut points on a cosine, -1 ≤ medium ≤ easy ≤ 1. */
export function difficultyCuts(value: string): { medium: number; easy: number } {
  const parts = value.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 2 || !parts.every(Number.isFinite))
    throw new InvalidArgumentError('Expected "medium,easy" (two numbers).');
  const [medium, easy] = parts as [number, number];
  if (!(medium >= -1 && medium <= easy && easy <= 1))
    throw new InvalidArgumentError('Expected -1 ≤ medium ≤ easy ≤ 1.');
  return { medium, easy };
}

/** A comma-separated list of names (spaces around them ignored); `none` is the empty list. */
export function nameList(value: string): string[] {
  if (value.trim() === 'none') return [];
  const names = value.split(',').map((name) => name.trim());
  if (names.some((name) => name === ''))
    throw new InvalidArgumentError('Expected comma-separated names (or "none"), with no empty name.');
  return names;
}
