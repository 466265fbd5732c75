// `npm run bench [-- --quick | --large] [--only name,name] [--seed N] [--device auto|cpu|cuda|webgpu]`:
// runs every benchmark module, then writes bench/report.md, bench/report.json and the charts in
// bench/report-charts/ (a --quick run writes them under bench/results/quick/, which git ignores, so
// that its small-size figures never replace the committed report; --out chooses another folder). Each module measures its figures next to a baseline in the same run (ratios,
// because machines are noisy). Section 1 always runs on the CPU (its share of the CPU's peak only
// means something there); section 6 reruns the embedding module on a GPU provider when one is usable.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, hostname, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import { writeFileAtomic } from '../core/atomic.js';
import { projectRoot } from '../core/shared-files.js';
import { DEVICE_REQUESTS, type DeviceRequest } from '../embeddings/execution-providers.js';
import type { BenchOptions, BenchResult } from './bench-types.js';
import { barChart, logLogChart, logLogFit, type Point } from './svg-chart.js';
import { nvidiaGpuName, probeGpuProvider, type GpuProbe } from './support/gpu-provider.js';
import { cpuLine, thisMachineCpu } from './support/cpu-info.js';

/** Report sections (issue 7) and the benchmark modules that fill them, in report order. */
export const SECTIONS: ReadonlyArray<{ title: string; modules: readonly string[] }> = [
  { title: '1. Sentence embeddings', modules: ['embeddings', 'transformers-js', 'workers', 'startup'] },
  {
    title: '2. Context embeddings and the pipeline',
    modules: ['context', 'pipeline', 'scale', 'queue', 'provider-tolerance'],
  },
  { title: '3. Store operations', modules: ['store', 'store-neo4j', 'match', 'import-kill-resume'] },
  { title: '4. Windows and items', modules: ['items', 'range-faiss', 'sib', 'catalog'] },
];

/**
 * Modules a --quick run leaves out unless --only names them: each starts processes or servers
 * (Redis and workers, whole CLI processes, a second runtime) whose fixed cost alone took most of the
 * 2 minutes that --quick is meant to take on 2 cores. `--quick --only queue` still runs one quickly.
 */
export const NOT_IN_QUICK: ReadonlySet<string> = new Set([
  'queue',
  'provider-tolerance',
  'startup',
  'scale',
  'import-kill-resume',
]);

/** Why a run leaves `name` out: --quick without --only, for a module of NOT_IN_QUICK; else undefined. */
export function leftOutOfQuick(name: string, o: { quick: boolean; only?: ReadonlySet<string> }): string | undefined {
  if (!o.quick || o.only !== undefined || !NOT_IN_QUICK.has(name)) return undefined;
  return `left out of --quick (\`npm run bench -- --quick --only ${name}\` runs it)`;
}

/** The module that section 6 reruns on a GPU provider. */
const GPU_MODULE = 'embeddings';
/** `--only gpu` selects section 6 alone (as does any --only list that names `embeddings`, with section 1). */
const GPU_SECTION = 'gpu';

interface ModuleOutcome {
  module: string;
  /** Why the module was not run on purpose (not a failure), e.g. left out of --quick. */
  skipped?: string;
  /** How the report names this run: the module, or `module (provider)` for the GPU rerun. */
  label: string;
  result?: BenchResult;
  error?: string;
  seconds: number;
}

/** The source folder bench/ (this file runs from dist/bench/, and from bench/ under the tests). */
const benchSourceDir = join(projectRoot(), 'bench');

/**
 * Where a run writes its report when --out is not given: the committed bench/report.md for a run at
 * the full sizes; bench/results/quick/ (ignored by git) for --quick, whose figures are only proof
 * that the suite runs.
 */
export function defaultReportDir(o: { quick: boolean }): string {
  return o.quick ? join(benchSourceDir, 'results', 'quick') : benchSourceDir;
}

async function runModule(name: string, options: BenchOptions, label = name): Promise<ModuleOutcome> {
  const started = performance.now();
  let mod: { run?: (o: BenchOptions) => Promise<BenchResult> };
  try {
    mod = (await import(/* @vite-ignore */ `./${name}.js`)) as typeof mod;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String(err).includes(`${name}.js`)) {
      return { module: name, label, error: 'not present', seconds: 0 };
    }
    throw err;
  }
  if (typeof mod.run !== 'function') return { module: name, label, error: 'module exports no run()', seconds: 0 };
  try {
    const result = await mod.run(options);
    return { module: name, label, result, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    return {
      module: name,
      label,
      error: (err as Error).stack ?? String(err),
      seconds: (performance.now() - started) / 1000,
    };
  }
}

