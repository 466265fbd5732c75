// Worker side of parallel-items.ts: rebuild the run over the shared vectors and the saved index,
// draft this shard's blocks (block b belongs to shard b mod shards) and post them.
import { parentPort, workerData } from 'node:worker_threads';
import { IntentionQaRun } from '../../engine/intentionqa/build-items.js';
import { UnitVectors } from '../../engine/unit-vectors.js';
import { HnswRange, VectorIndex } from '../../engine/vector-index.js';
import { BLOCK, type WorkerInput, type WorkerMessage } from './parallel-items.js';

const input = workerData as WorkerInput;
const post = (m: WorkerMessage) => parentPort!.postMessage(m);
try {
  const vectors = UnitVectors.fromVectorSet({ ids: input.ids, dim: input.dim, data: input.data });
  const index = await VectorIndex.load(input.indexPath, vectors, input.hnsw);
  if (!(index instanceof VectorIndex)) throw new Error(`worker: cannot use the saved index: ${index.stale}`);
  const run = await IntentionQaRun.prepare({
    products: new Map(input.products),
    assertions: input.assertions,
    phrases: new Map(input.phrases),
    embeddings: vectors,
    options: { ...input.options, search: new HnswRange(index) },
  });
  const blocks = Math.ceil(run.size / BLOCK);
  for (let b = input.shard; b < blocks; b += input.shards) {
    const drafts = [];
    for (let i = b * BLOCK; i < Math.min(run.size, (b + 1) * BLOCK); i++) drafts.push(run.draftAssertion(i));
    post({ block: b, drafts });
  }
  post({ done: true });
} catch (err) {
  post({ error: (err as Error).stack ?? String(err) });
}
