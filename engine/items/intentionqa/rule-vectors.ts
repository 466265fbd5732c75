// The vectors the validity rules compare, made by the run's encoder: one row per intention key (the
// second-answer, unexplained and fits-as-well rules) and one per product title (the fit rules, and the
// kinds from title clusters). Each set is centered on its own mean when asked (averaged word vectors
// are all alike until the common part is removed: raw GloVe averages of sentences that all start
// "because they …" sit at cosines near 0.9). The pipeline (engine/pipeline/items-stage.ts) and
// `items check` (engine/evaluation/check-items.ts) make them here, so both apply the same rules.
import type { SentenceEncoder, VectorSet } from '../../../embeddings/sentence-encoder.js';
import { centerVectors } from '../../search/centering.js';
import { UnitVectors } from '../../search/unit-vectors.js';
import type { Assertion } from './assertions.js';
import { encodeIntentionTexts } from './validity-filters.js';

/** Unit rows of a vector set, centered on its own mean first when asked. */
export function unitRows(set: VectorSet, center: boolean): UnitVectors {
  return UnitVectors.fromVectorSet(center ? centerVectors(set).centered : set);
}

/** The intention texts of the assertions, one row per intentionKey. */
export async function intentionRows(
  encoder: SentenceEncoder,
  assertions: readonly Assertion[],
  center: boolean,
): Promise<UnitVectors> {
  return unitRows(await encodeIntentionTexts(encoder, assertions), center);
}

/** The titles, one row per product id. */
export async function titleRows(
  encoder: SentenceEncoder,
  titles: ReadonlyMap<string, string>,
  center: boolean,
): Promise<UnitVectors> {
  const data = await encoder.encode([...titles.values()], { normalize: true });
  return unitRows({ ids: [...titles.keys()], dim: encoder.dim, data }, center);
}