export function markdownTable(rows: BenchResult['rows']): string {
  if (rows.length === 0) return '_no rows_\n';
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: string | number | undefined) =>
    v === undefined
      ? ''
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? String(v)
          : v.toPrecision(4)
        : v.replace(/\|/g, '\\|');
  return (
    [
      `| ${columns.join(' | ')} |`,
      `| ${columns.map(() => '---').join(' | ')} |`,
      ...rows.map((r) => `| ${columns.map((c) => cell(r[c])).join(' | ')} |`),
    ].join('\n') + '\n'
  );
}

/** The command that reproduces a run with these settings (`--only` narrowed to `only` when given). */
export function benchCommand(o: {
  quick: boolean;
  large: boolean;
  only?: string;
  seed: number | string;
  device?: DeviceRequest;
}): string {
  return (
    `npm run bench --${o.quick ? ' --quick' : ''}${o.large ? ' --large' : ''}${o.only ? ` --only ${o.only}` : ''} --seed ${o.seed}` +
    `${o.device && o.device !== 'auto' ? ` --device ${o.device}` : ''}`
  );
}

/** One module's subsection: how it was produced, its table and its notes. */
function moduleLines(o: ModuleOutcome, reproduce: string): string[] {
  const lines = [`### ${o.result?.name ?? o.label}`, ''];
  if (o.skipped !== undefined) return [...lines, `_Not run: ${o.skipped}_`, ''];
  if (!o.result) return [...lines, `_Not measured: ${portable(errorMessage(o.error ?? 'unknown error'))}_`, ''];
  lines.push(
    `Module \`bench/${o.module}.ts\`, ${o.seconds.toFixed(1)} s; reproduce with \`${reproduce}\` (alone: \`node dist/bench/${o.module}.js\`).`,
    '',
  );
  lines.push(markdownTable(o.result.rows));
  for (const note of o.result.notes) lines.push(`- ${note}`);
  lines.push('');
  return lines;
}

/** The scaling section: chart link, one row per series with its fitted slope, and how to read it. */
export function scalingLines(series: ReadonlyMap<string, readonly Point[]>): string[] {
  const lines = ['## 5. Scaling', ''];
  if (series.size === 0) return [...lines, '_No module reported a scaling series._', ''];
  lines.push(
    '![scaling](report-charts/scaling.svg)',
    '',
    '| series | work sizes | seconds | fitted slope |',
    '| --- | --- | --- | --- |',
  );
  for (const [key, pts] of series) {
    const sorted = [...pts].sort((a, b) => a.x - b.x);
    const fit = logLogFit(sorted);
    lines.push(
      `| ${key} | ${sorted.map((p) => p.x).join(', ')} | ${sorted.map((p) => p.y.toPrecision(3)).join(', ')} | ${fit ? fit.slope.toFixed(2) : 'n/a (one size)'} |`,
    );
  }
  lines.push(
    '',
    'The fitted slope b is the least-squares fit of log10(seconds) = a + b · log10(work size) over the sizes shown ' +
      '(with two sizes, the line through both). b ≈ 1: time grows linearly with the work; b > 1: superlinearly ' +
      '(2 = quadratic), the cost per item grows with size; b < 1: sublinearly, fixed costs still weigh at the small ' +
      'sizes or larger inputs are handled more efficiently per item. Slopes come from single timings on a shared ' +
      'machine: read differences below about 0.1 as noise.',
    '',
  );
  return lines;
}

/** An error's message without its stack trace, on one line (a message may span several lines). */
export function errorMessage(stackOrMessage: string): string {
  const lines = stackOrMessage.split('\n');
  const stackStart = lines.findIndex((l) => /^\s+at /.test(l));
  return (stackStart < 0 ? lines : lines.slice(0, stackStart))
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(' ');
}

/** A failure reason without this machine's checkout path. */
function portable(text: string): string {
  return text.split(process.cwd() + '/').join('');
}

