// What a device request is (auto, cpu, cuda, webgpu), the providers it tries, and the error when none
// of them runs the model. Apart from execution-providers.ts, which opens sessions, so that the
// command line can parse --device and explain a failure without loading ONNX Runtime (issue 50).
import { ConfigError, UserError } from '../core/errors.js';

export type DeviceRequest = 'auto' | 'cpu' | 'cuda' | 'webgpu';
export type ExecutionProviderName = 'cuda' | 'webgpu' | 'cpu';

export const DEVICE_REQUESTS: readonly DeviceRequest[] = ['auto', 'cpu', 'cuda', 'webgpu'];

export function parseDeviceRequest(value: string): DeviceRequest {
  if ((DEVICE_REQUESTS as readonly string[]).includes(value)) return value as DeviceRequest;
  throw new ConfigError('device', `must be one of ${DEVICE_REQUESTS.join(', ')}, got "${value}"`);
}

/** Providers to try, in order, for a device request. */
export function providerCandidates(device: DeviceRequest): ExecutionProviderName[] {
  return device === 'auto' ? ['cuda', 'webgpu', 'cpu'] : [device];
}

/** One try at a provider: whether the session opened (and ran a probe batch), and why not. */
export interface ProviderAttempt {
  provider: ExecutionProviderName;
  ok: boolean;
  /** The error that made it fail (absent when ok). */
  reason?: string;
  ms: number;
}

export class DeviceUnavailableError extends UserError {
  constructor(
    readonly device: DeviceRequest,
    readonly attempts: ProviderAttempt[],
  ) {
    const lines = attempts.map((a) => `  - ${a.provider}: ${a.reason ?? 'ok'}`);
    const hints = [...new Set(attempts.map((a) => providerHint(a.provider)))].filter((h) => h !== '');
    super(
      `device ${device}: no execution provider could run the model.\n` +
        lines.join('\n') +
        (hints.length > 0 ? '\n' + hints.map((h) => `  ${h}`).join('\n') : ''),
    );
    this.name = 'DeviceUnavailableError';
  }
}

/** What a user can do when a provider is unavailable. */
export function providerHint(provider: ExecutionProviderName): string {
  switch (provider) {
    case 'cuda':
      return (
        'CUDA: onnxruntime-node ships its CUDA provider outside npm. On a machine with an NVIDIA driver, CUDA 12 and ' +
        `cuDNN 9, run \`ONNXRUNTIME_NODE_INSTALL=cuda12 node node_modules/onnxruntime-node/script/install.js\` (this project's package.json denies that install script, so \`npm ci\` skips the download).`
      );
    case 'webgpu':
      return 'WebGPU: onnxruntime-node bundles Dawn, which needs a Vulkan driver (libvulkan.so.1 and a GPU ICD, e.g. the NVIDIA driver or mesa-vulkan-drivers).';
    case 'cpu':
      return '';
  }
}
