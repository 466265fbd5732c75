// Piscina worker: owns one ONNX Sentence-BERT session (opened once, on the first task) and encodes
// chunks of sentences. The result crosses back to the main thread as a transferred Float32Array.
import { move, workerData } from 'piscina';
import { OnnxSentenceEncoder, type OnnxEncoderOptions } from '../embeddings/onnx-encoder.js';
import type { EncoderInfo } from '../embeddings/encoder-description.js';

/**
 * The worker's workerData: what it needs to open the model, plain data only. Functions (a download
 * reporter, an injected fetch or session factory) cannot be cloned into a worker thread, and the
 * workers need none: the model is resolved, and downloaded if need be, before the pool starts.
 */
export type WorkerModelOptions = Omit<OnnxEncoderOptions, 'fetch' | 'onDownload' | 'sessionFactory'>;

export type EncodeTask =
  { kind: 'info' } | { kind: 'encode'; sentences: string[]; batchSize?: number; normalize?: boolean };

export interface EncodeWorkerInfo {
  info: EncoderInfo;
  paddingWasted: number;
}

let opening: Promise<OnnxSentenceEncoder> | undefined;

function encoder(): Promise<OnnxSentenceEncoder> {
  opening ??= OnnxSentenceEncoder.open(workerData as WorkerModelOptions);
  return opening;
}

export default async function run(task: EncodeTask): Promise<Float32Array | EncodeWorkerInfo> {
  const enc = await encoder();
  if (task.kind === 'info') return { info: enc.info, paddingWasted: enc.paddingWasted };
  const vectors = await enc.encode(task.sentences, { batchSize: task.batchSize, normalize: task.normalize });
  return move(vectors) as Float32Array;
}
