// File layout of a sentence model folder, as transformers.js and the Hugging Face Hub lay out
// Xenova/all-MiniLM-L6-v2: config and tokenizer at the top, ONNX graphs under onnx/ with a dtype suffix.
import { ConfigError } from '../core/errors.js';

/**
 * Weight precisions this engine runs: full float32, 8-bit dynamic quantisation, or float16 (for GPUs
 * with shader-f16), which is converted from the float32 file by float16-conversion.ts on first use.
 */
export type ModelDtype = 'fp32' | 'q8' | 'fp16';

export const MODEL_DTYPES: readonly ModelDtype[] = ['fp32', 'q8', 'fp16'];

export function parseModelDtype(value: string): ModelDtype {
  if (value === 'fp32' || value === 'q8' || value === 'fp16') return value;
  throw new ConfigError('dtype', `must be fp32, q8 or fp16, got "${value}"`);
}

/**
 * The file a dtype loads, as transformers.js's dtype suffixes (DEFAULT_DTYPE_SUFFIX_MAPPING) name them:
 * fp32 → model.onnx, q8 → model_quantized.onnx. fp16 reads model.onnx and converts it (into the
 * cache's derived-models/), rather than the Hub's model_fp16.onnx: one conversion, ours, for every model.
 */
export function onnxFileForDtype(dtype: ModelDtype): string {
  return dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
}

/** Files a folder must hold for `dtype` to load (the tokenizer's other files are optional). */
export function requiredModelFiles(dtype: ModelDtype): string[] {
  return ['config.json', 'tokenizer.json', onnxFileForDtype(dtype)];
}

/** Files fetched from the Hub besides the ONNX graph, when present there. */
export const OPTIONAL_MODEL_FILES = ['tokenizer_config.json', 'special_tokens_map.json', 'vocab.txt'] as const;

/** The model the engine uses unless told otherwise (all-MiniLM-L6-v2 exported to ONNX by Xenova). */
export const DEFAULT_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';

/** sentence-transformers' max_seq_length for all-MiniLM-L6-v2: longer inputs are truncated. */
export const DEFAULT_MAX_TOKENS = 256;

/** Sentences per model call on the CPU provider unless told otherwise. */
export const DEFAULT_BATCH_SIZE = 64;

/**
 * Sentences per model call on a GPU provider (webgpu, cuda) unless told otherwise. From issue 30's
 * measurement on one NVIDIA H200 (WebGPU, MiniLM-L6-shaped fp32 model, 50k ASER-style sentences):
 * batch 64 → 6,789 sentences/s, 256 → 9,655, 1024 → 9,441. Not yet measured with the pipelined
 * encoder and in-graph pooling, which may move the best size.
 */
export const DEVICE_BATCH_SIZE = 256;

/** The batch size a provider uses when none is given. */
export function defaultBatchSizeFor(provider: string): number {
  return provider === 'cpu' ? DEFAULT_BATCH_SIZE : DEVICE_BATCH_SIZE;
}