/** Section 6 when no GPU provider ran: why, and how to measure it. */
export function gpuNotMeasuredLines(probe: GpuProbe): string[] {
  const why =
    probe.device === 'cpu'
      ? '`--device cpu` was given'
      : probe.attempts.length === 0
        ? 'no GPU provider was tried'
        : probe.attempts.map((a) => `${a.provider}: ${portable(a.reason ?? 'failed')}`).join('; ');
  return [
    `_Not measured: no GPU provider available on this machine (${why})._`,
    '',
    ...probe.hints.map((h) => `- ${h}`),
    ...(probe.hints.length > 0 ? [''] : []),
    'To measure, run `npm run bench -- --only embeddings --device cuda` on a GPU machine after installing the CUDA provider ' +
      '(see [GPU](../docs/embeddings-gpu.md#gpu)); `--device webgpu` uses WebGPU (needs a Vulkan driver), `--device auto` the first that works. ' +
      'Section 1 runs on the CPU in the same run, so the two can be compared.',
    '',
  ];
}

/** Section 6 when a GPU provider ran: what, where and when, then the module's own lines. */
export function gpuMeasuredHeader(
  probe: GpuProbe,
  deviceName: string | undefined,
  date: string,
  machine: string,
): string[] {
  return [
    `Provider: **${probe.provider}** (\`--device ${probe.device}\`); device: ${deviceName ?? 'name not available (nvidia-smi absent)'}; date: ${date}; machine: ${machine}.`,
    'Same module, sizes and seed as section 1; its CPU-peak rows are replaced by the model arithmetic on the GPU. Compare its rates with section 1 of this same run.',
    '',
  ];
}

