// `intentsim catalog match` (formerly `graph match`): a product catalogue's concept phrases matched
// to the purchase-event nodes of a graph store.
import { Command, Option } from '@commander-js/extra-typings';
import type { OpenAiConceptOptions } from '../../engine/products/concepts-openai.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';
import { declarePaths, mergePaths } from '../declared-paths.js';
import { addChatConnectionOptions, chatClientOptions, type ChatConnectionCliOptions } from '../options/chat-options.js';
import { addDeprecatedOptions, deprecateCommand } from '../options/deprecated-spellings.js';
import { addGraphStoreOption } from '../options/graph-options.js';
import { addJsonOption } from '../options/output-options.js';
import { addProductsOptions } from '../options/product-options.js';
import { positiveInt } from '../options/value-parsers.js';

/** The endpoint and model of --conceptualizer openai when --endpoint and --model are not given (the paper's). */
const DEFAULT_MATCH_ENDPOINT = 'https://api.openai.com/v1';
const DEFAULT_MATCH_MODEL = 'gpt-3.5-turbo';

/** The openai conceptualizer's fields from the chat flags (its key is checked only when it is used). */
function matchChatOptions(
  o: ChatConnectionCliOptions & { conceptualizer?: string; cache?: string },
): OpenAiConceptOptions {
  const endpoint = o.endpoint ?? DEFAULT_MATCH_ENDPOINT;
  const model = o.model ?? DEFAULT_MATCH_MODEL;
  if (o.conceptualizer !== 'openai') return { baseUrl: endpoint, model };
  return { ...chatClientOptions({ ...o, endpoint }), model, cacheFile: o.cache };
}

const MATCH_HELP = `For each product of a catalogue: its category phrases, normalised as in
IntentionQA (lower-case; "( … )" groups, punctuation and a/an/the dropped; a
singular variant added), and the purchase-event nodes each phrase matches:
the nodes whose text is one of the phrase's 1,080 templates ("PersonX buy a
<phrase>", "has bought the <phrase>", …), found through the store's purchase
index.

Where the phrases come from:
  --concepts FILE           your phrases, JSONL
                            {"id", "phrases": ["Phone Case", "Phone Accessory"]}
                            (e.g. the paper's ChatGPT answers); every product
                            needs a line
  --conceptualizer offline  (the default without --concepts) 1–2-word phrases
                            from the title, preferring phrases that have
                            purchase nodes in the graph
  --conceptualizer openai   the paper's Table 5 prompt, sent to an
                            OpenAI-compatible endpoint (--endpoint, default
                            ${DEFAULT_MATCH_ENDPOINT}; --model, default
                            ${DEFAULT_MATCH_MODEL}; key from $OPENAI_API_KEY or
                            --api-key-env, never logged): the chat options of
                            \`ask\`. Answers cached in --cache, retried with
                            backoff, rate-limited by --requests-per-minute

Input: products JSONL {"id": "…", "title": "…"}.
Output (--out): JSONL, one line per product, in input order:
  {"id", "title", "concepts": "offline", "phrases": [
    {"phrase": "phone cases", "nodes": [], "nodeIds": []},
    {"phrase": "phone case", "nodes": ["PersonX buy a phone case"],
     "nodeIds": [12]}]}
A summary (products, match rate, phrases, distinct nodes) goes to stdout. A
product that cannot be conceptualized (no line in --concepts, an endpoint
failure) is an error naming the products file, line and field; with
--on-error skip it is counted and written to the rejects file.

Examples
  intentsim catalog match --graph demo/graph.sqlite \\
      --products demo/products.jsonl --out matches.jsonl
  intentsim catalog match --graph demo/graph.sqlite \\
      --products demo/products.jsonl --concepts demo/concepts.jsonl \\
      --out matches.jsonl
  OPENAI_API_KEY=… intentsim catalog match --graph aser.sqlite \\
      --products p.jsonl --conceptualizer openai --model gpt-4o-mini \\
      --cache concepts-cache.jsonl --out matches.jsonl --on-error skip`;

