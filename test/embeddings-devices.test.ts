// Execution-provider choice: `auto` tries cuda → webgpu → cpu, records every failure's reason and
// reports the provider that ran; a forced provider that cannot run fails clearly. Failures are
// simulated with an injected session factory, and the real onnxruntime-node is checked too.
import { describe, expect, it, beforeAll } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as ort from 'onnxruntime-node';
import { makeTestModel } from '../embeddings/model-generator.js';
import {
  DeviceUnavailableError,
  firstLine,
  missingVulkanLoader,
  onnxRuntimeSessionFactory,
  openSessionWithFallback,
  providerCandidates,
  type ExecutionProviderName,
  type SessionFactory,
} from '../embeddings/execution-providers.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-dev-'));
  await makeTestModel(dir);
});

/** A factory whose providers fail as told; `released` records sessions given back. */
function fakeFactory(
  failures: Partial<Record<ExecutionProviderName, string>>,
  options: { failOnRun?: ExecutionProviderName; precheck?: Partial<Record<ExecutionProviderName, string>> } = {},
) {
  const created: string[] = [];
  const released: string[] = [];
  const factory: SessionFactory = {
    supported: () => [
      { name: 'cpu', bundled: true },
      { name: 'webgpu', bundled: true },
      { name: 'cuda', bundled: false },
    ],
    precheck: (p) => options.precheck?.[p],
    async create(_path, opts) {
      const ep = opts.executionProviders![0]!;
      const name = (typeof ep === 'string' ? ep : ep.name) as ExecutionProviderName;
      created.push(name);
      if (failures[name]) throw new Error(failures[name]);
      return {
        provider: name,
        release: async () => void released.push(name),
      } as unknown as ort.InferenceSession;
    },
  };
  const probe = async (session: ort.InferenceSession) => {
    if ((session as unknown as { provider: string }).provider === options.failOnRun)
      throw new Error('kernel launch failed\nsecond line');
  };
  return { factory, probe, created, released };
}

describe('provider fallback', () => {
  it('auto tries cuda, then webgpu, then cpu', () => {
    expect(providerCandidates('auto')).toEqual(['cuda', 'webgpu', 'cpu']);
    expect(providerCandidates('webgpu')).toEqual(['webgpu']);
  });

  it('auto falls back to cpu and records each reason in order', async () => {
    const f = fakeFactory({ cuda: 'libcudart.so.12: cannot open shared object file', webgpu: 'No supported adapters' });
    const opened = await openSessionWithFallback('m.onnx', 'auto', {}, f.probe, f.factory);
    expect(opened.provider).toBe('cpu');
    expect(opened.attempts.map(({ provider, ok, reason }) => ({ provider, ok, reason }))).toEqual([
      {
        provider: 'cuda',
        ok: false,
        reason: 'libcudart.so.12: cannot open shared object file (not bundled with onnxruntime-node from npm)',
      },
      { provider: 'webgpu', ok: false, reason: 'No supported adapters' },
      { provider: 'cpu', ok: true, reason: undefined },
    ]);
  });

  it('auto stops at the first provider that works', async () => {
    const f = fakeFactory({});
    const opened = await openSessionWithFallback('m.onnx', 'auto', {}, f.probe, f.factory);
    expect(opened.provider).toBe('cuda');
    expect(f.created).toEqual(['cuda']);
  });

  it('a provider that opens but fails its probe batch falls back, and its session is released', async () => {
    const f = fakeFactory({}, { failOnRun: 'cuda' });
    const opened = await openSessionWithFallback('m.onnx', 'auto', {}, f.probe, f.factory);
    expect(opened.provider).toBe('webgpu');
    expect(opened.attempts[0]).toMatchObject({
      provider: 'cuda',
      ok: false,
      reason: 'kernel launch failed (not bundled with onnxruntime-node from npm)',
    });
    expect(f.released).toEqual(['cuda']);
  });

  it('a precheck failure is recorded without trying the provider', async () => {
    const f = fakeFactory({}, { precheck: { cuda: 'libonnxruntime_providers_cuda.so is not installed' } });
    const opened = await openSessionWithFallback('m.onnx', 'auto', {}, f.probe, f.factory);
    expect(opened.provider).toBe('webgpu');
    expect(f.created).toEqual(['webgpu']);
    expect(opened.attempts[0]).toMatchObject({
      provider: 'cuda',
      ok: false,
      reason: 'libonnxruntime_providers_cuda.so is not installed',
    });
  });

  it('a forced provider that cannot run is an error naming the reason and the fix; no fallback', async () => {
    const f = fakeFactory({ cuda: 'CUDA driver version is insufficient' });
    const err = (await openSessionWithFallback('m.onnx', 'cuda', {}, f.probe, f.factory).catch(
      (e: unknown) => e,
    )) as DeviceUnavailableError;
    expect(err).toBeInstanceOf(DeviceUnavailableError);
    expect(err.message).toContain('device cuda: no execution provider could run the model.');
    expect(err.message).toContain('cuda: CUDA driver version is insufficient');
    expect(err.message).toContain(
      'ONNXRUNTIME_NODE_INSTALL=cuda12 node node_modules/onnxruntime-node/script/install.js',
    );
    expect(f.created).toEqual(['cuda']);
  });

  it('a provider missing from the build is reported as such', async () => {
    const f = fakeFactory({});
    f.factory.supported = () => [{ name: 'cpu', bundled: true }];
    const opened = await openSessionWithFallback('m.onnx', 'auto', {}, f.probe, f.factory);
    expect(opened.attempts.slice(0, 2).map((a) => a.reason)).toEqual([
      'this onnxruntime-node build has no cuda backend',
      'this onnxruntime-node build has no webgpu backend',
    ]);
  });

  it("ORT's messages are cut to their one useful line", () => {
    const raw =
      '/onnxruntime_src/onnxruntime/core/providers/webgpu/webgpu_context.cc:136 onnxruntime::webgpu::WebGpuContext::Initialize(const onnxruntime::webgpu::WebGpuContextConfig&)::<lambda()> adapter_result.status == wgpu::RequestAdapterStatus::Success was false. Failed to get a WebGPU adapter: No supported adapters';
    expect(firstLine(new Error(raw))).toBe('Failed to get a WebGPU adapter: No supported adapters');
    expect(firstLine(new Error('\nfirst\nsecond'))).toBe('first');
  });
});

