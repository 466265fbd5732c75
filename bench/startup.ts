// Start-up and pooling against what a Python user runs instead (issues 19 and 50).
// 0. `node bin/intentsim.js --help` against `node -e 0`: what loading the command line costs over
//    Node itself (issue 50: help loads every command's definitions and none of their library code).
// 1. Whole-process `encode` of 16 sentences (q8, MiniLM-L6-shaped model) as `node bin/intentsim.js
//    encode` — with the model fingerprint and the tokenizer record cached (every run after the first)
//    and cold (a fresh cache folder: the model file is hashed, tokenizer.json read) — against bench/support/python_encode.py (HF tokenizers +
//    onnxruntime + numpy, the same tokenizer, model, pooling and .npy output). The three processes
//    are alternated in one run and each timed from spawn to exit; medians are compared.
// 2. Mean pooling, µs per sentence: the batch pooling the encoder uses against the per-row version it
//    replaced (a Float64Array per row, a 0/1 mask read with Number() per element), same batches.
//
// The CPU is named (model, AVX-512 or AVX2, VNNI): start-up ratios differ between CPU classes, so
// the rows recorded on the other classes (bench/startup-reference.json) are reported beside this run's.
//
// Run: npm run build && node dist/bench/startup.js [--quick] (the build makes the bundle bin runs)
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBenchModel } from '../embeddings/model-generator.js';
import { meanPoolBatch } from '../embeddings/pooling.js';
import { ORT_TELEMETRY_VARIABLE } from '../embeddings/ort-telemetry.js';
import { sharedMiniLmTokenizerDir } from '../core/shared-files.js';
import { readNpyFloat32 } from '../core/npy.js';
import { Rng } from '../core/rng.js';
import { aserLikeSentences } from './embeddings.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { runAlone } from './support/run-alone.js';
import { cpuLine, thisMachineCpu } from './support/cpu-info.js';
import { cpuClass, otherClassRows, readStartupReferences } from './support/startup-reference.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PYTHON_PEER = join(ROOT, 'bench', 'support', 'python_encode.py');
const REFERENCE = join(ROOT, 'bench', 'startup-reference.json');
/** GNU time, for a child's user + system seconds (steadier than wall time on a shared machine). */
const GNU_TIME = '/usr/bin/time';

interface ProcessTime {
  /** Seconds from spawn to exit. */
  wall: number;
  /** User + system seconds of the process, when GNU time is there to tell. */
  cpu?: number;
}

