// The Sentence-BERT encoder: a BERT ONNX graph (all-MiniLM-L6-v2 by default) run by onnxruntime-node
// with the provider, threads and batching under our control; tokenization by transformers.js.
// encode() = tokenize → length-sorted batches padded to their longest sentence → last_hidden_state →
// mean pooling over non-padding tokens → L2 normalisation; rows come back in input order. The pooling
// runs in JavaScript (pooling.ts, bit-exact with every earlier run: the CPU default) or inside the
// graph (graph-pooling.ts: the GPU default, so that only [batch, hidden] comes back from the device).
import { join, resolve } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { initializeOrtEarly, ort } from './onnxruntime.js';
import type { EncodeOptions } from './sentence-encoder.js';
import { resolveModel, type ModelResolutionOptions } from './model-resolution.js';
import { defaultCacheRoot } from './cache-paths.js';
import { modelFingerprint } from './model-fingerprint.js';
import type { DescribedEncoder, EncoderInfo, EncoderStats, OnnxEncoderDescription } from './encoder-description.js';
import {
  DEFAULT_GRAPH_OPTIMIZATION_LEVEL,
  openSessionWithFallback,
  type DeviceRequest,
  type SessionFactory,
} from './execution-providers.js';
import { startCpuSessionModel, type CpuSessionModel, type OrtFormatInfo } from './ort-format-model.js';
import { SentenceTokenizer, type ParallelTokenizer, type TokenizedSentence } from './tokenizer.js';
import { planBatches, paddingWasted, pipelineWindows, type PlannedBatch } from './length-batching.js';
import { emptyPipelineTimings, runPipeline, type PipelineSteps } from './encode-pipeline.js';
import { l2NormalizeRow, meanPoolBatch } from './pooling.js';
import {
  DEFAULT_BATCH_SIZE,
  DEFAULT_MAX_TOKENS,
  DEVICE_BATCH_SIZE,
  defaultBatchSizeFor,
  type ModelDtype,
} from './model-files.js';
import { pooledOutputName, poolingForProvider, type PoolingMode, type PoolingRequest } from './graph-pooling.js';
import { derivedModel, type DerivedModel } from './derived-models.js';
import { InputError, UserError } from '../core/errors.js';
import { modelConfigPath, readModelConfig } from '../core/model-config.js';

export { DEFAULT_BATCH_SIZE, DEFAULT_MAX_TOKENS, DEVICE_BATCH_SIZE };

export interface OnnxEncoderOptions extends ModelResolutionOptions {
  device?: DeviceRequest;
  /** ORT intra-op threads (0/absent: ORT's default, one per physical core). */
  intraOpThreads?: number;
  /** Token limit per sentence, [CLS]/[SEP] included (default 256, capped by max_position_embeddings). */
  maxTokens?: number;
  /** Group sentences of similar length into batches (default true); false keeps arrival order. */
  sortByLength?: boolean;
  /** Batch size when encode() is not given one (default 64 on the CPU, 256 on webgpu and cuda). */
  batchSize?: number;
  /**
   * Where mean pooling and L2 normalisation run: 'graph' (appended to the ONNX graph: the session
   * returns [batch, hidden]), 'js' (pooling.ts, bit-exact with earlier runs) or 'auto' (default:
   * graph on GPU providers, js on the CPU).
   */
  pooling?: PoolingRequest;
  /**
   * Overlap tokenization, the session's runs and pooling, planning batches in windows of the input
   * (default: on for GPU providers, off for the CPU one).
   */
  pipeline?: boolean;
  /** Batches per window when pipelined (default 8; the first windows are 1, 2, 4 batches). */
  pipelineWindowBatches?: number;
  /** Injected by tests to simulate provider failures. */
  sessionFactory?: SessionFactory;
}

/** encode() options of this encoder: the SentenceEncoder ones plus a per-call batching order. */
export interface OnnxEncodeOptions extends EncodeOptions {
  /** Overrides the encoder's sortByLength for this call. */
  sortByLength?: boolean;
  /** Overrides the encoder's pipeline for this call. */
  pipeline?: boolean;
}

/** Batches per window of a pipelined encode(): 8 × 64 sentences sorted together by default. */
export const DEFAULT_PIPELINE_WINDOW_BATCHES = 8;

