// What a command-line user can do about a library error, in flags and commands. The library's
// messages say what went wrong in terms of fields; this is the one place that adds the CLI's words.
import { InputLimitError } from '../core/jsonl-batches.js';
import { DEFAULT_MODEL_ID } from '../embeddings/model-files.js';
import { DeviceUnavailableError } from '../embeddings/device-request.js';
import { ModelNotFoundError } from '../embeddings/model-resolution.js';

export function cliHint(err: unknown): string | undefined {
  if (err instanceof ModelNotFoundError) {
    return [
      'How to supply a local copy:',
      '  - tests and benchmarks: `intentsim model make-test --out DIR` (tiny, random weights) or',
      '    `intentsim model make-bench --out DIR` (all-MiniLM-L6-v2 shape, random weights), then --model-dir DIR;',
      `  - the real model, on a machine with internet: \`intentsim model download --model-cache DIR\` (fills DIR/models/${DEFAULT_MODEL_ID}),`,
      `    or \`git lfs install && git clone https://huggingface.co/${DEFAULT_MODEL_ID} DIR\`; copy DIR to this machine and pass`,
      '    --model-dir DIR (a clone) or --model-cache DIR (a download).',
    ].join('\n');
  }
  if (err instanceof InputLimitError) {
    const flag = err.limit === 'maxLineBytes' ? '--max-line-bytes' : '--max-text-length';
    return `  If such ${err.limit === 'maxLineBytes' ? 'lines' : 'texts'} are meant to be there, raise the limit with ${flag} N.`;
  }
  if (err instanceof DeviceUnavailableError && err.device !== 'auto' && err.device !== 'cpu') {
    return '  Use --device auto to fall back to the CPU, or --device cpu.';
  }
  return undefined;
}
