// What a start-up of the Sentence-BERT encoder on the CPU does and does not do (issue 25, item 10):
// no probe batch on the CPU provider (nothing to fall back to), yet a model whose output size
// disagrees with config.json is still refused, before and during encoding; and a local `encode`
// loads neither the Redis client (ioredis, which BullMQ loads too) nor the progress-bar library (a
// piped stderr draws no bar). The vectors themselves are covered by the encoder and CLI tests.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as ort from 'onnxruntime-node';
import { makeTestModel } from '../embeddings/model-generator.js';
import {
  onnxRuntimeSessionFactory,
  openSessionWithFallback,
  type ExecutionProviderName,
  type SessionFactory,
} from '../embeddings/execution-providers.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'intentsim.js');
const work = mkdtempSync(join(tmpdir(), 'intentsim-startup-'));
const modelDir = join(work, 'model');
beforeAll(async () => {
  await makeTestModel(modelDir);
});

/** A factory whose sessions all open; `probed` lists the providers the probe ran on. */
function countingFactory(failToOpen: ExecutionProviderName[]) {
  const probed: string[] = [];
  const factory: SessionFactory = {
    supported: () => [
      { name: 'cpu', bundled: true },
      { name: 'webgpu', bundled: true },
      { name: 'cuda', bundled: true },
    ],
    precheck: () => undefined,
    async create(_path, opts) {
      const ep = opts.executionProviders![0]!;
      const name = (typeof ep === 'string' ? ep : ep.name) as ExecutionProviderName;
      if (failToOpen.includes(name)) throw new Error(`${name} is not here`);
      return { provider: name, release: async () => undefined } as unknown as ort.InferenceSession;
    },
  };
  const probe = async (session: ort.InferenceSession) => {
    probed.push((session as unknown as { provider: string }).provider);
  };
  return { factory, probe, probed };
}

describe('the probe batch', () => {
  it('runs on a provider that can fall back, not on the CPU provider', async () => {
    const gpu = countingFactory([]);
    expect((await openSessionWithFallback('m.onnx', 'webgpu', {}, gpu.probe, gpu.factory)).provider).toBe('webgpu');
    expect(gpu.probed).toEqual(['webgpu']);

    const cpu = countingFactory([]);
    expect((await openSessionWithFallback('m.onnx', 'cpu', {}, cpu.probe, cpu.factory)).provider).toBe('cpu');
    const auto = countingFactory(['cuda', 'webgpu']);
    expect((await openSessionWithFallback('m.onnx', 'auto', {}, auto.probe, auto.factory)).provider).toBe('cpu');
    expect([...cpu.probed, ...auto.probed]).toEqual([]);
  });

  it('a hidden_size that disagrees with the model output is refused when the encoder opens, unprobed', async () => {
    const wrong = join(work, 'wrong-hidden-size');
    cpSync(modelDir, wrong, { recursive: true });
    const configPath = join(wrong, 'config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as { hidden_size: number };
    const real = config.hidden_size;
    writeFileSync(configPath, JSON.stringify({ ...config, hidden_size: real + 1 }));
    const err = await OnnxSentenceEncoder.open({ modelDir: wrong, device: 'cpu', cacheDir: join(work, 'cache') }).catch(
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      `model output has ${real} dimensions but config.json says hidden_size ${real + 1}`,
    );
  });

  it('and by the first batch when the graph does not declare its output size', async () => {
    const wrong = join(work, 'undeclared-output-size');
    cpSync(modelDir, wrong, { recursive: true });
    const configPath = join(wrong, 'config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as { hidden_size: number };
    const real = config.hidden_size;
    writeFileSync(configPath, JSON.stringify({ ...config, hidden_size: real + 1 }));
    // The real runtime, with the session's output metadata hidden (as an export with a symbolic size has it).
    const factory: SessionFactory = {
      ...onnxRuntimeSessionFactory,
      async create(path, options) {
        const session = await onnxRuntimeSessionFactory.create(path, options);
        Object.defineProperty(session, 'outputMetadata', { value: [] });
        return session;
      },
    };
    const encoder = await OnnxSentenceEncoder.open({
      modelDir: wrong,
      device: 'cpu',
      cacheDir: join(work, 'cache'),
      sessionFactory: factory,
    });
    try {
      await expect(encoder.encode(['PersonX buy a phone'])).rejects.toThrow(
        `model output has ${real} dimensions but config.json says hidden_size ${real + 1}`,
      );
    } finally {
      await encoder.close();
    }
  });
});

describe('a local `intentsim encode` start-up', () => {
  it('loads neither ioredis (the queue) nor cli-progress (a piped stderr)', async () => {
    const input = join(work, 'sentences.txt');
    writeFileSync(input, 'PersonX buy a phone\nPersonX buy a lamp\n');
    const loaded = join(work, 'loaded.json');
    const preload = join(work, 'list-modules.cjs');
    // Every CommonJS module ends up in require.cache, also those that ES modules import.
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(Object.keys(require.cache))));\n`,
    );
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.INTENTSIM_QUIET; // the progress code runs, on a pipe
    await run(
      process.execPath,
      [
        ...['-r', preload, CLI, 'encode', '--in', input, '--out', join(work, 'vectors.npy')],
        ...['--model-dir', modelDir, '--device', 'cpu', '--model-cache', join(work, 'cache')],
      ],
      { cwd: ROOT, env },
    );
    const modules = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    expect(modules.some((m) => m.includes('/onnxruntime-node/'))).toBe(true); // the list is real
    const heavy = modules.filter((m) => /\/node_modules\/(ioredis|cli-progress)\//.test(m));
    expect(heavy).toEqual([]);
  });
});
