// Is a GPU execution provider usable here? The report's section 6 (the embedding benchmark on a GPU)
// runs only when one is. The probe opens a small one-node MatMul model on each GPU candidate with the
// project's own fallback loop (embeddings/execution-providers.ts: the same checks, reasons and hints
// the encoders use) and runs it once, so a provider that opens but cannot compute counts as unusable.
// The CPU is never a candidate here: section 1 already measures it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { ort } from '../../embeddings/onnxruntime.js';
import {
  DeviceUnavailableError,
  firstLine,
  openSessionWithFallback,
  providerHint,
  type DeviceRequest,
  type ExecutionProviderName,
  type ProviderAttempt,
  type SessionFactory,
} from '../../embeddings/execution-providers.js';
import { buildMatMulOnnx, seededMatrix } from './matmul-model.js';

/** GPU providers a device request asks for, in the order `auto` tries them. */
export function gpuCandidates(device: DeviceRequest): ExecutionProviderName[] {
  switch (device) {
    case 'auto':
      return ['cuda', 'webgpu'];
    case 'cuda':
    case 'webgpu':
      return [device];
    case 'cpu':
      return [];
  }
}

export interface GpuProbe {
  device: DeviceRequest;
  /** The first GPU provider that opened and ran the probe model; undefined when none did. */
  provider?: ExecutionProviderName;
  /** Every provider tried, with the reason it failed. */
  attempts: ProviderAttempt[];
  /** What to do to make the failed providers usable (one line each). */
  hints: string[];
}

export async function probeGpuProvider(device: DeviceRequest, factory?: SessionFactory): Promise<GpuProbe> {
  const candidates = gpuCandidates(device);
  const attempts: ProviderAttempt[] = [];
  if (candidates.length === 0) return { device, attempts, hints: [] };
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-gpu-probe-'));
  try {
    const shape = { m: 8, k: 16, n: 8 };
    const modelPath = join(dir, 'matmul.onnx');
    writeFileSync(modelPath, buildMatMulOnnx(shape, seededMatrix(shape.k, shape.n, 'gpu-probe')));
    const x = new ort.Tensor('float32', seededMatrix(shape.m, shape.k, 'gpu-probe/x'), [shape.m, shape.k]);
    const probe = async (session: Ort.InferenceSession) => {
      const out = await session.run({ x });
      for (const v of Object.values(out)) v.dispose();
    };
    for (const provider of candidates) {
      try {
        const opened = await openSessionWithFallback(modelPath, provider, {}, probe, factory);
        attempts.push(...opened.attempts);
        await opened.session.release();
        return { device, provider: opened.provider, attempts, hints: [] };
      } catch (err) {
        if (err instanceof DeviceUnavailableError) attempts.push(...err.attempts);
        else attempts.push({ provider, ok: false, reason: firstLine(err), ms: 0 });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const hints = [...new Set(attempts.map((a) => providerHint(a.provider)).filter((h) => h !== ''))];
  return { device, attempts, hints };
}

/** The GPU's name from nvidia-smi when it is installed (CUDA machines), else undefined. */
export function nvidiaGpuName(): string | undefined {
  try {
    const text = execFileSync('nvidia-smi', ['--query-gpu=name,driver_version,memory.total', '--format=csv,noheader'], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    return lines.length > 0 ? lines.join('; ') : undefined;
  } catch {
    return undefined;
  }
}
