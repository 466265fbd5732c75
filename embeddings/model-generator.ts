// Writes generated BERT models as folders that transformers.js and this engine load like a download
// of Xenova/all-MiniLM-L6-v2: DIR/config.json, DIR/tokenizer.json (+ vocab.txt, tokenizer_config.json,
// special_tokens_map.json), DIR/onnx/model.onnx and DIR/onnx/model_quantized.onnx.
// Two generators: a tiny model with its own ~100-token vocabulary for tests, and a model with
// all-MiniLM-L6-v2's exact shape (same FLOPs) for benchmarks. Both have random seeded weights — the
// same seed gives byte-identical files — and their embeddings carry no meaning.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.js';
import { buildBertOnnx, MINILM_L6_SHAPE, randomBertWeights, type BertPrecision, type BertShape } from './bert-onnx.js';
import {
  syntheticBertVocabulary,
  tinyVocabulary,
  wordPieceTokenizerFiles,
  type TokenizerFiles,
} from './wordpiece-files.js';
import { onnxFileForDtype } from './model-files.js';
import { UserError } from '../core/errors.js';

/** The tiny test model: BERT-shaped, hidden 32, 2 layers, 2 heads. */
export function tinyTestShape(vocabSize: number): BertShape {
  return {
    vocabSize,
    hiddenSize: 32,
    numLayers: 2,
    numHeads: 2,
    intermediateSize: 64,
    maxPositions: 512,
    typeVocabSize: 2,
    layerNormEps: 1e-12,
  };
}

/** Tokenizer files copied from a real tokenizer folder instead of generated. */
export interface CopiedTokenizer {
  copyFrom: string;
}

export interface GeneratedModelSpec {
  /** Recorded in config.json as `_name_or_path`. */
  name: string;
  shape: BertShape;
  seed: number;
  /** Standard deviation of the random weights. */
  std: number;
  precisions: readonly BertPrecision[];
  tokenizer: TokenizerFiles | CopiedTokenizer;
}

export interface GeneratedModelReport {
  dir: string;
  name: string;
  files: Array<{ path: string; bytes: number }>;
  tokenizer: 'generated' | string;
}

const TOKENIZER_FILE_NAMES = [
  'tokenizer.json',
  'vocab.txt',
  'tokenizer_config.json',
  'special_tokens_map.json',
] as const;

export async function writeGeneratedModel(dir: string, spec: GeneratedModelSpec): Promise<GeneratedModelReport> {
  const files: GeneratedModelReport['files'] = [];
  const write = async (rel: string, data: string | Uint8Array) => {
    await writeFileAtomic(join(dir, rel), data);
    files.push({ path: rel, bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength });
  };

  let tokenizerSource: string;
  if ('copyFrom' in spec.tokenizer) {
    tokenizerSource = spec.tokenizer.copyFrom;
    const tokenizerJson = join(spec.tokenizer.copyFrom, 'tokenizer.json');
    if (!existsSync(tokenizerJson)) throw new UserError(`no tokenizer.json in ${spec.tokenizer.copyFrom}`);
    const vocabSize = countVocabulary(await readFile(tokenizerJson, 'utf8'));
    if (vocabSize !== spec.shape.vocabSize) {
      throw new UserError(`${tokenizerJson} has ${vocabSize} tokens but the model shape needs ${spec.shape.vocabSize}`);
    }
    for (const name of TOKENIZER_FILE_NAMES) {
      const from = join(spec.tokenizer.copyFrom, name);
      if (existsSync(from)) await write(name, await readFile(from));
    }
  } else {
    tokenizerSource = 'generated';
    for (const name of TOKENIZER_FILE_NAMES) await write(name, spec.tokenizer[name]);
  }

  await write('config.json', JSON.stringify(bertConfigJson(spec), null, 2) + '\n');
  const weights = randomBertWeights(spec.shape, spec.seed, spec.std);
  for (const precision of spec.precisions) {
    await write(onnxFileForDtype(precision), buildBertOnnx(weights, precision));
  }
  return { dir, name: spec.name, files, tokenizer: tokenizerSource };
}

/** config.json in the Hugging Face BertModel format, plus a record of how the model was made. */
function bertConfigJson(spec: GeneratedModelSpec): Record<string, unknown> {
  const s = spec.shape;
  return {
    _name_or_path: spec.name,
    architectures: ['BertModel'],
    attention_probs_dropout_prob: 0.1,
    hidden_act: 'gelu',
    hidden_dropout_prob: 0.1,
    hidden_size: s.hiddenSize,
    initializer_range: spec.std,
    intermediate_size: s.intermediateSize,
    layer_norm_eps: s.layerNormEps,
    max_position_embeddings: s.maxPositions,
    model_type: 'bert',
    num_attention_heads: s.numHeads,
    num_hidden_layers: s.numLayers,
    pad_token_id: 0,
    position_embedding_type: 'absolute',
    type_vocab_size: s.typeVocabSize,
    vocab_size: s.vocabSize,
    intentsim_generated: {
      generator: spec.name,
      seed: spec.seed,
      weights: 'random (seeded): this is not a trained model and its similarities mean nothing',
      q8_weights: 'int8, symmetric per tensor, 7 bits (quantize_dynamic weight_type=QInt8, reduce_range=True)',
    },
  };
}

function countVocabulary(tokenizerJson: string): number {
  const parsed = JSON.parse(tokenizerJson) as { model?: { vocab?: Record<string, number> } };
  return Object.keys(parsed.model?.vocab ?? {}).length;
}

export const TEST_MODEL_NAME = 'intentsim/generated-tiny-bert';
export const BENCH_MODEL_NAME = 'intentsim/generated-minilm-l6-shape';

/** The tiny test model's full specification (tests rebuild its weights from it). */
export function testModelSpec(seed = 1): GeneratedModelSpec & { tokenizer: TokenizerFiles } {
  const vocab = tinyVocabulary();
  return {
    name: TEST_MODEL_NAME,
    shape: tinyTestShape(vocab.length),
    seed,
    // Larger than BERT's 0.02 so that attention is far from uniform and every weight matters in tests.
    std: 0.2,
    precisions: ['fp32', 'q8'],
    tokenizer: wordPieceTokenizerFiles(vocab, 512),
  };
}

export function makeTestModel(dir: string, { seed = 1 }: { seed?: number } = {}): Promise<GeneratedModelReport> {
  return writeGeneratedModel(dir, testModelSpec(seed));
}

export interface BenchModelOptions {
  seed?: number;
  precisions?: readonly BertPrecision[];
  /** A folder with all-MiniLM-L6-v2's tokenizer files to copy; undefined generates a 30,522-token vocabulary. */
  tokenizerFrom?: string;
}

export function makeBenchModel(dir: string, options: BenchModelOptions = {}): Promise<GeneratedModelReport> {
  return writeGeneratedModel(dir, {
    name: BENCH_MODEL_NAME,
    shape: MINILM_L6_SHAPE,
    seed: options.seed ?? 1,
    std: 0.02,
    precisions: options.precisions ?? ['fp32', 'q8'],
    tokenizer: options.tokenizerFrom
      ? { copyFrom: options.tokenizerFrom }
      : wordPieceTokenizerFiles(syntheticBertVocabulary(MINILM_L6_SHAPE.vocabSize), 512),
  });
}
