// The CPU kernel class that joins a queue job's model identity: the classes follow the feature tests
// of ONNX Runtime's MLAS (platform.cpp), and INTENTSIM_KERNEL_CLASS replaces the detected one.
import { describe, expect, it } from 'vitest';
import { cpuClass, floatKernelClass, kernelClass, kernelClassFor, x64CpuClass } from '../embeddings/kernel-class.js';

const flags = (list: string) => new Set(list.split(' '));
const AVX512_CORE = 'avx avx2 fma avx512f avx512bw avx512dq avx512vl';

describe('CPU kernel class', () => {
  it('names the x86-64 class from /proc/cpuinfo flags as MLAS picks its kernels', () => {
    expect(x64CpuClass(flags('sse4_1 sse4_2'))).toBe('sse');
    expect(x64CpuClass(flags('avx'))).toBe('avx');
    expect(x64CpuClass(flags('avx avx2'))).toBe('avx'); // MLAS needs FMA3 with AVX2
    expect(x64CpuClass(flags('avx avx2 fma'))).toBe('avx2');
    expect(x64CpuClass(flags('avx avx2 fma avx_vnni'))).toBe('avx-vnni');
    expect(x64CpuClass(flags('avx avx2 fma avx512f'))).toBe('avx512f');
    expect(x64CpuClass(flags(AVX512_CORE))).toBe('avx512');
    expect(x64CpuClass(flags(`${AVX512_CORE} avx512_vnni avx_vnni`))).toBe('avx512-vnni');
    expect(x64CpuClass(flags(`${AVX512_CORE} avx512_vnni amx_tile amx_int8`))).toBe('amx');
  });

  it('q8 keeps the whole class; fp32 only the float kernels it selects', () => {
    expect(kernelClassFor('q8', 'avx2')).toBe('avx2');
    expect(kernelClassFor('q8', 'avx-vnni')).toBe('avx-vnni');
    expect(kernelClassFor('fp32', 'avx2')).toBe('fma3');
    expect(kernelClassFor('fp32', 'avx-vnni')).toBe('fma3');
    for (const c of ['avx512f', 'avx512', 'avx512-vnni', 'amx']) expect(floatKernelClass(c)).toBe('avx512f');
    expect(floatKernelClass('arm64')).toBe('arm64');
    expect(floatKernelClass('unknown:Some CPU')).toBe('unknown:Some CPU');
  });

  it('INTENTSIM_KERNEL_CLASS replaces the detected class; without it, detection gives a class', () => {
    expect(cpuClass({ INTENTSIM_KERNEL_CLASS: 'avx2' })).toBe('avx2');
    expect(kernelClass('fp32', { INTENTSIM_KERNEL_CLASS: 'avx2' })).toBe('fma3');
    expect(kernelClass('q8', { INTENTSIM_KERNEL_CLASS: ' avx512 ' })).toBe('avx512');
    const detected = cpuClass({});
    expect(detected.length).toBeGreaterThan(0);
    if (process.arch === 'x64' && process.platform === 'linux')
      expect(['amx', 'avx512-vnni', 'avx512', 'avx512f', 'avx-vnni', 'avx2', 'avx', 'sse']).toContain(detected);
  });
});
