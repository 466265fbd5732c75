// Benchmark of SessionIntentBench assembly on generated sessions (10k sessions; --quick: 1k):
// tasks/s with all three prompt styles rendered and serialised, against a naive baseline measured in
// the same run on the same file — the whole file read and parsed first, every prompt rebuilt from the
// paper's raw table by string replacement and the product block rebuilt for every task. Both produce
// the same bytes (checked by hash). A second row measures distractor-backed items/s with a generated
// catalogue and the offline hashing encoder, against a brute-force sampler that scans the catalogue
// for every draw. Scaling series (CPU seconds; assembly is single-threaded): tasks at 1k, 3k and
// 10k sessions (--quick: 100, 300, 1k), distractor items at 300 and 1k sessions (--quick: 30, 100).
//
// Run: npx tsc -p . && node dist/bench/sib.js [--quick]
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashingSentenceEncoder } from '../embeddings/hashing-encoder.js';
import type { VectorSet } from '../embeddings/sentence-encoder.js';
import { assembleSib, type LineSink } from '../engine/items/sib/assemble-sib.js';
import type { DistractorWindows } from '../engine/items/sib/distractors.js';
import { generateCatalogLines, generateSessionLines } from '../engine/items/sib/generate-sessions.js';
import { answerLettersOf } from '../engine/items/sib/labels.js';
import { referencePrompt, referenceSlots } from '../engine/items/sib/reference-prompts.js';
import { parseSession } from '../engine/items/sib/session-reader.js';
import { taskApplies } from '../engine/items/sib/task-prompts.js';
import type { SibTaskRecord } from '../engine/items/sib/task-records.js';
import { listTrajectories } from '../engine/items/sib/tree.js';
import { PROMPT_STYLES, TASK_NUMBERS, type PromptStyle } from '../engine/items/sib/sib-types.js';
import {
  type CosineWindowSampler,
  type WindowDraw,
  type WindowDrawOptions,
} from '../engine/items/sib/window-sampler.js';
import { toUnitVector, UnitVectors } from '../engine/search/unit-vectors.js';
import type { BenchOptions, BenchResult, BenchRow } from './bench-types.js';
import { runAlone } from './support/run-alone.js';

/**
 * Hashes and counts what it is given and keeps nothing: the figure is assembly, not the disk. Its
 * own time (hashing) is kept apart so that runs can subtract it.
 */
class HashingSink implements LineSink {
  private readonly hash = createHash('sha256');
  bytes = 0;
  peakHeap = 0;
  seconds = 0;
  cpuSeconds = 0;
  async write(chunk: string): Promise<void> {
    this.update(chunk);
  }
  update(chunk: string): void {
    const start = performance.now();
    const cpu = process.cpuUsage();
    this.hash.update(chunk);
    this.bytes += Buffer.byteLength(chunk);
    this.peakHeap = Math.max(this.peakHeap, process.memoryUsage().heapUsed);
    this.seconds += (performance.now() - start) / 1000;
    this.cpuSeconds += cpuSecondsSince(cpu);
  }
  async commit(): Promise<void> {}
  async abort(): Promise<void> {}
  digest(): string {
    return this.hash.digest('hex');
  }
}

async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const line of lines) if (!out.write(line + '\n')) await once(out, 'drain');
  out.end();
  await once(out, 'close');
}

