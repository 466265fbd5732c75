// `catalog index` and `catalog query`: sentence-embedding index of a product catalogue (issue 8).
import { Option, type Command } from '@commander-js/extra-typings';
import { checkPaths } from '../../core/check-paths.js';
import { UserError } from '../../core/errors.js';
import { openEncoder } from '../../workers/open-encoder.js';
import { buildCatalogIndex, catalogIndexPaths, DEFAULT_CHUNK_SIZE } from '../../engine/catalog/build-catalog-index.js';
import { CatalogIndex, indexEncoder } from '../../engine/catalog/catalog-query.js';
import { buildProductItems, productItemsPaths } from '../../engine/items/catalog/product-items.js';
import { notMeaningfulBecause, similarityNote } from '../../engine/scoring/shoppingbench/encoder-meaning.js';
import { addModelOptions, encoderExecution, encoderSpec } from '../options/model-options.js';
import { addQueueOptions, queueOptions } from '../options/queue-options.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';
import { addOutDirOption } from '../options/output-options.js';
import { addSeedOption } from '../options/seed-option.js';
import { number, positiveInt } from '../options/value-parsers.js';

export function registerCatalogCommands(program: Command): void {
  const catalog = program
    .command('catalog')
    .description('sentence-embedding index of a product catalogue, and nearest-product queries');

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
model's weights (fp32 or q8), not the storage. With --workers N each worker's
ONNX session gets --threads threads (default 1).

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
    .option('--workers <n>', 'encoder worker threads (Piscina pool; 1 = in this thread)', positiveInt, 1)
    .option('--chunk-size <n>', 'products per chunk (the unit of resumption)', positiveInt, DEFAULT_CHUNK_SIZE);
  addQueueOptions(addModelOptions(addBadInputOptions(index, 'OUT/rejects.jsonl'))).action(async (o) => {
    checkPaths(catalogIndexPaths(o));
    // --workers N > 1: a Piscina pool of Sentence-BERT sessions, --threads each (default 1).
    const encoder = await openEncoder(
      encoderSpec(o),
      encoderExecution(o, { workers: o.workers > 1 ? o.workers : 0, queue: queueOptions(o) }),
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
        chunkSize: o.chunkSize,
        batchSize: o.batchSize,
        onError: o.onError,
        limits: inputLimits(o),
      });
      process.stdout.write(
        `${r.rows} products in ${r.chunks} chunks (${r.chunksEncoded} encoded, ${r.chunksReused} reused), ${r.rejected} rejected; index ${r.indexRebuilt ? `built (${r.indexRebuilt})` : 'reused'} → ${o.out}\n`,
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
  addModelOptions(query).action(async (o, cmd) => {
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
  });

  const items = catalog
    .command('items')
    .summary('"which product would this customer buy" items from title-embedding windows')
    .description(
      `Builds four-option items whose gold is a catalogue product and whose three
distractors are catalogue products with an exact title-embedding cosine to the
gold in [--lo, --hi). The window and the centering default to the index
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
  intentsim catalog items --index cat/ --questions needs.jsonl --out items/ --seed 7`,
    )
    .requiredOption('--index <dir>', 'a folder built by catalog index')
    .requiredOption('--questions <file>', 'questions JSONL');
  const windowOptions = addOutDirOption(items)
    .option('--lo <x>', "window lower bound (inclusive; default: the encoder's, 0.7 for Sentence-BERT)", number)
    .option('--hi <x>', "window upper bound (exclusive; default: the encoder's, 0.9 for Sentence-BERT)", number)
    .option('--center', 'subtract the mean catalogue vector before cosines (default: on for glove-100d only)')
    .option('--no-center', 'do not center, whatever the encoder');
  addBadInputOptions(addSeedOption(windowOptions, number), 'OUT/rejects.jsonl').action(async (o) => {
    if (o.lo !== undefined && o.hi !== undefined && !(o.lo <= o.hi))
      throw new UserError(`--lo (${o.lo}) must not exceed --hi (${o.hi})`);
    checkPaths(productItemsPaths({ index: o.index, questions: o.questions, out: o.out }));
    const index = await CatalogIndex.open(o.index);
    if (index.manifest.notMeaningfulBecause)
      process.stderr.write(`warning: window cosines are NOT meaningful: ${index.manifest.notMeaningfulBecause}\n`);
    if (index.manifest.similarityNote)
      process.stderr.write(`note: window cosines are not Sentence-BERT's: ${index.manifest.similarityNote}\n`);
    const r = await buildProductItems({
      index,
      questions: o.questions,
      out: o.out,
      lo: o.lo,
      hi: o.hi,
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
