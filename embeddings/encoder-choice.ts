// Which sentence encoder a command uses: the Sentence-BERT ONNX model (default) or, only when named,
// the offline stand-in. A light module, so that the CLI parses options without loading the models.
import { HASHING_ENCODER_NAME } from './hashing-encoder.js';

export type EncoderChoice = 'sentence-bert' | typeof HASHING_ENCODER_NAME;

export function parseEncoderChoice(value: string): EncoderChoice {
  if (value === 'sentence-bert' || value === HASHING_ENCODER_NAME) return value;
  throw new Error(`--encoder must be sentence-bert or ${HASHING_ENCODER_NAME}, got "${value}"`);
}
