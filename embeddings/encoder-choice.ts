// Which sentence encoder a command uses: the Sentence-BERT ONNX model (default), the GloVe
// word-vector baseline, or the offline stand-in (only when named, or as the demo's last resort). A
// light module, so that the CLI parses options without loading the models.
import { HASHING_ENCODER_NAME } from './hashing-encoder.js';
import { GLOVE_ENCODER_NAME } from './glove-encoder.js';
import { ConfigError } from '../core/errors.js';

export const ENCODER_CHOICES = ['sentence-bert', GLOVE_ENCODER_NAME, HASHING_ENCODER_NAME] as const;
export type EncoderChoice = (typeof ENCODER_CHOICES)[number];

export function parseEncoderChoice(value: string): EncoderChoice {
  const choice = ENCODER_CHOICES.find((c) => c === value);
  if (choice) return choice;
  throw new ConfigError('encoder', `must be ${ENCODER_CHOICES.join(', ')}, got "${value}"`);
}
