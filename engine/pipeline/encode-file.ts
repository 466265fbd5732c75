// `intentsim encode`: one sentence a line → a float32 .npy matrix, row i = line i + 1 (a blank line
// is an empty sentence, so rows and lines always correspond). Sentences are encoded in chunks so that
// progress shows and the vectors are streamed to disk; the file appears atomically when complete,
// with a manifest beside it (OUT.manifest.json). OUT is claimed first (core/output-claim.ts): locked,
// temporary files of killed runs removed, and OUT.manifest.json removed until this run has finished.
// A sentence the encoder gives no vector (a blank line for glove-100d, or one without a word it
// knows) keeps its all-zero row, and the manifest counts it and lists its line.
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { withFileErrorsAsync } from '../../core/file-errors.js';
import { InputError } from '../../core/errors.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { createProgress } from '../../core/progress.js';
import { NpyRowWriter } from '../../core/npy.js';
import type { DescribedEncoder, EncoderDescription } from '../../embeddings/encoder-description.js';
import { isZeroRow } from '../../embeddings/sentence-encoder.js';

/** Lines without a vector listed in the manifest (the count covers them all). */
const FIRST_LINES_LISTED = 20;

export interface EncodeFileOptions {
  batchSize?: number;
  normalize?: boolean;
  /** Sentences per encode() call (the length-sorting scope); default 8,192. */
  chunkSentences?: number;
  progress?: boolean;
}

export interface EncodeFileManifest {
  format: 'intentsim-sentence-vectors/1';
  input: string;
  output: string;
  shape: [number, number];
  normalized: boolean;
  /** Sentences without a vector (all-zero rows): how many, and the first lines (1-based). */
  withoutVector: { count: number; firstLines: number[] };
  encoder: EncoderDescription;
  timings: { totalMs: number; sentencesPerSecond: number };
}

/**
 * The text of a sentences file: UTF-8 without its byte-order mark. Bytes that are not UTF-8 are an
 * error naming the line (decoding would turn them silently into U+FFFD and encode another sentence).
 */
export function decodeSentences(bytes: Buffer, file: string): string {
  if (!isUtf8(bytes)) {
    let line = 1;
    for (let start = 0; start <= bytes.length; line++) {
      const end = bytes.indexOf(0x0a, start);
      const stop = end < 0 ? bytes.length : end;
      if (!isUtf8(bytes.subarray(start, stop)))
        throw new InputError({ file, line }, 'is not valid UTF-8 (save the file as UTF-8)');
      start = stop + 1;
    }
  }
  const text = bytes.toString('utf8');
  return text.startsWith('\ufeff') ? text.slice(1) : text;
}

/** Lines of a text file; a final line break does not start another (empty) sentence. */
export function sentenceLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** What encodeSentenceFile reads and writes, checked before any work (the CLI checks them before it opens the model). */
export function encodeFilePaths(input: string, output: string): PathChecks {
  return { inputFiles: { input }, outputFiles: { output } };
}

export async function encodeSentenceFile(
  input: string,
  output: string,
  /** An opened encoder (openEncoder's Encoder); the caller closes it. */
  encoder: DescribedEncoder,
  options: EncodeFileOptions = {},
): Promise<EncodeFileManifest> {
  // Paths first: the claim creates the output's folder, and a bad path must fail before that.
  checkPaths(encodeFilePaths(input, output));
  const completionFiles = [manifestPathOf(output)];
  return withClaimedOutput(output, 'file', { completionFiles }, () => encodeClaimed(input, output, encoder, options));
}

function manifestPathOf(output: string): string {
  return output + '.manifest.json';
}

async function encodeClaimed(
  input: string,
  output: string,
  encoder: DescribedEncoder,
  options: EncodeFileOptions,
): Promise<EncodeFileManifest> {
  const started = performance.now();
  const sentences = sentenceLines(
    decodeSentences(await withFileErrorsAsync(input, { what: 'sentences file' }, () => readFile(input)), input),
  );
  const chunk = options.chunkSentences ?? 8192;
  const normalize = options.normalize ?? true;
  const progress = createProgress({
    label: 'encode',
    total: sentences.length,
    unit: 'sentences',
    enabled: options.progress,
  });
  const writer = await NpyRowWriter.open(output, encoder.dim);
  const withoutVector = { count: 0, firstLines: [] as number[] };
  try {
    for (let i = 0; i < sentences.length; i += chunk) {
      const part = sentences.slice(i, i + chunk);
      const vectors = await encoder.encode(part, { batchSize: options.batchSize, normalize });
      for (let r = 0; r < part.length; r++) {
        if (!isZeroRow(vectors, r, encoder.dim)) continue;
        withoutVector.count += 1;
        if (withoutVector.firstLines.length < FIRST_LINES_LISTED) withoutVector.firstLines.push(i + r + 1);
      }
      await writer.append(vectors);
      progress.increment(part.length);
    }
    await writer.commit();
  } catch (err) {
    await writer.abort();
    throw err;
  } finally {
    progress.stop();
  }
  const totalMs = performance.now() - started;
  const manifest: EncodeFileManifest = {
    format: 'intentsim-sentence-vectors/1',
    input,
    output,
    shape: [sentences.length, encoder.dim],
    normalized: normalize,
    withoutVector,
    encoder: encoder.describe(),
    timings: {
      totalMs: Math.round(totalMs),
      sentencesPerSecond: Math.round((sentences.length / totalMs) * 1000 * 10) / 10,
    },
  };
  await writeFileAtomic(manifestPathOf(output), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}