/** What the manifest records of a model this engine derived (fp16, in-graph pooling). */
export interface DerivedModelInfo {
  file: string;
  sha256: string;
  /** 'cache' or 'built', and why it was built. */
  source: string;
  ms: number;
}

/** One batch ready for the session: its rows, their token counts and the padded inputs. */
interface PreparedBatch {
  indices: number[];
  lengths: number[];
  paddedLength: number;
  inputs: Record<string, Ort.Tensor>;
}

export class OnnxSentenceEncoder implements DescribedEncoder {
  readonly kind = 'onnx-sentence-bert' as const;
  readonly sentenceBert = true as const;
  readonly stats: EncoderStats = {
    sentences: 0,
    batches: 0,
    realTokens: 0,
    paddedTokens: 0,
    truncated: 0,
    tokenizeMs: 0,
    inferenceMs: 0,
    poolingMs: 0,
    waitMs: 0,
    encodeMs: 0,
  };

  private constructor(
    private readonly session: Ort.InferenceSession,
    private readonly tokenizer: SentenceTokenizer,
    readonly info: EncoderInfo,
    private readonly sortByLength: boolean,
    private readonly defaultBatchSizeValue: number,
    /** Overlap tokenization, the session's runs and pooling (encode-pipeline.ts). */
    readonly pipeline: boolean,
    /** Largest window of batches the pipelined encoder tokenizes and sorts at a time. */
    private readonly windowBatches: number,
    /** Where pooling runs (graph-pooling.ts). */
    readonly pooling: PoolingMode,
    /** The derived model the session runs, when not the resolved file itself. */
    private readonly derived: DerivedModelInfo | undefined,
    /** The CPU session's ORT-format model (ort-format-model.ts). */
    private readonly ortFormat: OrtFormatInfo | undefined,
    /** The ORT-format bytes the CPU session uses in place: held while the session lives. */
    private modelBytes: Uint8Array | undefined,
  ) {}

  /** Tokenizer threads feeding a pipelined encode() (useTokenizerThreads), if any. */
  private tokenizerThreads: ParallelTokenizer | undefined;

  /**
   * Tokenizes on other threads from now on, when encode() is pipelined: the windows of the input are
   * tokenized there, ahead, while this thread pads, runs and pools. The tokens are the same, and so
   * are the vectors. The encoder closes them on close(); undefined detaches (without closing).
   */
  useTokenizerThreads(threads: ParallelTokenizer | undefined): void {
    this.tokenizerThreads = threads;
  }

  /** The batch size encode() uses when given none. */
  get defaultBatchSize(): number {
    return this.defaultBatchSizeValue;
  }

  get name(): string {
    return this.info.model;
  }
  get dim(): number {
    return this.info.dim;
  }
  get provider(): string {
    return this.info.provider;
  }
  /** Identifies the exact model, dtype and truncation (cache keys use it). */
  get fingerprint(): string {
    return this.info.fingerprint;
  }
  get dtype(): ModelDtype {
    return this.info.dtype;
  }

  describe(): OnnxEncoderDescription {
    const busy = this.stats.encodeMs > 0 ? Math.min(1, this.stats.inferenceMs / this.stats.encodeMs) : 0;
    return {
      ...this.info,
      paddingWasted: Math.round(this.paddingWasted * 1e4) / 1e4,
      pipeline: this.pipeline,
      pooling: this.pooling,
      batchSize: this.defaultBatchSizeValue,
      tokenizerThreads: this.tokenizerThreads?.threads ?? 0,
      ...(this.derived ? { derivedModel: this.derived } : {}),
      ...(this.ortFormat
        ? { ortFormatModel: { ...this.ortFormat, bytesInMemory: this.modelBytes?.byteLength ?? 0 } }
        : {}),
      sessionBusyShare: Math.round(busy * 1e4) / 1e4,
      stats: this.stats,
    };
  }

