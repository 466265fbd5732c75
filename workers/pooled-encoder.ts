// A SentenceEncoder that spreads encode() over a Piscina pool of workers, each with its own ONNX
// session and `threadsPerWorker` intra-op threads. Rows come back in input order.
// With workers = 1 it still moves inference off the main thread, which keeps the pipeline's other
// stages (graph reads, window sampling) running while the model computes.
import { Piscina } from 'piscina';
import type { EncodeOptions } from '../embeddings/sentence-encoder.js';
import type { DescribedEncoder, PooledEncoderDescription } from '../embeddings/encoder-description.js';
import type { OnnxEncoderOptions } from '../embeddings/onnx-encoder.js';
import { compiledWorkerFile } from './worker-file.js';
import type { EncodeTask, EncodeWorkerInfo, WorkerModelOptions } from './encode-worker.js';
import { ConfigError } from '../core/errors.js';
import { keepOrtTelemetryOff } from '../embeddings/ort-telemetry.js';

/** The data fields of `options`, picked one by one (a spread would carry any function along). */
export function workerModelOptions(options: OnnxEncoderOptions): WorkerModelOptions {
  const { modelDir, modelId, cacheDir, offline, dtype, remoteHost } = options;
  const { device, intraOpThreads, maxTokens, sortByLength, batchSize, pooling } = options;
  return {
    modelDir,
    modelId,
    cacheDir,
    offline,
    dtype,
    remoteHost,
    device,
    intraOpThreads,
    maxTokens,
    sortByLength,
    batchSize,
    pooling,
  };
}

export interface PoolOptions {
  workers: number;
  threadsPerWorker: number;
  /** Sentences per task sent to a worker (default: 4 batches' worth). */
  chunkSize?: number;
}

export class PooledSentenceEncoder implements DescribedEncoder {
  readonly sentenceBert = true as const;
  private constructor(
    private readonly pool: Piscina<EncodeTask, Float32Array | EncodeWorkerInfo>,
    private readonly workerInfo: EncodeWorkerInfo,
    private readonly pooling: PoolOptions,
  ) {}

  /** `model`'s functions, if any, stay on this thread (see WorkerModelOptions). */
  static async open(model: OnnxEncoderOptions, pooling: PoolOptions): Promise<PooledSentenceEncoder> {
    if (!(pooling.workers >= 1)) throw new ConfigError('workers', `must be ≥ 1, got ${pooling.workers}`);
    if (!(pooling.threadsPerWorker >= 1))
      throw new ConfigError('threadsPerWorker', `must be ≥ 1, got ${pooling.threadsPerWorker}`);
    const workerData: WorkerModelOptions = {
      ...workerModelOptions(model),
      intraOpThreads: pooling.threadsPerWorker,
    };
    keepOrtTelemetryOff(); // the workers open ORT sessions; only this thread can set the process's variable
    const pool = new Piscina<EncodeTask, Float32Array | EncodeWorkerInfo>({
      filename: compiledWorkerFile(new URL('./encode-worker.js', import.meta.url)),
      minThreads: pooling.workers,
      maxThreads: pooling.workers,
      workerData,
    });
    try {
      const info = (await pool.run({ kind: 'info' })) as EncodeWorkerInfo;
      return new PooledSentenceEncoder(pool, info, pooling);
    } catch (err) {
      await pool.destroy();
      throw err;
    }
  }

  get name(): string {
    return this.workerInfo.info.model;
  }
  get dim(): number {
    return this.workerInfo.info.dim;
  }
  get provider(): string {
    return this.workerInfo.info.provider;
  }
  get fingerprint(): string {
    return this.workerInfo.info.fingerprint;
  }
  get dtype(): string {
    return this.workerInfo.info.dtype;
  }
  get info(): EncodeWorkerInfo['info'] {
    return this.workerInfo.info;
  }
  get workers(): number {
    return this.pooling.workers;
  }

  describe(): PooledEncoderDescription {
    return { ...this.info, workers: this.workers };
  }

  async encode(sentences: readonly string[], options: EncodeOptions = {}): Promise<Float32Array> {
    const batchSize = options.batchSize ?? 64;
    const chunkSize = this.pooling.chunkSize ?? batchSize * 4;
    const out = new Float32Array(sentences.length * this.dim);
    const tasks: Promise<void>[] = [];
    for (let start = 0; start < sentences.length; start += chunkSize) {
      const chunk = sentences.slice(start, start + chunkSize);
      tasks.push(
        this.pool
          .run({ kind: 'encode', sentences: chunk, batchSize, normalize: options.normalize })
          .then((vectors) => out.set(vectors as Float32Array, start * this.dim)),
      );
    }
    await Promise.all(tasks);
    return out;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
