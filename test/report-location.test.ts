// Reports do not depend on where a run took place (issue 29, "left open"): a model folder is named
// by the model's own name, not its path, so the same run with the same model in two folders writes
// the same bytes; the path stays in the manifest's encoder record (dir, onnxFile).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestModel } from '../embeddings/model-generator.js';
import { resolveModel } from '../embeddings/model-resolution.js';
import { OnnxSentenceEncoder } from '../embeddings/onnx-encoder.js';
import { solveByEmbedding } from '../engine/evaluation/embedding-solver.js';

let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'intentsim-report-location-'));
  await makeTestModel(join(root, 'a', 'model'));
  cpSync(join(root, 'a'), join(root, 'elsewhere', 'b'), { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('reports are independent of where the model folder is', () => {
  it("a model folder is named by its config's name, else by its last component, never by its path", async () => {
    const a = await resolveModel({ modelDir: join(root, 'a', 'model'), dtype: 'fp32' });
    const b = await resolveModel({ modelDir: join(root, 'elsewhere', 'b', 'model'), dtype: 'fp32' });
    expect(a.name).toBe(b.name);
    expect(a.name).not.toContain(root);
    expect(a.dir).not.toBe(b.dir);

    const unnamed = join(root, 'unnamed-model');
    cpSync(join(root, 'a', 'model'), unnamed, { recursive: true });
    const config = JSON.parse(readFileSync(join(unnamed, 'config.json'), 'utf8')) as Record<string, unknown>;
    delete config._name_or_path;
    writeFileSync(join(unnamed, 'config.json'), JSON.stringify(config));
    expect((await resolveModel({ modelDir: unnamed, dtype: 'fp32' })).name).toBe('unnamed-model');
    config._name_or_path = '/home/someone/exports/my-bert';
    writeFileSync(join(unnamed, 'config.json'), JSON.stringify(config));
    expect((await resolveModel({ modelDir: unnamed, dtype: 'fp32' })).name).toBe('my-bert');
  });

  it('the embedding solver writes the same responses with the model in two folders; the manifest record keeps the path', async () => {
    const items = join(root, 'items.jsonl');
    writeFileSync(
      items,
      JSON.stringify({
        id: 'q1',
        item_a_name: 'red mug',
        item_b_name: 'coffee beans',
        assertion: 'PersonX bought a product of Item A and a product of Item B because he drinks coffee.',
        gold_ind: 'A',
        options: { A: 'because coffee.', B: 'because tea.', C: 'because shoes.', D: 'because paint.' },
        task: 1,
      }) + '\n',
    );
    const outs: string[] = [];
    for (const dir of [join(root, 'a', 'model'), join(root, 'elsewhere', 'b', 'model')]) {
      const encoder = await OnnxSentenceEncoder.open({ modelDir: dir, device: 'cpu', dtype: 'fp32' });
      try {
        const out = join(root, `responses-${outs.length}.jsonl`);
        await solveByEmbedding({ items, out, encoder });
        outs.push(readFileSync(out, 'utf8'));
        expect(encoder.describe().dir).toBe(dir);
      } finally {
        await encoder.close();
      }
    }
    expect(outs[0]).toBe(outs[1]);
    expect(outs[0]).not.toContain(root);
  });
});
