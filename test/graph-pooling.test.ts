// Pooling inside the ONNX graph (embeddings/graph-pooling.ts), run by ORT's CPU provider: exact on a
// hand-checkable graph (a lookup table whose values make every sum and division exact in float32), and
// against pooling.ts's JavaScript pooling on the generated tiny BERT, within a stated tolerance.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { OnnxGraphBuilder } from '../embeddings/onnx-graph-builder.js';
import { decodeModelProto, OnnxDataType } from '../embeddings/onnx-proto.js';
import {
  appendMeanPooling,
  NORMALIZED_OUTPUT,
  POOLED_OUTPUT,
  poolingForProvider,
} from '../embeddings/graph-pooling.js';
import { makeTestModel } from '../embeddings/model-generator.js';
import { l2NormalizeRow, meanPoolBatch } from '../embeddings/pooling.js';
import { Rng } from '../core/rng.js';

/** last_hidden_state = table[input_ids]: a "model" whose token vectors are chosen by hand. */
function lookupModel(table: number[][]): Uint8Array {
  const g = new OnnxGraphBuilder();
  const ids = g.input('input_ids', OnnxDataType.INT64, ['batch_size', 'sequence_length']);
  g.input('attention_mask', OnnxDataType.INT64, ['batch_size', 'sequence_length']);
  const dim = table[0]!.length;
  const values = g.floats('table', [table.length, dim], Float32Array.from(table.flat()));
  g.op('Gather', [values, ids], { axis: 0 }, 'last_hidden_state');
  g.output('last_hidden_state', OnnxDataType.FLOAT, ['batch_size', 'sequence_length', dim]);
  return g.toModel({ graphName: 'lookup', opset: 13, producer: 'test', docString: '' });
}

const int64 = (rows: number[][]) =>
  new ort.Tensor('int64', BigInt64Array.from(rows.flat().map(BigInt)), [rows.length, rows[0]!.length]);

