// The layering of src folders, checked by `npm run lint` (dependency-cruiser). Each folder imports
// only from the layers below it:
//
//   cli/          the command line: options, help texts, printing          (top)
//   engine/       the pipeline by data flow:
//     demo/         the demo world and the demo run
//     pipeline/     stage orchestration: embed, pipeline, encode a file
//     evaluation/   asking models the items (chat completions, the embedding solver)
//     scoring/      benchmark scoring: answer parsers, metrics, IntentionQA, SIB, ShoppingBench
//     items/        IntentionQA, SessionIntentBench and catalog items, shared item helpers
//     catalog/      catalog title index and queries
//     products/ search/   products → concepts → matching; vectors, ranges, HNSW, windows
//   workers/      where work runs: worker-thread pools of encoders
//   embeddings/   Sentence-BERT through ONNX Runtime, node and product context embeddings
//   graph/        the ASER graph stores (sqlite/, neo4j/), importers, generators, export, templates
//   core/         I/O, errors, JSONL, .npy, sidecars, progress, rng               (bottom)
//
// index.ts (the library API) may import any layer but cli/. bench/ and test/ sit above everything.
// Below the layers, rules between sibling folders (the stores, the item kinds, the benchmarks' scoring,
// the queue and the pool, …) and one against importing the build output or the package itself.
const SRC = '^(core|graph|embeddings|workers|engine|cli)/|^index\\.ts$';

/** A rule: files matching `from` must not import files matching `to`. */
const below = (name, from, to, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles between files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    below(
      'core-is-the-bottom',
      '^core/',
      '^(graph|embeddings|workers|engine|cli|bench|test)/|^index\\.ts$',
      'core/ imports no other layer.',
    ),
    below(
      'graph-above-core-only',
      '^graph/',
      '^(embeddings|workers|engine|cli|bench|test)/|^index\\.ts$',
      'graph/ imports core/ only.',
    ),
    below(
      'embeddings-below-workers',
      '^embeddings/',
      '^(workers|engine|cli|bench|test)/|^index\\.ts$',
      'embeddings/ imports core/ and graph/.',
    ),
    below(
      'workers-below-engine',
      '^workers/',
      '^(engine|cli|bench|test)/|^index\\.ts$',
      'workers/ imports core/, graph/ and embeddings/.',
    ),
    below('engine-below-cli', '^engine/', '^(cli|bench|test)/|^index\\.ts$', 'engine/ never imports the command line.'),
    below('cli-on-top', '^cli/', '^(bench|test)/|^index\\.ts$', 'cli/ imports the library, never benchmarks or tests.'),
    below('library-api-without-cli', '^index\\.ts$', '^(cli|bench|test)/', 'The library API exposes no CLI code.'),
    below(
      'engine-products-search-first',
      '^engine/(products|search)/',
      '^engine/(catalog|items|scoring|evaluation|pipeline|demo)/',
      'products/ and search/ are engine/’s first stage.',
    ),
    below(
      'engine-catalog-before-items',
      '^engine/catalog/',
      '^engine/(items|scoring|evaluation|pipeline|demo)/',
      'catalog/ sits below items/.',
    ),
    below(
      'engine-items-before-scoring',
      '^engine/items/',
      '^engine/(scoring|evaluation|pipeline|demo)/',
      'items/ sits below scoring/.',
    ),
    below(
      'engine-scoring-before-evaluation',
      '^engine/scoring/',
      '^engine/(evaluation|pipeline|demo)/',
      'scoring/ sits below evaluation/.',
    ),
    below(
      'engine-evaluation-before-pipeline',
      '^engine/evaluation/',
      '^engine/(pipeline|demo)/',
      'evaluation/ sits below pipeline/.',
    ),
    below('engine-pipeline-before-demo', '^engine/pipeline/', '^engine/demo/', 'pipeline/ sits below demo/.'),
    below(
      'graph-sqlite-and-neo4j-apart',
      '^graph/sqlite/',
      '^graph/neo4j/',
      'The two stores share only graph/ (GraphStore); code that needs both lives in graph/export/.',
    ),
    below('graph-neo4j-and-sqlite-apart', '^graph/neo4j/', '^graph/sqlite/', 'See graph-sqlite-and-neo4j-apart.'),
    below(
      'graph-stores-below-their-users',
      '^graph/([^/]+\\.ts|sqlite/|neo4j/)',
      '^graph/(import|generate|export)/',
      'The stores and graph/’s own files never import the importers, generators or exporters.',
    ),
    below('graph-import-alone', '^graph/import/', '^graph/(generate|export)/', 'Importers are independent.'),
    below('graph-generate-alone', '^graph/generate/', '^graph/(import|export)/', 'Generators are independent.'),
    below('graph-export-alone', '^graph/export/', '^graph/(import|generate)/', 'Exporters are independent.'),
    below(
      'workers-queue-apart-from-pool',
      '^workers/queue/',
      '^workers/[^/]+\\.ts$',
      'The queue (other machines) does not use the worker-thread pool or the encoder choice above it.',
    ),
    below(
      'engine-products-and-search-apart',
      '^engine/products/',
      '^engine/search/',
      'products/ (phrases, matching) and search/ (vectors, ranges) are independent.',
    ),
    below('engine-search-and-products-apart', '^engine/search/', '^engine/products/', 'See the rule above.'),
    below(
      'engine-items-helpers-below-kinds',
      '^engine/items/[^/]+\\.ts$',
      '^engine/items/[^/]+/',
      'items/’ shared helpers sit below the item kinds.',
    ),
    below(
      'engine-items-intentionqa-alone',
      '^engine/items/intentionqa/',
      '^engine/items/(sib|catalog)/',
      'IntentionQA items use no other item kind.',
    ),
    below('engine-items-sib-alone', '^engine/items/sib/', '^engine/items/(intentionqa|catalog)/', 'Likewise SIB.'),
    below(
      'engine-items-catalog-beside-sib',
      '^engine/items/catalog/',
      '^engine/items/sib/',
      'Catalog items reuse IntentionQA’s prompts, never SIB.',
    ),
    below(
      'engine-scoring-helpers-below-benches',
      '^engine/scoring/[^/]+\\.ts$',
      '^engine/scoring/[^/]+/',
      'scoring/’s parsers and metrics sit below each benchmark’s scoring.',
    ),
    {
      name: 'engine-scoring-benches-apart',
      comment: 'Each benchmark (intentionqa/, sib/, shoppingbench/) is scored on its own.',
      severity: 'error',
      from: { path: '^engine/scoring/([^/]+)/' },
      to: { path: '^engine/scoring/[^/]+/', pathNot: '^engine/scoring/$1/' },
    },
    below(
      'cli-options-below-commands',
      '^cli/options/',
      '^cli/commands/',
      'Option groups are declared once, below the commands.',
    ),
    {
      name: 'no-build-output-or-self-import',
      comment:
        'Sources, benchmarks and tests import the sources: never dist/ (a stale build) nor the package by its own name.',
      severity: 'error',
      from: { path: '^(core|graph|embeddings|workers|engine|cli|bench|test)/|^index\\.ts$' },
      to: { path: '^dist/|^intentsim$' },
    },
    {
      name: 'no-dev-dependencies-in-src',
      comment: 'Library and CLI code runs after `npm ci --omit=dev`.',
      severity: 'error',
      from: { path: SRC },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Imports of dist/ and node_modules/ are seen (and checked by the rules above), never followed.
    doNotFollow: { path: '^dist/|node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.check.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
