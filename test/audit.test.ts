// `audit` (engine/evaluation/audit.ts) against the fake chat server (test/support/fake-chat-server.ts),
// on the hand-made items of test/support/audit-items.ts (Task 1 q1–q4 with golds A B C D, Task 2
// q1–q3 with golds A C D): exact verdicts and counts worked out by hand, resumption, the
// verification of stored replies, --drop-flagged's files, and the report's Judge section.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAudit, type AuditOptions } from '../engine/evaluation/audit.js';
import { completion, FakeChatServer } from './support/fake-chat-server.js';
import { DROPPED_LINE, HAND_ITEMS, itemLine, itemOfPrompt, writeHandItems } from './support/audit-items.js';

const server = new FakeChatServer();
const requests = server.requests;
let dir: string;
let items: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-audit-'));
  items = writeHandItems(join(dir, 'items'));
  await server.start();
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  requests.length = 0;
});

/** The honest judge: the gold of the item the prompt is about. */
const honest = () => (body: { messages: Array<{ content: string }> }) =>
  completion(itemOfPrompt(body.messages[0]!.content).gold);

function options(out: string, more: Partial<AuditOptions> = {}): AuditOptions {
  return {
    items,
    out: join(dir, out),
    endpoint: server.baseUrl,
    model: 'judge-model',
    requestsPerMinute: 60_000,
    backoffMs: 1,
    cacheFile: null,
    ...more,
  };
}

const readLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const verdicts = (out: string) =>
  readLines(join(dir, out, 'audit.jsonl')).map(
    (l) => `${l.task}:${l.id} ${String(l.verdict)} ${JSON.stringify(l.judged_correct)}`,
  );