/**
 * The match command (`catalog match`); `deprecatedFor` names the new path where this is the old one
 * (`graph match`), whose note then comes first, before any of its options' own.
 */
export function matchCommand(deprecatedFor?: string) {
  const base = new Command('match');
  if (deprecatedFor !== undefined) deprecateCommand(base, deprecatedFor);
  const match = base
    .summary('conceptualize products and match their phrases to purchase-event nodes')
    .description(MATCH_HELP);
  const matchInputs = addProductsOptions(addGraphStoreOption(match))
    .requiredOption('--out <file>', 'matches JSONL')
    .addOption(
      new Option('--conceptualizer <name>', 'offline or openai (without --concepts)')
        .choices(['offline', 'openai'] as const)
        .conflicts('concepts'),
    );
  const matchOptions = addBadInputOptions(matchInputs, 'the --rejects file')
    .option('--rejects <file>', 'where skipped products go (default: <out>.rejects.jsonl)')
    .option('--batch-products <n>', 'products per batch (one index query each)', positiveInt, 2000)
    .option('--cache <file>', "--conceptualizer openai: the endpoint's answer cache (JSONL, keyed by model and title)");
  const withChat = addChatConnectionOptions(matchOptions);
  addDeprecatedOptions(withChat, [
    { flags: '--batch <n>', use: '--batch-products', parse: positiveInt },
    { flags: '--openai-base-url <url>', use: '--endpoint' },
    { flags: '--openai-model <model>', use: '--model' },
    { flags: '--openai-key-env <name>', use: '--api-key-env' },
    { flags: '--openai-cache <file>', use: '--cache' },
    { flags: '--openai-rpm <n>', use: '--requests-per-minute', parse: positiveInt },
    { flags: '--openai-concurrency <n>', use: '--concurrency', parse: positiveInt },
  ]);
  // The answer cache is appended to: an input given as the cache would grow cached lines.
  const paths = declarePaths(addJsonOption(withChat), async (o) =>
    mergePaths((await import('../../engine/products/match-file.js')).matchFilePaths(o), {
      outputFiles: { rejects: o.rejects, cache: o.cache },
    }),
  );
  return paths.action(async (opts) => {
    // The library code (the graph store: better-sqlite3) loads when the command runs, not for `--help` (issue 50).
    const { matchProductsFile } = await import('../../engine/products/match-file.js');
    const { openConceptualizer } = await import('../../engine/products/open-conceptualizer.js');
    const { openGraphStore } = await import('../../graph/open-store.js');
    const store = await openGraphStore(opts.graph);
    try {
      const conceptualizer = await openConceptualizer(
        {
          concepts: opts.concepts,
          conceptualizer: opts.conceptualizer,
          openai: matchChatOptions(opts),
          limits: inputLimits(opts),
        },
        store,
      );
      try {
        const { stats, rejects } = await matchProductsFile(store, conceptualizer, {
          products: opts.products,
          out: opts.out,
          onError: opts.onError,
          rejects: opts.rejects,
          batchSize: opts.batchProducts,
          limits: inputLimits(opts),
        });
        const summary = { out: opts.out, concepts: conceptualizer.name, ...stats.toJSON() };
        if (opts.json) {
          process.stdout.write(
            JSON.stringify({ ...summary, rejects: rejects && rejects.count > 0 ? rejects.path : null }) + '\n',
          );
          return;
        }
        process.stdout.write(
          `${opts.out}: ${stats.products} products (${conceptualizer.name} concepts), ` +
            `${stats.matchedProducts} matched at least one purchase node (match rate ${(100 * stats.matchRate).toFixed(1)}%)\n` +
            `  phrases: ${stats.phrases}, of which matched: ${stats.matchedPhrases}; distinct purchase nodes: ${stats.distinctNodes}\n` +
            (rejects ? `  ${rejects.summary()}\n` : ''),
        );
      } finally {
        await conceptualizer.close();
      }
    } finally {
      await store.close();
    }
  });
}
