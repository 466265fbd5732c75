// Piscina worker: drafts IntentionQA items for blocks of assertions (see draft-pool.ts).
// On its first task it rebuilds the run from the pool's workerData: the unit vectors and any
// precomputed matrix ranges arrive in shared memory (no copy, no renormalisation) and the HNSW index
// is reopened from the file the main thread's search named (RangeSearch.toWorkerSpec), so every
// draft equals the one the main thread would make.
import { workerData } from 'piscina';
import { IntentionQaRun, type AssertionDraft } from './build-items.js';
import { MatrixRanges } from '../../search/matrix-ranges.js';
import { RangeBlocks } from '../../search/range-blocks.js';
import { ExactScanRange, type RangeSearch, type RangeSearchSpec } from '../../search/range-search.js';
import { UnitVectors } from '../../search/unit-vectors.js';
import { HnswRange, VectorIndex } from '../../search/vector-index.js';
import type { IntentionQaWorkerData, UnitRows } from './draft-pool.js';
import { draftTask, type DraftTask } from './pivot-blocks.js';

let preparing: Promise<IntentionQaRun> | undefined;

/** The search a RangeSearch.toWorkerSpec described, over the same (shared) vectors. */
async function rangeSearchFromSpec(vectors: UnitVectors, spec: RangeSearchSpec): Promise<RangeSearch> {
  switch (spec.kind) {
    case 'scan':
      return new ExactScanRange(vectors);
    case 'matrix':
      // Blocks of ranges the up-front ones could not hold are computed here, on this thread alone.
      return new RangeBlocks(new MatrixRanges(vectors, spec.ranges), { threads: 1 });
    case 'index': {
      const index = await VectorIndex.load(spec.path, vectors, spec.hnsw);
      if (!(index instanceof VectorIndex))
        throw new Error(`items worker: cannot reopen the index ${spec.path}: ${index.stale}`);
      return new HnswRange(index, { k0: spec.k0, ef: spec.ef });
    }
  }
}

/** Rows the main thread normalised, wrapped as they are (every cosine bit-identical). */
function unitVectors(rows: UnitRows): UnitVectors {
  return UnitVectors.fromUnitRows(rows.ids, rows.dim, rows.data, rows.valid);
}

async function prepare(data: IntentionQaWorkerData): Promise<IntentionQaRun> {
  const vectors = unitVectors(data.vectors);
  const search = await rangeSearchFromSpec(vectors, data.search);
  return IntentionQaRun.prepare({
    products: new Map(data.products),
    assertions: data.assertions,
    phrases: new Map(data.phrases),
    embeddings: vectors,
    ...(data.intentionVectors ? { intentionVectors: unitVectors(data.intentionVectors) } : {}),
    ...(data.fitVectors
      ? {
          fitVectors: {
            intentions: unitVectors(data.fitVectors.intentions),
            titles: unitVectors(data.fitVectors.titles),
          },
        }
      : {}),
    ...(data.validityIndexData ? { validityIndexData: data.validityIndexData } : {}),
    options: { ...data.options, search, progress: false },
  });
}

export default async function draftBlock(task: DraftTask): Promise<AssertionDraft[]> {
  const run = await (preparing ??= prepare(workerData as IntentionQaWorkerData));
  return draftTask(run, task);
}
