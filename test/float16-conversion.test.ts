// float32 → float16 conversion of an ONNX model (embeddings/float16-conversion.ts): the bit conversion
// (core/float16.ts, shared with the catalogue's float16 vectors)
// against every one of the 65,536 half-precision values and hand-picked roundings, the converted
// tiny BERT checked structurally (float16 weights, float32 at the edges) and, where ORT's CPU
// provider runs it, against the float32 model.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { clampForFloat16, convertModelToFloat16 } from '../embeddings/float16-conversion.js';
import { fromFloat16Bits as float16BitsToFloat32, toFloat16Bits as float32ToFloat16Bits } from '../core/float16.js';
import { decodeModelProto, OnnxDataType } from '../embeddings/onnx-proto.js';
import { makeTestModel } from '../embeddings/model-generator.js';
import { randomBertWeights } from '../embeddings/bert-onnx.js';
import { testModelSpec } from '../embeddings/model-generator.js';
import { appendMeanPooling, NORMALIZED_OUTPUT } from '../embeddings/graph-pooling.js';

describe('float32 → float16 bits', () => {
  it('round-trips every half-precision value exactly', () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      const value = float16BitsToFloat32(bits);
      if (Number.isNaN(value)) expect(float32ToFloat16Bits(value) & 0x7c00).toBe(0x7c00);
      else expect(float32ToFloat16Bits(value)).toBe(bits);
    }
  });

  it('rounds to nearest, ties to even, with overflow to infinity and subnormals', () => {
    expect(float32ToFloat16Bits(1)).toBe(0x3c00);
    expect(float32ToFloat16Bits(-2.25)).toBe(0xc080);
    expect(float32ToFloat16Bits(65504)).toBe(0x7bff);
    expect(float32ToFloat16Bits(65520)).toBe(0x7c00); // half-way to 2^16: ties to even, i.e. ∞
    expect(float32ToFloat16Bits(65519)).toBe(0x7bff);
    expect(float32ToFloat16Bits(1 + 2 ** -11)).toBe(0x3c00); // tie: stays on the even 1.0
    expect(float32ToFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie: up to the even neighbour
    expect(float32ToFloat16Bits(2 ** -24)).toBe(0x0001); // smallest subnormal
    expect(float32ToFloat16Bits(2 ** -25)).toBe(0x0000); // tie with zero: even (zero)
    expect(float32ToFloat16Bits(1.5 * 2 ** -25)).toBe(0x0001);
    expect(float32ToFloat16Bits(-0)).toBe(0x8000);
    // Equivalence with the obvious computation: the nearest half (ties to the even one) on random floats.
    const halves = Array.from({ length: 0x7c00 }, (_, b) => float16BitsToFloat32(b));
    let x = 12345;
    for (let i = 0; i < 2000; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const v = Math.fround((x / 2147483648) * 70000 * (i % 2 ? 1 : 2 ** -12));
      const bits = float32ToFloat16Bits(v);
      if (v > 65520 || bits === 0x7c00) continue;
      const below = halves.findLastIndex((h) => h <= v);
      const [lo, hi] = [halves[below]!, halves[below + 1] ?? Infinity];
      const expected = v - lo < hi - v || (v - lo === hi - v && below % 2 === 0) ? below : below + 1;
      expect(bits, `${v}`).toBe(expected);
    }
  });

  it('clamps magnitudes as convert_float_to_float16 does', () => {
    expect(clampForFloat16(1e-9)).toBe(5.96e-8);
    expect(clampForFloat16(-1e-9)).toBe(-5.96e-8);
    expect(clampForFloat16(0)).toBe(0);
    expect(clampForFloat16(1e6)).toBe(65504);
    expect(clampForFloat16(0.25)).toBe(0.25);
  });
});

