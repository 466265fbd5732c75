// The product catalogue that embed, pipeline and catalog match read, and how much of it is held at once.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { positiveInt } from './value-parsers.js';

/** --products and --concepts. */
export function addProductsOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  return cmd
    .requiredOption('--products <file>', 'products JSONL {"id", "title"}')
    .option(
      '--concepts <file>',
      'user concepts JSONL {"id", "phrases"} (else the phrases are derived from the titles)',
    );
}

/** --chunk-products: the memory bound of matching and embedding (run-embed.ts's DEFAULT_CHUNK_PRODUCTS);
 * `catalog index` declares its own, with its own default (products per resumable chunk). */
export function addChunkProductsOption<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  cmd: Command<Args, Opts, Globals>,
) {
  return cmd.option(
    '--chunk-products <n>',
    'products matched and embedded together, the memory bound of embedding (default: 20000)',
    positiveInt,
  );
}
