// Title similarity for a whole run: every distinct title (predicted and target) is embedded once, in
// large batches, and title_sim is the cosine of the two vectors. The released evaluator instead encodes
// one pair of titles per model call (bench/catalog.ts measures both in the same run).
import type { SentenceEncoder } from '../../../embeddings/sentence-encoder.js';
import type { Progress } from '../../../core/progress.js';
import type { TitleSimilarity } from './relevance.js';

/** Titles per encode() call: large enough to keep the model busy, small enough to bound memory. */
export const TITLE_CHUNK = 4096;

export class TitleEmbeddings {
  private constructor(
    private readonly rows: Map<string, number>,
    private readonly data: Float32Array,
    private readonly norms: Float64Array,
    readonly dim: number,
  ) {}

  get size(): number {
    return this.rows.size;
  }

  /** Titles the encoder gave no vector (glove-100d: no known word); their title_sim is 0. */
  get withoutVector(): number {
    return this.norms.reduce((n, norm) => n + (norm === 0 ? 1 : 0), 0);
  }

  static async build(
    titles: Iterable<string>,
    encoder: SentenceEncoder,
    options: { batchSize?: number; progress?: Progress } = {},
  ): Promise<TitleEmbeddings> {
    const rows = new Map<string, number>();
    for (const t of titles) if (!rows.has(t)) rows.set(t, rows.size);
    const distinct = [...rows.keys()];
    const dim = encoder.dim;
    const data = new Float32Array(distinct.length * dim);
    options.progress?.setTotal(distinct.length);
    for (let start = 0; start < distinct.length; start += TITLE_CHUNK) {
      const chunk = distinct.slice(start, start + TITLE_CHUNK);
      const vectors = await encoder.encode(chunk, { batchSize: options.batchSize, normalize: true });
      if (vectors.length !== chunk.length * dim)
        throw new Error(
          `encoder ${encoder.name} returned ${vectors.length} values for ${chunk.length} titles × ${dim}`,
        );
      data.set(vectors, start * dim);
      options.progress?.increment(chunk.length);
    }
    // Norms are kept so that cosine stays a cosine even if an encoder returns unnormalised rows.
    const norms = new Float64Array(distinct.length);
    for (let r = 0; r < distinct.length; r++) {
      let s = 0;
      for (let k = 0; k < dim; k++) s += data[r * dim + k]! * data[r * dim + k]!;
      norms[r] = Math.sqrt(s);
    }
    return new TitleEmbeddings(rows, data, norms, dim);
  }

  cosine(a: string, b: string): number {
    const ra = this.rows.get(a);
    const rb = this.rows.get(b);
    if (ra === undefined || rb === undefined)
      throw new Error(`title not embedded: ${JSON.stringify(ra === undefined ? a : b)}`);
    const na = this.norms[ra]!;
    const nb = this.norms[rb]!;
    if (na === 0 || nb === 0) return 0;
    let dot = 0;
    for (let k = 0; k < this.dim; k++) dot += this.data[ra * this.dim + k]! * this.data[rb * this.dim + k]!;
    return dot / (na * nb);
  }

  /** The similarity function the scorer takes. */
  get similarity(): TitleSimilarity {
    return (a, b) => this.cosine(a, b);
  }
}

/** The released evaluator's way, kept as the benchmark baseline: one encode() call per pair of titles. */
export async function pairSimilarity(encoder: SentenceEncoder, a: string, b: string): Promise<number> {
  const v = await encoder.encode([a, b], { normalize: true });
  const dim = encoder.dim;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let k = 0; k < dim; k++) {
    dot += v[k]! * v[dim + k]!;
    na += v[k]! * v[k]!;
    nb += v[dim + k]! * v[dim + k]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
