// The HNSW index (hnswlib-node) over unit product vectors, persisted next to the embeddings, and the
// range search built on it (kNN with growing k, every candidate re-scored with the exact cosine).
//
// Index space is inner product over the unit rows, i.e. cosine. Only valid rows are added (label =
// row number), so a product without a vector can never come back as a candidate, and no filter
// callback is needed (hnswlib-node aborts the process if a filter callback throws).
//
// Persistence: `<path>` holds hnswlib's own file and `<path>.json` a sidecar recording dim, counts,
// build parameters, a SHA-256 of the vectors and ids, and the checksum of the index file itself.
// `openOrBuildIndex` reuses the file only when the sidecar matches the current vectors and parameters
// exactly and the file matches its checksum (verified before hnswlib reads it: a garbled index file
// crashes hnswlib, and the process with it); anything else (missing, stale, different parameters,
// damaged, unreadable) rebuilds and says why. The old sidecar is removed first and the index file
// renamed into place before the new sidecar is written, so that no sidecar ever vouches for a
// half-written index or another build's.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as Hnsw from 'hnswlib-node';
import { removeOnInterrupt, removeStaleScratch, scratchPathFor } from '../../core/temporary-files.js';
import { writeAtomically } from '../../core/atomic.js';
import { checksumOfFile } from '../../core/checksum.js';
import { notice } from '../../core/notice.js';
import { nothingSaved, readMatchingSidecar, removeSidecar, sidecarPath, writeSidecar } from '../../core/sidecar.js';
import { createProgress } from '../../core/progress.js';
import type { HnswParams, RangeResult, RangeSearch, WorkerSearch } from './range-search.js';
import { DEFAULT_HNSW_PARAMS, ExactScanRange, passesLo } from './range-search.js';

/** Above k = n / this, one full scan is cheaper than a kNN search (hnswlib keeps a k-heap and visits ≥ k nodes). */
const SCAN_INSTEAD_OF_KNN = 8;
import type { UnitVectors } from './unit-vectors.js';
import { makeDirs } from '../../core/make-dirs.js';

/** The names of in-memory indexes' temporary copies in the temporary folder: `intentsim-hnsw-PID-…`. */
const HNSW_SCRATCH_PREFIX = 'intentsim-hnsw';

// hnswlib-node is a CommonJS native add-on, loaded when an index is first built or read: modules
// that import this one for its constants (the item options, `--help`) do not load it (issue 50).
let loadedHnswlib: typeof Hnsw | undefined;
function hnswlib(): typeof Hnsw {
  loadedHnswlib ??= createRequire(import.meta.url)('hnswlib-node') as typeof Hnsw;
  return loadedHnswlib;
}

export { DEFAULT_HNSW_PARAMS };

export interface IndexSidecar {
  format: 'intentsim-hnsw/1';
  space: 'ip';
  dim: number;
  /** All rows of the vector set, and the valid ones actually indexed. */
  rows: number;
  indexed: number;
  m: number;
  efConstruction: number;
  seed: number;
  /** SHA-256 over ids, validity and unit vectors. */
  checksum: string;
}

/** SHA-256 of what the index depends on: ids (in row order), validity and the unit vectors. */
export function vectorsChecksum(vectors: UnitVectors): string {
  const h = createHash('sha256');
  h.update(`${vectors.dim}\n${vectors.size}\n`);
  for (const id of vectors.ids) h.update(id + '\n');
  h.update(vectors.valid);
  h.update(new Uint8Array(vectors.data.buffer, vectors.data.byteOffset, vectors.data.byteLength));
  return h.digest('hex');
}

export class VectorIndex {
  /** The file this index was saved to or loaded from (worker threads reopen it from there). */
  path: string | undefined;

  private constructor(
    readonly vectors: UnitVectors,
    readonly params: HnswParams,
    private readonly hnsw: Hnsw.HierarchicalNSW,
    readonly checksum: string,
  ) {}

