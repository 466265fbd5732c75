// A model folder's `config.json` (the Hugging Face file beside model.onnx): read in one place, for
// the fields intentsim uses. Whoever reads it checks the fields it needs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ModelConfig {
  /** The embedding width. */
  hidden_size?: unknown;
  /** The longest input the position embeddings cover, in tokens. */
  max_position_embeddings?: unknown;
  /** The model's Hub name, when the folder came from the Hub. */
  _name_or_path?: unknown;
  /** Set by intentsim's model generators: the weights are random. */
  intentsim_generated?: { generator?: string };
}

export function modelConfigPath(dir: string): string {
  return join(dir, 'config.json');
}

/** Parses `dir/config.json`; throws when it is missing or not JSON. */
export function readModelConfig(dir: string): ModelConfig {
  return JSON.parse(readFileSync(modelConfigPath(dir), 'utf8')) as ModelConfig;
}