describe('audit: verdicts', () => {
  it('an honest judge (the gold) gives every item ok, one request per item', async () => {
    server.handler = honest();
    const r = await runAudit(options('honest'));
    expect(requests.length).toBe(7);
    expect(r.summary.counts).toEqual({ ok: 7, 'second-answer': 0, 'gold-wrong': 0, unparseable: 0, failed: 0 });
    expect(verdicts('honest')).toEqual(HAND_ITEMS.map((h) => `${h.task}:${h.id} ok ${JSON.stringify([h.gold])}`));
    // The request: the judge prompt at temperature 0 and 50 tokens.
    expect(requests[0]!.body.temperature).toBe(0);
    expect(requests[0]!.body.max_tokens).toBe(50);
    expect(requests[0]!.body.model).toBe('judge-model');
  });

  it('a judge that always answers "A, C": second-answer where the gold is A or C, else gold-wrong', async () => {
    server.handler = () => completion('A, C');
    const r = await runAudit(options('ac'));
    // Golds: Task 1 A B C D, Task 2 A C D → second-answer 2 + 2, gold-wrong 2 + 1.
    expect(r.summary.counts).toEqual({ ok: 0, 'second-answer': 4, 'gold-wrong': 3, unparseable: 0, failed: 0 });
    expect(verdicts('ac')).toEqual([
      '1:q1 second-answer ["A","C"]',
      '1:q2 gold-wrong ["A","C"]',
      '1:q3 second-answer ["A","C"]',
      '1:q4 gold-wrong ["A","C"]',
      '2:q1 second-answer ["A","C"]',
      '2:q2 second-answer ["A","C"]',
      '2:q3 gold-wrong ["A","C"]',
    ]);
    const row = (task: number, difficulty: string, relation: string | undefined, sa: number, gw: number) => ({
      task,
      difficulty,
      ...(relation === undefined ? {} : { relation }),
      items: sa + gw,
      counts: { ok: 0, 'second-answer': sa, 'gold-wrong': gw, unparseable: 0, failed: 0 },
    });
    expect(r.summary.byTaskDifficulty).toEqual([
      row(1, 'easy', undefined, 1, 1),
      row(1, 'medium', undefined, 1, 0),
      row(1, 'hard', undefined, 0, 1),
      row(2, 'easy', undefined, 1, 0),
      row(2, 'medium', undefined, 1, 1),
    ]);
    expect(r.summary.byTaskDifficultyRelation).toEqual([
      row(1, 'easy', 'usedFor', 1, 1),
      row(1, 'medium', 'isA', 1, 0),
      row(1, 'hard', 'isA', 0, 1),
      row(2, 'easy', 'usedFor', 1, 0),
      row(2, 'medium', 'isA', 0, 1),
      row(2, 'medium', 'usedFor', 1, 0),
    ]);
    const md = readFileSync(join(dir, 'ac', 'audit_summary.md'), 'utf8');
    expect(md).toContain(
      [
        '| task | difficulty | items | ok | second-answer | gold-wrong | unparseable | failed |',
        '|------|------------|------:|---:|--------------:|-----------:|------------:|-------:|',
        '| 1    | easy       |     2 |  0 |             1 |          1 |           0 |      0 |',
      ].join('\n'),
    );
  });

  it('unparseable replies: an empty one, a sentence, a letter with no option; NONE is gold-wrong', async () => {
    const replies: Record<string, string> = {
      '1:q1': '', // nothing
      '1:q2': 'I think B', // a sentence
      '1:q3': 'E', // no option E
      '1:q4': 'none', // NONE: no option right
      '2:q1': 'The gold looks right.\nAnswer: a.', // last line, "ANSWER:" and the period dropped
      '2:q2': 'C and A', // → A, C in option order
      '2:q3': 'D & D', // one letter, once
    };
    server.handler = (body) => {
      const h = itemOfPrompt(body.messages[0]!.content);
      return completion(replies[`${h.task}:${h.id}`]);
    };
    const r = await runAudit(options('mixed'));
    expect(verdicts('mixed')).toEqual([
      '1:q1 unparseable null',
      '1:q2 unparseable null',
      '1:q3 unparseable null',
      '1:q4 gold-wrong []',
      '2:q1 ok ["A"]',
      '2:q2 second-answer ["A","C"]',
      '2:q3 ok ["D"]',
    ]);
    expect(r.summary.counts).toEqual({ ok: 2, 'second-answer': 1, 'gold-wrong': 1, unparseable: 3, failed: 0 });
  });

  it('a failed request is verdict "failed", no filtered set is written, and a rerun asks only it', async () => {
    server.handler = (body) => {
      const h = itemOfPrompt(body.messages[0]!.content);
      return h.task === 2 && h.id === 'q2' ? { status: 500, body: 'down' } : completion(h.gold);
    };
    const r = await runAudit(options('failing', { maxRetries: 1, dropFlagged: true }));
    expect(r.failed).toBe(1);
    expect(r.dropFlagged).toEqual({ written: false, files: [], kept: {}, dropped: 0, keptUnparseable: 0 });
    expect(existsSync(join(dir, 'failing', 'items'))).toBe(false);
    expect(verdicts('failing')[5]).toBe('2:q2 failed null');
    requests.length = 0;
    server.handler = honest();
    const again = await runAudit(options('failing', { dropFlagged: true }));
    expect(requests.length).toBe(1);
    expect(again.alreadyJudged).toBe(6);
    expect(again.summary.counts.ok).toBe(7);
    expect(again.dropFlagged?.written).toBe(true);
  });
});

