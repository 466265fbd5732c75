// Where the sentence model comes from. In order: the folder given with --model-dir (used alone when
// given: an explicit folder is never silently replaced by another model), else the cache directory,
// else the Hugging Face Hub (skipped when offline), which downloads into the cache. The cache uses
// transformers.js's file-cache layout (CACHE/models/<owner>/<name>/<file>) and the Hub URLs come from
// transformers.js's `env.remoteHost` / `env.remotePathTemplate`, so both tools share downloads.
// When nothing works the error lists every place tried, why each failed, and how to supply a copy.
import { existsSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { openAtomicWriter } from '../core/atomic.js';
import { cachedModelDir, defaultCacheRoot, isOfflineByEnvironment } from './cache-paths.js';
import {
  DEFAULT_MODEL_ID,
  OPTIONAL_MODEL_FILES,
  onnxFileForDtype,
  requiredModelFiles,
  type ModelDtype,
} from './model-files.js';
import { UserError } from '../core/errors.js';
import { readModelConfig } from '../core/model-config.js';

// Re-exported: callers find every resolution concept here.
export { cachedModelDir, defaultCacheRoot, isOfflineByEnvironment };

export type ModelSourceKind = 'model-dir' | 'cache' | 'hub';

export interface ResolutionAttempt {
  source: ModelSourceKind;
  /** Folder or URL looked at. */
  location: string;
  ok: boolean;
  /** Why it was not used (absent when ok). */
  reason?: string;
}

export interface ResolvedModel {
  source: ModelSourceKind;
  /** Folder holding config.json, tokenizer.json and onnx/. */
  dir: string;
  /** Hub id, or the folder's `_name_or_path` (else the folder) for --model-dir. */
  name: string;
  dtype: ModelDtype;
  onnxPath: string;
  attempts: ResolutionAttempt[];
}

export interface ModelResolutionOptions {
  /** A local model folder; when given it is the only place looked. */
  modelDir?: string;
  /** Hub id (default Xenova/all-MiniLM-L6-v2). */
  modelId?: string;
  /** Cache root (default: see defaultCacheRoot); models live under CACHE/models. */
  cacheDir?: string;
  /** Never contact the Hub (also implied by HF_HUB_OFFLINE=1 or TRANSFORMERS_OFFLINE=1). */
  offline?: boolean;
  dtype?: ModelDtype;
  /** Injected for tests (a local HTTP server stands in for the Hub). */
  fetch?: typeof fetch;
  /** Hub base URL (default transformers.js's env.remoteHost). */
  remoteHost?: string;
  /** Download progress, per file. */
  onDownload?: (file: string, loadedBytes: number, totalBytes: number | undefined) => void;
}

export class ModelNotFoundError extends UserError {
  constructor(
    readonly modelName: string,
    readonly dtype: ModelDtype,
    readonly attempts: ResolutionAttempt[],
  ) {
    super(formatNotFound(modelName, dtype, attempts));
    this.name = 'ModelNotFoundError';
  }
}

/** Files of `dtype` missing from `dir`, or a reason the folder is unusable; [] when complete. */
export function missingModelFiles(dir: string, dtype: ModelDtype): string[] {
  if (!existsSync(dir)) return ['the folder itself'];
  const missing = requiredModelFiles(dtype).filter((f) => !existsSync(join(dir, f)));
  if (!missing.includes('config.json')) {
    try {
      readModelConfig(dir);
    } catch (err) {
      missing.push(`a readable config.json (${(err as Error).message})`);
    }
  }
  return missing;
}

export async function resolveModel(options: ModelResolutionOptions = {}): Promise<ResolvedModel> {
  const dtype = options.dtype ?? 'fp32';
  const attempts: ResolutionAttempt[] = [];
  const onnx = onnxFileForDtype(dtype);

  if (options.modelDir !== undefined) {
    const dir = resolve(options.modelDir);
    const missing = missingModelFiles(dir, dtype);
    if (missing.length === 0) {
      attempts.push({ source: 'model-dir', location: dir, ok: true });
      return { source: 'model-dir', dir, name: folderModelName(dir), dtype, onnxPath: join(dir, onnx), attempts };
    }
    attempts.push({ source: 'model-dir', location: dir, ok: false, reason: `missing ${missing.join(', ')}` });
    throw new ModelNotFoundError(dir, dtype, attempts);
  }

  const modelId = options.modelId ?? DEFAULT_MODEL_ID;
  const cacheRoot = resolve(options.cacheDir ?? defaultCacheRoot());
  const cached = cachedModelDir(cacheRoot, modelId);
  const missing = missingModelFiles(cached, dtype);
  if (missing.length === 0) {
    attempts.push({ source: 'cache', location: cached, ok: true });
    return { source: 'cache', dir: cached, name: modelId, dtype, onnxPath: join(cached, onnx), attempts };
  }
  attempts.push({ source: 'cache', location: cached, ok: false, reason: `missing ${missing.join(', ')}` });

  // transformers.js (0.4 s to import) is loaded only here, when the Hub is needed: a model found on
  // disk never pays for it.
  const hub = await hubSettings();
  const remoteHost = options.remoteHost ?? hub.remoteHost;
  const repoUrl = hubFileUrl(hub, remoteHost, modelId, '');
  if (options.offline || isOfflineByEnvironment()) {
    attempts.push({
      source: 'hub',
      location: repoUrl,
      ok: false,
      reason: 'skipped: offline (the offline option, HF_HUB_OFFLINE=1 or TRANSFORMERS_OFFLINE=1)',
    });
    throw new ModelNotFoundError(modelId, dtype, attempts);
  }
  try {
    await downloadModel(modelId, cached, dtype, hub, { ...options, remoteHost });
  } catch (err) {
    attempts.push({ source: 'hub', location: repoUrl, ok: false, reason: (err as Error).message });
    throw new ModelNotFoundError(modelId, dtype, attempts);
  }
  const stillMissing = missingModelFiles(cached, dtype);
  if (stillMissing.length > 0) {
    attempts.push({
      source: 'hub',
      location: repoUrl,
      ok: false,
      reason: `downloaded, but ${stillMissing.join(', ')} still missing`,
    });
    throw new ModelNotFoundError(modelId, dtype, attempts);
  }
  attempts.push({ source: 'hub', location: repoUrl, ok: true });
  return { source: 'hub', dir: cached, name: modelId, dtype, onnxPath: join(cached, onnx), attempts };
}

/** The Hub's address, URL template and the client version, as transformers.js configures them. */
interface HubSettings {
  remoteHost: string;
  remotePathTemplate: string;
  version: string;
}

async function hubSettings(): Promise<HubSettings> {
  const { env } = await import('@huggingface/transformers');
  return { remoteHost: env.remoteHost, remotePathTemplate: env.remotePathTemplate, version: env.version };
}

/** `https://huggingface.co/<id>/resolve/main/<file>`, built from transformers.js's URL template. */
function hubFileUrl(hub: HubSettings, remoteHost: string, modelId: string, file: string): string {
  const path = hub.remotePathTemplate.replaceAll('{model}', modelId).replaceAll('{revision}', 'main');
  return joinUrl(joinUrl(remoteHost, path), file);
}

function joinUrl(a: string, b: string): string {
  if (b === '') return a;
  return a.replace(/\/+$/, '') + '/' + b.replace(/^\/+/, '');
}

/**
 * Downloads the files of `dtype` into `dir`, each written atomically (a partial download never looks
 * like a model). Required files must exist on the Hub; optional tokenizer files may 404.
 */
async function downloadModel(
  modelId: string,
  dir: string,
  dtype: ModelDtype,
  hub: HubSettings,
  options: ModelResolutionOptions & { remoteHost: string },
): Promise<void> {
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = { 'User-Agent': `intentsim (transformers.js/${hub.version})` };
  // The token goes in a header only; it is never logged or written anywhere.
  const token = process.env.HF_TOKEN ?? process.env.HF_ACCESS_TOKEN;
  if (token) headers.Authorization = `Bearer ${token}`;
  const files: Array<[string, boolean]> = [
    ...requiredModelFiles(dtype).map((f): [string, boolean] => [f, true]),
    ...OPTIONAL_MODEL_FILES.map((f): [string, boolean] => [f, false]),
  ];
  for (const [file, required] of files) {
    const target = join(dir, file);
    if (existsSync(target)) continue;
    const url = hubFileUrl(hub, options.remoteHost, modelId, file);
    let response: Response;
    try {
      response = await doFetch(url, { headers });
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      throw new UserError(`GET ${url} failed: ${(err as Error).message}${cause ? ` (${cause})` : ''}`, { cause: err });
    }
    if (!response.ok || !response.body) {
      if (!required && response.status === 404) continue;
      const hint =
        response.status === 401 || response.status === 403 ? ' (a gated or private repository needs HF_TOKEN)' : '';
      throw new UserError(`GET ${url} answered HTTP ${response.status}${hint}`);
    }
    const total = Number(response.headers.get('content-length')) || undefined;
    const writer = await openAtomicWriter(target);
    let loaded = 0;
    try {
      for await (const chunk of Readable.fromWeb(
        response.body as import('node:stream/web').ReadableStream<Uint8Array>,
      )) {
        const bytes = chunk as Uint8Array;
        loaded += bytes.byteLength;
        await writer.write(bytes);
        options.onDownload?.(file, loaded, total);
      }
      if (total !== undefined && loaded !== total) throw new UserError(`GET ${url}: got ${loaded} of ${total} bytes`);
      await writer.commit();
    } catch (err) {
      await writer.abort();
      throw err;
    }
  }
}

/**
 * A model folder's name as reports show it: the model's own name (config.json's `_name_or_path`),
 * else the folder's last component, never the path: reports and response files carry this name, and
 * the same run in two folders must give the same bytes. Where the folder is stays in the manifest
 * (EncoderInfo.dir, onnxFile); what the model is, in its fingerprint.
 */
function folderModelName(dir: string): string {
  try {
    const name = readModelConfig(dir)._name_or_path;
    // Some exports record the exporting machine's path there: its last component is the name.
    if (typeof name === 'string' && name !== '') return isAbsolute(name) ? basename(name) : name;
  } catch {
    // missingModelFiles already vetted config.json; a race here just falls back to the folder name.
  }
  return basename(resolve(dir));
}

function formatNotFound(modelName: string, dtype: ModelDtype, attempts: ResolutionAttempt[]): string {
  const label: Record<ModelSourceKind, string> = {
    'model-dir': 'model folder',
    cache: 'cache',
    hub: 'Hugging Face Hub',
  };
  const tried = attempts.map((a, i) => `  ${i + 1}. ${label[a.source]} ${a.location}: ${a.reason ?? 'ok'}`);
  const explicitDir = attempts.some((a) => a.source === 'model-dir');
  return [
    `Could not load the sentence model ${modelName} (dtype ${dtype}, file ${onnxFileForDtype(dtype)}). Tried, in order:`,
    ...tried,
    ...(explicitDir
      ? ['  (a model folder that is named is used alone: the cache and the Hub are not tried instead)']
      : []),
  ].join('\n');
}
