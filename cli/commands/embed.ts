// `intentsim embed`: product context embeddings from the graph (stage 1 of the pipeline, alone).
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { addGraphStoreOption, addNeighbourhoodModeOption, addNodeCacheOption } from '../options/graph-options.js';
import { addDeprecatedOptions } from '../options/deprecated-spellings.js';
import { defaultCacheRoot } from '../../embeddings/cache-paths.js';
import {
  MODEL_HELP,
  addEncodeWorkersOption,
  addModelOptions,
  encoderExecution,
  encoderSpec,
  formatProviderLine,
  modelPaths,
  setUnlessGiven,
} from '../options/model-options.js';
import { addQueueOptions, queueOptions } from '../options/queue-options.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';
import { addOutDirOption } from '../options/output-options.js';
import { addChunkProductsOption, addProductsOptions } from '../options/product-options.js';
import { positiveInt } from '../options/value-parsers.js';
import { declarePaths, mergePaths } from '../declared-paths.js';

const EMBED_HELP = `Computes a context embedding CE(p) for every product: its category phrases are
matched to purchase-event nodes of the graph; each matched node's embedding is
the mean of the Sentence-BERT embeddings of the sentences of its
neighbourhood's edges (one per relation sense, 15 templates); a phrase's
embedding is the mean of its nodes', and CE(p) the mean of its phrases'.

Each distinct node is embedded once per run, each distinct sentence once per
chunk of work, and node embeddings persist in the node cache,
NODE_CACHE/node-embeddings.sqlite (--node-cache; keyed by node text, model
fingerprint, dtype, mode and graph), so a second or interrupted run recomputes
nothing already done.

Inputs
  --products FILE   JSONL {"id": "B00…", "title": "…"}
  --concepts FILE   JSONL {"id": "B00…", "phrases": ["phone case", "case"]}
                    (optional; else the offline conceptualizer gives phrases)
Outputs (in --out DIR, each written atomically)
  embeddings.npy    float32 [embedded products × dim] (numpy.load);
                    row i belongs to line i of ids.txt
  ids.txt           product ids, input order
  unembedded.jsonl  products with nothing to embed and why: no-phrases,
                    no-matched-nodes, no-context-sentences (never NaN rows)
  phrases.jsonl     {"id", "phrases"}: each product's normalised phrases
  manifest.json     model, dtype, provider (and why others failed), counts,
                    timings, padding wasted
${MODEL_HELP}

Example
  intentsim embed --graph aser.sqlite --products products.jsonl \\
    --concepts concepts.jsonl --out emb/ --model-dir minilm/`;

export function registerEmbedCommand(program: Command): void {
  const command = program
    .command('embed')
    .summary('product context embeddings from matched ASER nodes')
    .description(EMBED_HELP);
  const withInputs = addOutDirOption(addProductsOptions(addGraphStoreOption(command)));
  const withEmbedding = addNodeCacheOption(addNeighbourhoodModeOption(withInputs), defaultCacheRoot())
    .option('--no-node-cache', 'do not read or write the node cache')
    .option(
      '--chunk-sentences <n>',
      'distinct sentences per chunk of work within a chunk of nodes (dedup scope)',
      positiveInt,
      8192,
    )
    .option(
      '--chunk-nodes <n>',
      'nodes embedded together: one graph query, one node-cache commit, one queue job with --queue',
      positiveInt,
      256,
    )
    .option('--hub-neighbours <n>', 'stream nodes with more neighbours than this', positiveInt, 1000);
  addDeprecatedOptions(withEmbedding, [
    { flags: '--work-sentences <n>', use: '--chunk-sentences', parse: positiveInt },
    { flags: '--unit-nodes <n>', use: '--chunk-nodes', parse: positiveInt },
  ]);
  const all = addEncodeWorkersOption(addChunkProductsOption(addBadInputOptions(withEmbedding, 'OUT/rejects.jsonl')));
  // The old --cache-dir DIR was the node cache's folder too.
  const cacheDirAlso = (dir: string, c: CommandUnknownOpts) => setUnlessGiven(c, 'nodeCache', dir);
  const withAll = addQueueOptions(addModelOptions(all, { cacheDirAlso }));
  // The model code loads when the command runs: so does the library's list of its paths.
  declarePaths(withAll, async (o) => {
    const { embedPaths } = await import('../../engine/pipeline/run-embed.js');
    const nodeCacheDir = typeof o.nodeCache === 'string' ? o.nodeCache : undefined;
    return mergePaths(embedPaths({ ...o, nodeCacheDir, nodeCache: o.nodeCache !== false }), modelPaths(o));
  }).action(async (o) => {
    // The model code (transformers.js, ONNX Runtime) loads when the command runs.
    const { runEmbed } = await import('../../engine/pipeline/run-embed.js');
    const { withEncoder } = await import('../../workers/open-encoder.js');
    const { checkNotLocked } = await import('../../core/output-lock.js');
    const inputs = {
      graph: o.graph,
      products: o.products,
      concepts: o.concepts,
      out: o.out,
      nodeCacheDir: typeof o.nodeCache === 'string' ? o.nodeCache : undefined,
    };
    // Its paths were checked before this action (cli/declared-paths.ts); an output another run is writing stops the command before the model opens (runEmbed claims it).
    checkNotLocked(o.out, 'folder');
    const execution = encoderExecution(o, { workers: o.workers, queue: queueOptions(o) });
    const manifest = await withEncoder(encoderSpec(o), execution, (encoder) =>
      runEmbed({
        ...inputs,
        mode: o.mode,
        encoder,
        nodeCache: o.nodeCache !== false,
        onError: o.onError,
        limits: inputLimits(o),
        workSentences: o.chunkSentences,
        unitNodes: o.chunkNodes,
        hubNeighbours: o.hubNeighbours,
        chunkProducts: o.chunkProducts,
      }),
    );
    const c = manifest.counts;
    const u = c.unembedded;
    process.stdout.write(
      [
        `model: ${String(manifest.encoder.model)} (${String(manifest.encoder.dtype)})`,
        formatProviderLine(manifest.encoder),
        `products: ${c.products} read, ${c.rejected} rejected, ${c.embedded} embedded; unembedded: ${u['no-phrases']} without phrases, ${u['no-matched-nodes']} without matched nodes, ${u['no-context-sentences']} without context sentences`,
        `nodes: ${c.distinctMatchedNodes} distinct (${c.context.fromCache} from cache, ${c.context.computed} computed, ${c.context.withoutSentences} with nothing to embed, ${c.context.streamedHubs} hubs streamed)`,
        `sentences: ${c.context.sentencesEncoded} encoded${c.context.sentencesWithoutVector > 0 ? ` (${c.context.sentencesWithoutVector} without a vector: no word the encoder knows)` : ''}; the released pipeline would have embedded ${c.releasedPipelineSentences}`,
        `wrote ${o.out}/embeddings.npy [${manifest.outputs.shape.join(' × ')}], ids.txt, unembedded.jsonl, phrases.jsonl, manifest.json in ${(manifest.timings.totalMs / 1000).toFixed(1)} s`,
      ].join('\n') + '\n',
    );
  });
}
