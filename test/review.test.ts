// `review`: reading items of both benchmarks, the seeded stratified sample, the SQLite store
// (resume, refusals, durability across kill -9), the server's security (tokens, body limit, no path
// outside its own files, Host check, non-loopback refusal), the export on a scenario worked by hand,
// and the MTurk round trip on a results file laid out as MTurk lays it out.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { readReviewItems } from '../engine/review/review-items.js';
import { sampleItems, stratumOf } from '../engine/review/sample-items.js';
import { openReview } from '../engine/review/open-review.js';
import { ReviewStore } from '../engine/review/review-store.js';
import { serveReview, type ReviewServer } from '../engine/review/review-server.js';
import { exportReview } from '../engine/review/export-review.js';
import { importMturkResults, MTURK_INPUT_COLUMNS } from '../engine/review/mturk.js';
import {
  SIX_ITEM_LABELS,
  intentionQaLine,
  manyIntentionQaItems,
  sibTaskLine,
  writeItemsDir,
} from './support/review-fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'intentsim-review-'));

async function sixItemReview(annotators = ['a', 'b']) {
  const dir = tmp();
  const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(6) });
  const opened = await openReview({ itemsDir: items, reviewDir: join(dir, 'review'), annotators, seed: 3 });
  return { dir, items, ...opened };
}

function saveScenario(store: ReviewStore) {
  for (const who of ['a', 'b'] as const) {
    for (const l of SIX_ITEM_LABELS[who]) {
      const position = store.positionOf(`intentionqa_task1.jsonl#${l.id}`)!;
      store.save(who, position, { ...l, otherText: '', ms: 1000 }, new Date('2026-01-01T00:00:00Z'), 'browser');
    }
  }
}

describe('review items', () => {
  it('reads IntentionQA items: products, relation, the question without its options, options, gold', async () => {
    const dir = writeItemsDir(join(tmp(), 'items'), {
      'intentionqa_task2.jsonl': [
        intentionQaLine({
          id: 'X1',
          task: 2,
          difficulty: 'hard',
          relation: 'isA',
          a: 'Kettle',
          b: 'Teapot',
          options: ['Mug', 'Teapot', 'Spoon', 'Lamp'],
          gold: 'B',
        }),
      ],
    });
    const item = (await readReviewItems(dir)).items[0]!.item;
    expect(item).toMatchObject({
      key: 'intentionqa_task2.jsonl#X1',
      task: 'intentionqa-2',
      difficulty: 'hard',
      relation: 'isA',
      products: ['Kettle', 'Teapot'],
      gold: ['B'],
      question:
        "A customer buys Kettle, because they are both used for it.\nWhat is the customer's most probable additional purchase?",
    });
    expect(item.options.map((o) => `${o.letter}=${o.text}`)).toEqual(['A=Mug', 'B=Teapot', 'C=Spoon', 'D=Lamp']);
  });

  it('reads SIB tasks: the session products, the question, the options split from their one line, the label', async () => {
    const dir = writeItemsDir(join(tmp(), 'items'), {
      'sib-tasks.jsonl': [
        sibTaskLine('s1/n1/T1', ['Pillow, soft', 'Eye mask'], { letter: 'B' }),
        sibTaskLine('s1/n2/T1', ['Pillow, soft', 'Coffee 2 lb'], { binary: 'negative' }),
      ],
    });
    const [first, second] = (await readReviewItems(dir)).items.map((s) => s.item);
    expect(first).toMatchObject({
      task: 'sib-1',
      difficulty: 'original',
      products: ['Pillow, soft', 'Eye mask'],
      gold: ['B'],
    });
    expect(first!.options.map((o) => o.letter)).toEqual(['A', 'B', 'C', 'D']);
    expect(first!.options[1]!.text).toBe("Maybe yes: I may consider this, but it's not a strong impulse.");
    expect(first!.options[3]!.text).toBe(
      'No: I would never purchase it if I were the customer with the given intention.',
    );
    expect(first!.question).toMatch(
      /^Act as a customer.*\n\nAfter seeing Pillow, soft, .*based on the assumed intention\?$/s,
    );
    expect(second!.gold).toEqual(['C', 'D']);
    expect(second!.goldNote).toBe('negative (constructed)');
  });

  it('reads a three-option SIB Task 4 and a next-product choice of sib-distractors.jsonl', async () => {
    const t4 = JSON.parse(sibTaskLine('s1/n1/T4', ['Pillow', 'Eye mask'], { letter: 'C' })) as Record<string, unknown>;
    const prompt =
      'Act as a customer.\nProduct 1: Pillow\nAttributes: x\n\nDo you still want to explore similar products?\n\n' +
      'A. Yes: same category. B. Maybe yes: same category, other features. C. No: other categories.\n\nYour Answer (Answer A or B or C only):';
    Object.assign(t4, { task: 4, answer_letters: ['A', 'B', 'C'], prompts: { 'zero-shot': prompt } });
    const next = {
      id: 's1/n1/next-product',
      kind: 'next-product-choice',
      options: ['Lamp', 'Eye mask', 'Mug', 'Kettle'].map((title, i) => ({ letter: 'ABCD'[i], title, gold: i === 1 })),
      answer: 'B',
      prompts: {
        'zero-shot':
          'Act as a customer.\nProduct 1: Pillow\nAttributes: x\n\nWhich product next?\nA. Lamp\nB. Eye mask\nC. Mug\nD. Kettle\nAnswer A or B or C or D only without any other word.',
      },
    };
    const dir = writeItemsDir(join(tmp(), 'items'), {
      'sib-tasks.jsonl': [JSON.stringify(t4)],
      'sib-distractors.jsonl': [JSON.stringify(next)],
    });
    const [four, choice] = (await readReviewItems(dir)).items.map((s) => s.item);
    expect(four!.options).toEqual([
      { letter: 'A', text: 'Yes: same category.' },
      { letter: 'B', text: 'Maybe yes: same category, other features.' },
      { letter: 'C', text: 'No: other categories.' },
    ]);
    expect([four!.task, four!.question, four!.gold]).toEqual([
      'sib-4',
      'Act as a customer.\nProduct 1: Pillow\nAttributes: x\n\nDo you still want to explore similar products?',
      ['C'],
    ]);
    expect(choice).toMatchObject({
      task: 'sib-next-product',
      difficulty: 'next-product-choice',
      products: ['Pillow'],
      gold: ['B'],
    });
    expect(choice!.question).toBe('Act as a customer.\nProduct 1: Pillow\nAttributes: x\n\nWhich product next?');
    expect(choice!.options.map((o) => o.text)).toEqual(['Lamp', 'Eye mask', 'Mug', 'Kettle']);
  });

  it('names file, line and field of a bad item', async () => {
    const dir = writeItemsDir(join(tmp(), 'items'), {
      'intentionqa_task1.jsonl': [manyIntentionQaItems(1)[0]!, '{"id": "Q2", "task": 1}'],
    });
    await expect(readReviewItems(dir)).rejects.toThrow(/intentionqa_task1\.jsonl:2 \(field "options"\): missing/);
  });
});

