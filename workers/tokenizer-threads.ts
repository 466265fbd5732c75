// Tokenization on worker threads, feeding one device session (issue 30: on an H200, tokenizing 39k
// context sentences took 1.45 s of the JavaScript thread against 3.22 s of inference). A Piscina
// pool of tokenize-worker.ts threads, each with its own copy of the model's tokenizer; the
// pipelined ONNX encoder sends it whole windows of sentences ahead of the batches that need them.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import type { ParallelTokenizer, TokenizedSentence } from '../embeddings/tokenizer.js';
import type { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { compiledWorkerFile } from './worker-file.js';
import type { TokenizeWorkerData } from './tokenize-worker.js';

/** How many tokenizer threads: a count, or 'auto' (see tokenizerThreadCount). */
export type TokenizerThreadsRequest = number | 'auto';

/**
 * None when encode() is not pipelined (the CPU provider's default), whatever was asked. auto: none on
 * the CPU provider (its ONNX threads want every core); otherwise up to 4, leaving one core to the
 * thread that feeds the device.
 */
export function tokenizerThreadCount(
  request: TokenizerThreadsRequest,
  encoder: Pick<OnnxSentenceEncoder, 'provider' | 'pipeline'>,
  cores = availableParallelism(),
): number {
  // Only a pipelined encode() uses them (the CPU's is not, by default): none to start otherwise.
  if (!encoder.pipeline) return 0;
  if (request !== 'auto') return request;
  if (encoder.provider === 'cpu') return 0;
  return Math.max(0, Math.min(4, cores - 1));
}

export class TokenizerThreads implements ParallelTokenizer {
  private constructor(
    private readonly pool: Piscina<string[], TokenizedSentence[]>,
    readonly threads: number,
  ) {}

  static open(data: TokenizeWorkerData, threads: number): TokenizerThreads {
    // Loaded when a pool starts: an encoder without tokenizer threads (the CPU's default) does not load it (issue 50).
    const { Piscina: Pool } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
    const pool: Piscina<string[], TokenizedSentence[]> = new Pool<string[], TokenizedSentence[]>({
      filename: compiledWorkerFile(new URL('./tokenize-worker.js', import.meta.url)),
      minThreads: threads,
      maxThreads: threads,
      workerData: data,
    });
    return new TokenizerThreads(pool, threads);
  }

  tokenize(sentences: readonly string[]): Promise<TokenizedSentence[]> {
    return this.pool.run([...sentences]);
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

/**
 * Attaches `request` tokenizer threads to a pipelined encoder (none when the count comes to 0).
 * Returns the number of threads attached.
 */
export function attachTokenizerThreads(
  encoder: OnnxSentenceEncoder,
  request: TokenizerThreadsRequest,
  cacheRoot?: string,
): number {
  const threads = tokenizerThreadCount(request, encoder);
  if (threads < 1) return 0;
  encoder.useTokenizerThreads(
    TokenizerThreads.open({ modelDir: encoder.info.dir, maxTokens: encoder.info.maxTokens, cacheRoot }, threads),
  );
  return threads;
}