  static async open(options: OnnxEncoderOptions = {}): Promise<OnnxSentenceEncoder> {
    const model = await resolveModel(options);
    const config = readModelConfig(model.dir);
    const dim = Number(config.hidden_size);
    if (!Number.isInteger(dim) || dim < 1)
      throw new InputError({ file: modelConfigPath(model.dir), field: 'hidden_size' }, 'must be a positive integer');
    const positions = Number(config.max_position_embeddings);
    const maxTokens = Math.min(
      options.maxTokens ?? DEFAULT_MAX_TOKENS,
      Number.isInteger(positions) && positions > 0 ? positions : Infinity,
    );
    const cacheRoot = resolve(options.cacheDir ?? defaultCacheRoot());
    const device = options.device ?? 'auto';
    const poolingRequest = options.pooling ?? 'auto';
    const float16 = model.dtype === 'fp16';
    // onnxruntime-node's CPU session opens the model's ORT-format copy (not a factory injected for
    // another runtime). The CPU ends every provider list and usually opens the model file itself: its
    // copy is read now, on libuv's thread, while this one creates ORT's environment and loads the
    // tokenizer (issue 50). Where a GPU provider opens instead, that read was for nothing: one file
    // read beside a GPU session's start, against 0.1 s saved on every CPU start.
    const ortFormatOnCpu = options.sessionFactory === undefined;
    const plainOnCpu = ortFormatOnCpu && !float16 && poolingForProvider(poolingRequest, 'cpu') === 'js';
    const early = plainOnCpu
      ? await startCpuSessionModel(model.onnxPath, cacheRoot, DEFAULT_GRAPH_OPTIMIZATION_LEVEL)
      : undefined;
    if (early) initializeOrtEarly();
    const tokenizer = await SentenceTokenizer.load(model.dir, maxTokens, cacheRoot);

    // The file, and so the pooling, is chosen per provider as each is tried: a GPU provider opens the
    // derived graph with pooling (made then, once, into the cache), the CPU the model as it is, so a
    // run that falls back to the CPU never pays for a derivation it does not use.
    const derivations = new Map<string, DerivedModel>();
    const fileOf = async (provider: string) => {
      const pooling = poolingForProvider(poolingRequest, provider);
      if (!float16 && pooling === 'js') return model.onnxPath;
      const derived = await derivedModel(model.onnxPath, { float16, graphPooling: pooling === 'graph' }, cacheRoot);
      derivations.set(provider, derived);
      return derived.path;
    };
    let cpuModel: CpuSessionModel | undefined;
    const fileFor = async (provider: string) => {
      const path = await fileOf(provider);
      if (provider !== 'cpu' || !ortFormatOnCpu) return path;
      const started =
        early && path === model.onnxPath
          ? early
          : await startCpuSessionModel(path, cacheRoot, DEFAULT_GRAPH_OPTIMIZATION_LEVEL);
      cpuModel = await started();
      return cpuModel.model;
    };
    // The probe is one real (empty) sentence: a provider that opens but cannot run falls back here.
    const probeTokens = tokenizer.tokenize(['']);
    const probe = async (session: Ort.InferenceSession, provider: string) => {
      const seq = probeTokens[0]!.ids.length;
      const pooling = poolingForProvider(poolingRequest, provider);
      const rows = await runModel(session, modelInputs(session, probeTokens, seq), pooling, {
        rows: 1,
        seq,
        normalize: true,
      });
      checkHiddenSize(rows.dims[rows.dims.length - 1], dim);
      rows.dispose();
    };
    const opened = await openSessionWithFallback(
      fileFor,
      device,
      { intraOpThreads: options.intraOpThreads },
      probe,
      options.sessionFactory,
    );
    const pooling = poolingForProvider(poolingRequest, opened.provider);
    const derived = derivations.get(opened.provider);
    const onCpu = opened.provider === 'cpu' ? cpuModel : undefined;
    const ortFormat = await onCpu?.settle(opened.savedOrtFormat);
    // The CPU provider runs no probe batch (nothing to fall back to): its declared output size is checked
    // here, and every batch's in encode().
    checkHiddenSize(declaredHiddenSize(opened.session, pooling), dim);
    const { fingerprint } = await modelFingerprint(
      {
        onnxPath: derived?.path ?? model.onnxPath,
        tokenizerPath: join(model.dir, 'tokenizer.json'),
        dtype: model.dtype,
        maxTokens,
      },
      cacheRoot,
    );
    return new OnnxSentenceEncoder(
      opened.session,
      tokenizer,
      {
        encoder: 'onnx-sentence-bert',
        sentenceBert: true,
        model: model.name,
        source: model.source,
        dir: model.dir,
        dtype: model.dtype,
        onnxFile: model.onnxPath,
        fingerprint,
        dim,
        maxTokens,
        provider: opened.provider,
        providerAttempts: opened.attempts,
        resolutionAttempts: model.attempts,
        intraOpThreads: options.intraOpThreads && options.intraOpThreads > 0 ? options.intraOpThreads : 'ort-default',
      },
      options.sortByLength ?? true,
      options.batchSize ?? defaultBatchSizeFor(opened.provider),
      // Off on the CPU by default: there ORT's threads want the cores the JavaScript thread would
      // use, and one window over the whole input keeps the CPU vectors exactly as they were.
      options.pipeline ?? opened.provider !== 'cpu',
      options.pipelineWindowBatches ?? DEFAULT_PIPELINE_WINDOW_BATCHES,
      pooling,
      derived
        ? {
            file: derived.path,
            sha256: derived.sha256,
            source: derived.source === 'built' ? `built (${derived.reason})` : 'cache',
            ms: Math.round(derived.ms),
          }
        : undefined,
      ortFormat,
      onCpu?.bytes,
    );
  }