describe('audit: the released files', () => {
  it('judges a released Task 1 file (no task, difficulty or prompts): the prompt built as askLM built it; a malformed item set apart', async () => {
    const released = join(dir, 'released_task1.jsonl');
    const four = { A: 'because a.', B: 'because b.', C: 'because c.', D: 'because d.' };
    const record = (id: string, gold: string, options: Record<string, string> = four) => ({
      id,
      item_a_name: `P1-${id} &amp; more`,
      item_b_name: 'its companion',
      relation: 'usedFor',
      assertion: 'PersonX bought it because they like tea.',
      distractors_asserstion: ['x', 'y', 'z'],
      gold_ind: gold,
      options,
    });
    const five = { ...four, E: 'because e.' };
    writeFileSync(
      released,
      [record('q1', 'A'), record('q2', 'D'), record('q3', 'E', five)].map((r) => JSON.stringify(r) + '\n').join(''),
    );
    server.handler = () => completion('A, D');
    const r = await runAudit(options('released', { items: released }));
    expect(verdicts('released')).toEqual(['1:q1 second-answer ["A","D"]', '1:q2 second-answer ["A","D"]']);
    expect(r.summary.byTaskDifficulty.map((row) => [row.task, row.difficulty, row.items])).toEqual([[1, 'unknown', 2]]);
    // The judge reads the title with its HTML reference decoded.
    expect(requests[0]!.body.messages[0]!.content).toContain(
      'Question:\nA customer buys P1-q1 & more and its companion. What is the most likely intention for buying them?\n\nOptions:\nA. because a.\n',
    );
    expect(r.malformed).toEqual([{ file: released, line: 3, id: 'q3', reason: '5 options (A, B, C, D, E), not 4' }]);
  });
});

describe('audit: resumed, and nothing reused unverified', () => {
  it('a rerun after a crash (some lines written, the last one torn) asks only the rest', async () => {
    server.handler = honest();
    await runAudit(options('full'));
    const full = readFileSync(join(dir, 'full', 'audit.jsonl'), 'utf8').split('\n');
    // The crashed run: 3 lines appended, a 4th torn by the kill.
    mkdirSync(join(dir, 'resumed'));
    writeFileSync(join(dir, 'resumed', 'audit.jsonl'), full.slice(0, 3).join('\n') + '\n' + full[3]!.slice(0, 30));
    requests.length = 0;
    const r = await runAudit(options('resumed'));
    expect(requests.length).toBe(4);
    expect(r.alreadyJudged).toBe(3);
    expect(r.asked).toBe(4);
    expect(r.unreadableLines).toBe(1);
    // Asked items are exactly the ones without a line.
    expect(requests.map((q) => itemOfPrompt(q.body.messages[0]!.content)).map((h) => `${h.task}:${h.id}`)).toEqual([
      '1:q4',
      '2:q1',
      '2:q2',
      '2:q3',
    ]);
    expect(verdicts('resumed')).toEqual(verdicts('full'));
  });

  it('recomputes stored verdicts from the reply and the gold; refuses another prompt or judge', async () => {
    server.handler = honest();
    await runAudit(options('verify'));
    const file = join(dir, 'verify', 'audit.jsonl');
    // A stored verdict that says otherwise is not believed.
    const lines = readLines(file);
    lines[0] = { ...lines[0], verdict: 'gold-wrong', judged_correct: ['B'] };
    writeFileSync(file, lines.map((l) => JSON.stringify(l) + '\n').join(''));
    requests.length = 0;
    await runAudit(options('verify'));
    expect(requests.length).toBe(0);
    expect(verdicts('verify')[0]).toBe('1:q1 ok ["A"]');

    // The same prompt with another gold (the gold is not in the prompt): the stored reply, judged anew.
    const regolded = join(dir, 'regolded');
    writeHandItems(regolded);
    const task1 = readFileSync(join(regolded, 'intentionqa_task1.jsonl'), 'utf8').replace(
      '"gold_ind":"A"',
      '"gold_ind":"B"',
    );
    writeFileSync(join(regolded, 'intentionqa_task1.jsonl'), task1);
    await runAudit(options('verify', { items: regolded }));
    expect(requests.length).toBe(0);
    expect(verdicts('verify')[0]).toBe('1:q1 gold-wrong ["A"]');

    // Another option text changes the prompt: refused, naming the item.
    const reworded = join(dir, 'reworded');
    writeHandItems(reworded);
    const t2 = readFileSync(join(reworded, 'intentionqa_task2.jsonl'), 'utf8').replaceAll('a towel', 'a rug');
    writeFileSync(join(reworded, 'intentionqa_task2.jsonl'), t2);
    await expect(runAudit(options('verify', { items: reworded }))).rejects.toThrow(
      /to another prompt for item "q1" .*the items or their prompts changed/,
    );
    await expect(runAudit(options('verify', { model: 'other-judge' }))).rejects.toThrow(
      /holds responses of model "judge-model", not "other-judge"/,
    );
    await expect(runAudit(options('verify', { settings: { temperature: 0.5 } }))).rejects.toThrow(
      /settings.temperature 0 \(this run: 0.5\)/,
    );
    expect(requests.length).toBe(0);
  });

  it('answers from the response cache: a second audit into another folder sends nothing', async () => {
    server.handler = honest();
    const cacheFile = join(dir, 'cache.jsonl');
    await runAudit(options('cached1', { cacheFile }));
    expect(requests.length).toBe(7);
    requests.length = 0;
    const r = await runAudit(options('cached2', { cacheFile }));
    expect(requests.length).toBe(0);
    expect(r.cacheHits).toBe(7);
    expect(verdicts('cached2')).toEqual(verdicts('cached1'));
  });
});

