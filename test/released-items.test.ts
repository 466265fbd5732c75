// The released IntentionQA files (../shared/data/intentionqa, MIT) read unchanged by review and
// audit, and written back byte for byte: `review export --keep valid` and `audit --drop-flagged` keep
// the items' lines as the files hold them. Skipped, with a message, when the folder is absent.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../engine/evaluation/audit.js';
import { checkItems } from '../engine/evaluation/check-items.js';
import { exportReview } from '../engine/review/export-review.js';
import { openReview } from '../engine/review/open-review.js';
import { malformedReason } from '../engine/scoring/intentionqa/intentionqa-item-file.js';
import { completion, FakeChatServer } from './support/fake-chat-server.js';
import { projectRoot } from '../core/shared-files.js';

const SHARED = join(projectRoot(), '..', 'shared', 'data', 'intentionqa');
const present = existsSync(join(SHARED, 'released_task1.jsonl')) && existsSync(join(SHARED, 'released_task2.jsonl'));
if (!present) console.warn(`SKIPPED "the released IntentionQA files, round trip": ${SHARED} is absent`);

/** The file's lines, and which are well-formed items (four options with distinct texts). */
function linesOf(name: string): { lines: string[]; wellFormed: string[] } {
  const lines = readFileSync(join(SHARED, name), 'utf8').trimEnd().split('\n');
  const wellFormed = lines.filter(
    (l) => malformedReason((JSON.parse(l) as { options: Record<string, string> }).options) === undefined,
  );
  return { lines, wellFormed };
}

describe.skipIf(!present)('the released IntentionQA files, round trip', () => {
  let dir: string;
  const server = new FakeChatServer();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'intentsim-released-'));
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('review start reads both files unchanged (99 and 172 malformed set apart); export --keep valid writes their lines back byte for byte', async () => {
    const t1 = linesOf('released_task1.jsonl');
    const t2 = linesOf('released_task2.jsonl');
    expect([t1.lines.length - t1.wellFormed.length, t2.lines.length - t2.wellFormed.length]).toEqual([99, 172]);
    const { store, malformed } = await openReview({ itemsDir: SHARED, reviewDir: join(dir, 'review') });
    expect(malformed.length).toBe(99 + 172);
    expect(store.itemCount()).toBe(t1.wellFormed.length + t2.wellFormed.length);
    // Every item valid: the kept files are the well-formed lines, in file order.
    // (a "valid" label marks the gold alone: one that does not is no vote for --keep valid)
    const items = store.items();
    for (let p = 0; p < store.itemCount(); p++)
      store.save(
        'annotator',
        p,
        { correct: items[p]!.gold, validity: 'valid', reasons: [], otherText: '', ms: 1 },
        new Date(0),
        'browser',
      );
    store.close();
    const out = join(dir, 'export');
    const { kept } = await exportReview({ reviewDir: join(dir, 'review'), out, keep: 'valid' });
    expect(kept).toEqual({
      'released_task1.jsonl': t1.wellFormed.length,
      'released_task2.jsonl': t2.wellFormed.length,
    });
    expect(readFileSync(join(out, 'items', 'released_task1.jsonl'), 'utf8')).toBe(t1.wellFormed.join('\n') + '\n');
    expect(readFileSync(join(out, 'items', 'released_task2.jsonl'), 'utf8')).toBe(t2.wellFormed.join('\n') + '\n');
  });

  it('audit --drop-flagged judges the released Task-1 file unchanged and keeps the lines it keeps byte for byte', async () => {
    const t1 = linesOf('released_task1.jsonl');
    // A judge that always answers A: the items whose gold is A are ok, the others gold-wrong.
    server.handler = () => completion('A');
    const r = await runAudit({
      items: join(SHARED, 'released_task1.jsonl'),
      out: join(dir, 'audit'),
      endpoint: server.baseUrl,
      model: 'judge',
      requestsPerMinute: 600_000,
      backoffMs: 1,
      cacheFile: null,
      dropFlagged: true,
    });
    expect(r.items).toBe(t1.wellFormed.length);
    expect(r.malformed).toHaveLength(99);
    const goldA = t1.wellFormed.filter((l) => (JSON.parse(l) as { gold_ind: string }).gold_ind === 'A');
    expect(readFileSync(join(dir, 'audit', 'items', 'released_task1.jsonl'), 'utf8')).toBe(goldA.join('\n') + '\n');
    const dropped = readFileSync(join(dir, 'audit', 'items', 'intentionqa_dropped.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(dropped.filter((l) => l.includes('"reason":"malformed"'))).toHaveLength(99);
    expect(dropped).toHaveLength(t1.lines.length - goldA.length);
  });

  it('items check on the released files: the 32 pair-asserted Task-1 items, the generic "same purpose" text (232 distractor, 101 gold), 99 and 172 malformed', async () => {
    const r = await checkItems({
      items: SHARED,
      assertions: join(SHARED, 'assertions.jsonl'),
      products: join(SHARED, 'products.jsonl'),
    });
    const [t1, t2] = r.summary.files;
    expect([t1!.file, t1!.items, t1!.malformed]).toEqual([join(SHARED, 'released_task1.jsonl'), 2315, 99]);
    expect([t2!.file, t2!.items, t2!.malformed]).toEqual([join(SHARED, 'released_task2.jsonl'), 2315, 172]);
    const rule = (f: typeof t1, name: string) => f!.rules.find((x) => x.rule === name)!;
    expect(rule(t1, 'pair-asserted').items).toBe(32);
    const samePurpose = 'because they are both used for the same purpose.';
    expect(r.summary.generic.map((g) => g.text)).toContain(samePurpose);
    expect(rule(t1, 'generic').texts.find((t) => t.text === samePurpose)?.items).toBe(232);
    expect(rule(t1, 'generic-gold').texts.find((t) => t.text === samePurpose)?.items).toBe(101);
  });
});