  /**
   * The ONNX Runtime session itself, for benchmarks that compare encode() with a bare session.run
   * loop: using the same session (same thread pool) keeps the comparison about the engine's overhead.
   */
  get onnxSession(): Ort.InferenceSession {
    return this.session;
  }

  /** Tokenizes without running the model (benchmarks compare against a bare session loop with these). */
  tokenize(sentences: readonly string[]): TokenizedSentence[] {
    return this.tokenizer.tokenize(sentences);
  }

  async encode(sentences: readonly string[], options: OnnxEncodeOptions = {}): Promise<Float32Array> {
    const batchSize = options.batchSize ?? this.defaultBatchSizeValue;
    const normalize = options.normalize ?? true;
    const sortByLength = options.sortByLength ?? this.sortByLength;
    const pipelined = options.pipeline ?? this.pipeline;
    const dim = this.dim;
    const out = new Float32Array(sentences.length * dim);
    if (sentences.length === 0) return out;
    const encodeStarted = performance.now();

    // Without the pipeline, one window: the whole input is tokenized, sorted and batched at once.
    const windows = pipelined
      ? pipelineWindows(sentences.length, batchSize, this.windowBatches)
      : [[0, sentences.length] as [number, number]];
    const tokens: TokenizedSentence[] = [];
    // With tokenizer threads (pipelined only), each window's tokens are in `tokens` before its batches
    // run, and the pipeline runs one window at a time (lastWindow).
    const threads = pipelined ? this.tokenizerThreads : undefined;
    let lastWindow = threads ? -1 : windows.length - 1;
    const tokenizeUpTo = (end: number) => {
      if (!threads && end > tokens.length) tokens.push(...this.tokenizer.tokenize(sentences.slice(tokens.length, end)));
    };
    let window = -1;
    let queue: PlannedBatch[] = [];
    let realTokens = 0;
    let paddedTokens = 0;
    const session = this.session;
    const pooling = this.pooling;
    const steps: PipelineSteps<PreparedBatch, Ort.Tensor> = {
      prepare: () => {
        if (queue.length === 0) {
          if (window >= lastWindow) return undefined;
          window += 1;
          const [start, end] = windows[window]!;
          tokenizeUpTo(end);
          const plan = planBatches(
            tokens.slice(start, end).map((t) => t.ids.length),
            batchSize,
            sortByLength,
          );
          realTokens += plan.realTokens;
          paddedTokens += plan.paddedTokens;
          queue = plan.batches.map((b) => ({ ...b, indices: b.indices.map((i) => i + start) }));
        }
        const batch = queue.shift()!;
        const rows = batch.indices.map((i) => tokens[i]!);
        const prepared: PreparedBatch = {
          indices: batch.indices,
          lengths: rows.map((t) => t.ids.length),
          paddedLength: batch.paddedLength,
          inputs: modelInputs(session, rows, batch.paddedLength),
        };
        // Tokenize ahead a share of the next window, spread over this window's batches.
        const following = windows[window + 1];
        if (pipelined && following) {
          const [, end] = windows[window]!;
          const share = Math.ceil(
            (following[1] - following[0]) / Math.max(1, Math.ceil((end - windows[window]![0]) / batchSize)),
          );
          tokenizeUpTo(Math.min(following[1], tokens.length + share));
        }
        return prepared;
      },
      run: (batch) =>
        runModel(session, batch.inputs, pooling, { rows: batch.indices.length, seq: batch.paddedLength, normalize }),
      finish: (batch, result) => {
        const values = result.data as Float32Array;
        if (pooling === 'graph') {
          checkHiddenSize(result.dims[1], dim);
          batch.indices.forEach((row, r) => out.set(values.subarray(r * dim, (r + 1) * dim), row * dim));
        } else {
          checkHiddenSize(result.dims[2], dim);
          meanPoolBatch(values, batch.lengths, batch.paddedLength, dim, out, batch.indices);
          if (normalize) for (const i of batch.indices) l2NormalizeRow(out, i * dim, dim);
        }
        result.dispose();
      },
    };
    const timings = emptyPipelineTimings();
    if (threads) {
      // Windows are tokenized ahead, two per thread in flight, and consumed in order.
      const pending = new Map<number, Promise<TokenizedSentence[]>>();
      const submit = (w: number) => {
        if (w >= windows.length || pending.has(w)) return;
        const promise = threads.tokenize(sentences.slice(windows[w]![0], windows[w]![1]));
        promise.catch(() => undefined); // awaited in its turn; never an unhandled rejection meanwhile
        pending.set(w, promise);
      };
      for (let w = 0; w < windows.length; w++) {
        for (let k = w; k < w + 2 * threads.threads; k++) submit(k);
        const waited = performance.now();
        const got = await pending.get(w)!;
        timings.prepareMs += performance.now() - waited;
        pending.delete(w);
        if (got.length !== windows[w]![1] - windows[w]![0])
          throw new Error(
            `tokenizer threads returned ${got.length} sentences for a window of ${windows[w]![1] - windows[w]![0]}`,
          );
        for (const t of got) tokens.push(t);
        lastWindow = w;
        await runPipeline(steps, true, timings);
      }
    } else await runPipeline(steps, pipelined, timings);

    this.stats.tokenizeMs += timings.prepareMs;
    this.stats.inferenceMs += timings.runMs;
    this.stats.poolingMs += timings.finishMs;
    this.stats.waitMs += timings.waitMs;
    this.stats.encodeMs += performance.now() - encodeStarted;
    this.stats.batches += timings.batches;
    this.stats.sentences += sentences.length;
    this.stats.realTokens += realTokens;
    this.stats.paddedTokens += paddedTokens;
    this.stats.truncated += tokens.filter((t) => t.truncated).length;
    return out;
  }