describe('audit --drop-flagged', () => {
  it("keeps ok and unparseable items, lines as read; lists the flagged ones after the folder's dropped", async () => {
    const replies: Record<string, string> = {
      '1:q1': 'A', // ok
      '1:q2': 'B, D', // second-answer
      '1:q3': 'NONE', // gold-wrong
      '1:q4': 'maybe', // unparseable: kept
      '2:q1': 'A', // ok
      '2:q2': 'C', // ok
      '2:q3': 'A, C', // gold-wrong
    };
    server.handler = (body) => {
      const h = itemOfPrompt(body.messages[0]!.content);
      return completion(replies[`${h.task}:${h.id}`]);
    };
    const r = await runAudit(options('dropped', { dropFlagged: true }));
    const kept = join(dir, 'dropped', 'items');
    const line = (task: 1 | 2, id: string) => itemLine(HAND_ITEMS.find((h) => h.task === task && h.id === id)!) + '\n';
    expect(readFileSync(join(kept, 'intentionqa_task1.jsonl'), 'utf8')).toBe(line(1, 'q1') + line(1, 'q4'));
    expect(readFileSync(join(kept, 'intentionqa_task2.jsonl'), 'utf8')).toBe(line(2, 'q1') + line(2, 'q2'));
    expect(readFileSync(join(kept, 'intentionqa_dropped.jsonl'), 'utf8')).toBe(
      [
        DROPPED_LINE,
        '{"id":"q2","task":1,"reason":"judge-second-answer","detail":"the judge (judge-model) marked B, D right; the gold is B"}',
        '{"id":"q3","task":1,"reason":"judge-gold-wrong","detail":"the judge (judge-model) marked no option right; the gold is C"}',
        '{"id":"q3","task":2,"reason":"judge-gold-wrong","detail":"the judge (judge-model) marked A, C right; the gold is D"}',
        '',
      ].join('\n'),
    );
    expect(r.dropFlagged).toEqual({
      written: true,
      files: ['intentionqa_task1.jsonl', 'intentionqa_task2.jsonl', 'intentionqa_dropped.jsonl'].map((f) =>
        join(kept, f),
      ),
      kept: { 'intentionqa_task1.jsonl': 2, 'intentionqa_task2.jsonl': 2 },
      dropped: 3,
      keptUnparseable: 1,
    });
    // A run without --drop-flagged removes the filtered set it no longer describes.
    await runAudit(options('dropped'));
    expect(existsSync(join(kept, 'intentionqa_task1.jsonl'))).toBe(false);
  });

  it("one items file: its kept lines under its own name, and the judge's drops", async () => {
    server.handler = () => completion('A, C');
    const r = await runAudit(options('one-file', { items: join(items, 'intentionqa_task2.jsonl'), dropFlagged: true }));
    const kept = join(dir, 'one-file', 'items');
    expect(readFileSync(join(kept, 'intentionqa_task2.jsonl'), 'utf8')).toBe('');
    expect(readFileSync(join(kept, 'intentionqa_dropped.jsonl'), 'utf8').split('\n').filter(Boolean).length).toBe(3);
    expect(r.summary.items).toBe(3);
  });
});

