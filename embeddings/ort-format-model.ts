// The CPU session's fast start (issue 50): ONNX Runtime's own format of a model, optimised for this
// machine, kept in the cache folder and opened from memory in place of the ONNX file.
//
// Opening an ONNX file, ORT parses the protobuf, copies every initializer twice (into a TensorProto,
// then into a tensor) and runs the graph optimisers: 0.31 s for the 23 MB MiniLM-shaped q8 model on
// the 2-core AMD EPYC VM, most of it memory copies and page faults. The same model saved by ORT in
// its ORT format (a flatbuffer, optimised already) and opened from bytes with
// `session.use_ort_model_bytes_directly` and `session.use_ort_model_bytes_for_initializers` uses the
// initializers where they lie: 0.07 s, plus the read (on libuv's thread, while this one creates ORT's
// environment and loads the tokenizer) and the SHA-256 check (0.05 s). The vectors are bit-identical:
// both run the same optimised graph (test/ort-format-model.test.ts).
//
// The saved graph is specific to the machine and the runtime: at level 'all' ORT lays out
// convolutions for the CPU's vector width and fuses for its kernels. So the cache key is the source
// file, ORT's version, the CPU class (kernel-class.ts, as fine as q8's kernels) and the optimisation
// level; another machine, an upgraded onnxruntime-node or another level never reuses it.
//
// Saving costs the open that saves about 0.3 s more, so a model is noted on its first open and saved
// on its second (ORT writes it while it opens the session); a model opened once, the common one-off
// run, never pays. Like the derived models (derived-models.ts), the file lies under derived-models/
// beside a record of what it was made from (the source's path, size, mtime and inode) and its own
// SHA-256; reuse checks the source, the file's identity and the SHA-256 of the bytes read, so that a
// damaged or stale file is rebuilt and never yields other vectors. A cache folder that cannot be
// written costs the speed, never the result.
import { open, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { openTemporaryOutput, writeFileAtomic } from '../core/atomic.js';
import { removeStaleTemporaryFiles } from '../core/temporary-files.js';
import { checksumOf, checksumOfFile, readChecksummedJson, sha256OfJson, withJsonChecksum } from '../core/checksum.js';
import { makeDirs } from '../core/make-dirs.js';
import { fileIdentity, type FileIdentity } from './model-fingerprint.js';
import { cpuClass } from './kernel-class.js';
import { ort } from './onnxruntime.js';
import type { SessionModel } from './execution-providers.js';

/** Bumped when what is saved, or how it is opened, changes. */
const FORMAT_VERSION = 1;

/** Everything the saved graph depends on besides the source file. */
export interface OrtFormatKey {
  ortVersion: string;
  cpuClass: string;
  graphOptimizationLevel: string;
}

/** What the manifest records of the CPU session's model (OnnxEncoderDescription.ortFormatModel). */
export interface OrtFormatInfo {
  /** The ORT-format file, when one was opened or built. */
  file?: string;
  /** 'cache', 'built (why)' or 'not used (why)'. */
  source: string;
}

/** The CPU session's model, and what to do once the session is open. */
export interface CpuSessionModel {
  model: SessionModel;
  /** The bytes the session uses in place, when it opens the cached file: keep them while it lives. */
  bytes?: Uint8Array;
  /** After the session opened with `model`: keeps a file ORT saved, and says what was used. */
  settle(saved: true | string | undefined): Promise<OrtFormatInfo>;
}

/** The cache's record: the model was opened (no `output` yet), or its ORT format saved. */
interface OrtFormatRecord {
  format: typeof FORMAT_VERSION;
  key: OrtFormatKey;
  source: FileIdentity;
  output?: FileIdentity;
  sha256?: string;
  checksum: string;
}

/** This machine's and runtime's key for `graphOptimizationLevel`. */
export function ortFormatKey(graphOptimizationLevel: string): OrtFormatKey {
  return { ortVersion: ort.env.versions.common, cpuClass: cpuClass(), graphOptimizationLevel };
}

/**
 * What the CPU session opens for `sourcePath`, in two steps so that the read overlaps other work:
 * this promise settles once the cache's record is checked and the cached copy's read is under way;
 * the function it gives waits for the bytes and checks their SHA-256. The model is the cached copy's
 * bytes when verified; else the ONNX file, with ORT asked to save its ORT format into the cache when
 * the model was opened before (first opens are only noted). Never fails for the cache's sake: any
 * failure opens the ONNX file as it is.
 */
export async function startCpuSessionModel(
  sourcePath: string,
  cacheRoot: string,
  graphOptimizationLevel: string,
): Promise<() => Promise<CpuSessionModel>> {
  const plain = (source: string) => () =>
    Promise.resolve({ model: { path: sourcePath }, settle: async () => ({ source }) });
  try {
    const source = resolve(sourcePath);
    const key = ortFormatKey(graphOptimizationLevel);
    const dir = join(cacheRoot, 'derived-models', sha256OfJson([source, key, FORMAT_VERSION]).slice(0, 32));
    const paths = { source, dir, file: join(dir, 'model.ort'), record: join(dir, 'record.json') };
    const sourceIdentity = await fileIdentity(source);
    const lookup = await startReading(paths, sourceIdentity, key);
    if ('firstOpen' in lookup) {
      const noted = await noteFirstOpen(paths, sourceIdentity, key);
      return plain(`not used (${lookup.firstOpen}: ${noted})`);
    }
    return async () => {
      const found = 'finish' in lookup ? await lookup.finish() : lookup.build;
      if (typeof found !== 'string') {
        const { bytes } = found;
        return { model: { ortFormatBytes: bytes }, bytes, settle: async () => ({ file: paths.file, source: 'cache' }) };
      }
      return buildWhileOpening(paths, sourceIdentity, key, found).catch((err: Error) =>
        plain(`not used (${found}; ${err.message})`)(),
      );
    };
  } catch (err) {
    return plain(`not used (${(err as Error).message})`);
  }
}

interface CachePaths {
  source: string;
  dir: string;
  file: string;
  record: string;
}

/**
 * The cached copy's read under way when its record holds (finish() waits for it and checks the
 * bytes' SHA-256); else whether to build it now (the model was opened before: why it is not there)
 * or only to note this first open.
 */
async function startReading(
  paths: CachePaths,
  source: FileIdentity,
  key: OrtFormatKey,
): Promise<{ finish(): Promise<{ bytes: Uint8Array } | string> } | { build: string } | { firstOpen: string }> {
  const record = await readChecksummedJson<OrtFormatRecord>(paths.record);
  if (record === 'missing') return { firstOpen: 'first open of this model' };
  if (record === 'damaged') return { firstOpen: 'the record is damaged' };
  if (record.format !== FORMAT_VERSION || JSON.stringify(record.key) !== JSON.stringify(key))
    return { firstOpen: 'first open with this runtime, CPU class or level' };
  if (JSON.stringify(record.source) !== JSON.stringify(source)) return { firstOpen: 'the source model changed' };
  if (record.output === undefined || record.sha256 === undefined) return { build: 'opened before' };
  let file: FileHandle;
  try {
    file = await open(paths.file, 'r');
  } catch {
    return { build: 'the ORT-format file is missing' };
  }
  const identity = await fileIdentity(paths.file);
  if (JSON.stringify(identity) !== JSON.stringify(record.output)) {
    await file.close();
    return { build: 'the ORT-format file changed' };
  }
  // One read request for the whole file: it runs on libuv's thread while this one works
  // (fs.readFile's chunks would each wait for this thread to ask for the next). It never rejects:
  // a read nobody waits for (a GPU provider opened instead) must not fail the process.
  const size = Number(identity.size);
  const bytes = Buffer.allocUnsafeSlow(size);
  const reading = file.read(bytes, 0, size, 0).then(
    (r) => r.bytesRead,
    (err: Error) => err,
  );
  void reading.finally(() => file.close().catch(() => undefined));
  const expected = record.sha256;
  return {
    finish: async () => {
      const bytesRead = await reading;
      if (bytesRead instanceof Error) return `the ORT-format file cannot be read (${bytesRead.message})`;
      if (bytesRead !== size) return 'the ORT-format file was cut short while it was read';
      if (checksumOf(bytes).sha256 !== expected) return 'the ORT-format file is damaged (checksum)';
      return { bytes };
    },
  };
}

/** Records that the model was opened (the next open saves its ORT format); says what was done. */
async function noteFirstOpen(paths: CachePaths, source: FileIdentity, key: OrtFormatKey): Promise<string> {
  try {
    await makeDirs(paths.dir);
    const fields: Omit<OrtFormatRecord, 'checksum'> = { format: FORMAT_VERSION, key, source };
    await writeFileAtomic(paths.record, JSON.stringify(withJsonChecksum(fields)) + '\n');
    return 'noted, the next open saves it';
  } catch (err) {
    return `cannot be noted in the cache: ${(err as Error).message}`;
  }
}

/**
 * The ONNX file, with ORT asked to save the ORT format to a temporary file while it opens it;
 * settle() moves that file into place and records it (the source unchanged meanwhile).
 */
async function buildWhileOpening(
  paths: CachePaths,
  sourceIdentity: FileIdentity,
  key: OrtFormatKey,
  reason: string,
): Promise<CpuSessionModel> {
  removeStaleTemporaryFiles(paths.file, 'file'); // left by a build that was killed
  // A temporary file of this tool: removed if the process is interrupted, renamed into place after.
  const output = await openTemporaryOutput(paths.file);
  const keep = async (): Promise<string | undefined> => {
    if (JSON.stringify(await fileIdentity(paths.source)) !== JSON.stringify(sourceIdentity))
      return 'the source model changed while it was opened';
    const { sha256 } = await checksumOfFile(output.tmp);
    await output.commit();
    const fields = {
      format: FORMAT_VERSION,
      key,
      source: sourceIdentity,
      output: await fileIdentity(paths.file),
      sha256,
    };
    await writeFileAtomic(paths.record, JSON.stringify(withJsonChecksum(fields)) + '\n');
    return undefined;
  };
  return {
    model: { path: paths.source, saveOrtFormatTo: output.tmp },
    settle: async (saved) => {
      if (saved !== true) {
        await output.abort();
        return { source: `not used (${reason}; ORT did not save it: ${saved ?? 'not asked'})` };
      }
      const notKept = await keep().catch((err: Error) => err.message);
      if (notKept === undefined) return { file: paths.file, source: `built (${reason})` };
      await output.abort();
      return { source: `not used (${reason}; not kept: ${notKept})` };
    },
  };
}
