// Which of ONNX Runtime's CPU kernels this machine runs, as a class name: two machines of one class
// give the same bytes for the same model and batch, two of different classes may not. ORT's MLAS
// picks its kernels from the CPU's features at start-up (onnxruntime/core/mlas/lib/platform.cpp):
// - float kernels (MatMul, Softmax's exp, GELU): SSE, AVX, FMA3 (with AVX2) or AVX-512F. Measured:
//   fp32 vectors differ in the last bit between AVX2 and AVX-512 machines (docs/embeddings.md).
// - the u8×s8 integer kernel of q8's MatMulInteger: AVX2 and AVX-512 without VNNI multiply with
//   VPMADDUBSW, whose int16 pair sums saturate; AVX-VNNI, AVX-512 VNNI and AMX sum exactly. A model
//   whose int8 weights reach past ±64 then gives other vectors there (the generator's q8 models stay
//   within ±64), and even without saturation the float kernels around it differ.
// So q8 has a finer class than fp32. Under emulation (qemu-user shows the host's /proc/cpuinfo) or
// for tests, INTENTSIM_KERNEL_CLASS names the CPU class instead of the detected one.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import type { ModelDtype } from './model-files.js';

/** The environment variable that overrides the detected CPU class. */
export const KERNEL_CLASS_ENV = 'INTENTSIM_KERNEL_CLASS';

/** x86-64 CPU classes, from the most capable down, as MLAS tells them apart. */
export const X64_CPU_CLASSES = ['amx', 'avx512-vnni', 'avx512', 'avx512f', 'avx-vnni', 'avx2', 'avx', 'sse'] as const;

/**
 * The CPU class from x86 feature flags (the names Linux's /proc/cpuinfo uses), in MLAS's order of
 * tests: AVX2 needs FMA too; AVX-512 "core" is F+BW+DQ+VL; VNNI on top of it; AMX replaces the u8×s8
 * kernel wherever it is.
 */
export function x64CpuClass(flags: ReadonlySet<string>): (typeof X64_CPU_CLASSES)[number] {
  const has = (...names: string[]) => names.every((n) => flags.has(n));
  if (!has('avx')) return 'sse';
  if (!has('avx2', 'fma')) return 'avx';
  if (has('amx_tile', 'amx_int8')) return 'amx';
  if (has('avx512f', 'avx512bw', 'avx512dq', 'avx512vl')) return has('avx512_vnni') ? 'avx512-vnni' : 'avx512';
  if (has('avx512f')) return 'avx512f';
  return has('avx_vnni') ? 'avx-vnni' : 'avx2';
}

/** The float kernels a CPU class runs: what fp32 vectors depend on. */
export function floatKernelClass(cpuClass: string): string {
  switch (cpuClass) {
    case 'amx':
    case 'avx512-vnni':
    case 'avx512':
    case 'avx512f':
      return 'avx512f';
    case 'avx-vnni':
    case 'avx2':
      return 'fma3';
    default:
      return cpuClass; // avx, sse, arm64, other architectures and unknown CPUs stand for themselves
  }
}

/** The kernel class that decides a `dtype` model's bytes on a CPU of class `cpuClass`. */
export function kernelClassFor(dtype: ModelDtype, cpuClass: string): string {
  return dtype === 'q8' ? cpuClass : floatKernelClass(cpuClass);
}

let detected: string | undefined;

/** This machine's CPU class: INTENTSIM_KERNEL_CLASS when set, else detected (once per process). */
export function cpuClass(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[KERNEL_CLASS_ENV]?.trim();
  if (override) return override;
  detected ??= detectCpuClass();
  return detected;
}

/** This machine's kernel class for `dtype` (see kernelClassFor). */
export function kernelClass(dtype: ModelDtype, env: NodeJS.ProcessEnv = process.env): string {
  return kernelClassFor(dtype, cpuClass(env));
}

function detectCpuClass(): string {
  // ARM64's NEON kernels: integer sums are exact with or without the dot-product instructions.
  if (process.arch === 'arm64') return 'arm64';
  if (process.arch !== 'x64') return process.arch;
  const flags = x64Flags();
  if (flags) return x64CpuClass(flags);
  // No way to read the flags (Windows): the CPU's model name is a stricter stand-in for its class.
  return `unknown:${cpus()[0]?.model.trim() ?? 'unknown'}`;
}

/** The CPU's feature flags in /proc/cpuinfo's names, or undefined where they cannot be read. */
function x64Flags(): Set<string> | undefined {
  try {
    if (process.platform === 'linux') {
      const line = readFileSync('/proc/cpuinfo', 'utf8')
        .split('\n')
        .find((l) => l.startsWith('flags'));
      return line
        ? new Set(
            line
              .slice(line.indexOf(':') + 1)
              .trim()
              .split(/\s+/),
          )
        : undefined;
    }
    if (process.platform === 'darwin') {
      // sysctl's names are upper case and a few are spelled otherwise (AVX1.0, AVX512VNNI).
      const text = execFileSync('sysctl', ['-n', 'machdep.cpu.features', 'machdep.cpu.leaf7_features'], {
        encoding: 'utf8',
      });
      const rename: Record<string, string> = { 'avx1.0': 'avx', avx512vnni: 'avx512_vnni' };
      return new Set(
        text
          .toLowerCase()
          .split(/\s+/)
          .map((n) => rename[n] ?? n),
      );
    }
  } catch {
    // Unreadable: fall back to the model name.
  }
  return undefined;
}