describe('audit: the IntentionQA report with the Judge section', () => {
  const REPORT =
    '# IntentionQA items — report\n\nSettings: …\n\n## Validity\n\n| solver | Task 1 |\n|---|---:|\n| filtered | 27.4% |\n\n';
  const SVG = '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n';
  const folder = (name: string, task1Items: number) => {
    const f = join(dir, name);
    writeHandItems(f);
    writeFileSync(join(f, 'intentionqa_report.md'), REPORT);
    writeFileSync(join(f, 'intentionqa_report.svg'), SVG);
    writeFileSync(
      join(f, 'intentionqa_summary.json'),
      JSON.stringify({ settings: {}, stats: { task1: { items: task1Items }, task2: { items: 3 } } }),
    );
    return f;
  };

  it("appends the verdict counts by task × difficulty to the items folder's report, in the audit folder", async () => {
    const items = folder('with-report', 4);
    server.handler = () => completion('A, C');
    const r = await runAudit(options('report', { items }));
    const report = join(dir, 'report', 'intentionqa_report.md');
    expect(r.files).toEqual(
      ['audit.jsonl', 'audit_summary.json', 'audit_summary.md', 'intentionqa_report.md', 'intentionqa_report.svg'].map(
        (f) => join(dir, 'report', f),
      ),
    );
    expect(readFileSync(report, 'utf8')).toBe(
      REPORT.trimEnd() +
        '\n' +
        [
          '',
          '## Judge',
          '',
          'A judge model, `judge-model`, was asked for every item which of its options are right (`intentsim audit`, prompt `engine/evaluation/prompts/audit-judge.txt`).',
          'ok: exactly the gold; second-answer: the gold and another option; gold-wrong: not the gold (other options, or none);',
          'unparseable: no answer read from the reply; failed: no reply (the request failed after its retries).',
          '',
          '7 items: 0 ok, 4 second-answer, 3 gold-wrong, 0 unparseable, 0 failed.',
          '',
          '| task | difficulty | items | ok | second-answer | gold-wrong | unparseable | failed |',
          '|------|------------|------:|---:|--------------:|-----------:|------------:|-------:|',
          '| 1    | easy       |     2 |  0 |             1 |          1 |           0 |      0 |',
          '| 1    | medium     |     1 |  0 |             1 |          0 |           0 |      0 |',
          '| 1    | hard       |     1 |  0 |             0 |          1 |           0 |      0 |',
          '| 2    | easy       |     1 |  0 |             1 |          0 |           0 |      0 |',
          '| 2    | medium     |     2 |  0 |             1 |          1 |           0 |      0 |',
          '',
          'By relation: audit_summary.md.',
          '',
        ].join('\n'),
    );
    expect(readFileSync(join(dir, 'report', 'intentionqa_report.svg'), 'utf8')).toBe(SVG);
    // The items folder is left as it was; a folder without a report gets none.
    expect(readFileSync(join(items, 'intentionqa_report.md'), 'utf8')).toBe(REPORT);
    expect(existsSync(join(dir, 'ac', 'intentionqa_report.md'))).toBe(false);
  });

  it('says when the judge saw other items than the report counts', async () => {
    const items = folder('miscounted', 5);
    server.handler = () => completion('A');
    await runAudit(options('miscounted-audit', { items }));
    const text = readFileSync(join(dir, 'miscounted-audit', 'intentionqa_report.md'), 'utf8');
    expect(text).toContain('\nNote: the judge saw 4 Task-1 items; this report counts 5.\n');
    expect(text).not.toContain('Task-2 items; this report');
  });
});
