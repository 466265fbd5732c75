// The start-up bench's CPU classes and the figures it reports for the classes it did not run on
// (bench/support/startup-reference.ts, issue 50).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCpuinfo } from '../bench/support/cpu-info.js';
import { cpuClass, otherClassRows, readStartupReferences } from '../bench/support/startup-reference.js';

const intel = 'model name\t: Intel(R) Xeon(R) Platinum 8488C\nflags\t\t: fpu avx avx2 avx512f avx512_vnni\n';
const amd = 'model name\t: AMD EPYC 7B13\nflags\t\t: fpu avx avx2\n';

describe('the start-up bench by CPU class', () => {
  it('names a class by vendor and widest vector instructions', () => {
    expect(cpuClass(describeCpuinfo(intel))).toBe('Intel AVX-512');
    expect(cpuClass(describeCpuinfo(amd))).toBe('AMD AVX2');
    expect(cpuClass({ model: 'Apple M2', simd: 'unknown' })).toBe('Apple M2 unknown');
  });

  it("reports the other classes' recorded rows, labelled, and not its own", () => {
    const row = { case: 'start-up: encode', measured: '0.3 s', baseline: 'Python pipeline: 0.2 s', ratio: 1.5 };
    const references = [
      { cpu: 'Intel Xeon (AVX-512)', class: 'Intel AVX-512', date: '2026-11-28', commit: 'abc', how: '', rows: [row] },
      {
        cpu: 'AMD EPYC (AVX-512, VNNI)',
        class: 'AMD AVX-512',
        date: '2026-11-29',
        commit: 'def',
        how: '',
        rows: [row],
      },
    ];
    expect(otherClassRows(references, 'AMD AVX-512')).toEqual([
      { ...row, case: 'recorded on Intel Xeon (AVX-512), 2026-11-28 (abc): start-up: encode' },
    ]);
    expect(otherClassRows(references, 'Intel AVX2')).toHaveLength(2);
  });

  it('reads the committed reference file, every entry with a class its CPU line gives', () => {
    const entries = readStartupReferences(join(import.meta.dirname, '..', 'bench', 'startup-reference.json'));
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      const [model, sets = ''] = e.cpu.split(' (');
      expect(e.class, e.cpu).toBe(cpuClass({ model: model!, simd: sets.split(/[,)]/)[0]! }));
      expect(e.rows.length).toBeGreaterThan(0);
    }
  });
});
