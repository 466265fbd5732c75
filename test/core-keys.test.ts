// The small shared pieces of core/ that several layers rely on: the SHA-256 key of a JSON value
// (queue job ids, cache keys, fingerprint records) and a model folder's config.json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256OfJson } from '../core/checksum.js';
import { modelConfigPath, readModelConfig } from '../core/model-config.js';

describe('sha256OfJson', () => {
  it('is the SHA-256 of the JSON text (checked with sha256sum on the same bytes)', () => {
    // echo -n '["enc",{"a":1,"b":[2,"x"]}]' | sha256sum
    expect(sha256OfJson(['enc', { a: 1, b: [2, 'x'] }])).toBe(
      'bed2e4d8a68d56da1b21fe2ecfd954722e758b6ff46e2cf5d3908c9f476b112c',
    );
  });

  it('follows field order, as JSON.stringify does (keys are built the same way each time)', () => {
    expect(sha256OfJson({ a: 1, b: 2 })).toBe(sha256OfJson({ a: 1, b: 2 }));
    expect(sha256OfJson({ a: 1, b: 2 })).not.toBe(sha256OfJson({ b: 2, a: 1 }));
  });
});

describe('readModelConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-model-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the fields intentsim uses', () => {
    writeFileSync(
      modelConfigPath(dir),
      JSON.stringify({ hidden_size: 384, max_position_embeddings: 512, _name_or_path: 'm', extra: true }),
    );
    expect(modelConfigPath(dir)).toBe(join(dir, 'config.json'));
    const config = readModelConfig(dir);
    expect([config.hidden_size, config.max_position_embeddings, config._name_or_path]).toEqual([384, 512, 'm']);
  });

  it('throws on a missing file and on broken JSON', () => {
    expect(() => readModelConfig(join(dir, 'absent'))).toThrow(/config\.json/);
    writeFileSync(modelConfigPath(dir), '{"hidden_size": ');
    expect(() => readModelConfig(dir)).toThrow(SyntaxError);
  });
});
