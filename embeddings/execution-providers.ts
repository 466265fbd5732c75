// Choosing where the ONNX graph runs. `auto` tries CUDA, then WebGPU, then CPU; every failure is
// caught and its reason kept (for the run manifest), and the provider that actually ran is reported.
// A forced device that cannot run fails with the reason and what to install.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { ort } from './onnxruntime.js';
import {
  DeviceUnavailableError,
  providerCandidates,
  type DeviceRequest,
  type ExecutionProviderName,
  type ProviderAttempt,
} from './device-request.js';

export {
  DEVICE_REQUESTS,
  DeviceUnavailableError,
  parseDeviceRequest,
  providerCandidates,
  providerHint,
  type DeviceRequest,
  type ExecutionProviderName,
  type ProviderAttempt,
} from './device-request.js';

/** ORT's graph optimisation level unless SessionSettings say otherwise ('all' enables the BERT fusions). */
export const DEFAULT_GRAPH_OPTIMIZATION_LEVEL = 'all';

export interface SessionSettings {
  /** Threads inside one operator (ORT intraOpNumThreads); 0 or absent lets ORT choose. */
  intraOpThreads?: number;
  /** ORT graph optimisation level (default 'all', which enables the BERT fusions). */
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
}

/**
 * What a provider's session opens: an ONNX file, optionally saved by ORT in its ORT format while it
 * opens (`saveOrtFormatTo`), or ORT-format bytes opened in place (ort-format-model.ts).
 */
export type SessionModel = { path: string; saveOrtFormatTo?: string } | { ortFormatBytes: Uint8Array };

/** What the fallback loop needs from ONNX Runtime; injectable so that tests can simulate failures. */
export interface SessionFactory {
  /** Opens a model file, or bytes (which must outlive the session when options say to use them in place). */
  create(model: string | Uint8Array, options: Ort.InferenceSession.SessionOptions): Promise<Ort.InferenceSession>;
  /** Providers this build of onnxruntime-node ships or can load (`listSupportedBackends`). */
  supported(): Array<{ name: string; bundled: boolean }>;
  /** A reason not to try `provider` at all (a library known to be missing), or undefined to try it. */
  precheck(provider: ExecutionProviderName): string | undefined;
}

export const onnxRuntimeSessionFactory: SessionFactory = {
  create: (model, options) =>
    typeof model === 'string'
      ? ort.InferenceSession.create(model, options)
      : ort.InferenceSession.create(model, options),
  supported: () => ort.listSupportedBackends(),
  precheck: (provider) => missingCudaLibrary(provider) ?? missingVulkanLoader(provider),
};

/** The Vulkan loader that Dawn (onnxruntime-node's WebGPU) opens on Linux. */
export const VULKAN_LOADER = 'libvulkan.so.1';

/**
 * On Linux, WebGPU runs on Dawn, which opens the Vulkan loader; when it cannot, Dawn prints a
 * multi-line "Couldn't load Vulkan" warning of its own on stderr before the session fails. The loader
 * is looked for first, as Dawn would (dlopen by its bare name: the system's library path), so that
 * the failure is one recorded reason instead. `load` is injectable for tests.
 */
export function missingVulkanLoader(
  provider: ExecutionProviderName,
  load: (library: string) => void = dlopenLibrary,
): string | undefined {
  if (provider !== 'webgpu' || process.platform !== 'linux') return undefined;
  try {
    load(VULKAN_LOADER);
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // The library was found and loaded; it is just not a Node add-on, which is all that this says.
    if (message.startsWith('Module did not self-register')) return undefined;
    return `${VULKAN_LOADER} cannot be loaded (${firstLine(err)}): WebGPU needs a Vulkan driver`;
  }
}

/** dlopen(3) by name through Node; a plain library loads and then fails as "not an add-on". */
function dlopenLibrary(library: string): void {
  process.dlopen({ exports: {} }, library);
}

/**
 * On Linux the CUDA provider is libonnxruntime_providers_cuda.so beside onnxruntime-node's binding;
 * when it is absent, trying it only makes ORT print an error, so the reason is recorded up front.
 */
function missingCudaLibrary(provider: ExecutionProviderName): string | undefined {
  if (provider !== 'cuda' || process.platform !== 'linux') return undefined;
  let bindingDir: string;
  try {
    const packageDir = dirname(createRequire(import.meta.url).resolve('onnxruntime-node/package.json'));
    bindingDir = join(packageDir, 'bin', 'napi-v6', process.platform, process.arch);
  } catch {
    return undefined;
  }
  const library = join(bindingDir, 'libonnxruntime_providers_cuda.so');
  return existsSync(library)
    ? undefined
    : `${library} is not installed (onnxruntime-node from npm ships without its CUDA provider)`;
}

export interface OpenedSession {
  session: Ort.InferenceSession;
  provider: ExecutionProviderName;
  /** Whether ORT saved the ORT-format model it was asked to (`saveOrtFormatTo`), or why not. */
  savedOrtFormat?: true | string;
  /** Every provider tried, in order, the last one being the one that ran. */
  attempts: ProviderAttempt[];
}

function sessionOptions(
  provider: ExecutionProviderName,
  settings: SessionSettings,
): Ort.InferenceSession.SessionOptions {
  const ep: Ort.InferenceSession.ExecutionProviderConfig =
    provider === 'cuda' ? { name: 'cuda', deviceId: 0 } : provider === 'webgpu' ? { name: 'webgpu' } : 'cpu';
  return {
    executionProviders: [ep],
    graphOptimizationLevel: settings.graphOptimizationLevel ?? DEFAULT_GRAPH_OPTIMIZATION_LEVEL,
    executionMode: 'sequential',
    interOpNumThreads: 1,
    ...(settings.intraOpThreads && settings.intraOpThreads > 0 ? { intraOpNumThreads: settings.intraOpThreads } : {}),
    // Failures of optional providers are caught and reported here; keep ORT's own error log quiet.
    logSeverityLevel: provider === 'cpu' ? 2 : 4,
  };
}

