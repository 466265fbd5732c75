// The scores' chart (summary.svg): one group of bars per column of the summary table (a task ×
// difficulty, or a task), one bar per answerer (the model, RANDOM, MAJORITY), on a 0–100 % axis. A
// value that is undefined gets no bar and an "n/a" label, so that it never reads as 0.
import { escapeXml, wrapSvgText } from '../../core/xml.js';

export interface ChartSeries {
  name: string;
  /** One value in [0, 1] per group; null: undefined. */
  values: ReadonlyArray<number | null>;
}

const COLOURS = ['#4878a8', '#c87f3a', '#6a9a4a', '#8a6bb0'];

export function scoreChart(
  title: string,
  groups: readonly string[],
  series: readonly ChartSeries[],
  caveat?: string,
): string {
  const barW = 14;
  const groupGap = 18;
  const groupW = series.length * barW + groupGap;
  const left = 50;
  const width = Math.max(480, left + groups.length * groupW + 20);
  // The caveat banner, wrapped to the picture's width (one line: the layout of an unwrapped banner).
  const banner = caveat ? wrapSvgText(caveat, width - 20, 11) : [];
  const top = caveat ? 42 + 14 * banner.length : 36;
  const plotH = 200;
  const legendH = 18 * series.length + 10;
  const height = top + plotH + 60 + legendH;
  const y = (v: number) => top + plotH - v * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  banner.forEach((line, i) => out.push(`<text x="10" y="${40 + 14 * i}" fill="#b00">${escapeXml(line)}</text>`));
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(
      `<line x1="${left}" y1="${y(tick)}" x2="${width - 10}" y2="${y(tick)}" stroke="${tick === 0 ? '#333' : '#ddd'}"/>`,
      `<text x="${left - 4}" y="${y(tick) + 4}" text-anchor="end">${tick * 100}%</text>`,
    );
  }
  groups.forEach((group, g) => {
    const x0 = left + 10 + g * groupW;
    series.forEach((s, k) => {
      const v = s.values[g] ?? null;
      const x = x0 + k * barW;
      const label = `${s.name}, ${group}: ${v === null ? 'undefined' : (v * 100).toFixed(2) + '%'}`;
      if (v === null) {
        out.push(
          `<text x="${x + barW / 2}" y="${y(0) - 3}" text-anchor="middle" font-size="8" fill="#777"><title>${escapeXml(label)}</title>n/a</text>`,
        );
        return;
      }
      out.push(
        `<rect x="${x + 1}" y="${y(v).toFixed(1)}" width="${barW - 2}" height="${(v * plotH).toFixed(1)}" fill="${COLOURS[k % COLOURS.length]}"><title>${escapeXml(label)}</title></rect>`,
      );
    });
    out.push(
      `<text x="${x0 + (series.length * barW) / 2}" y="${y(0) + 16}" text-anchor="middle">${escapeXml(group)}</text>`,
    );
  });
  series.forEach((s, k) => {
    const ly = top + plotH + 44 + k * 18;
    out.push(
      `<rect x="${left}" y="${ly - 9}" width="12" height="10" fill="${COLOURS[k % COLOURS.length]}"/>`,
      `<text x="${left + 18}" y="${ly}">${escapeXml(s.name)}</text>`,
    );
  });
  out.push('</svg>', '');
  return out.join('\n');
}
