// `catalog query`: the nearest catalogue products to a text. HNSW proposes candidates; every
// reported cosine is re-scored exactly from the stored vectors (the index's distances never leave
// this file), and `exhaustive` scans every row instead (the brute-force reference).
import { existsSync } from 'node:fs';
import type { FingerprintedEncoder, SentenceEncoder } from '../../embeddings/sentence-encoder.js';
import { toUnitVector } from '../search/unit-vectors.js';
import { DEFAULT_HNSW_PARAMS, VectorIndex } from '../search/vector-index.js';
import type { HnswParams } from '../search/range-search.js';
import { loadCatalogVectors, type CatalogVectors } from './build-catalog-index.js';
import { indexPath, manifestPath, type CatalogManifest } from './catalog-layout.js';
import { UserError } from '../../core/errors.js';
import { readJsonFile } from '../../core/file-errors.js';
import type { EncoderChoice } from '../../embeddings/encoder-choice.js';
import { GLOVE_ENCODER_NAME } from '../../embeddings/glove-encoder.js';
import { HASHING_ENCODER_NAME } from '../../embeddings/hashing-encoder.js';

/**
 * The encoder an index was built with, from its manifest's `model` (the encoder's name: glove-100d,
 * the stand-in's, or a Sentence-BERT model id), so that a query needs no encoder option.
 */
export function indexEncoder(manifest: Pick<CatalogManifest, 'model'>): EncoderChoice {
  if (manifest.model === GLOVE_ENCODER_NAME) return GLOVE_ENCODER_NAME;
  if (manifest.model === HASHING_ENCODER_NAME) return HASHING_ENCODER_NAME;
  return 'sentence-bert';
}

export interface CatalogHit {
  rank: number;
  id: string;
  title: string;
  /** Exact cosine between the query's vector and the product's stored vector. */
  cosine: number;
}

export class CatalogIndex {
  private constructor(
    readonly manifest: CatalogManifest,
    readonly vectors: CatalogVectors,
    private readonly index: VectorIndex | undefined,
  ) {}

  /**
   * Opens a finished index folder; the HNSW file is loaded unless only exhaustive scans are wanted.
   * Every file is checked against its checksum before it is read: a damaged one is an error naming it.
   */
  static async open(
    dir: string,
    { hnsw = DEFAULT_HNSW_PARAMS, withIndex = true }: { hnsw?: HnswParams; withIndex?: boolean } = {},
  ): Promise<CatalogIndex> {
    if (!existsSync(manifestPath(dir)))
      throw new UserError(
        `${dir}: no manifest.json, so not a finished catalog index (build it, or rerun the interrupted \`intentsim catalog index\` to finish it)`,
      );
    const manifest = (await readJsonFile(manifestPath(dir), {
      what: 'catalogue index manifest',
      ifDamaged: 'run catalog index again into this folder to rebuild it (finished chunks are reused)',
    })) as CatalogManifest;
    if (manifest.chunks === undefined)
      throw new UserError(`${dir}: the index is not finished (rerun catalog index to resume it)`);
    const vectors = await loadCatalogVectors(dir, manifest);
    let index: VectorIndex | undefined;
    if (withIndex) {
      const loaded = await VectorIndex.load(indexPath(dir), vectors.unit, hnsw);
      if (!(loaded instanceof VectorIndex))
        throw new UserError(
          `${indexPath(dir)}: ${loaded.stale} (rerun \`intentsim catalog index\` with the same options to rebuild it)`,
        );
      index = loaded;
    }
    return new CatalogIndex(manifest, vectors, index);
  }

  /** The HNSW index (an error when opened without it). */
  requireHnsw(): VectorIndex {
    if (!this.index) throw new Error('the catalogue index was opened without its HNSW index');
    return this.index;
  }

  /** Encodes the text with the encoder the index was built with (checked by fingerprint). */
  async embed(
    text: string,
    encoder: SentenceEncoder & Pick<FingerprintedEncoder, 'fingerprint'>,
  ): Promise<Float32Array> {
    if (encoder.fingerprint !== this.manifest.fingerprint) {
      // The same encoder with other settings: for glove-100d, SIF weighting or not.
      const settings = encoder.name === GLOVE_ENCODER_NAME ? ' (SIF weighting or not: sif)' : '';
      throw new UserError(
        `the index was built with ${this.manifest.model} (fingerprint ${this.manifest.fingerprint}); this encoder is ${encoder.name} (${encoder.fingerprint})` +
          (encoder.name === this.manifest.model ? `: the same encoder with other settings${settings}` : ''),
      );
    }
    const unit = toUnitVector(await encoder.encode([text], { normalize: true }));
    if (!unit) throw new UserError(`the encoder gave no usable vector for ${JSON.stringify(text)}`);
    return unit;
  }

  /** Top k by exact cosine: HNSW candidates (k × overfetch, at least 64) re-scored, or every row. */
  nearest(
    query: Float32Array,
    k: number,
    { exhaustive = false, overfetch = 4 }: { exhaustive?: boolean; overfetch?: number } = {},
  ): CatalogHit[] {
    const unit = this.vectors.unit;
    let rows: ArrayLike<number>;
    if (exhaustive || !this.index) rows = unit.validRows;
    else {
      const candidates = Math.max(k * overfetch, 64);
      rows = this.index.knn(query, candidates, Math.max(candidates, 128));
    }
    const scored: Array<{ row: number; cosine: number }> = [];
    for (let i = 0; i < rows.length; i++) scored.push({ row: rows[i]!, cosine: unit.cosineTo(query, rows[i]!) });
    // Ties by row keep the order reproducible.
    scored.sort((a, b) => b.cosine - a.cosine || a.row - b.row);
    return scored
      .slice(0, k)
      .map((s, i) => ({ rank: i + 1, id: unit.ids[s.row]!, title: this.vectors.titles[s.row]!, cosine: s.cosine }));
  }
}
