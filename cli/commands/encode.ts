// `intentsim encode`: one sentence a line → a .npy matrix of sentence vectors (the plain encoder).
import type { Command } from '@commander-js/extra-typings';
import {
  MODEL_HELP,
  addModelOptions,
  encoderExecution,
  encoderSpec,
  formatProviderLine,
  modelPaths,
} from '../options/model-options.js';
import { declarePaths, mergePaths } from '../declared-paths.js';
import { addQueueOptions, queueOptions } from '../options/queue-options.js';

const ENCODE_HELP = `Embeds every line of a text file (one sentence a line; a blank line is an
empty sentence, so row i is always line i + 1) and writes a float32 [lines ×
dim] .npy file, plus OUT.manifest.json with the model, provider, padding
wasted and throughput. Like sentence-transformers' model.encode(sentences).
${MODEL_HELP}

Example
  intentsim encode --in sentences.txt --out vectors.npy --model-dir minilm/ \\
    --dtype q8
  python -c "import numpy; print(numpy.load('vectors.npy').shape)"`;

export function registerEncodeCommand(program: Command): void {
  const command = program
    .command('encode')
    .summary('embed one sentence a line into a .npy matrix (the plain encoder)')
    .description(ENCODE_HELP)
    .requiredOption('--in <file>', 'sentences, one a line (UTF-8)')
    .requiredOption('--out <file>', 'output .npy file')
    .option('--no-normalize', 'keep the mean-pooled vectors unnormalised');
  declarePaths(addQueueOptions(addModelOptions(command)), async (o) => {
    const { encodeFilePaths } = await import('../../engine/pipeline/encode-file.js');
    return mergePaths(encodeFilePaths(o.in, o.out), modelPaths(o));
  }).action(async (o) => {
    // The model code (transformers.js, ONNX Runtime) loads when the command runs.
    const { openEncoder } = await import('../../workers/open-encoder.js');
    const { encodeSentenceFile } = await import('../../engine/pipeline/encode-file.js');
    const encoder = await openEncoder(encoderSpec(o), encoderExecution(o, { queue: queueOptions(o) }));
    try {
      const manifest = await encodeSentenceFile(o.in, o.out, encoder, {
        batchSize: o.batchSize,
        normalize: o.normalize,
      });
      process.stdout.write(
        `${String(manifest.encoder.model)} (${String(manifest.encoder.dtype)}) ${formatProviderLine(manifest.encoder)}\n` +
          `wrote ${o.out} [${manifest.shape.join(' × ')}], ${manifest.timings.sentencesPerSecond} sentences/s\n`,
      );
      const missing = manifest.withoutVector;
      if (missing.count > 0)
        process.stderr.write(
          `${missing.count} sentence(s) got no vector (all-zero rows: no word the encoder knows), lines ${missing.firstLines.join(', ')}${missing.count > missing.firstLines.length ? ', …' : ''}\n`,
        );
    } finally {
      await encoder.close();
    }
  });
}