/** The baseline: read everything, then render every prompt the slow obvious way. Same records, same bytes. */
function naiveAssembly(file: string, styles: readonly PromptStyle[], sink: HashingSink): number {
  const sessions = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => parseSession(JSON.parse(l), { file, line: i + 1 }));
  sink.peakHeap = Math.max(sink.peakHeap, process.memoryUsage().heapUsed);
  let tasks = 0;
  for (const session of sessions) {
    const lines: string[] = [];
    for (const tr of listTrajectories(session)) {
      const t = tr.path.length;
      const leaf = tr.path[t - 1]!;
      for (const task of TASK_NUMBERS) {
        if (!taskApplies(task, t)) continue;
        const slots = referenceSlots(task, session.products.slice(0, t), tr.path);
        const prompts: Partial<Record<PromptStyle, string>> = {};
        for (const style of styles) prompts[style] = referencePrompt(style, task, slots);
        const id = `${session.sessionId}/${leaf.id}/T${task}`;
        const record: SibTaskRecord = {
          id,
          session_id: session.sessionId,
          leaf_id: leaf.id,
          task,
          step: t,
          trajectory: tr.path.map((n) => n.id),
          question_key: task <= 2 ? `${session.sessionId}/${tr.path[t - 2]!.id}/T${task}` : id,
          products: session.products.slice(0, t).map((p) => p.id),
          answer_letters: answerLettersOf(task).slice(),
          prompts,
          label: null,
        };
        lines.push(JSON.stringify(record));
        tasks += 1;
      }
    }
    // Same byte stream as the streaming path, which writes a chunk of sessions at a time.
    if (lines.length > 0) sink.update(lines.join('\n') + '\n');
  }
  return tasks;
}

/** Scans the whole catalogue (unit vectors, computed once) for every draw: the obvious window sampler. */
class BruteForceSampler implements CosineWindowSampler {
  private readonly units: UnitVectors;
  constructor(set: VectorSet) {
    this.units = UnitVectors.fromVectorSet(set);
  }
  get size(): number {
    return this.units.size;
  }
  draw(query: Float32Array, { lo, hi, k, exclude, accept, rng }: WindowDrawOptions): WindowDraw {
    const q = toUnitVector(query)!;
    const members: Array<{ id: string; score: number }> = [];
    for (let i = 0; i < this.units.size; i++) {
      const score = this.units.cosineTo(q, i);
      if (score >= lo && score < hi && !exclude(this.units.ids[i]!)) members.push({ id: this.units.ids[i]!, score });
    }
    rng.shuffle(members);
    const chosen: typeof members = [];
    const refused: Record<string, number> = {};
    for (const m of members) {
      if (chosen.length >= k) break;
      const verdict = accept ? accept(m.id, m.score) : true;
      if (verdict === true) chosen.push(m);
      else refused[verdict] = (refused[verdict] ?? 0) + 1;
    }
    return {
      ids: chosen.map((c) => c.id),
      scores: chosen.map((c) => c.score),
      eligible: members.length,
      refused,
      method: 'brute-force-scan',
    };
  }
}

/** CPU seconds (user + system) of this process since `start`: robust to other processes on a shared machine. */
function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e6;
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const mb = (bytes: number) => round(bytes / 2 ** 20, 1);

