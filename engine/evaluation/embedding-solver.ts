// The no-LLM sanity solver (`ask --solver embedding`): for each IntentionQA item it answers the
// option whose embedding is nearest to the question's product(s), with the run's own sentence
// encoder: Task 1 the intention with the highest cosine summed over both products, Task 2 the
// product with the highest cosine to the given one. Its accuracy per difficulty says how far the
// distractors can be beaten by a similarity shortcut alone. It writes the responses file `score`
// reads (one letter per item, the zero-shot format), with each option's score.
import { writeFileAtomic } from '../../core/atomic.js';
import { checkPaths } from '../../core/check-paths.js';
import { ConfigError, type OnError } from '../../core/errors.js';
import type { InputLimits } from '../../core/jsonl.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { RejectsSink } from '../../core/rejects.js';
import type { SentenceEncoder } from '../../embeddings/sentence-encoder.js';
import { askPaths } from './ask.js';
import { readIntentionQaItems, type MalformedItem } from '../scoring/intentionqa/intentionqa-item-file.js';
import { detectBenchmark } from './ask-items.js';
import { EMBEDDING_SOLVER } from './solver-names.js';

export { EMBEDDING_SOLVER };

export interface EmbeddingSolverOptions {
  /** IntentionQA items (the engine's or the released files). */
  items: string;
  /** The responses file to write. */
  out: string;
  encoder: SentenceEncoder;
  batchSize?: number;
  onError?: OnError;
  /** How long an input line and a text may be (core/jsonl-batches.ts's defaults when absent). */
  limits?: InputLimits;
}

export interface EmbeddingSolverResult {
  items: number;
  /** Malformed items (not four options with distinct texts), not answered: score counts them apart. */
  malformed: MalformedItem[];
  /** Distinct texts embedded (products and options, each once). */
  texts: number;
  rejected: number;
  seconds: number;
}

/** The solver's answer: the letter of the highest score; a tie goes to the first option. */
export function nearestOption(scores: Readonly<Record<string, number>>): string {
  let best: string | undefined;
  for (const [letter, score] of Object.entries(scores)) if (best === undefined || score > scores[best]!) best = letter;
  if (best === undefined) throw new RangeError('nearestOption: no options');
  return best;
}

export async function solveByEmbedding(o: EmbeddingSolverOptions): Promise<EmbeddingSolverResult> {
  const started = performance.now();
  checkPaths(askPaths(o));
  if ((await detectBenchmark(o.items)) !== 'intentionqa')
    throw new ConfigError('items', 'the embedding solver answers IntentionQA items only');
  // The out file is locked, as `ask`'s is: one writer at a time.
  return withClaimedOutput(o.out, 'file', {}, () => solveInto(o, started));
}

async function solveInto(o: EmbeddingSolverOptions, started: number): Promise<EmbeddingSolverResult> {
  const onError = o.onError ?? 'fail';
  const rejects = onError === 'skip' ? new RejectsSink(`${o.out}.rejects.jsonl`) : undefined;
  const read = await readIntentionQaItems(o.items, { onError, rejects, limits: o.limits });
  const questions = read.items.map((i) => i.question);

  const texts = [...new Set(questions.flatMap((q) => [...q.questionProducts, ...Object.values(q.options)]))];
  const matrix = await o.encoder.encode(texts, { batchSize: o.batchSize, normalize: true });
  const row = new Map(texts.map((t, i) => [t, i]));
  const dim = o.encoder.dim;
  const cosine = (a: string, b: string) => {
    const i = row.get(a)! * dim;
    const j = row.get(b)! * dim;
    let s = 0;
    for (let k = 0; k < dim; k++) s += matrix[i + k]! * matrix[j + k]!;
    return s;
  };

  const lines = questions.map((q) => {
    const scores: Record<string, number> = {};
    for (const [letter, text] of Object.entries(q.options))
      scores[letter] = q.questionProducts.reduce((s, product) => s + cosine(product, text), 0);
    return (
      JSON.stringify({
        id: q.id,
        response: nearestOption(scores),
        solver: EMBEDDING_SOLVER,
        model: o.encoder.name,
        style: 'zero_shot',
        option_scores: scores,
      }) + '\n'
    );
  });
  await writeFileAtomic(o.out, lines.join(''));
  await rejects?.close();
  return {
    items: questions.length,
    malformed: read.malformed,
    texts: texts.length,
    rejected: rejects?.count ?? 0,
    seconds: (performance.now() - started) / 1000,
  };
}
