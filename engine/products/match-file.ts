// A products file matched to purchase-event nodes, written as matches JSONL (`intentsim catalog match`):
// one line per accepted product, in input order, written to a temporary file and renamed; bad
// products stop the run, or with onError "skip" go to a rejects file.
import { openAtomicWriter } from '../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import type { OnError } from '../../core/errors.js';
import type { InputLimits } from '../../core/jsonl.js';
import { createProgress } from '../../core/progress.js';
import { RejectsSink } from '../../core/rejects.js';
import type { GraphStore } from '../../graph/graph-store.js';
import { graphStoreFile } from '../../graph/open-store.js';
import type { Conceptualizer } from './concepts.js';
import { MatchStats, matchProducts, matchToJsonl } from './match.js';
import { readProducts, rejectedProductInput } from './products.js';

export interface MatchFileOptions {
  /** Products JSONL {"id", "title"}. */
  products: string;
  /** Matches JSONL. */
  out: string;
  onError: OnError;
  /** Where skipped products go (default OUT.rejects.jsonl). */
  rejects?: string;
  /** Products per batch (one index query each). */
  batchSize: number;
  /** Limits on the products file's lines and texts. */
  limits?: InputLimits;
}

export interface MatchFileResult {
  stats: MatchStats;
  /** With onError "skip": how many products were rejected, and where they went. */
  rejects?: RejectsSink;
}

/**
 * What `catalog match` reads and writes: the CLI checks them before it opens the store and the
 * conceptualizer, and matchProductsFile (given both open) before it reads a product.
 */
export function matchFilePaths(
  options: Pick<MatchFileOptions, 'products' | 'out' | 'rejects' | 'onError'> & { graph?: string; concepts?: string },
): PathChecks {
  return {
    inputFiles: {
      graph: options.graph === undefined ? undefined : graphStoreFile(options.graph),
      products: options.products,
      concepts: options.concepts,
    },
    outputFiles: {
      out: options.out,
      rejects: options.onError === 'skip' ? (options.rejects ?? `${options.out}.rejects.jsonl`) : undefined,
    },
  };
}

export async function matchProductsFile(
  store: GraphStore,
  conceptualizer: Conceptualizer,
  options: MatchFileOptions,
): Promise<MatchFileResult> {
  checkPaths(matchFilePaths(options));
  const rejects =
    options.onError === 'skip' ? new RejectsSink(options.rejects ?? `${options.out}.rejects.jsonl`) : undefined;
  const out = await openAtomicWriter(options.out);
  const stats = new MatchStats();
  const bar = createProgress({ label: 'match', unit: 'products' });
  try {
    const products = readProducts(options.products, { ...options.limits, onError: options.onError, rejects });
    for await (const outcome of matchProducts(store, products, conceptualizer, { batchSize: options.batchSize })) {
      bar.increment();
      if (!outcome.ok) {
        if (!rejects) throw outcome.error;
        await rejects.reject(outcome.error, rejectedProductInput(outcome.product));
        continue;
      }
      stats.add(outcome.match);
      await out.write(matchToJsonl(outcome.match));
    }
  } catch (err) {
    bar.stop();
    await out.abort();
    await rejects?.close();
    throw err;
  }
  bar.stop();
  await out.commit();
  await rejects?.close();
  stats.rejected = rejects?.count ?? 0;
  return { stats, rejects };
}
