// Conceptualization (docs/graph-match.md): a product title becomes up to three short category phrases.
// Three interchangeable sources sit behind one interface:
//   - UserConcepts    (this file): phrases supplied by the user, JSONL `{"id", "phrases": [...]}`
//                                  (e.g. the answers of the paper's ChatGPT prompt);
//   - OfflineConceptualizer (engine/products/concepts-offline.ts): n-grams of the title, preferring phrases
//                                  that have purchase nodes in the graph; no network, the default;
//   - OpenAiConceptualizer  (engine/products/concepts-openai.ts): the paper's Table 5 prompt sent to an
//                                  OpenAI-compatible endpoint, cached.
// Every source returns RAW phrases; `normalizePhrases` (engine/products/normalize.ts) then gives the phrases
// that are matched (normalised, with singular variants), so all sources are treated alike.
import { FieldReader, readJsonl, type InputLimits } from '../../core/jsonl.js';
import { InputError } from '../../core/errors.js';
import { normalizePhrases } from './normalize.js';
import type { Product } from './products.js';

/** The concepts of one product. */
export interface ProductConcepts {
  /** The phrases as the source gave them (before normalisation). */
  raw: string[];
  /** Normalised phrases, each followed by its singular variant when that differs; each once. */
  phrases: string[];
}

/** The outcome for one product: its concepts, or why there are none (the caller fails or skips). */
export type ConceptOutcome =
  { ok: true; concepts: ProductConcepts } | { ok: false; field: 'id' | 'title'; reason: string };

export interface Conceptualizer {
  /** `user-file`, `offline` or `openai:<model>`; recorded with every match. */
  readonly name: string;
  /** Concepts for a batch of products, in input order (one batch = a few store round trips). */
  conceptualize(products: readonly Product[]): Promise<ConceptOutcome[]>;
  close(): Promise<void>;
}

export function conceptsFromRaw(raw: readonly string[]): ProductConcepts {
  return { raw: [...raw], phrases: normalizePhrases(raw) };
}

/**
 * Reads a user concepts file, JSONL `{"id": "…", "phrases": ["Phone Case", "Mobile Accessory"]}`.
 * Errors name file, line and field: a repeated id, a missing or empty `phrases` array, a phrase that
 * is not a string or that normalises to nothing (e.g. `"(Black)"`).
 */
export async function loadUserConcepts(file: string, limits: InputLimits = {}): Promise<Map<string, string[]>> {
  const byId = new Map<string, string[]>();
  const parse = (json: unknown, at: { file: string; line: number }) => {
    const r = new FieldReader(json, at);
    const id = r.id('id');
    const phrases = r.stringArray('phrases');
    if (phrases.length === 0) throw r.error('phrases', 'must list at least one phrase');
    phrases.forEach((p, i) => {
      if (normalizePhrases([p]).length === 0)
        throw r.error(`phrases[${i}]`, `${JSON.stringify(p)} normalises to an empty phrase`);
    });
    return { id, phrases };
  };
  const unique = { of: (c: { id: string }) => c.id, field: 'id', what: 'id' };
  for await (const { value } of readJsonl(file, parse, { ...limits, unique })) byId.set(value.id, value.phrases);
  return byId;
}

/** Phrases supplied by the user; a product without an entry is an error for that product. */
export class UserConcepts implements Conceptualizer {
  readonly name = 'user-file';

  constructor(
    private readonly byId: ReadonlyMap<string, readonly string[]>,
    private readonly file: string,
  ) {}

  static async load(file: string, limits: InputLimits = {}): Promise<UserConcepts> {
    return new UserConcepts(await loadUserConcepts(file, limits), file);
  }

  async conceptualize(products: readonly Product[]): Promise<ConceptOutcome[]> {
    return products.map((p): ConceptOutcome => {
      const raw = this.byId.get(p.id);
      if (raw === undefined)
        return { ok: false, field: 'id', reason: `no concepts for product "${p.id}" in ${this.file}` };
      return { ok: true, concepts: conceptsFromRaw(raw) };
    });
  }

  async close(): Promise<void> {}
}

/** Turns a per-product failure into an InputError that names the product's file and line. */
export function conceptError(
  outcome: Extract<ConceptOutcome, { ok: false }>,
  at: { file: string; line: number },
): InputError {
  return new InputError({ file: at.file, line: at.line, field: outcome.field }, outcome.reason);
}