const tenItems = (
  await readReviewItems(writeItemsDir(join(tmp(), 'items'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(10) }))
).items.map((s) => s.item);

describe('review sample', () => {
  const items = tenItems;

  it('allocates to strata in proportion, the remainder to the largest fractions (ties: first stratum)', () => {
    // difficulty strata: easy 4 (items 0,3,6,9), hard 3, medium 3; n = 5 → quotas 2, 1.5, 1.5 → 2, 2, 1.
    const picked = sampleItems(items, { sample: 5, stratify: ['difficulty'], seed: 1 });
    const per = (d: string) => picked.filter((p) => items[p]!.difficulty === d).length;
    expect([per('easy'), per('hard'), per('medium')]).toEqual([2, 2, 1]);
    expect(new Set(picked).size).toBe(5);
  });

  it('is the same for the same seed and differs for another; no sample = every item', () => {
    const s = { sample: 6, stratify: ['difficulty', 'relation'] as const, seed: 9 };
    expect(sampleItems(items, s)).toEqual(sampleItems(items, s));
    expect(sampleItems(items, { ...s, seed: 10 })).not.toEqual(sampleItems(items, s));
    expect([...sampleItems(items, { stratify: [], seed: 1 })].sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    expect(stratumOf(items[0]!, ['task', 'difficulty'])).toBe('intentionqa-1 / easy');
  });
});

describe('review store', () => {
  it('resumes, adds new annotators with their own tokens, and refuses another items folder or sample, naming both', async () => {
    const r = await sixItemReview();
    const tokens = r.annotators.map((a) => a.token);
    r.store.close();
    const again = await openReview({ itemsDir: r.items, reviewDir: join(r.dir, 'review'), annotators: ['c'] });
    expect(again.resumed).toBe(true);
    expect(again.annotators.map((a) => a.name)).toEqual(['a', 'b', 'c']);
    expect(again.annotators.slice(0, 2).map((a) => a.token)).toEqual(tokens);
    again.store.close();
    const other = writeItemsDir(join(r.dir, 'other'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(3) });
    await expect(openReview({ itemsDir: other, reviewDir: join(r.dir, 'review') })).rejects.toThrow(
      `reviews items from ${resolve(r.items)}, not ${resolve(other)}`,
    );
    await expect(openReview({ itemsDir: r.items, reviewDir: join(r.dir, 'review'), seed: 4 })).rejects.toThrow(
      /started with seed 3, not 4/,
    );
  });

  it('keeps a save that was answered when the process is killed with SIGKILL', async () => {
    const r = await sixItemReview();
    r.store.close();
    const script = `
      import { ReviewStore } from ${JSON.stringify(resolve('dist/engine/review/review-store.js'))};
      const s = ReviewStore.open(${JSON.stringify(join(r.dir, 'review'))});
      s.save('a', 2, { correct: ['C'], validity: 'valid', reasons: [], otherText: '', ms: 5 }, new Date(), 'browser');
      process.stdout.write('saved\\n');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((done) => child.stdout.on('data', (d: Buffer) => d.toString().includes('saved') && done()));
    child.kill('SIGKILL');
    await new Promise((done) => child.on('exit', done));
    const store = ReviewStore.open(join(r.dir, 'review'));
    expect(store.labels('a').map((l) => [l.position, l.correct])).toEqual([[2, ['C']]]);
    store.close();
  });
});

describe('review server', () => {
  let server: ReviewServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  function call(
    path: string,
    init: { method?: string; token?: string; body?: string; host?: string; type?: string } = {},
  ) {
    const url = new URL(server!.url);
    return new Promise<{ status: number; body: string }>((done, fail) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: init.method ?? 'GET',
          headers: {
            ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
            ...(init.body !== undefined ? { 'Content-Type': init.type ?? 'application/json' } : {}),
            ...(init.host ? { Host: init.host } : {}),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => done({ status: res.statusCode!, body }));
        },
      );
      req.on('error', fail);
      req.end(init.body);
    });
  }

  const label = JSON.stringify({ correct: ['A'], validity: 'valid', reasons: [], otherText: '', ms: 1500 });

  it('needs a token, checks the body, and saves each annotator’s labels under their own name, concurrently', async () => {
    const r = await sixItemReview();
    server = await serveReview({ store: r.store });
    const a = r.annotators[0]!;
    const b = r.annotators[1]!;
    expect(server.links[0]!.url).toBe(`${server.url}#annotator=a&token=${a.token}`);
    expect((await call('/api/session')).status).toBe(401);
    expect((await call('/api/items/0', { method: 'PUT', body: label })).status).toBe(401);
    expect((await call('/api/items/0', { method: 'PUT', body: label, token: 'x' + a.token.slice(1) })).status).toBe(
      401,
    );
    expect((await call('/api/items/0', { method: 'PUT', token: a.token, body: 'x'.repeat(20_000) })).status).toBe(413);
    expect(
      (await call('/api/items/0', { method: 'PUT', token: a.token, body: label, type: 'text/plain' })).status,
    ).toBe(415);
    const badLetter = JSON.stringify({ correct: ['E'], validity: 'valid', reasons: [], ms: 1 });
    expect((await call('/api/items/0', { method: 'PUT', token: a.token, body: badLetter })).status).toBe(400);
    expect((await call('/api/items/6', { token: a.token })).status).toBe(404);
    const saves = [0, 1, 2, 3, 4, 5].flatMap((p) => [
      call(`/api/items/${p}`, { method: 'PUT', token: a.token, body: label }),
      call(`/api/items/${p}`, { method: 'PUT', token: b.token, body: label.replace('"valid"', '"invalid"') }),
    ]);
    expect((await Promise.all(saves)).map((s) => s.status)).toEqual(Array(12).fill(200));
    expect(r.store.labels('a').map((l) => l.validity)).toEqual(Array(6).fill('valid'));
    expect(r.store.labels('b').map((l) => l.validity)).toEqual(Array(6).fill('invalid'));
    expect(JSON.parse((await call('/api/session', { token: b.token })).body)).toEqual({
      annotator: 'b',
      total: 6,
      done: 6,
      next: 6,
    });
  });

  it('serves only its own four files: no path reaches the file system', async () => {
    const r = await sixItemReview();
    server = await serveReview({ store: r.store });
    const page = await call('/');
    expect(page.status).toBe(200);
    expect((await call('/review.js')).body).toContain('textContent');
    // The page names its icon, and the icon is served: no favicon request ends in a 404.
    expect(page.body).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    const icon = await call('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/review.js/../../package.json',
      '/..%2f..%2fpackage.json',
      '/assets/review.js',
      '/review.html',
    ]) {
      const res = await call(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('intentsim');
    }
  });

  it('answers only loopback Host names on a loopback address, and refuses another address without tokens', async () => {
    const r = await sixItemReview();
    server = await serveReview({ store: r.store });
    expect((await call('/', { host: 'attacker.example:80' })).status).toBe(421);
    await server.close();
    // Issue 45: on another loopback address the printed link's host is answered, not 421.
    server = await serveReview({ store: r.store, host: '127.0.0.2' });
    const linked = new URL(server.url);
    expect(linked.hostname).toBe('127.0.0.2');
    expect((await call('/', { host: linked.host })).status).toBe(200);
    expect((await call('/', { host: 'attacker.example:80' })).status).toBe(421);
    // A port out of range is a clear error, not Node's RangeError.
    await expect(serveReview({ store: r.store, port: 99999 })).rejects.toThrow(
      'port must be a port, 0 to 65535, got 99999',
    );
    await expect(serveReview({ store: r.store, host: '0.0.0.0', tokens: false })).rejects.toThrow(
      'refusing to serve the review on 0.0.0.0 without tokens',
    );
  });
});

describe('review export', () => {
  it('gives the hand-worked figures of the six-item scenario and keeps the valid items byte for byte', async () => {
    const r = await sixItemReview();
    saveScenario(r.store);
    r.store.close();
    const out = join(r.dir, 'export');
    const { summary, kept } = await exportReview({ reviewDir: join(r.dir, 'review'), out, keep: 'valid' });
    expect(summary.judgements).toBe(12);
    expect(summary.validity.map((v) => [v.difficulty, v.successes, v.n])).toEqual([
      ['easy', 4, 4],
      ['medium', 2, 4],
      ['hard', 0, 4],
    ]);
    expect(summary.validity[1]!.low).toBeCloseTo(0.150039, 6);
    expect(summary.validity[1]!.high).toBeCloseTo(0.849961, 6);
    expect([summary.validityAll.successes, summary.validityAll.n]).toEqual([6, 12]);
    expect(summary.validityCounts).toEqual({ valid: 6, invalid: 4, unsure: 2 });
    expect([summary.secondRightAnswer.successes, summary.secondRightAnswer.n]).toEqual([3, 12]);
    expect([summary.goldAgreement.successes, summary.goldAgreement.n]).toEqual([11, 12]);
    expect(summary.agreement).toMatchObject({
      method: 'cohen',
      items: 6,
      raters: 2,
      itemsLeftOut: 0,
      annotators: ['a', 'b'],
    });
    expect(summary.agreement!.table).toEqual([
      [2, 1, 0],
      [1, 1, 0],
      [0, 0, 1],
    ]);
    expect(summary.agreement!.kappa).toBeCloseTo(5 / 11, 12);
    expect(kept).toEqual({ 'intentionqa_task1.jsonl': 2 });
    const lines = manyIntentionQaItems(6);
    expect(readFileSync(join(out, 'items', 'intentionqa_task1.jsonl'), 'utf8')).toBe(`${lines[0]}\n${lines[3]}\n`);
    expect(readFileSync(join(out, 'labels.jsonl'), 'utf8').trim().split('\n')).toHaveLength(12);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain("Cohen's κ = 0.455 over 6 items × 2 raters");
    expect(readFileSync(join(out, 'summary.svg'), 'utf8')).toMatch(/^<svg[^]*50\.0% \(2\/4\)[^]*<\/svg>\n$/);
  });
});

describe('review with Mechanical Turk', () => {
  it('exports a batch CSV (escaped) and reads back a results CSV laid out as MTurk lays it out; κ is Fleiss’', async () => {
    const dir = tmp();
    const lines = manyIntentionQaItems(3, (i) => (i === 0 ? '<script>alert(1)</script> & "Co"' : `Product ${i}`));
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': lines });
    const { store } = await openReview({ itemsDir: items, reviewDir: join(dir, 'review') });
    store.close();
    const batch = join(dir, 'batch.csv');
    await exportReview({ reviewDir: join(dir, 'review'), out: join(dir, 'out'), mturkCsv: batch });
    const input = parse(readFileSync(batch, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(Object.keys(input[0]!)).toEqual([...MTURK_INPUT_COLUMNS]);
    const q1 = input.find((row) => row.item_key === 'intentionqa_task1.jsonl#Q1')!;
    expect(q1.products).toBe('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot; · Companion 0');
    expect(q1.question).toBe(
      'A customer buys &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot; and Companion 0. What is the most likely intention for buying them?',
    );
    expect(existsSync(join(new URL('../engine/review/assets/mturk-template.html', import.meta.url).pathname))).toBe(
      true,
    );

    // MTurk's results layout: the assignment columns, Input.<column> for each batch column, Answer.<field>
    // (checkbox groups joined by |), Approve and Reject; every field quoted.
    const head = [
      'HITId',
      'HITTypeId',
      'Title',
      'Description',
      'Keywords',
      'Reward',
      'CreationTime',
      'MaxAssignments',
      'RequesterAnnotation',
      'AssignmentDurationInSeconds',
      'AutoApprovalDelayInSeconds',
      'Expiration',
      'NumberOfSimilarHITs',
      'LifetimeInSeconds',
      'AssignmentId',
      'WorkerId',
      'AssignmentStatus',
      'AcceptTime',
      'SubmitTime',
      'AutoApprovalTime',
      'ApprovalTime',
      'RejectionTime',
      'RequesterFeedback',
      'WorkTimeInSeconds',
      'LifetimeApprovalRate',
      'Last30DaysApprovalRate',
      'Last7DaysApprovalRate',
      ...MTURK_INPUT_COLUMNS.map((c) => `Input.${c}`),
      'Answer.correct',
      'Answer.other_text',
      'Answer.reasons',
      'Answer.validity',
      'Approve',
      'Reject',
    ];
    const answers: Array<[string, string, string, string, string, string]> = [
      // worker, item, correct, validity, reasons, status
      ['W1', 'Q1', 'A', 'valid', '', 'Approved'],
      ['W2', 'Q1', 'A|B', 'invalid', 'second-right-answer', 'Submitted'],
      ['W3', 'Q1', 'A', 'valid', '', 'Approved'],
      ['W1', 'Q2', 'B', 'valid', '', 'Approved'],
      ['W2', 'Q2', 'B', 'valid', '', 'Approved'],
      ['W3', 'Q2', 'B', 'valid', '', 'Approved'],
      ['W4', 'Q2', 'C', 'invalid', 'gold-wrong|other', 'Rejected'],
    ];
    const rows = answers.map(([worker, id, correct, validity, reasons, status], i) => {
      const inputRow = input.find((row) => row.item_key === `intentionqa_task1.jsonl#${id}`)!;
      return [
        `3HIT${id}`,
        '3TYPE',
        'Check an item',
        'desc',
        'review',
        '$0.10',
        'Mon Jan 05 10:00:00 PST 2026',
        '3',
        'BatchId:1;',
        '3600',
        '259200',
        'Tue Jan 06 10:00:00 PST 2026',
        '',
        '86400',
        `3ASG${i}`,
        worker,
        status,
        'Mon Jan 05 10:01:00 PST 2026',
        'Mon Jan 05 10:01:42 PST 2026',
        'Thu Jan 08 10:01:42 PST 2026',
        '',
        '',
        '',
        '42',
        '0% (0/0)',
        '0% (0/0)',
        '0% (0/0)',
        ...MTURK_INPUT_COLUMNS.map((c) => inputRow[c]!),
        correct,
        '',
        reasons,
        validity,
        '',
        '',
      ];
    });
    const results = join(dir, 'results.csv');
    writeFileSync(results, stringify([head, ...rows], { quoted: true }));
    const reopened = ReviewStore.open(join(dir, 'review'));
    expect(await importMturkResults(reopened, results)).toEqual({
      imported: 6,
      replaced: 0,
      unchanged: 0,
      rejected: 1,
      workers: 3,
    });
    const w2 = reopened.labels('mturk-W2');
    expect(w2.find((l) => l.itemKey.endsWith('#Q1'))).toMatchObject({
      correct: ['A', 'B'],
      validity: 'invalid',
      reasons: ['second-right-answer'],
      ms: 42000,
      savedAt: '2026-01-05T18:01:42.000Z',
      origin: 'mturk',
    });
    reopened.close();
    const { summary } = await exportReview({ reviewDir: join(dir, 'review'), out: join(dir, 'out') });
    // Two items × 3 raters: Q1 (2 valid, 1 invalid), Q2 (3 valid). P̄ = (1/3 + 1)/2 = 2/3; p = (5/6, 1/6);
    // P_e = 26/36; κ = (2/3 − 26/36) / (1 − 26/36) = −0.2.
    expect(summary.agreement).toMatchObject({ method: 'fleiss', items: 2, raters: 3, categoryTotals: [5, 1, 0] });
    expect(summary.agreement!.kappa).toBeCloseTo(-0.2, 12);
    expect(summary.medianMs).toBeNull();
  });

  it('names the row and field of a bad results line', async () => {
    const dir = tmp();
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(1) });
    const { store } = await openReview({ itemsDir: items, reviewDir: join(dir, 'review') });
    const file = join(dir, 'r.csv');
    const row = {
      WorkerId: 'W1',
      AssignmentStatus: 'Submitted',
      SubmitTime: 'Mon Jan 05 10:01:42 PST 2026',
      WorkTimeInSeconds: '5',
      'Input.item_key': 'intentionqa_task1.jsonl#Q1',
      'Answer.correct': 'A',
      'Answer.validity': 'maybe',
      'Answer.reasons': '',
    };
    writeFileSync(file, stringify([Object.keys(row), Object.values(row)]));
    await expect(importMturkResults(store, file)).rejects.toThrow(
      `${file}:2 (field "Answer.validity"): must be valid, invalid, unsure, got "maybe"`,
    );
    expect(store.labels()).toEqual([]);
    store.close();
  });
});

describe('review on the command line', () => {
  it('start prints one link per annotator and serves until SIGINT; no token reaches stderr; export reports', async () => {
    const dir = tmp();
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': manyIntentionQaItems(6) });
    const child = spawn(
      process.execPath,
      [
        'bin/intentsim.js',
        'review',
        'start',
        '--items',
        items,
        '--out',
        join(dir, 'review'),
        '--sample',
        '4',
        '--stratify',
        'difficulty',
        '--seed',
        '2',
        '--annotators',
        'ann,bob',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((done) =>
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('Ctrl-C')) done();
      }),
    );
    const links = [...stdout.matchAll(/^ {2}(\w+): (http:\/\/127\.0\.0\.1:\d+\/)#annotator=\w+&token=([\w-]+)$/gm)];
    expect(links.map((m) => m[1])).toEqual(['ann', 'bob']);
    expect(stdout).toMatch(/^started review of 4 items in /);
    const [, , base, token] = links[0]!;
    // The gold of the first item shown: a "valid" that does not mark it would not be kept.
    const reader = ReviewStore.open(join(dir, 'review'));
    const gold = reader.items()[0]!.gold;
    reader.close();
    const res = await fetch(`${base}api/items/0`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ correct: gold, validity: 'valid', reasons: [], ms: 800 }),
    });
    expect(res.status).toBe(200);
    expect((await fetch(`${base}api/session`)).status).toBe(401);
    child.kill('SIGINT');
    await new Promise((done) => child.on('exit', done));
    for (const m of links) expect(stderr).not.toContain(m[3]);

    const out = join(dir, 'export');
    const printed = await new Promise<string>((done) => {
      const exp = spawn(process.execPath, [
        'bin/intentsim.js',
        'review',
        'export',
        '--review',
        join(dir, 'review'),
        '--out',
        out,
        '--keep',
        'valid',
      ]);
      let text = '';
      exp.stdout.on('data', (d: Buffer) => (text += d.toString()));
      exp.on('exit', () => done(text));
    });
    expect(printed).toMatch(
      /^1 judgements of 1 items; valid 1; no κ \(one annotator per item\)\nintentionqa-1: per item, Valid 100\.0% \(1\/1\), F-Neg 0\.0% \(0\/1\), Correct 100\.0% \(1\/1\)\nkept 1 items of intentionqa_task1\.jsonl\n/,
    );
    expect(existsSync(join(out, 'summary.svg'))).toBe(true);
  }, 60_000);
});

describe('review without tokens', () => {
  it('names the annotator by X-Annotator on a loopback address', async () => {
    const r = await sixItemReview();
    const server = await serveReview({ store: r.store, tokens: false });
    try {
      expect(server.links.map((l) => l.url)).toEqual([`${server.url}#annotator=a`, `${server.url}#annotator=b`]);
      const session = await fetch(`${server.url}api/session`, { headers: { 'X-Annotator': 'b' } });
      expect(await session.json()).toEqual({ annotator: 'b', total: 6, done: 0, next: 0 });
      expect((await fetch(`${server.url}api/session`, { headers: { 'X-Annotator': 'zed' } })).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
