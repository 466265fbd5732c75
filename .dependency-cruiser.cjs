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
//   graph/        the ASER graph stores, importers, generators, templates
//   core/         I/O, errors, JSONL, .npy, sidecars, progress, rng               (bottom)
//
// index.ts (the library API) may import any layer but cli/. bench/ and test/ sit above everything.
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
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.check.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