describe('mean pooling in the ONNX graph', () => {
  it('pools exactly what a hand computation gives: masked mean, clamped count, L2 norm', async () => {
    // Row 0 of the table is padding with a huge value: any leak of a masked position shows.
    const table = [
      [1000, -1000],
      [1, 2],
      [5, 6],
      [3, 4],
      [0, 0],
    ];
    const session = await ort.InferenceSession.create(appendMeanPooling(lookupModel(table)));
    const ids = [
      [1, 2, 0, 0], // mean of [1,2],[5,6] = [3,4]; normalised [0.6, 0.8]
      [3, 3, 3, 3], // [3,4] four times
      [0, 0, 0, 0], // no tokens: zeros (count clamped to 1e-9, as sentence-transformers)
      [4, 0, 0, 0], // a zero vector: normalised stays zero (norm clamped to 1e-12)
    ];
    const mask = [
      [1, 1, 0, 0],
      [1, 1, 1, 1],
      [0, 0, 0, 0],
      [1, 0, 0, 0],
    ];
    const out = await session.run({ input_ids: int64(ids), attention_mask: int64(mask) }, [
      POOLED_OUTPUT,
      NORMALIZED_OUTPUT,
    ]);
    expect(out[POOLED_OUTPUT]!.dims).toEqual([4, 2]);
    expect(Array.from(out[POOLED_OUTPUT]!.data as Float32Array)).toEqual([3, 4, 3, 4, 0, 0, 0, 0]);
    const f = Math.fround;
    expect(Array.from(out[NORMALIZED_OUTPUT]!.data as Float32Array)).toEqual([
      f(0.6),
      f(0.8),
      f(0.6),
      f(0.8),
      0,
      0,
      0,
      0,
    ]);
    await session.release();
  });

  it('keeps the model bytes as a prefix and adds two [batch, hidden] outputs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-graph-pooling-'));
    await makeTestModel(dir);
    const model = readFileSync(join(dir, 'onnx/model.onnx'));
    const pooled = appendMeanPooling(model);
    expect(Buffer.from(pooled.subarray(0, model.byteLength)).equals(model)).toBe(true);
    const graph = decodeModelProto(pooled).graph;
    expect(graph.output.map((o) => o.name)).toEqual(['last_hidden_state', POOLED_OUTPUT, NORMALIZED_OUTPUT]);
    expect(graph.output[2]!.type.tensorType.shape.dim).toEqual([{ dimParam: 'batch_size' }, { dimValue: 32 }]);
    // Deterministic: the same model gives the same bytes.
    expect(Buffer.from(appendMeanPooling(model)).equals(Buffer.from(pooled))).toBe(true);
  });

  it('matches pooling.ts on the tiny BERT within 1e-6 (max |diff| and min cosine stated)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-graph-pooling-'));
    await makeTestModel(dir);
    const model = readFileSync(join(dir, 'onnx/model.onnx'));
    const plain = await ort.InferenceSession.create(model);
    const pooled = await ort.InferenceSession.create(appendMeanPooling(model));
    const rng = new Rng(30);
    const [rows, seq, dim] = [16, 24, 32];
    const lengths = Array.from({ length: rows }, (_, r) => (r === 3 ? 0 : 1 + Math.floor(rng.next() * seq)));
    lengths[0] = seq;
    const ids = lengths.map((n) =>
      Array.from({ length: seq }, (_, t) => (t < n ? 5 + Math.floor(rng.next() * 90) : 0)),
    );
    const mask = lengths.map((n) => Array.from({ length: seq }, (_, t) => (t < n ? 1 : 0)));
    const feeds = {
      input_ids: int64(ids),
      attention_mask: int64(mask),
      token_type_ids: int64(mask.map((m) => m.map(() => 0))),
    };
    const hidden = (await plain.run(feeds)).last_hidden_state!.data as Float32Array;
    const graphOut = await pooled.run(feeds, [POOLED_OUTPUT, NORMALIZED_OUTPUT]);
    let maxDiff = 0;
    let minCosine = 1;
    for (const normalize of [false, true]) {
      const js = new Float32Array(rows * dim);
      meanPoolBatch(
        hidden,
        lengths,
        seq,
        dim,
        js,
        Array.from({ length: rows }, (_, r) => r),
      );
      if (normalize) for (let r = 0; r < rows; r++) l2NormalizeRow(js, r * dim, dim);
      const inGraph = graphOut[normalize ? NORMALIZED_OUTPUT : POOLED_OUTPUT]!.data as Float32Array;
      for (let r = 0; r < rows; r++) {
        let [dot, a2, b2] = [0, 0, 0];
        for (let d = 0; d < dim; d++) {
          const [a, b] = [js[r * dim + d]!, inGraph[r * dim + d]!];
          maxDiff = Math.max(maxDiff, Math.abs(a - b));
          [dot, a2, b2] = [dot + a * b, a2 + a * a, b2 + b * b];
        }
        if (lengths[r] === 0)
          expect(Array.from(inGraph.subarray(r * dim, (r + 1) * dim)).every((v) => v === 0)).toBe(true);
        else minCosine = Math.min(minCosine, dot / Math.sqrt(a2 * b2));
      }
    }
    // Measured on AMD EPYC (AVX-512), ORT 1.30 CPU provider: max |diff| 2.4e-7, min cosine 0.9999999999999968.
    console.log(`graph vs JavaScript pooling: max |diff| ${maxDiff.toExponential(2)}, min cosine ${minCosine}`);
    expect(maxDiff).toBeLessThan(1e-6);
    expect(minCosine).toBeGreaterThan(1 - 1e-9);
    await plain.release();
    await pooled.release();
  });

  it('refuses a graph without an attention mask or a 3-d float output', () => {
    const g = new OnnxGraphBuilder();
    const ids = g.input('input_ids', OnnxDataType.INT64, ['b', 's']);
    g.op('Identity', [ids], {}, 'last_hidden_state');
    g.output('last_hidden_state', OnnxDataType.INT64, ['b', 's']);
    const model = g.toModel({ graphName: 'x', opset: 13, producer: 'test', docString: '' });
    expect(() => appendMeanPooling(model, 'x.onnx')).toThrow(/x.onnx: output last_hidden_state must be float32/);
    expect(() => appendMeanPooling(lookupModel([[1]]).slice(), 'y.onnx')).not.toThrow();
    const h = new OnnxGraphBuilder();
    const i = h.input('input_ids', OnnxDataType.INT64, ['b', 's']);
    h.op('Gather', [h.floats('t', [1, 1], Float32Array.of(1)), i], { axis: 0 }, 'last_hidden_state');
    h.output('last_hidden_state', OnnxDataType.FLOAT, ['b', 's', 1]);
    expect(() =>
      appendMeanPooling(h.toModel({ graphName: 'x', opset: 13, producer: 'test', docString: '' }), 'z.onnx'),
    ).toThrow(/z.onnx: the graph has no attention_mask input/);
  });

  it('auto pools in the graph on GPU providers only', () => {
    expect(poolingForProvider('auto', 'cpu')).toBe('js');
    expect(poolingForProvider('auto', 'webgpu')).toBe('graph');
    expect(poolingForProvider('auto', 'cuda')).toBe('graph');
    expect(poolingForProvider('graph', 'cpu')).toBe('graph');
    expect(poolingForProvider('js', 'webgpu')).toBe('js');
  });
});
