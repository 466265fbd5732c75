// bench/scale.ts's own arithmetic (not the speeds it measures): the sizes, the slope of a stage
// between two sizes, the limits' verdicts and the Sentence-BERT projection.
import { describe, expect, it } from 'vitest';
import {
  ITEM_ASSERTIONS,
  PROJECTED_WORKERS,
  scaleReport,
  scaleSizes,
  twoPointSlope,
  type SizeFigures,
  type StageFigures,
} from '../bench/scale.js';

function figures(edges: number, stages: StageFigures[], embedSentences: number, rate: number): SizeFigures {
  return {
    size: { edges, nodes: edges, products: 200_000, assertions: 1_000_000, itemAssertions: ITEM_ASSERTIONS },
    seed: 1,
    measuredAt: '2026-11-26T00:00:00.000Z',
    machine: 'test',
    stages,
    sbert: { sampleProducts: 500, sentences: rate * 10, seconds: 10, sentencesPerSecond: rate },
    embedSentences,
    items: { task1: 3, task2: 4, dropped: {} },
    embed: { nodes: 10, streamedHubs: 2, cappedHubs: 1 },
    workers: edges === 2_000_000 ? [{ assertions: 10_000, oneThread: 2, workers: 2 }] : [],
  };
}

const stage = (name: string, seconds: number, cpuSeconds: number, peakRssMb: number): StageFigures => ({
  stage: name,
  seconds,
  cpuSeconds,
  peakRssMb,
  diskMb: 1,
});

describe('scale bench', () => {
  it('sizes: 2M, 20M, 52M edges with 1.6 generated nodes an edge, 200k products, 1M assertions at --large', () => {
    expect(scaleSizes({ quick: false, large: true }).map((s) => [s.edges, s.nodes, s.products, s.assertions])).toEqual([
      [2_000_000, 3_200_000, 200_000, 1_000_000],
      [20_000_000, 32_000_000, 200_000, 1_000_000],
      [52_000_000, 83_200_000, 200_000, 1_000_000],
    ]);
    expect(scaleSizes({ quick: true })).toHaveLength(1);
  });

  it('slope: 10× the edges in 10× the time is 1, in 100× is 2, in the same time 0', () => {
    expect(twoPointSlope({ x: 2e6, y: 3 }, { x: 2e7, y: 30 })).toBeCloseTo(1, 12);
    expect(twoPointSlope({ x: 2e6, y: 3 }, { x: 2e7, y: 300 })).toBeCloseTo(2, 12);
    expect(twoPointSlope({ x: 2e6, y: 3 }, { x: 2e7, y: 3 })).toBe(0);
  });

  it('report: slope rows against the 1.15 limit, the 8 GiB verdict, projections = sentences ÷ rate ÷ workers', () => {
    const small = figures(2_000_000, [stage('import', 10, 8, 500), stage('embed (glove-100d)', 20, 10, 900)], 1000, 50);
    // import: 10 → 100 s (slope 1); embed: 20 → 20·10^1.3 s (slope 1.3, over the limit), 9000 MB peak.
    const large = figures(
      20_000_000,
      [stage('import', 100, 80, 600), stage('embed (glove-100d)', 20 * 10 ** 1.3, 10 * 10 ** 1.3, 9000)],
      10_000,
      50,
    );
    const r = scaleReport([small, large], 1);
    const slope = (name: string) => r.rows.find((row) => row.stage === `slope: ${name}`)!;
    expect(slope('import').slope).toBe(1);
    expect(slope('import').meets).toBe('yes');
    expect(slope('embed (glove-100d)').slope).toBe(1.3);
    expect(slope('embed (glove-100d)').cpu_slope).toBe(1.3);
    expect(slope('embed (glove-100d)').meets).toBe('NO');
    const rss = r.rows.filter((row) => row.edges === 20_000_000 && row.stage === 'embed (glove-100d)');
    expect(rss[0]!.rss_under_8_gib).toBe('NO');
    const projected = r.rows.filter((row) => String(row.stage).startsWith('projected') && row.edges === 20_000_000);
    expect(projected.map((row) => row.seconds)).toEqual(PROJECTED_WORKERS.map((n) => Math.round(10_000 / 50 / n)));
    const workers = r.rows.find((row) => String(row.stage).includes('10000 assertions'))!;
    expect(workers.speedup).toBe(1);
    expect(workers.meets).toBe('yes');
    expect(r.scaling!.filter((p) => p.series === 'import').map((p) => p.size)).toEqual([2_000_000, 20_000_000]);
  });

  it('notes name the code each size measured, where it is known', () => {
    const small = { ...figures(2_000_000, [stage('import', 10, 8, 500)], 1000, 50), commit: 'addaa29' };
    const large = figures(20_000_000, [stage('import', 100, 80, 600)], 1000, 50);
    const notes = scaleReport([small, large], 1).notes;
    expect(notes.filter((n) => n.startsWith('2000000 edges: measured'))[0]).toContain('on test, code at addaa29');
    expect(notes.filter((n) => n.startsWith('20000000 edges: measured'))[0]).not.toContain('code at');
  });

  it('an incomplete size: slopes for the stages it finished only, no projection, and the note says what is missing', () => {
    const small = figures(2_000_000, [stage('import', 10, 8, 500), stage('embed (glove-100d)', 20, 10, 900)], 1000, 50);
    const {
      sbert: _s,
      embedSentences: _e,
      items: _i,
      embed: _m,
      ...rest
    } = figures(20_000_000, [stage('import', 100, 80, 600)], 0, 50);
    const partial: SizeFigures = { ...rest, incomplete: 'embed and later stages did not finish by the deadline' };
    const r = scaleReport([small, partial], 1);
    expect(r.rows.filter((row) => String(row.stage).startsWith('slope:')).map((row) => row.stage)).toEqual([
      'slope: import',
    ]);
    expect(r.rows.filter((row) => String(row.stage).startsWith('projected') && row.edges === 20_000_000)).toEqual([]);
    expect(r.notes.some((n) => n.includes('INCOMPLETE: embed and later stages did not finish'))).toBe(true);
  });
});