export async function run(opts: BenchOptions): Promise<BenchResult> {
  const seed = opts.seed ?? 1;
  const sessionCount = opts.quick ? 1000 : opts.large ? 10905 : 10000;
  const branching = 2;
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-sib-'));
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const scaling: NonNullable<BenchResult['scaling']> = [];
  try {
    const sessionsFile = join(dir, 'sessions.jsonl');
    await writeLines(sessionsFile, generateSessionLines({ sessions: sessionCount, seed, branching }));

    // Row 1: tasks with prompts, streaming + compiled templates vs naive.
    const fastSink = new HashingSink();
    global.gc?.();
    let t0 = performance.now();
    let c0 = process.cpuUsage();
    const summary = await assembleSib({
      sessions: sessionsFile,
      out: join(dir, 'out'),
      seed,
      styles: PROMPT_STYLES,
      encoder: null,
      progress: false,
      sinks: { tasks: fastSink, distractors: new HashingSink() },
    });
    const fastSeconds = (performance.now() - t0) / 1000 - fastSink.seconds;
    const fastCpu = cpuSecondsSince(c0) - fastSink.cpuSeconds;
    const naiveSink = new HashingSink();
    global.gc?.();
    t0 = performance.now();
    c0 = process.cpuUsage();
    const naiveTasks = naiveAssembly(sessionsFile, PROMPT_STYLES, naiveSink);
    const naiveSeconds = (performance.now() - t0) / 1000 - naiveSink.seconds;
    const naiveCpu = cpuSecondsSince(c0) - naiveSink.cpuSeconds;
    const same = fastSink.digest() === naiveSink.digest() && naiveTasks === summary.tasks.written;
    if (!same) throw new Error('bench/sib: the streaming and the naive assembly wrote different bytes');
    const tasksSeries = 'assemble tasks, 3 prompt styles, CPU s (tasks)';
    scaling.push({ series: tasksSeries, size: summary.tasks.written, seconds: fastCpu });
    // Smaller session counts for the scaling series (streaming path only; same generator and seed).
    const scalingSessions = [Math.round(sessionCount / 10), Math.round((sessionCount * 3) / 10)];
    for (const n of scalingSessions) {
      const file = join(dir, `sessions-${n}.jsonl`);
      await writeLines(file, generateSessionLines({ sessions: n, seed, branching }));
      const sink = new HashingSink();
      const c = process.cpuUsage();
      const s = await assembleSib({
        sessions: file,
        out: join(dir, `out-${n}`),
        seed,
        styles: PROMPT_STYLES,
        encoder: null,
        progress: false,
        sinks: { tasks: sink, distractors: new HashingSink() },
      });
      scaling.push({ series: tasksSeries, size: s.tasks.written, seconds: cpuSecondsSince(c) - sink.cpuSeconds });
    }
    const fastRate = summary.tasks.written / fastSeconds;
    const naiveRate = naiveTasks / naiveSeconds;
    rows.push({
      measurement: 'tasks/s, 3 prompt styles (streaming, compiled templates)',
      sessions: sessionCount,
      tasks: summary.tasks.written,
      'output MB': mb(fastSink.bytes),
      seconds: round(fastSeconds),
      rate: Math.round(fastRate),
      'rate per CPU-s': Math.round(summary.tasks.written / fastCpu),
      'baseline rate': Math.round(naiveRate),
      'baseline rate per CPU-s': Math.round(naiveTasks / naiveCpu),
      baseline: 'read-all + naive string replace per prompt',
      speedup: round(fastRate / naiveRate),
      'speedup per CPU-s': round(summary.tasks.written / fastCpu / (naiveTasks / naiveCpu)),
      'peak heap MB': mb(fastSink.peakHeap),
      'baseline peak heap MB': mb(naiveSink.peakHeap),
    });

    // Row 2: distractor-backed items (hashing stand-in encoder, generated catalogue).
    const itemSessions = opts.quick ? 100 : 1000;
    const catalogSize = opts.quick ? 2000 : 20000;
    const itemsFile = join(dir, 'item-sessions.jsonl');
    const catalogFile = join(dir, 'catalog.jsonl');
    await writeLines(itemsFile, generateSessionLines({ sessions: itemSessions, seed: seed + 1, branching }));
    // The brute-force baseline is slow: it runs on the first tenth of the sessions (rates are per item).
    const bruteFile = join(dir, 'item-sessions-brute.jsonl');
    await writeLines(
      bruteFile,
      generateSessionLines({ sessions: Math.max(10, itemSessions / 10), seed: seed + 1, branching }),
    );
    await writeLines(catalogFile, generateCatalogLines(catalogSize, seed));
    const windows: DistractorWindows = {
      intention: { lo: 0.1, hi: 0.6 },
      attribute: { lo: 0.1, hi: 0.6 },
      comparison: { lo: 0.3, hi: 0.9 },
      nextProduct: { lo: 0.3, hi: 0.9 },
    };
    const itemRun = async (brute: boolean, sessions = brute ? bruteFile : itemsFile) => {
      const sink = new HashingSink();
      const tasksSink = new HashingSink();
      const start = performance.now();
      const c = process.cpuUsage();
      const s = await assembleSib({
        sessions,
        catalog: catalogFile,
        out: join(dir, brute ? 'items-brute' : `items-${sessions === itemsFile ? 'all' : 'part'}`),
        seed,
        styles: PROMPT_STYLES,
        encoder: new HashingSentenceEncoder(384),
        windows,
        progress: false,
        sinks: { tasks: tasksSink, distractors: sink },
        samplerFor: brute ? (v) => new BruteForceSampler(v) : undefined,
      });
      const made = Object.values(s.distractors!.made).reduce((a, b) => a + b, 0);
      return {
        seconds: (performance.now() - start) / 1000 - sink.seconds - tasksSink.seconds,
        cpu: cpuSecondsSince(c) - sink.cpuSeconds - tasksSink.cpuSeconds,
        made,
        summary: s,
      };
    };
    const engine = await itemRun(false);
    const brute = await itemRun(true);
    // Scaling: a third of the item sessions, engine windows only.
    const smallerItemsFile = join(dir, 'item-sessions-third.jsonl');
    const smallerItemSessions = Math.round(itemSessions / 3);
    await writeLines(
      smallerItemsFile,
      generateSessionLines({ sessions: smallerItemSessions, seed: seed + 1, branching }),
    );
    const smaller = await itemRun(false, smallerItemsFile);
    const itemsSeries = 'distractor items (engine windows), CPU s (items)';
    scaling.push(
      { series: itemsSeries, size: smaller.made, seconds: smaller.cpu },
      { series: itemsSeries, size: engine.made, seconds: engine.cpu },
    );
    rows.push({
      measurement: 'distractor items/s (engine windows), tasks included',
      sessions: itemSessions,
      tasks: engine.summary.tasks.written,
      'output MB': 0,
      seconds: round(engine.seconds),
      rate: Math.round(engine.made / engine.seconds),
      'rate per CPU-s': Math.round(engine.made / engine.cpu),
      'baseline rate': Math.round(brute.made / brute.seconds),
      'baseline rate per CPU-s': Math.round(brute.made / brute.cpu),
      baseline: `brute-force scan of ${catalogSize} products per draw`,
      speedup: round(engine.made / engine.seconds / (brute.made / brute.seconds)),
      'speedup per CPU-s': round(engine.made / engine.cpu / (brute.made / brute.cpu)),
      'peak heap MB': 0,
      'baseline peak heap MB': 0,
    });
    const made = engine.summary.distractors!.made;
    notes.push(
      `Generated sessions (seed ${seed}): 3–6 products, ${branching}-way branching before the fifth product, single after (the paper's shape with 2 instead of 5 branches, so that 10k sessions stay a few hundred thousand tasks); ${summary.sessions.selected_trajectories} trajectories.`,
      `Output is hashed, not written, and the hashing time is subtracted: the figure is assembly (read, parse, validate, enumerate, render, serialise), not disk speed. Streaming and naive outputs are byte-identical (sha256 checked).`,
      `Distractor row: offline-hashing-v1 stand-in encoder (384 dims; no meaning; its time is included), catalogue of ${catalogSize} generated products, windows T1/T2 [0.1, 0.6), T3/next [0.3, 0.9); items made: ${JSON.stringify(made)}; the brute-force baseline ran on the first ${Math.max(10, itemSessions / 10)} sessions.`,
      `Scaling series: tasks at ${scalingSessions.join(', ')} and ${sessionCount} sessions; distractor items at ${smallerItemSessions} and ${itemSessions} sessions (same generator, seed ${seed} and ${seed + 1}); CPU seconds, hashing subtracted.`,
      `Machine: ${cpus().length} logical CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(
          ' ',
        )} at the end; assembly is single-threaded. "rate" is per wall-clock second, "rate per CPU-s" per second of this process's CPU time (user + system, GC threads included), the steadier figure on a shared machine.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { name: 'sib', rows, notes, scaling };
}

await runAlone(import.meta.url, 'sib', run);
