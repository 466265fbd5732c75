// The caveat banner of the report SVGs (intentionqa_report.svg, the scores' summary.svg) is wrapped
// to the picture's width: SVG does not wrap text, and a one-line banner ran past the edge.
import { describe, expect, it } from 'vitest';
import { wrapSvgText } from '../core/xml.js';
import { renderSvg, StatsAccumulator } from '../engine/items/intentionqa/intentionqa-report.js';
import { scoreChart } from '../engine/scoring/score-chart.js';
import { GLOVE_NOTICE } from '../embeddings/glove-encoder.js';

describe('wrapSvgText', () => {
  it('breaks at spaces into lines of at most width / (fontSize × em) characters', () => {
    // 60 px / (10 px × 0.5) = 12 characters a line.
    expect(wrapSvgText('aaa bbb ccc ddd eee', 60, 10, 0.5)).toEqual(['aaa bbb ccc', 'ddd eee']);
    expect(wrapSvgText('aaaa bbbbbbb c', 60, 10, 0.5)).toEqual(['aaaa bbbbbbb', 'c']);
    // A word longer than a line gets a line of its own; runs of spaces are one.
    expect(wrapSvgText('a  bbbbbbbbbbbbbbbb c', 60, 10, 0.5)).toEqual(['a', 'bbbbbbbbbbbbbbbb', 'c']);
    expect(wrapSvgText('short', 600, 10)).toEqual(['short']);
    expect(wrapSvgText('', 600, 10)).toEqual(['']);
  });

  it('keeps every word, in order', () => {
    const words = Array.from({ length: 200 }, (_, i) => 'w'.repeat(1 + ((i * 7) % 13)));
    const lines = wrapSvgText(words.join(' '), 300, 11);
    expect(lines.join(' ')).toBe(words.join(' '));
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(Math.floor(300 / (11 * 0.6)));
  });
});

/** The banner's lines: the red text elements, in order. */
function bannerLines(svg: string): Array<{ y: number; text: string }> {
  return [...svg.matchAll(/<text x="10" y="(\d+)" fill="#b00"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
    y: Number(m[1]),
    text: m[2]!,
  }));
}

const widthOf = (svg: string) => Number(/<svg [^>]*width="(\d+)"/.exec(svg)![1]);
const CAVEAT = `WORD-VECTOR BASELINE: ${GLOVE_NOTICE}`;

describe('report SVG banners', () => {
  it('intentionqa_report.svg: the whole caveat, in lines that fit, above the panels', () => {
    const svg = renderSvg(new StatsAccumulator().stats, CAVEAT);
    const lines = bannerLines(svg);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.map((l) => l.text).join(' ')).toBe(CAVEAT);
    for (const l of lines) expect(l.text.length * 11 * 0.65).toBeLessThanOrEqual(widthOf(svg) - 20);
    // The first panel's title sits below the last banner line.
    const firstTitle = Number(/<text x="20" y="(\d+)" font-weight="bold">Task 1/.exec(svg)![1]);
    expect(firstTitle).toBeGreaterThan(lines.at(-1)!.y + 8);
    // Without a caveat, no banner and the layout of before.
    expect(bannerLines(renderSvg(new StatsAccumulator().stats))).toEqual([]);
    expect(renderSvg(new StatsAccumulator().stats)).toContain('<text x="20" y="25" font-weight="bold">Task 1');
  });

  it("summary.svg: the whole caveat, in lines that fit, above the plot's top", () => {
    const svg = scoreChart('Accuracy', ['task 1', 'task 2'], [{ name: 'model', values: [0.5, 0.25] }], CAVEAT);
    const lines = bannerLines(svg);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.map((l) => l.text).join(' ')).toBe(CAVEAT);
    for (const l of lines) expect(l.text.length * 11 * 0.6).toBeLessThanOrEqual(widthOf(svg) - 20);
    // The 100 % gridline (the plot's top) is below the last banner line.
    const plotTop = Number(/<line x1="50" y1="([\d.]+)"[^>]*stroke="#ddd"\/>\s*<text [^>]*>100%/.exec(svg)![1]);
    expect(plotTop).toBeGreaterThan(lines.at(-1)!.y + 4);
  });
});
