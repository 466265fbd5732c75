// `catalog index`, `catalog query` and `catalog match`: a product catalogue's sentence-embedding
// index (issue 8), nearest-product queries, and its match to a graph's purchase events
// (catalog-match.ts). Items from the index are `items catalog` (catalogItemsCommand, items.ts).
import { Command, Option, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { UserError } from '../../core/errors.js';
import { nothingSaved } from '../../core/sidecar.js';
import { DEFAULT_CHUNK_SIZE, indexPath } from '../../engine/catalog/catalog-layout.js';
import {
  addEncodeWorkersOption,
  addModelOptions,
  encoderExecution,
  encoderSpec,
  modelPaths,
} from '../options/model-options.js';
import { declarePaths, mergePaths } from '../declared-paths.js';
import { addDeprecatedOptions, deprecateCommand } from '../options/deprecated-spellings.js';
import { matchCommand } from './catalog-match.js';
import { addQueueOptions, queueOptions } from '../options/queue-options.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';
import { addOutDirOption } from '../options/output-options.js';
import { addSeedOption } from '../options/seed-option.js';
import { cosineBounds, number, positiveInt } from '../options/value-parsers.js';

export function registerCatalogCommands(program: Command): void {
  const catalog = program
    .command('catalog')
    .description(
      "a product catalogue: its sentence-embedding index, nearest-product queries, and its match to a graph's purchase events",
    );

  const index = catalog
    .command('index')
    .summary("embed a catalogue's titles (resumable, parallel) and build an HNSW index")
    .description(
      `Embeds every product's title (with --attributes: "title. name: v1, v2; …")
with Sentence-BERT and builds one HNSW index (cosine) over them.

Input  --products FILE: JSONL {"id": "p1", "title": "…", "attributes": {"color": ["red"]}}
Output --out DIR:
  manifest.json              model fingerprint, storage dtype, chunk size, counts,
                             what was reused (written last: present = complete)
  chunks/chunk-NNNNNN.jsonl  {"id", "title"} per row, input order
  chunks/chunk-NNNNNN.npy    rows × dim vectors (float32 '<f4' or float16 '<f2')
  chunks/chunk-NNNNNN.npy.json  the chunk's model, storage and checksums
  index.hnsw, index.hnsw.json  the HNSW graph, what it was built from, its checksum
  rejects.jsonl              bad lines, with --on-error skip

Resumable: a rerun skips every finished chunk (same products, files matching
their checksums), so a crash costs at most the chunk in flight; a damaged chunk
is encoded again. Storage per product (--storage): dim × 4 bytes
(float32) or dim × 2 (float16): 2.5M × 384 is 3.8 GB or 1.9 GB on disk; the
index file adds about dim × 4 + 2 × M × 4 bytes per product. --dtype is the
model's weights (fp32 or q8), not the storage. With --workers N (N ≥ 1 worker
threads; 0, the default, encodes in this thread) each worker's ONNX session gets
--threads threads (default 1).

Example
  intentsim catalog index --products catalog.jsonl --out cat/ --model-dir minilm/ \\
    --storage float16 --workers 4`,
    )
    .requiredOption('--products <file>', 'catalogue JSONL')
    .requiredOption('--out <dir>', 'index folder (created; resumed when it exists)')
    .option('--attributes', 'embed "title. attributes" instead of the title alone')
    .addOption(
      new Option('--storage <dtype>', "vector storage on disk (the model's weights are --dtype)")
        .choices(['float32', 'float16'] as const)
        .default('float32'),
    )
    .option('--chunk-products <n>', 'products per chunk (the unit of resumption)', positiveInt, DEFAULT_CHUNK_SIZE);
  const indexOptions = addEncodeWorkersOption(addBadInputOptions(index, 'OUT/rejects.jsonl'));
  addDeprecatedOptions(indexOptions, [{ flags: '--chunk-size <n>', use: '--chunk-products', parse: positiveInt }]);
  declarePaths(addQueueOptions(addModelOptions(indexOptions)), async (o) =>
    mergePaths((await import('../../engine/catalog/build-catalog-index.js')).catalogIndexPaths(o), modelPaths(o)),
  ).action(async (o) => {
    // The library and model code load when the command runs, not for `--help` (issue 50).
    const { buildCatalogIndex } = await import('../../engine/catalog/build-catalog-index.js');
    const { openEncoder } = await import('../../workers/open-encoder.js');
    const { notMeaningfulBecause, similarityNote } =
      await import('../../engine/scoring/shoppingbench/encoder-meaning.js');
    // --workers N ≥ 1: a Piscina pool of Sentence-BERT sessions, --threads each (default 1).
    const encoder = await openEncoder(
      encoderSpec(o),
      encoderExecution(o, { workers: o.workers, queue: queueOptions(o) }),
    );
    try {
      const why = notMeaningfulBecause(encoder);
      if (why) process.stderr.write(`warning: similarities in this index are NOT meaningful: ${why}\n`);
      const note = similarityNote(encoder);
      if (note) process.stderr.write(`note: similarities in this index are not Sentence-BERT's: ${note}\n`);
      const r = await buildCatalogIndex({
        products: o.products,
        out: o.out,
        encoder,
        notMeaningfulBecause: why,
        similarityNote: note,
        dtype: o.storage,
        attributes: o.attributes,
        chunkSize: o.chunkProducts,
        batchSize: o.batchSize,
        onError: o.onError,
        limits: inputLimits(o),
      });
      // Whether the HNSW index was reused, built (none saved yet) or rebuilt (and why): it is written either way.
      const index =
        r.indexRebuilt === undefined
          ? 'reused'
          : r.indexRebuilt === nothingSaved('index')
            ? 'built'
            : `rebuilt (${r.indexRebuilt})`;
      process.stdout.write(
        `${r.rows} products in ${r.chunks} chunks (${r.chunksEncoded} encoded, ${r.chunksReused} reused), ${r.rejected} rejected; index ${index}: ${indexPath(o.out)} → ${o.out}\n`,
      );
      if (r.rowsWithoutVector > 0)
        process.stderr.write(
          `${r.rowsWithoutVector} product(s) got no vector (no word the encoder knows): never returned by a query\n`,
        );
    } finally {
      await encoder.close();
    }
  });

  const query = catalog
    .command('query')
    .summary('nearest catalogue products to a text, with exact cosines')
    .description(
      `Embeds --text with the index's model and prints the k nearest products as JSON
lines {"rank", "id", "title", "cosine"}. The encoder is the one the index was
built with (its manifest says which); --encoder, when given, must name the same
one (a mismatch is refused). HNSW proposes max(4k, 64) candidates;
each cosine is recomputed exactly from the stored vectors (float16 storage:
from the stored half-precision vector). --exhaustive scans every product.

Example
  intentsim catalog query --index cat/ --text "waterproof hiking boots" --k 10 --model-dir minilm/`,
    )
    .requiredOption('--index <dir>', 'a folder built by catalog index')
    .requiredOption('--text <text>', 'the query text')
    .option('--k <n>', 'how many products', positiveInt, 10)
    .option('--exhaustive', 'scan every product instead of the HNSW candidates');
  declarePaths(addModelOptions(query), (o) => mergePaths({ inputDirs: { index: o.index } }, modelPaths(o))).action(
    async (o, cmd) => {
      // The library and model code load when the command runs, not for `--help` (issue 50).
      const { CatalogIndex, indexEncoder } = await import('../../engine/catalog/catalog-query.js');
      const { openEncoder } = await import('../../workers/open-encoder.js');
      const index = await CatalogIndex.open(o.index, { withIndex: !o.exhaustive });
      // The index's encoder, unless --encoder names one (the option's default is not a choice).
      const built = indexEncoder(index.manifest);
      if (cmd.getOptionValueSource('encoder') === 'cli' && o.encoder !== built)
        throw new UserError(
          `--encoder ${o.encoder} does not match the index, which was built with ${built}${built === index.manifest.model ? '' : ` (${index.manifest.model})`}; leave --encoder out to use the index's encoder`,
        );
      if (index.manifest.notMeaningfulBecause)
        process.stderr.write(`warning: these cosines are NOT meaningful: ${index.manifest.notMeaningfulBecause}\n`);
      if (index.manifest.similarityNote)
        process.stderr.write(`note: these cosines are not Sentence-BERT's: ${index.manifest.similarityNote}\n`);
      const encoder = await openEncoder({ ...encoderSpec(o), encoder: built }, encoderExecution(o));
      try {
        const query = await index.embed(o.text, encoder);
        for (const hit of index.nearest(query, o.k, { exhaustive: o.exhaustive }))
          process.stdout.write(JSON.stringify(hit) + '\n');
      } finally {
        await encoder.close();
      }
    },
  );

  catalog.addCommand(matchCommand());
  // `catalog items` is the old path of `items catalog`, kept for one release.
  catalog.addCommand(catalogItemsCommand('items', 'items catalog'), { hidden: true });
}

/**
 * The catalogue items command: `items catalog`, and under its old path `catalog items` (`name`
 * 'items', `deprecatedFor` the new path, whose note then comes before any of its options' own).
 */
export function catalogItemsCommand(name: 'catalog' | 'items' = 'catalog', deprecatedFor?: string) {
  const base = new Command(name);
  if (deprecatedFor !== undefined) deprecateCommand(base, deprecatedFor);
  const items = base
    .summary('"which product would this customer buy" items from title-embedding windows')
    .description(
      `Builds four-option items whose gold is a catalogue product and whose three
distractors are catalogue products with an exact title-embedding cosine to the
gold in the --window [lo, hi). The window and the centering default to the index
encoder's, as IntentionQA Task 2's: [0.7, 0.9) for Sentence-BERT; for glove-100d
[0.4, 0.9) on centered vectors (the mean catalogue vector subtracted). Options
have distinct titles (a drawn product with the gold's title, or another
option's, is dropped and replaced, and recorded); gold letters are balanced in
blocks of four; same inputs and --seed give the same files.

Input  --questions FILE: JSONL {"id": "q1", "context": "customer text", "product_id": "p7"}
Output --out DIR: items.jsonl (options A–D, answer, gold, distractors with
cosines, prompt), not-made.jsonl (id and reason: gold-not-in-catalogue,
window-too-thin), report.json (counts, gold letters).

Example
  intentsim items catalog --index cat/ --questions needs.jsonl --out items/ --seed 7`,
    )
    .requiredOption('--index <dir>', 'a folder built by catalog index')
    .requiredOption('--questions <file>', 'questions JSONL');
  const windowOptions = addOutDirOption(items)
    .option(
      '--window <lo,hi>',
      "distractor window on the title cosine to the gold, [lo, hi) (default: the encoder's; 0.7,0.9 for Sentence-BERT)",
      windowBounds,
    )
    .option('--center', 'subtract the mean catalogue vector before cosines (default: on for glove-100d only)')
    .option('--no-center', 'do not center, whatever the encoder');
  // --lo X and --hi Y were the window's bounds, one option each: each sets its bound of --window.
  const bound = (which: 'lo' | 'hi') => (value: unknown, c: CommandUnknownOpts) =>
    c.setOptionValueWithSource('window', { ...(c.getOptionValue('window') as Bounds), [which]: value }, 'cli');
  addDeprecatedOptions(windowOptions, [
    { flags: '--lo <x>', use: '--window lo,hi', parse: number, apply: bound('lo'), conflictsWith: ['window'] },
    { flags: '--hi <x>', use: '--window lo,hi', parse: number, apply: bound('hi'), conflictsWith: ['window'] },
  ]);
  const paths = declarePaths(addBadInputOptions(addSeedOption(windowOptions, number), 'OUT/rejects.jsonl'), async (o) =>
    (await import('../../engine/items/catalog/product-items.js')).productItemsPaths(o),
  );
  return paths.action(async (o) => {
    // The library code (the HNSW index) load when the command runs, not for `--help` (issue 50).
    const { CatalogIndex } = await import('../../engine/catalog/catalog-query.js');
    const { buildProductItems } = await import('../../engine/items/catalog/product-items.js');
    const lo = o.window?.lo;
    const hi = o.window?.hi;
    if (lo !== undefined && hi !== undefined && !(lo <= hi))
      throw new UserError(`--lo (${lo}) must not exceed --hi (${hi})`); // only the old --lo/--hi can
    const index = await CatalogIndex.open(o.index);
    if (index.manifest.notMeaningfulBecause)
      process.stderr.write(`warning: window cosines are NOT meaningful: ${index.manifest.notMeaningfulBecause}\n`);
    if (index.manifest.similarityNote)
      process.stderr.write(`note: window cosines are not Sentence-BERT's: ${index.manifest.similarityNote}\n`);
    const r = await buildProductItems({
      index,
      questions: o.questions,
      out: o.out,
      lo,
      hi,
      center: o.center,
      seed: o.seed,
      onError: o.onError,
      limits: inputLimits(o),
    });
    process.stdout.write(
      `${r.items} items from ${r.questions} questions; not made: ${JSON.stringify(r.notMade)}; gold letters ${JSON.stringify(r.goldPositions)} → ${o.out}\n`,
    );
  });
}

/** A window's bounds: both from --window, or either one from the deprecated --lo / --hi. */
type Bounds = Partial<{ lo: number; hi: number }>;

function windowBounds(value: string): Bounds {
  return cosineBounds(value);
}