describe('fp16 conversion of the tiny BERT', () => {
  it('writes every float initializer as float16 and keeps float32 at the edges', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-fp16-'));
    await makeTestModel(dir);
    const fp32Bytes = readFileSync(join(dir, 'onnx/model.onnx'));
    const { model, report } = convertModelToFloat16(fp32Bytes);
    const fp32 = decodeModelProto(fp32Bytes).graph;
    const fp16 = decodeModelProto(model).graph;
    const floatCount = fp32.initializer.filter((t) => t.dataType === OnnxDataType.FLOAT).length;
    expect(report.initializers).toBe(floatCount);
    expect(fp16.initializer.filter((t) => t.dataType === OnnxDataType.FLOAT)).toEqual([]);
    expect(fp16.initializer.filter((t) => t.dataType === OnnxDataType.FLOAT16).length).toBe(floatCount);
    // The attention mask's cast to float now casts to float16; the output is cast back to float32.
    expect(report.casts).toBe(1);
    expect(report.keptFloat32Outputs).toEqual(['last_hidden_state']);
    const last = fp16.node[fp16.node.length - 1]!;
    expect([last.opType, last.input, last.output]).toEqual([
      'Cast',
      ['last_hidden_state/float16'],
      ['last_hidden_state'],
    ]);
    expect(last.attribute[0]!.i).toBe(OnnxDataType.FLOAT);
    expect(fp16.output).toEqual(fp32.output);
    expect(fp16.input).toEqual(fp32.input);
    // Each weight is its float32 value rounded to the nearest half: compare with the generator's weights.
    const weights = randomBertWeights(testModelSpec().shape, 1, testModelSpec().std);
    const table = fp16.initializer.find((t) => t.name === 'embeddings.word_embeddings.weight')!;
    const view = new DataView(table.rawData.buffer, table.rawData.byteOffset, table.rawData.byteLength);
    for (let i = 0; i < weights.wordEmbeddings.length; i++) {
      const back = float16BitsToFloat32(view.getUint16(2 * i, true));
      expect(back).toBe(float16BitsToFloat32(float32ToFloat16Bits(weights.wordEmbeddings[i]!)));
      expect(Math.abs(back - weights.wordEmbeddings[i]!)).toBeLessThanOrEqual(
        Math.abs(weights.wordEmbeddings[i]!) * 2 ** -11,
      );
    }
    // Deterministic bytes.
    expect(Buffer.from(convertModelToFloat16(fp32Bytes).model).equals(Buffer.from(model))).toBe(true);
  });

  it('runs on the CPU provider when ORT has the kernels, close to fp32 (cosine stated)', async (ctx) => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-fp16-'));
    await makeTestModel(dir);
    const fp32Bytes = readFileSync(join(dir, 'onnx/model.onnx'));
    let session16: ort.InferenceSession;
    try {
      session16 = await ort.InferenceSession.create(appendMeanPooling(convertModelToFloat16(fp32Bytes).model));
    } catch (err) {
      console.log(`ORT's CPU provider cannot open the fp16 model: ${(err as Error).message.split('\n')[0]}`);
      ctx.skip();
      return;
    }
    const session32 = await ort.InferenceSession.create(appendMeanPooling(fp32Bytes));
    const [rows, seq] = [8, 12];
    const ids = Array.from({ length: rows * seq }, (_, i) => ((i * 37) % 90) + 5);
    const mask = Array.from({ length: rows * seq }, (_, i) => (i % seq < 3 + (Math.floor(i / seq) % 9) ? 1 : 0));
    const t = (v: number[]) => new ort.Tensor('int64', BigInt64Array.from(v.map(BigInt)), [rows, seq]);
    const feeds = { input_ids: t(ids), attention_mask: t(mask), token_type_ids: t(mask.map(() => 0)) };
    let out16: Float32Array;
    try {
      out16 = (await session16.run(feeds, [NORMALIZED_OUTPUT]))[NORMALIZED_OUTPUT]!.data as Float32Array;
    } catch (err) {
      console.log(`ORT's CPU provider cannot run the fp16 model: ${(err as Error).message.split('\n')[0]}`);
      ctx.skip();
      return;
    }
    const out32 = (await session32.run(feeds, [NORMALIZED_OUTPUT]))[NORMALIZED_OUTPUT]!.data as Float32Array;
    const dim = out32.length / rows;
    let minCosine = 1;
    for (let r = 0; r < rows; r++) {
      let dot = 0;
      for (let d = 0; d < dim; d++) dot += out16[r * dim + d]! * out32[r * dim + d]!;
      minCosine = Math.min(minCosine, dot);
    }
    console.log(`fp16 against fp32 on ORT's CPU provider (tiny BERT): min cosine ${minCosine}`);
    expect(minCosine).toBeGreaterThan(0.999);
  });
});
