import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { undoAllForInterrupt } from '../core/interrupt.js';
import { DRAFTS_PREFIX, DraftSpill } from '../engine/items/intentionqa/draft-spill.js';
import type { AssertionDraft } from '../engine/items/intentionqa/draft.js';
import { DRAFT_BLOCK, draftTask, type DraftingRun } from '../engine/items/intentionqa/pivot-blocks.js';
import { RowWordIds, overlaps, wordsOf } from '../engine/items/intentionqa/concept-overlap.js';
import { Rng } from '../core/rng.js';

describe('DraftSpill (drafts made out of order, read back in order)', () => {
  const draft = (index: number): AssertionDraft =>
    index % 3 === 0
      ? {
          index,
          dropped: { id: `FS_${index}`, task: null, reason: 'product-without-vector', detail: 'no vector' },
          tasks: [],
        }
      : {
          index,
          tasks: [
            {
              task: 2,
              result: {
                ok: true,
                enumerated: true,
                draft: {
                  distractors: [
                    {
                      id: `P${index}`,
                      text: `tïtle ${index} “quoted”`,
                      score: 0.1 + index / 7,
                      overlap: 1,
                      method: 'scan',
                    },
                  ],
                  hadFalseNegative: index % 2 === 0,
                  selection: {
                    sampling: 'uniform',
                    window: '[0.4, 0.9)',
                    exact: true,
                    members: null,
                    seed: `task2/FS_${index}`,
                    refused: [],
                  },
                },
              },
            },
          ],
        };

  it('gives back every draft as it was put, whatever the order of puts and across write buffers', () => {
    const n = 5_000;
    const spill = new DraftSpill(n);
    try {
      const order = new Rng(7).shuffle(Array.from({ length: n }, (_, i) => i));
      for (const i of order) spill.put(draft(i));
      expect(spill.count).toBe(n);
      for (let i = 0; i < n; i++) expect(spill.get(i)).toEqual(draft(i));
      // Scores survive exactly (JSON round-trips doubles).
      const d = spill.get(4);
      expect(d.tasks[0]!.result.ok && d.tasks[0]!.result.draft.distractors[0]!.score).toBe(0.1 + 4 / 7);
    } finally {
      spill.close();
    }
  });

  it('its folder goes on close, and on Ctrl-C or SIGTERM before that (the interrupt handler undoes it)', () => {
    const closed = new DraftSpill(2);
    expect(basename(closed.dir).startsWith(`${DRAFTS_PREFIX}-${process.pid}-`)).toBe(true); // a later run tells a killed one's
    closed.put(draft(0));
    closed.close();
    expect(existsSync(closed.dir)).toBe(false);
    expect(undoAllForInterrupt()).toBe(0); // close() also forgot it
    const interrupted = new DraftSpill(2);
    interrupted.put(draft(1));
    expect(existsSync(interrupted.dir)).toBe(true);
    expect(undoAllForInterrupt()).toBe(1); // as the CLI's SIGINT / SIGTERM handler does
    expect(existsSync(interrupted.dir)).toBe(false);
  });

  it('refuses a draft put twice, one outside its range, and a get of one never put', () => {
    const spill = new DraftSpill(3);
    try {
      spill.put(draft(1));
      expect(() => spill.put(draft(1))).toThrow(/spilled twice/);
      expect(() => spill.put(draft(3))).toThrow(/outside 0\.\.2/);
      expect(() => spill.get(0)).toThrow(/no draft for assertion 0/);
    } finally {
      spill.close();
    }
  });
});

describe('draftTask', () => {
  it('lets the event loop turn every DRAFT_BLOCK drafts, so that Ctrl-C and SIGTERM are handled while drafting on one thread', async () => {
    // Drafting is synchronous: without a turn, a callback queued before the task (as a signal's
    // handler is) would run only after its last draft.
    const drafted: number[] = [];
    let draftedAtTurn = -1;
    const run = {
      draftAssertion: (index: number): AssertionDraft => {
        drafted.push(index);
        return { index, tasks: [] };
      },
    } as unknown as DraftingRun;
    const task = { indices: Int32Array.from({ length: DRAFT_BLOCK + 2 }, (_, k) => 1000 + k) };
    setImmediate(() => (draftedAtTurn = drafted.length));
    const drafts = await draftTask(run, task);
    expect(drafts.map((d) => d.index)).toEqual([...task.indices]);
    expect(draftedAtTurn).toBe(DRAFT_BLOCK);
  });
});

describe('WordMarker (the overlap test on integers)', () => {
  it('agrees with overlaps() of the word sets on random rows', () => {
    const rng = new Rng(3);
    const vocabulary = ['bag', 'hiking', 'boot', 'tent', 'camping gear', 'phone case', 'charger', 'baby', 'toy', ''];
    const rows = Array.from({ length: 300 }, () =>
      wordsOf([Array.from({ length: rng.int(4) }, () => vocabulary[rng.int(vocabulary.length)]!)]),
    );
    const ids = new RowWordIds(rows);
    const marker = ids.marker();
    const other = ids.marker();
    for (let t = 0; t < 2_000; t++) {
      const a = rng.int(rows.length);
      const b = rng.int(rows.length);
      const c = rng.int(rows.length);
      marker.mark([a, b]);
      other.mark([c]); // another task's marks leave this marker's alone
      const union = new Set([...rows[a]!, ...rows[b]!]);
      const row = rng.int(rows.length);
      expect(marker.overlaps(row)).toBe(overlaps(union, rows[row]!));
      expect(other.overlaps(row)).toBe(overlaps(rows[c]!, rows[row]!));
    }
  });
});
