// `npm run bench [-- --quick | --large] [--only name,name] [--seed N]`: runs every benchmark module,
// then writes bench/report.md, bench/report.json and the charts in bench/report-charts/.
// Each module measures its figures next to a baseline in the same run (ratios, because machines are noisy).
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { writeFileAtomic } from '../engine/io/atomic.js';
import type { BenchOptions, BenchResult } from './types.js';
import { barChart, logLogChart, logLogFit, type Point } from './svg-chart.js';

/** Report sections (issue 7) and the benchmark modules that fill them, in report order. */
export const SECTIONS: ReadonlyArray<{ title: string; modules: readonly string[] }> = [
  { title: '1. Sentence embeddings', modules: ['embeddings'] },
  { title: '2. Context embeddings and the pipeline', modules: ['context', 'pipeline', 'workers'] },
  { title: '3. Store operations', modules: ['store', 'store-neo4j', 'match'] },
  { title: '4. Windows and items', modules: ['items', 'sib', 'catalog'] },
];

interface ModuleOutcome {
  module: string;
  result?: BenchResult;
  error?: string;
  seconds: number;
}

const here = dirname(fileURLToPath(import.meta.url));
/** The source folder bench/ (this file runs from dist/bench/). */
const benchSourceDir = join(here, '..', '..', 'bench');

async function runModule(name: string, options: BenchOptions): Promise<ModuleOutcome> {
  const started = performance.now();
  let mod: { run?: (o: BenchOptions) => Promise<BenchResult> };
  try {
    mod = (await import(`./${name}.js`)) as typeof mod;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String(err).includes(`${name}.js`)) {
      return { module: name, error: 'not present', seconds: 0 };
    }
    throw err;
  }
  if (typeof mod.run !== 'function') return { module: name, error: 'module exports no run()', seconds: 0 };
  try {
    const result = await mod.run(options);
    return { module: name, result, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    return { module: name, error: (err as Error).stack ?? String(err), seconds: (performance.now() - started) / 1000 };
  }
}

function markdownTable(rows: BenchResult['rows']): string {
  if (rows.length === 0) return '_no rows_\n';
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: string | number | undefined) =>
    v === undefined ? '' : typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(4)) : v.replace(/\|/g, '\\|');
  return [
    `| ${columns.join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${columns.map((c) => cell(r[c])).join(' | ')} |`),
  ].join('\n') + '\n';
}

export async function main(argv: string[]): Promise<void> {
  const program = new Command('bench')
    .description('Runs the benchmark suite and writes bench/report.md, bench/report.json and bench/report-charts/*.svg.')
    .option('--quick', 'small sizes (under 2 minutes; CI uses this to prove the suite runs)', false)
    .option('--large', 'the largest sizes (10M-edge graphs; long)', false)
    .option('--only <names>', 'comma-separated module names, e.g. store,items')
    .option('--seed <n>', 'seed for generated data', '1')
    .option('--out <dir>', 'where to write the report', benchSourceDir)
    .parse(argv);
  const opts = program.opts<{ quick: boolean; large: boolean; only?: string; seed: string; out: string }>();
  const options: BenchOptions = { quick: opts.quick, large: opts.large, seed: Number(opts.seed) };
  const only = opts.only ? new Set(opts.only.split(',').map((s) => s.trim())) : undefined;
  const command = `npm run bench --${opts.quick ? ' --quick' : ''}${opts.large ? ' --large' : ''}${opts.only ? ` --only ${opts.only}` : ''} --seed ${opts.seed}`;

  const outcomes: ModuleOutcome[] = [];
  for (const section of SECTIONS) {
    for (const name of section.modules) {
      if (only && !only.has(name)) continue;
      process.stderr.write(`bench: ${name} …\n`);
      const outcome = await runModule(name, options);
      if (outcome.result) console.table(outcome.result.rows);
      else process.stderr.write(`bench: ${name}: ${outcome.error}\n`);
      outcomes.push(outcome);
    }
  }

  const chartsDir = join(opts.out, 'report-charts');
  await mkdir(chartsDir, { recursive: true });
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const lines: string[] = [
    '# intentsim benchmark report',
    '',
    `Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)}; machine: ${machine}.`,
    'Every figure is measured next to its baseline in the same run; compare ratios, not absolute rates, across machines.',
    '',
  ];
  for (const section of SECTIONS) {
    const inSection = outcomes.filter((o) => section.modules.includes(o.module));
    if (inSection.length === 0) continue;
    lines.push(`## ${section.title}`, '');
    for (const o of inSection) {
      lines.push(`### ${o.result?.name ?? o.module}`, '');
      if (!o.result) {
        lines.push(`_Not measured: ${o.error?.split('\n')[0]}_`, '');
        continue;
      }
      lines.push(`Module \`bench/${o.module}.ts\`, ${o.seconds.toFixed(1)} s.`, '');
      lines.push(markdownTable(o.result.rows));
      for (const note of o.result.notes) lines.push(`- ${note}`);
      lines.push('');
    }
  }

  // 5. Scaling: one log-log chart over every module's series, with the fitted slope of each.
  const series = new Map<string, Point[]>();
  for (const o of outcomes) {
    for (const s of o.result?.scaling ?? []) {
      const key = `${o.module}: ${s.series}`;
      if (!series.has(key)) series.set(key, []);
      series.get(key)!.push({ x: s.size, y: s.seconds });
    }
  }
  lines.push('## 5. Scaling', '');
  if (series.size > 0) {
    await writeFile(join(chartsDir, 'scaling.svg'), logLogChart('Time vs work (log-log)', series, { x: 'work size', y: 'seconds' }));
    lines.push('![scaling](report-charts/scaling.svg)', '', '| series | sizes | fitted slope (1 = linear) |', '| --- | --- | --- |');
    for (const [key, pts] of series) {
      const fit = logLogFit(pts);
      lines.push(`| ${key} | ${pts.map((p) => p.x).join(', ')} | ${fit ? fit.slope.toFixed(2) : 'n/a'} |`);
    }
    lines.push('');
  } else {
    lines.push('_No module reported a scaling series._', '');
  }
  const ratios = outcomes.flatMap((o) =>
    (o.result?.rows ?? []).flatMap((r) =>
      typeof r.ratio === 'number' ? [{ label: `${o.module}: ${String(r.case ?? r.operation ?? r.name ?? '')}`.slice(0, 44), value: r.ratio }] : [],
    ),
  );
  if (ratios.length > 0) {
    await writeFile(join(chartsDir, 'ratios.svg'), barChart('Engine vs baseline, same run (ratio)', ratios, '×'));
    lines.push('## Ratios at a glance', '', '![ratios](report-charts/ratios.svg)', '');
  }

  await writeFileAtomic(join(opts.out, 'report.md'), lines.join('\n'));
  await writeFileAtomic(join(opts.out, 'report.json'), JSON.stringify({ command, machine, date: new Date().toISOString(), outcomes }, null, 2) + '\n');
  const failed = outcomes.filter((o) => o.error && o.error !== 'not present');
  process.stderr.write(`bench: wrote ${join(opts.out, 'report.md')} (${outcomes.length} modules, ${failed.length} failed)\n`);
  if (failed.length > 0) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
