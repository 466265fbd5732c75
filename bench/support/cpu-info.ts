// Which CPU a benchmark ran on, in the words the report's first line uses: the model name and the
// widest vector instructions that matter to ONNX Runtime's kernels (AVX2 or AVX-512, and VNNI, the
// int8 dot products that q8 runs on), both from /proc/cpuinfo. Two machines with the same name can
// differ in these flags (a VM may hide AVX-512), so the flags are read, not inferred from the name.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

export interface CpuDescription {
  /** "model name" of the first processor (os.cpus()'s model where /proc/cpuinfo is absent). */
  model: string;
  /** The widest SIMD set: 'AVX-512', 'AVX2', 'AVX', 'SSE' or 'unknown' (no flags line). */
  simd: string;
  /** Whether int8 dot-product instructions are there: avx512_vnni or avx_vnni. */
  vnni: boolean;
}

/** The description from /proc/cpuinfo's text (its first processor); `fallbackModel` when it names none. */
export function describeCpuinfo(cpuinfo: string, fallbackModel = 'unknown CPU'): CpuDescription {
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1]?.trim() || fallbackModel;
  const flagsLine = /^flags\s*:\s*(.*)$/m.exec(cpuinfo)?.[1];
  if (flagsLine === undefined) return { model, simd: 'unknown', vnni: false };
  const flags = new Set(flagsLine.trim().split(/\s+/));
  const simd = flags.has('avx512f')
    ? 'AVX-512'
    : flags.has('avx2')
      ? 'AVX2'
      : flags.has('avx')
        ? 'AVX'
        : flags.has('sse')
          ? 'SSE'
          : 'unknown';
  return { model, simd, vnni: flags.has('avx512_vnni') || flags.has('avx_vnni') };
}

/** "AMD EPYC 9B14 (AVX-512, VNNI)": the model and its instruction sets, on one line. */
export function cpuLine(d: CpuDescription): string {
  const sets = d.simd === 'unknown' ? 'instruction sets unknown' : `${d.simd}, ${d.vnni ? 'VNNI' : 'no VNNI'}`;
  return `${d.model} (${sets})`;
}

/** This machine's CPU, from /proc/cpuinfo (off Linux: os.cpus()'s model, instruction sets unknown). */
export function thisMachineCpu(): CpuDescription {
  const fallback = cpus()[0]?.model ?? 'unknown CPU';
  try {
    return describeCpuinfo(readFileSync('/proc/cpuinfo', 'utf8'), fallback);
  } catch {
    return { model: fallback, simd: 'unknown', vnni: false };
  }
}
