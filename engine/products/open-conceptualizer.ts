// Which conceptualizer a run uses: the user's concepts file when given, the OpenAI-compatible
// endpoint when asked for, else the offline one (which prefers phrases with purchase nodes in `store`).
import type { InputLimits } from '../../core/jsonl.js';
import type { GraphStore } from '../../graph/graph-store.js';
import { UserConcepts, type Conceptualizer } from './concepts.js';
import { OfflineConceptualizer } from './concepts-offline.js';
import { OpenAiConceptualizer, type OpenAiConceptOptions } from './concepts-openai.js';

export interface ConceptSourceOptions {
  /** User concepts JSONL {"id", "phrases"}. */
  concepts?: string;
  /** Without `concepts`: offline (the default) or openai. */
  conceptualizer?: 'offline' | 'openai';
  openai: OpenAiConceptOptions;
  /** Limits on the concepts file's lines and texts. */
  limits?: InputLimits;
}

export async function openConceptualizer(options: ConceptSourceOptions, store: GraphStore): Promise<Conceptualizer> {
  if (options.concepts) return UserConcepts.load(options.concepts, options.limits);
  if (options.conceptualizer === 'openai') return OpenAiConceptualizer.open(options.openai);
  return new OfflineConceptualizer(store);
}
