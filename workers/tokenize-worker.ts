// One tokenizer thread of workers/tokenizer-threads.ts: loads the model folder's tokenizer once, with
// the encoder's token limit, and tokenizes the sentences it is sent.
import { workerData } from 'node:worker_threads';
import { SentenceTokenizer, type TokenizedSentence } from '../embeddings/tokenizer.js';

/** What each tokenizer thread is started with. */
export interface TokenizeWorkerData {
  modelDir: string;
  maxTokens: number;
  cacheRoot?: string;
}

let loading: Promise<SentenceTokenizer> | undefined;

export default async function run(sentences: string[]): Promise<TokenizedSentence[]> {
  const { modelDir, maxTokens, cacheRoot } = workerData as TokenizeWorkerData;
  loading ??= SentenceTokenizer.load(modelDir, maxTokens, cacheRoot);
  return (await loading).tokenize(sentences);
}
