// Writes an IntentionQA run: one JSONL per task, the dropped assertions with reasons, a summary JSON,
// and the report (markdown + SVG). Every file is written to a temporary name and renamed into place
// only when the whole stream has been consumed, so a crash leaves the previous outputs untouched and
// no half-written file behind.
import { join } from 'node:path';
import { openAtomicWriter, writeFileAtomic, type AtomicWriter } from '../../../core/atomic.js';
import type { IntentionQaRecord } from './item-types.js';
import {
  SIMILARITY_BINS,
  StatsAccumulator,
  similarityBinsFor,
  renderMarkdown,
  renderSvg,
  type IntentionQaStats,
  type ReportSettings,
} from './intentionqa-report.js';
import { INTENTIONQA_FILES } from './item-files.js';

export { INTENTIONQA_FILES };

export interface WrittenItems {
  stats: IntentionQaStats;
  files: Record<keyof typeof INTENTIONQA_FILES, string>;
}

export async function writeItems(
  records: AsyncIterable<IntentionQaRecord>,
  out: string,
  settings: ReportSettings,
): Promise<WrittenItems> {
  const files = Object.fromEntries(
    Object.entries(INTENTIONQA_FILES).map(([k, f]) => [k, join(out, f)]),
  ) as WrittenItems['files'];
  const writers: AtomicWriter[] = [];
  try {
    const task1 = await openAtomicWriter(files.task1);
    writers.push(task1);
    const task2 = await openAtomicWriter(files.task2);
    writers.push(task2);
    const dropped = await openAtomicWriter(files.dropped);
    writers.push(dropped);
    // Distractor histograms reach down to the lowest window (below the paper's 0.5 for glove-100d).
    const bounds = settings.similarity?.bounds;
    const acc = new StatsAccumulator(
      bounds ? similarityBinsFor(Math.min(bounds.task1.lo, bounds.task2.lo)) : SIMILARITY_BINS,
      { validity: settings.validity !== undefined },
    );
    for await (const r of records) {
      acc.add(r);
      if (r.kind === 'item') await (r.item.task === 1 ? task1 : task2).write(JSON.stringify(r.item) + '\n');
      else await dropped.write(JSON.stringify(r.dropped) + '\n');
    }
    for (const w of writers) await w.commit();
    const stats = acc.stats;
    await writeFileAtomic(files.summary, JSON.stringify({ settings, stats }, null, 2) + '\n');
    await writeFileAtomic(files.svg, renderSvg(stats, settings.caveat));
    await writeFileAtomic(files.report, renderMarkdown(stats, settings, INTENTIONQA_FILES.svg));
    return { stats, files };
  } catch (err) {
    for (const w of writers) await w.abort();
    throw err;
  }
}
