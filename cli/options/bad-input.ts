// What a command does with bad input: --on-error (stop, or skip and count), and the limits on the
// length of a line and of a text (core/jsonl-batches.ts). One option group, one help text; each
// command says where its rejects go.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { ON_ERROR_MODES } from '../../core/errors.js';
import { DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_TEXT_LENGTH, type InputLimits } from '../../core/jsonl-batches.js';
import { positiveInt } from './value-parsers.js';

/** `rejects`: where skipped records go, as the help text should name it (e.g. "OUT/rejects.jsonl"). */
export function addBadInputOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
  rejects: string,
) {
  return cmd
    .addOption(
      new Option(
        '--on-error <mode>',
        `fail: stop at the first bad input record (its error names file, line and field); skip: count it, write it to ${rejects} and go on`,
      )
        .choices(ON_ERROR_MODES)
        .default('fail'),
    )
    .option(
      '--max-line-bytes <n>',
      'an input line longer than this (bytes) is a bad record',
      positiveInt,
      DEFAULT_MAX_LINE_BYTES,
    )
    .option(
      '--max-text-length <n>',
      'an input text (a string value of a record, an eventuality) longer than this (characters) is a bad record',
      positiveInt,
      DEFAULT_MAX_TEXT_LENGTH,
    );
}

/** The library's InputLimits from the options of addBadInputOptions. */
export function inputLimits(o: { maxLineBytes: number; maxTextLength: number }): InputLimits {
  return { maxLineBytes: o.maxLineBytes, maxTextLength: o.maxTextLength };
}