/** Wall (and CPU) seconds of one process, from spawn to exit; throws with its stderr when it fails. */
function timeProcess(command: string, args: string[], scratch: string): ProcessTime {
  const cpuFile = join(scratch, 'cpu-time.txt');
  const withTime = existsSync(GNU_TIME);
  const [file, argv] = withTime ? [GNU_TIME, ['-f', '%U %S', '-o', cpuFile, command, ...args]] : [command, args];
  const started = performance.now();
  // ONNX Runtime's telemetry off in both processes, so that they do the same work: intentsim sets the
  // variable itself (embeddings/ort-telemetry.ts); a Python user would have to.
  const env = { ...process.env, [ORT_TELEMETRY_VARIABLE]: '1' };
  const result = spawnSync(file, argv, { encoding: 'utf8', cwd: ROOT, env });
  const wall = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr || result.error}`);
  if (!withTime) return { wall };
  const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { wall, cpu: user! + system! };
}

/** Which CLI bin/intentsim.js runs: the bundle when it is not older than dist/cli/main.js (as bin decides). */
function cliThatBinRuns(): string {
  const builtAt = (file: string) => statSync(join(ROOT, file), { throwIfNoEntry: false })?.mtimeMs ?? -1;
  return builtAt('dist/cli-bundle/main.js') >= builtAt('dist/cli/main.js')
    ? 'dist/cli-bundle/ (the bundle)'
    : 'dist/cli/ (no bundle built after it: run "npm run build" to measure what users run)';
}

/** The 1-minute load average, to say how quiet the machine was. */
const loadNow = () => loadavg()[0]!.toFixed(2);

/** Why the Python peer cannot run here, or undefined when python3 has onnxruntime, tokenizers and numpy. */
function pythonPeerMissing(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import onnxruntime, tokenizers, numpy'], { encoding: 'utf8' });
  if (probe.error) return `python3 not found (${probe.error.message})`;
  if (probe.status !== 0) return `python3 lacks a package: ${probe.stderr.trim().split('\n').pop()}`;
  return undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The pooling the encoder used before: one Float64Array per row and Number() per mask element. */
function meanPoolRowWithMask(
  hidden: Float32Array,
  mask: ArrayLike<number>,
  b: number,
  seq: number,
  dim: number,
  out: Float32Array,
  outOffset: number,
): void {
  const sums = new Float64Array(dim);
  let count = 0;
  for (let t = 0; t < seq; t++) {
    if (Number(mask[b * seq + t]) === 0) continue;
    count += 1;
    const base = (b * seq + t) * dim;
    for (let d = 0; d < dim; d++) sums[d]! += hidden[base + d]!;
  }
  for (let d = 0; d < dim; d++) out[outOffset + d] = count === 0 ? 0 : sums[d]! / count;
}

/** µs per sentence of both poolings on the same random batches; checks they agree bit for bit. */
function poolingRows(quick: boolean, seed: number): BenchRow[] {
  const [rows, seq, dim] = [64, 32, 384];
  const batches = quick ? 20 : 200;
  const rng = new Rng(seed);
  const hidden = Float32Array.from({ length: rows * seq * dim }, () => rng.next() - 0.5);
  const lengths = Array.from({ length: rows }, () => 1 + rng.int(seq));
  const mask = new Uint8Array(rows * seq);
  lengths.forEach((len, r) => mask.fill(1, r * seq, r * seq + len));
  const outRows = lengths.map((_, r) => r);
  const before = new Float32Array(rows * dim);
  const after = new Float32Array(rows * dim);
  const timeIt = (pool: () => void) => {
    for (let i = 0; i < 3; i++) pool(); // warm-up: let the JIT compile both loops
    const started = performance.now();
    for (let i = 0; i < batches; i++) pool();
    return ((performance.now() - started) * 1000) / (batches * rows);
  };
  const perRow = () => {
    for (let r = 0; r < rows; r++) meanPoolRowWithMask(hidden, mask, r, seq, dim, before, r * dim);
  };
  const batch = () => meanPoolBatch(hidden, lengths, seq, dim, after, outRows);
  const times = { perRow: [] as number[], batch: [] as number[] };
  for (let round = 0; round < 5; round++) {
    times.perRow.push(timeIt(perRow));
    times.batch.push(timeIt(batch));
  }
  if (!Buffer.from(before.buffer).equals(Buffer.from(after.buffer)))
    throw new Error('pooling: the batch pooling differs from the per-row pooling');
  const [old, now] = [median(times.perRow), median(times.batch)];
  return [
    {
      case: `mean pooling, batch ${rows} × ${seq} tokens × ${dim}`,
      measured: `${now.toFixed(2)} µs/sentence`,
      baseline: `per-row Float64Array + Number(mask): ${old.toFixed(2)} µs/sentence`,
      ratio: Math.round((old / now) * 100) / 100,
    },
  ];
}

/** Medians of wall and CPU seconds (CPU absent when GNU time was not there). */
function medians(times: readonly ProcessTime[]): { wall: number; cpu?: number } {
  const cpu = times.map((t) => t.cpu).filter((c): c is number => c !== undefined);
  return { wall: median(times.map((t) => t.wall)), ...(cpu.length === times.length ? { cpu: median(cpu) } : {}) };
}

/** "0.412 s (CPU 0.301 s)". */
function formatTimes(m: { wall: number; cpu?: number }): string {
  return `${m.wall.toFixed(3)} s${m.cpu === undefined ? '' : ` (CPU ${m.cpu.toFixed(3)} s)`}`;
}

const ratioOf = (a: number, b: number) => Math.round((a / b) * 100) / 100;

/** `intentsim --help` against `node -e 0`, alternated `rounds` times. */
function helpRow(rounds: number, scratch: string): BenchRow {
  const times = { help: [] as ProcessTime[], bare: [] as ProcessTime[] };
  const cli = join(ROOT, 'bin', 'intentsim.js');
  for (let round = 0; round < rounds; round++) {
    const pair = [
      () => times.help.push(timeProcess(process.execPath, [cli, '--help'], scratch)),
      () => times.bare.push(timeProcess(process.execPath, ['-e', '0'], scratch)),
    ];
    for (let i = 0; i < pair.length; i++) pair[(i + round) % pair.length]!();
  }
  const [help, bare] = [medians(times.help), medians(times.bare)];
  return {
    case: 'start-up: intentsim --help, whole process',
    measured: formatTimes(help),
    baseline: `node -e 0: ${formatTimes(bare)}`,
    ratio:
      help.cpu !== undefined && bare.cpu !== undefined
        ? `${ratioOf(help.wall, bare.wall)} (CPU ${ratioOf(help.cpu, bare.cpu)})`
        : ratioOf(help.wall, bare.wall),
    target: '≤ 2× node -e 0',
    meets: help.wall <= 2 * bare.wall ? 'yes' : 'NO',
  };
}

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const seed = opts.seed ?? 1;
  const rounds = opts.quick ? 3 : 11;
  const threads = String(Math.max(1, availableParallelism()));
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-startup-'));
  const cpu = thisMachineCpu();
  const notes: string[] = [
    `CPU: ${cpuLine(cpu)}, ${availableParallelism()} cores (class ${cpuClass(cpu)}); load average ${loadNow()} at the start`,
    `bin/intentsim.js runs ${cliThatBinRuns()}`,
  ];
  const rows: BenchRow[] = [];
  try {
    rows.push(helpRow(rounds, dir));
    const modelDir = join(dir, 'model');
    await makeBenchModel(modelDir, { seed, precisions: ['q8'], tokenizerFrom: sharedMiniLmTokenizerDir() });
    const { sentences, source } = aserLikeSentences(16, seed);
    const input = join(dir, 'sentences.txt');
    writeFileSync(input, sentences.join('\n') + '\n');
    const warmCache = join(dir, 'cache-warm');
    const encodeArgs = (out: string, cache: string) => [
      join(ROOT, 'bin', 'intentsim.js'),
      'encode',
      ...['--in', input, '--out', out, '--model-dir', modelDir, '--dtype', 'q8'],
      ...['--device', 'cpu', '--threads', threads, '--model-cache', cache],
    ];
    const nodeOut = join(dir, 'node.npy');
    // The first run records the fingerprint and notes the model; the second saves its ORT-format copy
    // (embeddings/ort-format-model.ts), which every later run opens.
    for (let i = 0; i < 2; i++) timeProcess(process.execPath, encodeArgs(nodeOut, warmCache), dir);

    const missing = pythonPeerMissing();
    const pythonOut = join(dir, 'python.npy');
    const pythonArgs = [PYTHON_PEER, modelDir, 'q8', input, pythonOut, threads, '64'];
    const times = {
      warm: [] as ProcessTime[],
      onnx: [] as ProcessTime[],
      cold: [] as ProcessTime[],
      python: [] as ProcessTime[],
    };
    for (let round = 0; round < rounds; round++) {
      // Rotate the order so that no contestant always runs first (or after the same neighbour).
      const contestants: Array<() => void> = [
        () => times.warm.push(timeProcess(process.execPath, encodeArgs(nodeOut, warmCache), dir)),
        () => {
          // The warm cache without its ORT-format copy: a model's first open, the ONNX file opened.
          const firstOpen = join(dir, `cache-first-open-${round}`);
          for (const records of ['fingerprints', 'tokenizers'])
            cpSync(join(warmCache, records), join(firstOpen, records), { recursive: true });
          times.onnx.push(timeProcess(process.execPath, encodeArgs(join(dir, 'onnx.npy'), firstOpen), dir));
        },
        () => {
          const cold = join(dir, `cache-cold-${round}`);
          mkdirSync(cold);
          times.cold.push(timeProcess(process.execPath, encodeArgs(join(dir, 'cold.npy'), cold), dir));
        },
        ...(missing ? [] : [() => times.python.push(timeProcess('python3', pythonArgs, dir))]),
      ];
      for (let i = 0; i < contestants.length; i++) contestants[(i + round) % contestants.length]!();
    }

    const baseline = missing ? undefined : medians(times.python);
    const row = (label: string, values: ProcessTime[]): BenchRow => {
      const m = medians(values);
      if (baseline === undefined)
        return { case: label, measured: formatTimes(m), baseline: 'Python peer not run', ratio: '–' };
      const cpuRatio =
        m.cpu !== undefined && baseline.cpu !== undefined ? ` (CPU ${ratioOf(m.cpu, baseline.cpu)})` : '';
      return {
        case: label,
        measured: formatTimes(m),
        baseline: `Python pipeline: ${formatTimes(baseline)}`,
        ratio: cpuRatio === '' ? ratioOf(m.wall, baseline.wall) : `${ratioOf(m.wall, baseline.wall)}${cpuRatio}`,
        target: '≤ 1.0× Python',
        meets: m.wall <= baseline.wall ? 'yes' : 'NO',
      };
    };
    rows.push(
      row('start-up: encode 16 sentences, whole process (fingerprint, tokenizer, ORT-format copy cached)', times.warm),
    );
    rows.push(
      row(
        'start-up: the same, the ONNX file opened (fingerprint, tokenizer cached; no ORT-format copy yet)',
        times.onnx,
      ),
    );
    rows.push(
      row(
        'start-up: the same with a cold cache (model file hashed, tokenizer.json read, ONNX file opened)',
        times.cold,
      ),
    );
    if (!readFileSync(nodeOut).equals(readFileSync(join(dir, 'onnx.npy'))))
      throw new Error('encode from the ORT-format copy wrote other vectors than from the ONNX file');
    notes.push('encode from the ORT-format copy and from the ONNX file: the same .npy bytes (checked)');
    if (missing) notes.push(`Python peer skipped: ${missing} (pip install onnxruntime tokenizers numpy)`);
    else {
      const [ours, theirs] = [await readNpyFloat32(nodeOut), await readNpyFloat32(pythonOut)];
      let worst = 1;
      for (let r = 0; r < 16; r++) {
        let dot = 0;
        for (let d = 0; d < 384; d++) dot += ours.data[r * 384 + d]! * theirs.data[r * 384 + d]!;
        worst = Math.min(worst, dot);
      }
      notes.push(`the two processes' vectors agree: lowest cosine per row ${worst.toFixed(7)}`);
    }
    notes.push(
      `16 ASER-like sentences (seed ${seed}; ${source}); q8 MiniLM-L6-shaped model (random weights), CPU, ` +
        `${threads} threads, batch 64; median of ${rounds} alternated runs of each process, timed from spawn to exit ` +
        `(node ${process.version}; the Python peer is bench/support/python_encode.py; ONNX Runtime's ` +
        `telemetry off in both, ${ORT_TELEMETRY_VARIABLE}=1)` +
        (existsSync(GNU_TIME) ? '; CPU = user + system seconds of the process (GNU time)' : ''),
    );
    notes.push(`load average ${loadNow()} after the processes were timed`);
    rows.push(...poolingRows(opts.quick, seed));
    notes.push('pooling: median of 5 alternated rounds; both poolings give bit-identical vectors (checked)');
    const others = otherClassRows(readStartupReferences(REFERENCE), cpuClass(cpu));
    rows.push(...others);
    if (others.length > 0)
      notes.push(
        'rows "recorded on …": figures of another CPU class, from bench/startup-reference.json (not measured here)',
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { name: 'Start-up against the Python pipeline, and pooling', rows, notes };
}

await runAlone(import.meta.url, 'startup', run);
