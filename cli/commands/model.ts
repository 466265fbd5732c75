// `intentsim model …`: generated test and benchmark models, downloading the real one, and checking
// which model and device a command would use.
import { Option, type Command } from '@commander-js/extra-typings';
import { DEFAULT_MODEL_ID, MODEL_DTYPES } from '../../embeddings/model-files.js';
import { sharedMiniLmTokenizerDir } from '../../core/shared-files.js';
import {
  MODEL_HELP,
  addModelCacheOptions,
  addModelOptions,
  downloadReporter,
  encoderExecution,
  encoderSpec,
  modelPaths,
} from '../options/model-options.js';
import { declarePaths } from '../declared-paths.js';
import { defaultCacheRoot } from '../../embeddings/cache-paths.js';
import { addOutDirOption } from '../options/output-options.js';
import { addSeedOption } from '../options/seed-option.js';
import { positiveInt } from '../options/value-parsers.js';

/** --dtype of the commands that write or fetch model files: which ONNX graphs. */
function graphsOption() {
  return new Option('--dtype <dtype>', 'which ONNX graphs: fp32 (model.onnx), q8 (model_quantized.onnx) or both')
    .choices(['fp32', 'q8', 'both'] as const)
    .default('both');
}

export function registerModelCommands(program: Command): void {
  const model = program
    .command('model')
    .description('generated test and benchmark models; download or check the real one');

  const makeTest = model
    .command('make-test')
    .summary('write the tiny generated BERT test model (random weights)')
    .description(
      `Writes a tiny BERT-shaped ONNX model (hidden 32, 2 layers, 2 heads, ~100-token
WordPiece vocabulary) with its own tokenizer files, in the folder layout of
${DEFAULT_MODEL_ID}: DIR/config.json, DIR/tokenizer.json, DIR/vocab.txt,
DIR/onnx/model.onnx, DIR/onnx/model_quantized.onnx. Deterministic: the same
--seed gives byte-identical files. Random weights: for tests only.

Example
  intentsim model make-test --out /tmp/tiny
  intentsim encode --model-dir /tmp/tiny --in s.txt --out v.npy`,
    );
  const makeTestOptions = addSeedOption(addOutDirOption(makeTest), positiveInt);
  declarePaths(makeTestOptions, (o) => ({ outputDirs: { out: o.out } })).action(async (o) => {
    const { makeTestModel } = await import('../../embeddings/model-generator.js');
    const report = await makeTestModel(o.out, { seed: o.seed });
    process.stdout.write(report.files.map((f) => `${o.out}/${f.path}  ${f.bytes} bytes`).join('\n') + '\n');
  });

  const makeBench = model
    .command('make-bench')
    .summary("write a model of all-MiniLM-L6-v2's exact shape with random weights (fp32 and q8)")
    .description(
      `Writes a BERT ONNX model with all-MiniLM-L6-v2's shape (vocabulary 30,522,
hidden 384, 6 layers, 12 heads, intermediate 1,536, 512 positions) and random
seeded weights: the same FLOPs as the real model, for throughput benchmarks.
q8 is dynamic quantisation as onnxruntime's quantize_dynamic does it with
reduce_range (DynamicQuantizeLinear + MatMulInteger with 7-bit int8 weights,
which no CPU's kernel saturates; int8 word embeddings). The tokenizer is the
real all-MiniLM-L6-v2 one when --tokenizer-from names it (default: the copy in
../shared when present), else a generated 30,522-token WordPiece vocabulary.
Its similarities mean nothing.

Example
  intentsim model make-bench --out /tmp/minilm-shape --dtype both`,
    );
  const makeBenchOptions = addOutDirOption(makeBench)
    .addOption(graphsOption())
    .option('--tokenizer-from <dir>', 'copy tokenizer files from this folder ("none": generate a vocabulary)');
  const tokenizerFromOf = (o: { tokenizerFrom?: string }) =>
    o.tokenizerFrom === 'none' ? undefined : (o.tokenizerFrom ?? sharedMiniLmTokenizerDir());
  declarePaths(addSeedOption(makeBenchOptions, positiveInt), (o) => ({
    inputDirs: { tokenizerFrom: tokenizerFromOf(o) },
    outputDirs: { out: o.out },
  })).action(async (o) => {
    const tokenizerFrom = tokenizerFromOf(o);
    const { makeBenchModel } = await import('../../embeddings/model-generator.js');
    const report = await makeBenchModel(o.out, {
      seed: o.seed,
      precisions: o.dtype === 'both' ? ['fp32', 'q8'] : [o.dtype],
      tokenizerFrom,
    });
    process.stdout.write(
      `tokenizer: ${report.tokenizer}\n` +
        report.files.map((f) => `${o.out}/${f.path}  ${f.bytes} bytes`).join('\n') +
        '\n',
    );
  });

  const download = model
    .command('download')
    .summary('download the real model from the Hugging Face Hub into the cache')
    .description(
      `Downloads config.json, the tokenizer files and the ONNX graph of --dtype
(default both fp32 and q8) of --model-id into CACHE/models/<id>/
(transformers.js's cache layout). Run it on a machine with internet, then copy
the cache folder and pass --model-cache. HF_TOKEN is sent for gated models.

Example
  intentsim model download --model-cache ~/intentsim-cache
  rsync -a ~/intentsim-cache/ server:intentsim-cache/  # then --model-cache`,
    );
  // The cache is what `model download` writes: an output, checked as one (a folder, writable).
  declarePaths(addModelCacheOptions(download).addOption(graphsOption()), (o) => ({
    outputDirs: { modelCache: o.modelCache ?? defaultCacheRoot() },
  })).action(async (o) => {
    const { resolveModel } = await import('../../embeddings/model-resolution.js');
    for (const dtype of o.dtype === 'both' ? MODEL_DTYPES : [o.dtype]) {
      const resolved = await resolveModel({
        modelId: o.modelId,
        cacheDir: o.modelCache,
        dtype,
        onDownload: downloadReporter(),
      });
      process.stdout.write(`${dtype}: ${resolved.onnxPath} (${resolved.source})\n`);
    }
  });

  const info = model
    .command('info')
    .summary('show which model, file and execution provider a command would use')
    .description(
      `Resolves the model as embed/encode would, opens it on --device, runs one probe
sentence and prints the result as JSON: the folder, the ONNX file, the
fingerprint, the provider that ran and why the others failed. Use it to check
a GPU machine before a long run.
${MODEL_HELP}

Example
  intentsim model info --model-dir /tmp/minilm-shape --device auto`,
    );
  declarePaths(addModelOptions(info), modelPaths).action(async (o) => {
    const { describeEncoder, openEncoder } = await import('../../workers/open-encoder.js');
    const encoder = await openEncoder(encoderSpec(o), encoderExecution(o));
    try {
      process.stdout.write(JSON.stringify(describeEncoder(encoder), null, 2) + '\n');
    } finally {
      await encoder.close();
    }
  });
}