/**
 * Opens `modelPath` (a file, or the file for a provider) on the first provider of `device`'s
 * candidates that works. A provider "works"
 * when the session opens and, if given, `probe` (a small real batch) runs on it: some providers open
 * and then fail on the first run (missing kernels, out of memory), and that must fall back too.
 * The CPU provider is not probed: it ends every list of candidates, so there is nothing to fall back
 * to, and a batch that fails on it fails the same way in the caller's first run (the probe would cost
 * every start-up one more run).
 */
export async function openSessionWithFallback(
  modelPath: string | ((provider: ExecutionProviderName) => Promise<string | SessionModel>),
  device: DeviceRequest,
  settings: SessionSettings,
  probe?: (session: Ort.InferenceSession, provider: ExecutionProviderName) => Promise<void>,
  factory: SessionFactory = onnxRuntimeSessionFactory,
): Promise<OpenedSession> {
  const attempts: ProviderAttempt[] = [];
  const supported = new Map(safeSupported(factory).map((b) => [b.name, b.bundled]));
  for (const provider of providerCandidates(device)) {
    const started = performance.now();
    if (!supported.has(provider)) {
      attempts.push({ provider, ok: false, reason: `this onnxruntime-node build has no ${provider} backend`, ms: 0 });
      continue;
    }
    const precheckFailure = factory.precheck(provider);
    if (precheckFailure !== undefined) {
      attempts.push({ provider, ok: false, reason: precheckFailure, ms: performance.now() - started });
      continue;
    }
    let session: Ort.InferenceSession | undefined;
    try {
      // A model file per provider (the encoder's in-graph pooling on GPUs only), made when that
      // provider is tried: its failure to be made is that provider's failure.
      const model = typeof modelPath === 'string' ? modelPath : await modelPath(provider);
      const opened = await openModel(
        factory,
        typeof model === 'string' ? { path: model } : model,
        sessionOptions(provider, settings),
      );
      session = opened.session;
      if (probe && provider !== 'cpu') await probe(session, provider);
      attempts.push({ provider, ok: true, ms: performance.now() - started });
      return {
        session,
        provider,
        attempts,
        ...(opened.savedOrtFormat ? { savedOrtFormat: opened.savedOrtFormat } : {}),
      };
    } catch (err) {
      if (session) await session.release().catch(() => undefined);
      const bundled = supported.get(provider);
      const note = bundled === false ? ' (not bundled with onnxruntime-node from npm)' : '';
      attempts.push({ provider, ok: false, reason: firstLine(err) + note, ms: performance.now() - started });
    }
  }
  throw new DeviceUnavailableError(device, attempts);
}

/**
 * Opens one SessionModel. ORT-format bytes are used in place (no copy of the initializers). Asked to
 * save the ORT format, ORT writes it while it opens the session; should that fail, the file is opened
 * again without saving: the cache is never a reason for a provider to fail.
 */
async function openModel(
  factory: SessionFactory,
  model: SessionModel,
  options: Ort.InferenceSession.SessionOptions,
): Promise<{ session: Ort.InferenceSession; savedOrtFormat?: true | string }> {
  if ('ortFormatBytes' in model) {
    const inPlace = { session: { use_ort_model_bytes_directly: '1', use_ort_model_bytes_for_initializers: '1' } };
    return { session: await factory.create(model.ortFormatBytes, { ...options, extra: inPlace }) };
  }
  if (model.saveOrtFormatTo === undefined) return { session: await factory.create(model.path, options) };
  try {
    // ORT warns that a graph saved at level 'all' may be specific to this machine: the cache key
    // says which machine (ort-format-model.ts), so the warning is kept off the user's screen.
    const saving = {
      optimizedModelFilePath: model.saveOrtFormatTo,
      extra: { session: { save_model_format: 'ORT' } },
      logSeverityLevel: Math.max(options.logSeverityLevel ?? 2, 3) as 3 | 4,
    };
    return { session: await factory.create(model.path, { ...options, ...saving }), savedOrtFormat: true };
  } catch (err) {
    return { session: await factory.create(model.path, options), savedOrtFormat: firstLine(err) };
  }
}

function safeSupported(factory: SessionFactory): Array<{ name: string; bundled: boolean }> {
  try {
    return factory.supported();
  } catch {
    // Older bindings lack listSupportedBackends: assume every provider may be tried.
    return [
      { name: 'cpu', bundled: true },
      { name: 'cuda', bundled: false },
      { name: 'webgpu', bundled: false },
    ];
  }
}

/**
 * A one-line reason. ORT messages start with a source location and a C++ signature and may run over
 * several lines; e.g. "/onnxruntime_src/…/webgpu_context.cc:136 onnxruntime::…<lambda()> adapter_result.status
 * == wgpu::RequestAdapterStatus::Success was false. Failed to get a WebGPU adapter: No supported adapters"
 * becomes "Failed to get a WebGPU adapter: No supported adapters".
 */
export function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  let line = (text.split('\n').find((l) => l.trim() !== '') ?? text).trim();
  line = line.replace(/^\/\S+:\d+\s+/, '');
  const check = line.lastIndexOf(' was false. ');
  if (check >= 0 && /^\S*::/.test(line)) line = line.slice(check + ' was false. '.length);
  return line.slice(0, 400);
}
