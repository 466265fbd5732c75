// Where the model comes from: --model-dir (alone when given) → cache → Hub (downloading into the
// cache; skipped offline), and an error that lists every place tried and how to supply a copy. A
// local HTTP server serving the generated tiny model stands in for the Hugging Face Hub.
import { describe, expect, it, beforeAll, afterAll, afterEach } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelRegistry } from '@huggingface/transformers';
import { makeTestModel } from '../embeddings/model-generator.js';
import {
  cachedModelDir,
  defaultCacheRoot,
  isOfflineByEnvironment,
  ModelNotFoundError,
  resolveModel,
} from '../embeddings/model-resolution.js';
import { onnxFileForDtype } from '../embeddings/model-files.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { formatFailure } from '../cli/main.js';
import { ConfigError } from '../core/errors.js';

let modelDir: string;
let server: Server;
let hubUrl: string;
const requests: string[] = [];

beforeAll(async () => {
  modelDir = mkdtempSync(join(tmpdir(), 'intentsim-res-model-'));
  await makeTestModel(modelDir);
  // The Hub's URL scheme: /<owner>/<name>/resolve/<revision>/<file>.
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const m = /^\/test-org\/tiny\/resolve\/main\/(.+)$/.exec(req.url ?? '');
    const file = m ? join(modelDir, m[1]!) : '';
    if (!m || !existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    const body = readFileSync(file);
    res.writeHead(200, { 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  hubUrl = `http://127.0.0.1:${address.port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  delete process.env.HF_HUB_OFFLINE;
  requests.length = 0;
});

const emptyCache = () => mkdtempSync(join(tmpdir(), 'intentsim-res-cache-'));

describe('model resolution', () => {
  it('--model-dir wins over a populated cache', async () => {
    const cache = emptyCache();
    cpSync(modelDir, cachedModelDir(cache, 'test-org/tiny'), { recursive: true });
    const r = await resolveModel({ modelDir, modelId: 'test-org/tiny', cacheDir: cache, dtype: 'q8' });
    expect(r.source).toBe('model-dir');
    expect(r.onnxPath).toBe(join(modelDir, 'onnx/model_quantized.onnx'));
    expect(r.attempts).toEqual([{ source: 'model-dir', location: modelDir, ok: true }]);
  });

  it('an incomplete --model-dir fails naming the missing files, without trying the cache or the Hub', async () => {
    const partial = mkdtempSync(join(tmpdir(), 'intentsim-res-partial-'));
    cpSync(join(modelDir, 'config.json'), join(partial, 'config.json'));
    const err = await resolveModel({ modelDir: partial, remoteHost: hubUrl, dtype: 'fp32' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelNotFoundError);
    const e = err as ModelNotFoundError;
    expect(e.attempts).toEqual([
      { source: 'model-dir', location: partial, ok: false, reason: 'missing tokenizer.json, onnx/model.onnx' },
    ]);
    expect(e.message).toContain('1. model folder ' + partial + ': missing tokenizer.json, onnx/model.onnx');
    expect(e.message).not.toContain('--model-dir'); // the library speaks of fields; the CLI adds its flags
    expect(formatFailure(e)).toContain('intentsim model make-test --out DIR');
    expect(requests).toEqual([]);
  });

  it('uses the cache when no --model-dir is given', async () => {
    const cache = emptyCache();
    cpSync(modelDir, cachedModelDir(cache, 'test-org/tiny'), { recursive: true });
    const r = await resolveModel({ modelId: 'test-org/tiny', cacheDir: cache, remoteHost: hubUrl });
    expect(r.source).toBe('cache');
    expect(r.dir).toBe(join(cache, 'models', 'test-org', 'tiny'));
    expect(requests).toEqual([]);
  });

  it('downloads from the Hub into the cache, then finds it there without the network', async () => {
    const cache = emptyCache();
    const r = await resolveModel({ modelId: 'test-org/tiny', cacheDir: cache, remoteHost: hubUrl, dtype: 'q8' });
    expect(r.source).toBe('hub');
    expect(r.attempts.map((a) => [a.source, a.ok])).toEqual([
      ['cache', false],
      ['hub', true],
    ]);
    for (const f of ['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx', 'vocab.txt']) {
      expect(readFileSync(join(r.dir, f)).equals(readFileSync(join(modelDir, f))), f).toBe(true);
    }
    expect(existsSync(join(r.dir, 'onnx/model.onnx'))).toBe(false); // only the dtype asked for
    expect(requests).toContain('/test-org/tiny/resolve/main/onnx/model_quantized.onnx');
    requests.length = 0;
    const again = await resolveModel({ modelId: 'test-org/tiny', cacheDir: cache, remoteHost: hubUrl, dtype: 'q8' });
    expect(again.source).toBe('cache');
    expect(requests).toEqual([]);
    // The downloaded copy loads and runs through the encoder.
    const encoder = await OnnxSentenceEncoder.open({
      modelId: 'test-org/tiny',
      cacheDir: cache,
      offline: true,
      dtype: 'q8',
      device: 'cpu',
    });
    expect((await encoder.encode(['PersonX buy a phone.'])).length).toBe(32);
    expect(encoder.info.source).toBe('cache');
    await encoder.close();
  });

  it('--offline and HF_HUB_OFFLINE=1 skip the Hub and say so', async () => {
    for (const setup of [() => ({ offline: true }), () => ((process.env.HF_HUB_OFFLINE = '1'), {})]) {
      const err = (await resolveModel({
        modelId: 'test-org/tiny',
        cacheDir: emptyCache(),
        remoteHost: hubUrl,
        ...setup(),
      }).catch((e: unknown) => e)) as ModelNotFoundError;
      expect(err).toBeInstanceOf(ModelNotFoundError);
      expect(err.attempts.map((a) => a.source)).toEqual(['cache', 'hub']);
      expect(err.attempts[1]!.reason).toMatch(/^skipped: offline/);
      expect(requests).toEqual([]);
    }
    expect(isOfflineByEnvironment({ TRANSFORMERS_OFFLINE: '1' })).toBe(true);
    expect(isOfflineByEnvironment({})).toBe(false);
  });

  it('a model the Hub does not have: the error names the URL and the HTTP status, and the cache stays clean', async () => {
    const cache = emptyCache();
    const err = (await resolveModel({ modelId: 'test-org/absent', cacheDir: cache, remoteHost: hubUrl }).catch(
      (e: unknown) => e,
    )) as ModelNotFoundError;
    expect(err).toBeInstanceOf(ModelNotFoundError);
    expect(err.message).toContain(`GET ${hubUrl}test-org/absent/resolve/main/config.json answered HTTP 404`);
    expect(formatFailure(err)).toContain('intentsim model download');
    expect(existsSync(join(cache, 'models', 'test-org', 'absent', 'config.json'))).toBe(false);
  });

  it('an unreachable Hub is reported with the network error', async () => {
    const err = (await resolveModel({
      modelId: 'test-org/tiny',
      cacheDir: emptyCache(),
      remoteHost: 'http://127.0.0.1:9/',
    }).catch((e: unknown) => e)) as ModelNotFoundError;
    expect(err.attempts[1]).toMatchObject({ source: 'hub', ok: false });
    expect(err.attempts[1]!.reason).toMatch(
      /^GET http:\/\/127\.0\.0\.1:9\/test-org\/tiny\/resolve\/main\/config\.json failed/,
    );
  });

  it("the dtype → file mapping is transformers.js's own", async () => {
    for (const dtype of ['fp32', 'q8'] as const) {
      const files = await ModelRegistry.get_model_files(modelDir, { dtype });
      expect(files).toContain(onnxFileForDtype(dtype));
    }
  });

  it('default cache root: INTENTSIM_CACHE_DIR, else XDG_CACHE_HOME/intentsim', () => {
    expect(defaultCacheRoot({ INTENTSIM_CACHE_DIR: '/x/y' })).toBe('/x/y');
    expect(defaultCacheRoot({ XDG_CACHE_HOME: '/c' })).toBe('/c/intentsim');
  });
});

afterAll(() => rmSync(modelDir, { recursive: true, force: true }));

describe('model ids that would leave the cache (issue 45, fault 12)', () => {
  it('refuses an id with "..", an absolute path, a backslash or more than org/name, before touching anything', async () => {
    const cache = emptyCache();
    for (const id of ['../../../outside', 'org/../../x', '/etc', 'org\\..\\x', 'a/b/c', '..', 'org/', '']) {
      expect(() => cachedModelDir(cache, id), id).toThrow(ConfigError);
      const err = await resolveModel({ modelId: id, cacheDir: cache, remoteHost: hubUrl }).catch((e: unknown) => e);
      expect(err, id).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(`modelId must be a Hugging Face model id`);
    }
    expect(requests).toEqual([]);
    expect(cachedModelDir(cache, 'test-org/tiny.v2_x-1')).toBe(join(cache, 'models', 'test-org', 'tiny.v2_x-1'));
  });
});
