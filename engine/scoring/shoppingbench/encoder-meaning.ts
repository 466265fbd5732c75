// Similarities from a stand-in encoder or a generated (random-weight) model mean nothing; every
// output that reports them says so. Those of glove-100d mean something but come from a word-vector
// baseline, not the Sentence-BERT model the benchmarks were built with; the outputs say that too.
// This decides which case an opened encoder is.
import { readModelConfig } from '../../../core/model-config.js';
import { HASHING_ENCODER_NAME } from '../../../embeddings/hashing-encoder.js';
import { GLOVE_ENCODER_NAME } from '../../../embeddings/glove-encoder.js';
import { OnnxSentenceEncoder } from '../../../embeddings/onnx-encoder.js';
import type { SentenceEncoder } from '../../../embeddings/sentence-encoder.js';
import type { DescribedEncoder } from '../../../embeddings/encoder-description.js';

/**
 * What to keep in mind about similarities that do mean something but do not come from Sentence-BERT
 * (glove-100d), or undefined.
 */
export function similarityNote(encoder: SentenceEncoder): string | undefined {
  if (encoder.name === GLOVE_ENCODER_NAME)
    return (
      `${GLOVE_ENCODER_NAME} averages GloVe word vectors: its similarities are meaningful but coarser than ` +
      "Sentence-BERT's, and it is not the model the benchmark's own scores use"
    );
  return undefined;
}

/** Why this encoder's similarities carry no meaning, or undefined for a trained Sentence-BERT model or glove-100d. */
export function notMeaningfulBecause(encoder: SentenceEncoder): string | undefined {
  if (encoder.name === HASHING_ENCODER_NAME)
    return `${HASHING_ENCODER_NAME} is an offline hashing stand-in, not Sentence-BERT`;
  if (encoder.name === GLOVE_ENCODER_NAME) return undefined;
  // The in-thread encoder, the worker pool and the queue coordinator all describe the model folder they loaded.
  const dir = encoder instanceof OnnxSentenceEncoder ? encoder.info.dir : modelDirOf(encoder);
  if (dir === undefined) return `${encoder.name} is not the Sentence-BERT model`;
  try {
    const config = readModelConfig(dir);
    if (config.intentsim_generated)
      return `${config.intentsim_generated.generator ?? encoder.name} is a generated model with random weights`;
  } catch {
    // The encoder opened this file moments ago; if it is gone now, nothing more can be said.
  }
  return undefined;
}

function modelDirOf(encoder: SentenceEncoder): string | undefined {
  const described = (encoder as Partial<DescribedEncoder>).describe?.();
  return described && described.sentenceBert === true && 'dir' in described ? described.dir : undefined;
}
