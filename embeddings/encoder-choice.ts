// Which sentence encoder a command uses: the Sentence-BERT ONNX model (default), the GloVe
// word-vector baseline, or the offline stand-in (only when named, or as the demo's last resort). A
// light module, so that the CLI parses options without loading the models.
import { ConfigError } from '../core/errors.js';

/** The offline stand-in's name (hashing-encoder.ts); here so that naming it loads no encoder. */
export const HASHING_ENCODER_NAME = 'offline-hashing-v1';
/** The GloVe baseline's name (glove-encoder.ts); here so that naming it loads no encoder. */
export const GLOVE_ENCODER_NAME = 'glove-100d' as const;

export const ENCODER_CHOICES = ['sentence-bert', GLOVE_ENCODER_NAME, HASHING_ENCODER_NAME] as const;
export type EncoderChoice = (typeof ENCODER_CHOICES)[number];

export function parseEncoderChoice(value: string): EncoderChoice {
  const choice = ENCODER_CHOICES.find((c) => c === value);
  if (choice) return choice;
  throw new ConfigError('encoder', `must be ${ENCODER_CHOICES.join(', ')}, got "${value}"`);
}