export async function main(argv: string[]): Promise<void> {
  const program = new Command('bench')
    .description(
      'Runs the benchmark suite and writes bench/report.md, bench/report.json and bench/report-charts/*.svg\n' +
        '(with --quick: under bench/results/quick/, so that the committed report keeps the full sizes).\n' +
        'Example: npm run bench -- --only embeddings,context --out /tmp/bench',
    )
    .option('--quick', 'small sizes, to prove the suite runs (CI); the report goes under bench/results/quick/', false)
    .option('--large', 'the largest sizes (10M-edge graphs; long)', false)
    .option(
      '--only <names>',
      'comma-separated module names, e.g. store,items; "gpu" is section 6 alone (it also runs with "embeddings")',
    )
    .option('--seed <n>', 'seed for generated data', '1')
    .addOption(
      new Option(
        '--device <device>',
        'GPU provider for section 6 (the embedding module rerun on a GPU): auto tries cuda then webgpu and says why when neither works; ' +
          'cuda or webgpu forces one (the run exits 1 if it cannot run, after writing the report); cpu skips section 6. Section 1 always runs on the CPU.',
      )
        .choices(DEVICE_REQUESTS)
        .default('auto'),
    )
    .option('--out <dir>', 'where to write the report (default: bench/, or bench/results/quick/ with --quick)')
    .parse(argv);
  const opts = program.opts<{
    quick: boolean;
    large: boolean;
    only?: string;
    seed: string;
    device: DeviceRequest;
    out?: string;
  }>();
  const out = opts.out ?? defaultReportDir(opts);
  const options: BenchOptions = { quick: opts.quick, large: opts.large, seed: Number(opts.seed), device: 'cpu' };
  const only = opts.only ? new Set(opts.only.split(',').map((s) => s.trim())) : undefined;
  const command = benchCommand({ ...opts });
  const reproduce = (module: string) => benchCommand({ ...opts, only: module, device: undefined });

  const outcomes: ModuleOutcome[] = [];
  for (const section of SECTIONS) {
    for (const name of section.modules) {
      if (only && !only.has(name)) continue;
      const skipped = leftOutOfQuick(name, { quick: opts.quick, only });
      if (skipped !== undefined) {
        process.stderr.write(`bench: ${name}: ${skipped}\n`);
        outcomes.push({ module: name, label: name, skipped, seconds: 0 });
        continue;
      }
      process.stderr.write(`bench: ${name} …\n`);
      const outcome = await runModule(name, options);
      if (outcome.result) console.table(outcome.result.rows);
      else process.stderr.write(`bench: ${name}: ${outcome.error}\n`);
      outcomes.push(outcome);
    }
  }

  // 6. GPU: the embedding module again on the first usable GPU provider.
  let gpu: { probe: GpuProbe; deviceName?: string; outcome?: ModuleOutcome } | undefined;
  if (!only || only.has(GPU_MODULE) || only.has(GPU_SECTION)) {
    process.stderr.write(`bench: GPU probe (--device ${opts.device}) …\n`);
    const probe = await probeGpuProvider(opts.device);
    gpu = { probe };
    if (probe.provider) {
      gpu.deviceName = nvidiaGpuName();
      process.stderr.write(`bench: ${GPU_MODULE} on ${probe.provider} …\n`);
      gpu.outcome = await runModule(
        GPU_MODULE,
        { ...options, device: probe.provider },
        `${GPU_MODULE} (${probe.provider})`,
      );
      if (gpu.outcome.result) console.table(gpu.outcome.result.rows);
      else process.stderr.write(`bench: ${gpu.outcome.label}: ${gpu.outcome.error}\n`);
    } else {
      process.stderr.write(
        `bench: section 6 not measured: ${probe.attempts.map((a) => `${a.provider}: ${a.reason}`).join('; ') || `--device ${opts.device}`}\n`,
      );
    }
  }
  const all = gpu?.outcome ? [...outcomes, gpu.outcome] : outcomes;

  const chartsDir = join(out, 'report-charts');
  await mkdir(chartsDir, { recursive: true });
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const lines: string[] = [
    // The first line says which CPU: every rate below depends on it (AVX-512 vs AVX2, VNNI for q8).
    `# intentsim benchmark report: ${cpuLine(thisMachineCpu())}`,
    '',
    `Produced by \`${command}\` on ${date}; machine: ${machine}.`,
    'Every figure is measured next to its baseline in the same run; compare ratios, not absolute rates, across machines. ' +
      'Each module below names the command that reproduces it; its notes give the sizes and the seed.',
    '',
  ];
  for (const section of SECTIONS) {
    const inSection = outcomes.filter((o) => section.modules.includes(o.module));
    if (inSection.length === 0) continue;
    lines.push(`## ${section.title}`, '');
    for (const o of inSection) lines.push(...moduleLines(o, reproduce(o.module)));
  }

  // 5. Scaling: one log-log chart over every module's series, with the fitted slope of each.
  const series = new Map<string, Point[]>();
  for (const o of all) {
    for (const s of o.result?.scaling ?? []) {
      const key = `${o.label}: ${s.series}`;
      if (!series.has(key)) series.set(key, []);
      series.get(key)!.push({ x: s.size, y: s.seconds });
    }
  }
  if (series.size > 0)
    await writeFile(
      join(chartsDir, 'scaling.svg'),
      logLogChart('Time vs work (log-log)', series, { x: 'work size', y: 'seconds' }),
    );
  lines.push(...scalingLines(series));

  if (gpu) {
    lines.push('## 6. GPU', '');
    if (gpu.outcome) {
      lines.push(...gpuMeasuredHeader(gpu.probe, gpu.deviceName, date, `${hostname()}, ${machine}`));
      lines.push(...moduleLines(gpu.outcome, benchCommand({ ...opts, only: GPU_MODULE, device: gpu.probe.provider })));
    } else {
      lines.push(...gpuNotMeasuredLines(gpu.probe));
    }
  }

  const ratios = all.flatMap((o) =>
    (o.result?.rows ?? []).flatMap((r) =>
      typeof r.ratio === 'number'
        ? [{ label: `${o.label}: ${String(r.case ?? r.operation ?? r.name ?? '')}`.slice(0, 44), value: r.ratio }]
        : [],
    ),
  );
  if (ratios.length > 0) {
    await writeFile(join(chartsDir, 'ratios.svg'), barChart('Engine vs baseline, same run (ratio)', ratios, '×'));
    lines.push('## Ratios at a glance', '', '![ratios](report-charts/ratios.svg)', '');
  }

  await writeFileAtomic(join(out, 'report.md'), lines.join('\n'));
  await writeFileAtomic(
    join(out, 'report.json'),
    JSON.stringify(
      {
        command,
        machine,
        date: new Date().toISOString(),
        outcomes: all,
        gpu: gpu ? { probe: gpu.probe, deviceName: gpu.deviceName } : undefined,
      },
      null,
      2,
    ) + '\n',
  );
  const failed = all.filter((o) => o.error && o.error !== 'not present');
  // A GPU asked for by name that cannot run is a failure of the run (the report still says why).
  const gpuRefused = gpu !== undefined && !gpu.probe.provider && (opts.device === 'cuda' || opts.device === 'webgpu');
  process.stderr.write(
    `bench: wrote ${join(out, 'report.md')} (${all.length} modules, ${failed.length} failed${gpuRefused ? `; --device ${opts.device} unavailable, see section 6` : ''})\n`,
  );
  if (failed.length > 0 || gpuRefused) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