  /** Share of the tokens fed to the model that were padding, over every call so far. */
  get paddingWasted(): number {
    return paddingWasted(this.stats.realTokens, this.stats.paddedTokens);
  }

  async close(): Promise<void> {
    await this.tokenizerThreads?.close();
    this.tokenizerThreads = undefined;
    await this.session.release();
    this.modelBytes = undefined; // only now: the session read its initializers from them
  }
}

/** The hidden size the graph declares for the output read (undefined when symbolic or absent). */
function declaredHiddenSize(session: Ort.InferenceSession, pooling: PoolingMode = 'js'): number | undefined {
  const name =
    pooling === 'graph'
      ? pooledOutputName(true)
      : session.outputNames.includes('last_hidden_state')
        ? 'last_hidden_state'
        : session.outputNames[0];
  // Another runtime's session (onnxruntime-web, in a bench) may come without metadata.
  const output = (session.outputMetadata as readonly Ort.InferenceSession.ValueMetadata[] | undefined)?.find(
    (m) => m.name === name,
  );
  const last = output?.isTensor ? output.shape[output.shape.length - 1] : undefined;
  return typeof last === 'number' ? last : undefined;
}

/** The model's output size must be config.json's hidden_size (undefined: not known yet, checked later). */
function checkHiddenSize(outputSize: number | undefined, dim: number): void {
  if (outputSize !== undefined && outputSize !== dim)
    throw new UserError(`model output has ${outputSize} dimensions but config.json says hidden_size ${dim}`);
}