  /** Builds in this thread (hnswlib-node inserts single-threaded). */
  static build(
    vectors: UnitVectors,
    params: HnswParams = DEFAULT_HNSW_PARAMS,
    opts: { progress?: boolean } = {},
  ): VectorIndex {
    const hnsw = new (hnswlib().HierarchicalNSW)('ip', vectors.dim);
    const count = vectors.validRows.length;
    hnsw.initIndex(Math.max(1, count), params.m, params.efConstruction, params.seed);
    const progress = createProgress({ label: 'hnsw index', total: count, unit: 'vectors', enabled: opts.progress });
    const point = new Array<number>(vectors.dim);
    for (let i = 0; i < count; i++) {
      const row = vectors.validRows[i]!;
      const off = row * vectors.dim;
      for (let j = 0; j < vectors.dim; j++) point[j] = vectors.data[off + j]!;
      hnsw.addPoint(point, row);
      if ((i & 1023) === 1023) progress.increment(1024);
    }
    progress.increment(count & 1023);
    progress.stop();
    return new VectorIndex(vectors, params, hnsw, vectorsChecksum(vectors));
  }

  get indexed(): number {
    return this.hnsw.getCurrentCount();
  }

  /** Up to k approximate nearest rows (by the index's own inner product), nearest first. */
  knn(query: Float32Array, k: number, ef: number): number[] {
    const count = this.hnsw.getCurrentCount();
    const kk = Math.min(k, count);
    if (kk <= 0) return [];
    this.hnsw.setEf(Math.max(ef, kk));
    return this.hnsw.searchKnn(Array.from(query), kk).neighbors;
  }

  sidecar(): IndexSidecar {
    return {
      format: 'intentsim-hnsw/1',
      space: 'ip',
      dim: this.vectors.dim,
      rows: this.vectors.size,
      indexed: this.indexed,
      m: this.params.m,
      efConstruction: this.params.efConstruction,
      seed: this.params.seed,
      checksum: this.checksum,
    };
  }

  /** Writes `<path>` (index) then `<path>.json` (sidecar), each atomically, and remembers `path`. */
  async save(path: string): Promise<void> {
    await this.write(path);
    this.path = path;
  }

  /**
   * A file holding this index, for worker threads to reopen: the one it was saved to or loaded
   * from, else a temporary copy, which `release` removes.
   */
  async file(): Promise<{ path: string; release(): Promise<void> }> {
    if (this.path !== undefined) return { path: this.path, release: async () => {} };
    // An index built in memory has no output to sit beside: a temporary file in the system temp
    // folder, removed by release() or, when the run is interrupted before, on the interrupt; one a
    // killed run left is removed here.
    removeStaleScratch(HNSW_SCRATCH_PREFIX);
    const path = scratchPathFor(HNSW_SCRATCH_PREFIX, `${Date.now()}.hnsw`);
    const forget = [removeOnInterrupt(path), removeOnInterrupt(sidecarPath(path))];
    const release = async () => {
      await rm(path, { force: true });
      await rm(sidecarPath(path), { force: true });
      for (const f of forget) f();
    };
    try {
      await this.write(path);
    } catch (err) {
      await release();
      throw err;
    }
    return { path, release };
  }

  private async write(path: string): Promise<void> {
    await makeDirs(dirname(path));
    await removeSidecar(path);
    const content = await writeAtomically(path, async (tmp) => {
      this.hnsw.writeIndexSync(tmp);
      return checksumOfFile(tmp);
    });
    await writeSidecar(path, this.sidecar(), content);
  }

  /**
   * Loads `<path>` if its sidecar matches these vectors and params and the file its checksum (checked
   * before hnswlib reads a byte); otherwise returns why not.
   */
  static async load(path: string, vectors: UnitVectors, params: HnswParams): Promise<VectorIndex | { stale: string }> {
    const checksum = vectorsChecksum(vectors);
    const want: IndexSidecar = {
      format: 'intentsim-hnsw/1',
      space: 'ip',
      dim: vectors.dim,
      rows: vectors.size,
      indexed: vectors.validRows.length,
      m: params.m,
      efConstruction: params.efConstruction,
      seed: params.seed,
      checksum,
    };
    const side = await readMatchingSidecar(path, want, 'index');
    if ('stale' in side) return side;
    const hnsw = new (hnswlib().HierarchicalNSW)('ip', vectors.dim);
    try {
      hnsw.readIndexSync(path);
    } catch (err) {
      return { stale: `unreadable index: ${(err as Error).message}` };
    }
    if (hnsw.getCurrentCount() !== want.indexed)
      return { stale: `index holds ${hnsw.getCurrentCount()} vectors, expected ${want.indexed}` };
    const index = new VectorIndex(vectors, params, hnsw, checksum);
    index.path = path;
    return index;
  }
}

export { sidecarPath };