describe('WebGPU precheck: the Vulkan loader', () => {
  const loader = (message: string | undefined) => (library: string) => {
    expect(library).toBe('libvulkan.so.1');
    if (message !== undefined) throw new Error(message);
  };
  it.runIf(process.platform === 'linux')('a loader that cannot be opened is the reason, in one line', () => {
    expect(
      missingVulkanLoader(
        'webgpu',
        loader('libvulkan.so.1: cannot open shared object file: No such file or directory'),
      ),
    ).toBe(
      'libvulkan.so.1 cannot be loaded (libvulkan.so.1: cannot open shared object file: No such file or directory): WebGPU needs a Vulkan driver',
    );
  });
  it('a loader that loads (a plain library is "not an add-on" to Node) lets WebGPU be tried', () => {
    expect(missingVulkanLoader('webgpu', loader("Module did not self-register: 'libvulkan.so.1'."))).toBeUndefined();
    expect(missingVulkanLoader('webgpu', loader(undefined))).toBeUndefined();
  });
  it('other providers never look for it', () => {
    const never = () => {
      throw new Error('looked for the Vulkan loader');
    };
    expect(missingVulkanLoader('cpu', never)).toBeUndefined();
    expect(missingVulkanLoader('cuda', never)).toBeUndefined();
  });
});

describe('the real onnxruntime-node on this machine', () => {
  it('auto: the provider reported is the one that opened, and every earlier one has a reason', async () => {
    const encoder = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'auto' });
    const attempts = encoder.info.providerAttempts;
    expect(attempts[attempts.length - 1]).toMatchObject({ provider: encoder.provider, ok: true });
    for (const a of attempts.slice(0, -1)) {
      expect(a.ok).toBe(false);
      expect(a.reason).toMatch(/\S/);
    }
    expect(attempts.map((a) => a.provider)).toEqual(['cuda', 'webgpu', 'cpu'].slice(0, attempts.length));
    expect((await encoder.encode(['PersonX buy a phone.'])).length).toBe(32);
    await encoder.close();
  });

  it('forcing an unavailable GPU provider fails clearly (skipped where it is available)', async () => {
    for (const device of ['cuda', 'webgpu'] as const) {
      const result = await openSessionWithFallback(
        join(dir, 'onnx/model.onnx'),
        device,
        {},
        undefined,
        onnxRuntimeSessionFactory,
      ).then(
        async (opened) => {
          await opened.session.release();
          return undefined;
        },
        (e: unknown) => e,
      );
      if (result === undefined) {
        console.warn(`SKIPPED: ${device} is available on this machine, so forcing it cannot fail`);
        continue;
      }
      expect(result).toBeInstanceOf(DeviceUnavailableError);
      expect((result as Error).message).toContain(`device ${device}: no execution provider could run the model.`);
    }
  });

  it('encode prints no warning of Dawn or ONNX Runtime: --device cpu never tries WebGPU, auto says why in one line', async () => {
    const cli = join(import.meta.dirname, '..', 'bin', 'intentsim.js');
    writeFileSync(join(dir, 'two.txt'), 'PersonX buy a phone.\nPersonY answer.\n');
    const run = (device: string) =>
      promisify(execFile)(process.execPath, [
        cli,
        ...['encode', '--in', join(dir, 'two.txt'), '--out', join(dir, `two-${device}.npy`)],
        ...['--model-dir', dir, '--device', device],
      ]);
    const cpu = await run('cpu');
    expect(cpu.stderr).toBe('');
    expect(cpu.stdout).not.toMatch(/vulkan|webgpu/i);
    const auto = await run('auto');
    expect(auto.stderr).not.toMatch(/Couldn't load Vulkan|dawn-src|BackendVk/);
    // The providers that failed are ours to report: one line each, beside the one that ran.
    const providerLines = auto.stdout.split('\n').filter((l) => /unavailable: /.test(l));
    for (const line of providerLines) expect(line).toMatch(/^ {2}(cuda|webgpu) unavailable: \S/);
    expect(auto.stdout).toMatch(/provider: (cuda|webgpu|cpu)\n/);
  });
});