/**
 * Runs one right-padded batch and returns last_hidden_state [rows, seq, dim]. Only the inputs the
 * graph declares are fed (some BERT exports have no token_type_ids).
 */
export async function runBatch(
  session: Ort.InferenceSession,
  rows: readonly TokenizedSentence[],
  seq: number,
): Promise<Ort.Tensor> {
  return runInputs(session, modelInputs(session, rows, seq), rows.length, seq);
}

/** The padded inputs of one batch, only those the graph declares (some BERT exports have no token_type_ids). */
export function modelInputs(
  session: Ort.InferenceSession,
  rows: readonly TokenizedSentence[],
  seq: number,
): Record<string, Ort.Tensor> {
  const feeds = paddedInputs(rows, seq);
  const inputs: Record<string, Ort.Tensor> = {};
  for (const name of session.inputNames) {
    const tensor = feeds[name as keyof typeof feeds];
    if (!tensor)
      throw new UserError(`the model wants an input "${name}", which a BERT sentence encoder does not provide`);
    inputs[name] = tensor;
  }
  return inputs;
}

/**
 * Runs one batch: with pooling 'js', last_hidden_state [rows, seq, hidden]; with 'graph', the pooled
 * (normalised or not) sentence vectors [rows, hidden] that graph-pooling.ts added to the graph.
 */
export async function runModel(
  session: Ort.InferenceSession,
  inputs: Record<string, Ort.Tensor>,
  pooling: PoolingMode,
  shape: { rows: number; seq: number; normalize: boolean },
): Promise<Ort.Tensor> {
  if (pooling === 'js') return runInputs(session, inputs, shape.rows, shape.seq);
  const name = pooledOutputName(shape.normalize);
  const result = (await session.run(inputs, [name]))[name]!;
  if (result.type !== 'float32' || result.dims.length !== 2 || result.dims[0] !== shape.rows)
    throw new UserError(
      `model output ${name} is ${result.type} [${result.dims.join(', ')}], expected float32 [${shape.rows}, hidden]`,
    );
  return result;
}

/** Runs one batch's inputs and returns last_hidden_state, checked to be float32 [rows, seq, hidden]. */
export async function runInputs(
  session: Ort.InferenceSession,
  inputs: Record<string, Ort.Tensor>,
  rows: number,
  seq: number,
): Promise<Ort.Tensor> {
  const outputName = session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : session.outputNames[0]!;
  const result = await session.run(inputs, [outputName]);
  const hidden = result[outputName]!;
  if (hidden.type !== 'float32' || hidden.dims.length !== 3 || hidden.dims[0] !== rows || hidden.dims[1] !== seq) {
    throw new UserError(
      `model output ${outputName} is ${hidden.type} [${hidden.dims.join(', ')}], expected float32 [${rows}, ${seq}, hidden]`,
    );
  }
  return hidden;
}

/** int64 input_ids / attention_mask / token_type_ids, right-padded with 0 ([PAD]) to `seq`. */
export function paddedInputs(
  rows: readonly TokenizedSentence[],
  seq: number,
): { input_ids: Ort.Tensor; attention_mask: Ort.Tensor; token_type_ids: Ort.Tensor } {
  const n = rows.length * seq;
  const ids = new BigInt64Array(n);
  const mask = new BigInt64Array(n);
  const types = new BigInt64Array(n);
  rows.forEach((row, r) => {
    const base = r * seq;
    for (let t = 0; t < row.ids.length; t++) {
      ids[base + t] = BigInt(row.ids[t]!);
      mask[base + t] = 1n;
      types[base + t] = BigInt(row.typeIds[t] ?? 0);
    }
  });
  const dims = [rows.length, seq];
  return {
    input_ids: new ort.Tensor('int64', ids, dims),
    attention_mask: new ort.Tensor('int64', mask, dims),
    token_type_ids: new ort.Tensor('int64', types, dims),
  };
}