export interface OpenedIndex {
  index: VectorIndex;
  /** Why it was (re)built, or undefined when the saved index was reused. */
  rebuilt?: string;
}

/** Reuses the saved index at `path` when it matches, else builds and saves it (saying why on stderr when one was there). */
export async function openOrBuildIndex(
  path: string,
  vectors: UnitVectors,
  params: HnswParams = DEFAULT_HNSW_PARAMS,
  opts: { progress?: boolean } = {},
): Promise<OpenedIndex> {
  const loaded = await VectorIndex.load(path, vectors, params);
  if (loaded instanceof VectorIndex) return { index: loaded };
  if (loaded.stale !== nothingSaved('index')) notice(`${path}: ${loaded.stale}; rebuilding the HNSW index`);
  const index = VectorIndex.build(vectors, params, opts);
  await index.save(path);
  return { index, rebuilt: loaded.stale };
}

export interface HnswRangeOptions {
  /** First k of the growing-k search (doubled until the k-th candidate falls below lo); default 128. */
  k0?: number;
  /** hnswlib ef at query time; the search uses max(ef, k); default 256 (recall ≈ 0.98 in bench/items.ts). */
  ef?: number;
}

/**
 * Range search through the index: kNN with k = k0, 2·k0, … until the farthest candidate's exact
 * cosine is below lo (the ball is inside the candidate set, as far as the index can tell) or every
 * vector has been returned. Candidates are kept only if their EXACT cosine passes lo. Completeness is
 * bounded by the index's recall, hence `exact: false`.
 */
export class HnswRange implements RangeSearch {
  readonly method = 'index' as const;
  readonly exact = false;
  readonly description = 'HNSW candidates with growing k, re-scored exactly (complete up to the index recall)';
  readonly vectors: UnitVectors;
  readonly k0: number;
  readonly ef: number;
  /** kNN calls made, the largest k any range needed, and ranges answered by a full scan instead (for reports). */
  calls = 0;
  maxK = 0;
  scans = 0;
  private readonly exactScan: ExactScanRange;

  constructor(
    readonly index: VectorIndex,
    opts: HnswRangeOptions = {},
  ) {
    this.vectors = index.vectors;
    this.exactScan = new ExactScanRange(index.vectors);
    this.k0 = opts.k0 ?? 128;
    this.ef = opts.ef ?? 256;
  }

  range(query: Float32Array, lo: number, loInclusive: boolean): RangeResult {
    const v = this.vectors;
    const total = this.index.indexed;
    let k = Math.min(this.k0, total);
    for (;;) {
      // A ball holding a large share of the corpus (a collapsed embedding space, or a very low lo):
      // a kNN search for k ≈ n costs more than scoring every row, and the scan is complete.
      if (k > this.k0 && k * SCAN_INSTEAD_OF_KNN > total) {
        this.scans += 1;
        return this.exactScan.range(query, lo, loInclusive);
      }
      this.calls += 1;
      this.maxK = Math.max(this.maxK, k);
      const rows = this.index.knn(query, k, Math.max(this.ef, k));
      let farthest = Infinity;
      const hits: Array<[number, number]> = [];
      for (const r of rows) {
        const s = v.cosineTo(query, r);
        if (s < farthest) farthest = s;
        if (passesLo(s, lo, loInclusive)) hits.push([r, s]);
      }
      if (rows.length < k || k >= total || !passesLo(farthest, lo, loInclusive)) {
        hits.sort((a, b) => a[0] - b[0]);
        return {
          rows: Int32Array.from(hits, (h) => h[0]),
          scores: Float64Array.from(hits, (h) => h[1]),
          method: 'index',
          exact: false,
        };
      }
      k = Math.min(2 * k, total);
    }
  }

  estimatedCost(): number {
    // One kNN call costs about 10·ef JS dot products of the same dimension (hnswlib visits ~ef·M
    // nodes with SIMD distances; measured ≈ 2,500 dot-equivalents at ef 256, 384-d, M 16).
    return 10 * Math.max(this.k0, this.ef);
  }

  /** Workers reopen the index from its file (hnswlib searches deterministically) with the same k0 and ef. */
  async toWorkerSpec(): Promise<WorkerSearch> {
    const file = await this.index.file();
    return {
      spec: { kind: 'index', path: file.path, hnsw: this.index.params, k0: this.k0, ef: this.ef },
      release: file.release,
    };
  }
}
