// The review page in a real browser: Debian's chromium driven by puppeteer-core (which downloads no
// browser). Two annotators label six items by keyboard at the same time, one reloads half-way and
// must resume where they left off, one goes back with Backspace; the export must give the figures
// worked by hand (test/support/review-fixtures.ts). Hostile product titles must stay text: no
// script runs, no element is made. A 20-item run measures the time one item takes by keyboard and
// saves the screenshot of docs/review.png. Without chromium the tests are skipped, and say so.
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReview } from '../engine/review/open-review.js';
import { serveReview } from '../engine/review/review-server.js';
import { exportReview } from '../engine/review/export-review.js';
import { blindLetters } from '../engine/review/blind-view.js';
import {
  SIX_ITEM_LABELS,
  intentionQaLine,
  manyIntentionQaItems,
  sibTaskLine,
  writeItemsDir,
  type ScriptedLabel,
} from './support/review-fixtures.js';

// INTENTSIM_CHROMIUM, when set, is the only browser tried (a path that is not there: the skip).
const CHROMIUM = (
  process.env.INTENTSIM_CHROMIUM ? [process.env.INTENTSIM_CHROMIUM] : ['/usr/bin/chromium', '/usr/bin/chromium-browser']
).find((p) => existsSync(p));
if (!CHROMIUM) {
  process.stderr.write(
    '\n*** SKIPPED: the review browser tests need chromium (apt-get install chromium, or INTENTSIM_CHROMIUM=path) ***\n\n',
  );
}

const SCRIPT_TITLE = '<script>window.__pwned = "script"</script>Rugged Case';
const IMG_TITLE = '"><img src=x onerror="window.__pwned = \'img\'">Screen Protector';
const REASON_KEY = { 'second-right-answer': 's', 'gold-wrong': 'g', 'unclear-wording': 'w' } as const;
const VALIDITY_KEY = { valid: 'v', invalid: 'i', unsure: 'u' } as const;

async function waitForPosition(page: Page, position: number): Promise<void> {
  // The page's script sets data-busy and data-position on <body> (strings: the test has no DOM types).
  await page.waitForFunction(
    `document.body.dataset.busy === 'false' && document.body.dataset.position === '${position}'`,
    { timeout: 20_000 },
  );
}

/** Nothing of a hostile title ran or became an element. */
async function expectNoInjection(page: Page): Promise<void> {
  const found = await page.evaluate(`({
    pwned: window.__pwned ?? null,
    imgs: document.querySelectorAll('img').length,
    scripts: [...document.querySelectorAll('script')].map((s) => s.getAttribute('src')),
  })`);
  expect(found).toEqual({ pwned: null, imgs: 0, scripts: ['/review.js'] });
}

async function currentItemId(page: Page): Promise<string> {
  return ((await page.evaluate(`document.body.dataset.item ?? ''`)) as string).split('#')[1]!;
}

/** Types one label: option digits, validity key, reason keys, Enter; waits for the next item. */
async function typeLabel(page: Page, label: ScriptedLabel, position: number, optionLetters = ['A', 'B', 'C', 'D']) {
  for (const letter of label.correct) await page.keyboard.press(String(optionLetters.indexOf(letter) + 1) as '1');
  await page.keyboard.press(VALIDITY_KEY[label.validity]);
  for (const r of label.reasons) await page.keyboard.press(REASON_KEY[r]);
  await page.keyboard.press('Enter');
  await waitForPosition(page, position + 1);
}

describe.skipIf(!CHROMIUM)('review page in chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await puppeteer.launch({
      executablePath: CHROMIUM!,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('two annotators label six items by keyboard; reload resumes, Backspace goes back; the export matches the hand count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-review-browser-'));
    const titles = [SCRIPT_TITLE, IMG_TITLE, 'Kettle', 'Teapot', 'Mug', 'Lamp'];
    const items = writeItemsDir(join(dir, 'items'), {
      'intentionqa_task1.jsonl': manyIntentionQaItems(6, (i) => titles[i]!),
    });
    const { store } = await openReview({
      itemsDir: items,
      reviewDir: join(dir, 'review'),
      annotators: ['a', 'b'],
      seed: 5,
    });
    const server = await serveReview({ store });
    const notFound: string[] = [];
    try {
      const pages = await Promise.all(
        server.links.map(async (link) => {
          const context = await browser.createBrowserContext();
          const page = await context.newPage();
          // Every request the page makes is answered: the favicon too (it was a 404 in the console).
          page.on('response', (response) => {
            if (response.status() === 404) notFound.push(response.url());
          });
          await page.goto(link.url);
          await waitForPosition(page, 0);
          return { who: link.annotator as 'a' | 'b', page };
        }),
      );
      // A link with a wrong token loads nothing and says why.
      const stranger = await (await browser.createBrowserContext()).newPage();
      await stranger.goto(server.links[0]!.url.replace(/token=.*/, 'token=wrong'));
      await stranger.waitForFunction(`document.body.dataset.busy === 'false'`);
      expect(await stranger.$eval('#status', (e) => e.textContent)).toBe(
        'Cannot load the review: a valid annotator token is needed',
      );
      const seenTitles = new Set<string>();
      // Both annotators at once: each page labels its items in the order it is shown them.
      await Promise.all(
        pages.map(async ({ who, page }) => {
          const byId = new Map(SIX_ITEM_LABELS[who].map((l) => [l.id, l]));
          for (let position = 0; position < 6; position++) {
            if (who === 'a' && position === 3) {
              await page.reload();
              await waitForPosition(page, 3);
              expect(await page.$eval('#progress', (e) => e.textContent)).toBe('3 / 6 done');
            }
            const id = await currentItemId(page);
            const products = await page.$$eval('#products li', (lis) => lis.map((li) => li.textContent));
            seenTitles.add(products[0]!);
            await expectNoInjection(page);
            if (who === 'b' && position === 4) {
              // Backspace: back to the previous item, its marks restored; Enter saves them again.
              await page.keyboard.press('Backspace');
              await waitForPosition(page, 3);
              const previous = byId.get(await currentItemId(page))!;
              expect(await page.$$eval('#options li.marked', (lis) => lis.map((li) => li.dataset.letter))).toEqual(
                previous.correct,
              );
              expect(await page.$eval('#validity input:checked', (e) => e.getAttribute('value'))).toBe(
                previous.validity,
              );
              await page.keyboard.press('Enter');
              await waitForPosition(page, 4);
            }
            await typeLabel(page, byId.get(id)!, position);
          }
          expect(await page.$eval('#status', (e) => e.textContent)).toBe(
            'All 6 items reviewed. Backspace goes back to the last one.',
          );
          expect(await page.$eval('#progress', (e) => e.textContent)).toBe('6 / 6 done');
        }),
      );
      expect(seenTitles.has(SCRIPT_TITLE) && seenTitles.has(IMG_TITLE)).toBe(true);
      expect(notFound).toEqual([]);
      for (const { page } of pages) await expectNoInjection(page);

      const out = join(dir, 'export');
      const { summary, kept } = await exportReview({ reviewDir: join(dir, 'review'), out, keep: 'valid' });
      expect(summary.judgements).toBe(12);
      expect(summary.validity.map((v) => [v.difficulty, v.successes, v.n])).toEqual([
        ['easy', 4, 4],
        ['medium', 2, 4],
        ['hard', 0, 4],
      ]);
      expect(summary.validityCounts).toEqual({ valid: 6, invalid: 4, unsure: 2 });
      expect([summary.secondRightAnswer.successes, summary.goldAgreement.successes]).toEqual([3, 11]);
      expect(summary.agreement!.table).toEqual([
        [2, 1, 0],
        [1, 1, 0],
        [0, 0, 1],
      ]);
      expect(summary.agreement!.kappa).toBeCloseTo(5 / 11, 12);
      expect(kept).toEqual({ 'intentionqa_task1.jsonl': 2 });
      const lines = manyIntentionQaItems(6, (i) => titles[i]!);
      expect(readFileSync(join(out, 'items', 'intentionqa_task1.jsonl'), 'utf8')).toBe(`${lines[0]}\n${lines[3]}\n`);
    } finally {
      await server.close();
      store.close();
    }
  }, 180_000);

  it('SIB items the same way: session products, question, the options of the task (three for Task 4), the label', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-review-sib-'));
    const t4 = JSON.parse(sibTaskLine('s1/n1/T4', ['Pillow', 'Eye mask'], { letter: 'C' })) as Record<string, unknown>;
    const prompt =
      'Act as a customer.\nProduct 1: Pillow\nAttributes: x\nProduct 2: Eye mask\nAttributes: y\n\n' +
      'Do you still want to explore similar products?\n\n' +
      'A. Yes: same category. B. Maybe yes: other features. C. No: other categories.\n\nYour Answer (Answer A or B or C only):';
    Object.assign(t4, { task: 4, answer_letters: ['A', 'B', 'C'], prompts: { 'zero-shot': prompt } });
    const items = writeItemsDir(join(dir, 'items'), {
      'sib-tasks.jsonl': [
        sibTaskLine('s1/n1/T1', [IMG_TITLE, 'Coffee, 2 lb'], { binary: 'negative' }),
        JSON.stringify(t4),
      ],
    });
    const { store } = await openReview({ itemsDir: items, reviewDir: join(dir, 'review'), annotators: ['a'] });
    const server = await serveReview({ store });
    try {
      const page = await browser.newPage();
      await page.goto(server.links[0]!.url);
      await waitForPosition(page, 0);
      for (let position = 0; position < 2; position++) {
        const id = await currentItemId(page);
        const shown = {
          products: await page.$$eval('#products li', (lis) => lis.map((li) => li.textContent)),
          letters: await page.$$eval('#options li', (lis) => lis.map((li) => li.dataset.letter)),
          gold: await page.$eval('#gold', (e) => e.textContent),
        };
        await expectNoInjection(page);
        if (id === 's1/n1/T1') {
          expect(shown).toEqual({
            products: [IMG_TITLE, 'Coffee, 2 lb'],
            letters: ['A', 'B', 'C', 'D'],
            gold: 'C, D (negative (constructed))',
          });
          // Disputes the constructed negative: Yes is right.
          await typeLabel(page, { id, correct: ['A'], validity: 'invalid', reasons: ['gold-wrong'] }, position);
        } else {
          expect(shown).toEqual({ products: ['Pillow', 'Eye mask'], letters: ['A', 'B', 'C'], gold: 'C (label C)' });
          await page.keyboard.press('4'); // no fourth option: nothing happens
          await typeLabel(page, { id, correct: ['C'], validity: 'valid', reasons: [] }, position);
        }
      }
      expect(store.labels('a').map((l) => [l.itemKey, l.correct, l.validity, l.reasons])).toEqual(
        expect.arrayContaining([
          ['sib-tasks.jsonl#s1/n1/T1', ['A'], 'invalid', ['gold-wrong']],
          ['sib-tasks.jsonl#s1/n1/T4', ['C'], 'valid', []],
        ]),
      );
    } finally {
      await server.close();
      store.close();
    }
  }, 120_000);

  it('blind: no gold, id, difficulty or relation in the DOM or the JSON fetched; marks are stored in the item’s letters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-review-blind-'));
    const line = (i: number, task: 1 | 2) =>
      intentionQaLine({
        id: `SECRETID${i}`,
        task,
        difficulty: ['easy', 'medium', 'hard'][i % 3]!,
        relation: 'xRelationZ',
        a: `Given Kettle ${i}`,
        b: `Brass Teapot ${i}`,
        options: (['A', 'B', 'C', 'D'] as const).map((l) =>
          l === 'ABCD'[i % 4] ? (task === 2 ? `Brass Teapot ${i}` : `because true reason ${i}.`) : `Other ${l}${i}`,
        ) as [string, string, string, string],
        gold: 'ABCD'[i % 4] as 'A',
      });
    const items = writeItemsDir(join(dir, 'items'), {
      'intentionqa_task1.jsonl': [0, 1, 2].map((i) => line(i, 1)),
      'intentionqa_task2.jsonl': [3, 4, 5].map((i) => line(i, 2)),
    });
    const { store } = await openReview({
      itemsDir: items,
      reviewDir: join(dir, 'review'),
      annotators: ['a'],
      blind: true,
    });
    const server = await serveReview({ store });
    try {
      const page = await browser.newPage();
      const fetched: string[] = [];
      page.on('response', (res) => {
        if (res.url().includes('/api/')) void res.text().then((t) => fetched.push(t));
      });
      await page.goto(server.links[0]!.url);
      await waitForPosition(page, 0);
      const reviewed = store.items();
      const hints = ['SECRETID', 'xRelationZ', 'easy', 'medium', 'hard', 'intentionqa_task', 'answer:', '★'];
      for (let position = 0; position < 6; position++) {
        const item = reviewed[position]!;
        const goldText = item.options.find((o) => o.letter === item.gold[0])!.text;
        const dom = (await page.evaluate(`({
          html: document.documentElement.outerHTML,
          text: document.body.innerText,
          gold: document.querySelectorAll('.gold, #gold, #gold-line, [data-gold]').length,
          options: [...document.querySelectorAll('#options li')].map((li) => li.textContent),
          item: document.body.dataset.item,
        })`)) as { html: string; text: string; gold: number; options: string[]; item: string };
        expect(dom.gold).toBe(0);
        expect(dom.item).toBe('');
        for (const hint of hints) expect(dom.html.toLowerCase(), hint).not.toContain(hint.toLowerCase());
        // The gold's text once in the page: as one of the options (Task 2: never among the products).
        expect(dom.html.split(goldText).length - 1).toBe(1);
        const shown = blindLetters(item, 1).toShown.get(item.gold[0]!)!;
        expect(dom.options['ABCD'.indexOf(shown)]).toBe(`${'ABCD'.indexOf(shown) + 1} · ${shown}${goldText}`);
        await page.keyboard.press(String('ABCD'.indexOf(shown) + 1) as '1');
        // No "gold wrong" reason without the gold: g does nothing.
        await page.keyboard.press('g');
        expect(await page.$$eval('#reasons input:checked', (inputs) => inputs.length)).toBe(0);
        await page.keyboard.press('v');
        await page.keyboard.press('Enter');
        await waitForPosition(page, position + 1);
      }
      expect(fetched.length).toBeGreaterThanOrEqual(7);
      for (const body of fetched) {
        for (const hint of [...hints, 'gold', '"id"', '"key"', 'difficulty', 'relation']) {
          expect(body.toLowerCase(), hint).not.toContain(hint.toLowerCase());
        }
      }
      expect(store.labels('a').map((l) => l.correct)).toEqual(reviewed.map((item) => item.gold));
      const { summary } = await exportReview({ reviewDir: join(dir, 'review'), out: join(dir, 'export') });
      expect(summary.measures.filter((m) => m.difficulty === 'all').map((m) => [m.task, m.valid.successes])).toEqual([
        ['intentionqa-1', 3],
        ['intentionqa-2', 3],
      ]);
      expect(summary.consistency.labels).toEqual([]);
    } finally {
      await server.close();
      store.close();
    }
  }, 120_000);

  it('a 20-item review by keyboard: the time per item, the summary, and the screenshot in docs/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-review-20-'));
    const items = writeItemsDir(join(dir, 'items'), { 'intentionqa_task1.jsonl': realisticItems(20) });
    const { store } = await openReview({
      itemsDir: items,
      reviewDir: join(dir, 'review'),
      annotators: ['ann'],
      sample: 20,
      stratify: ['difficulty'],
      seed: 1,
    });
    const server = await serveReview({ store });
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1000, height: 860 });
      await page.goto(server.links[0]!.url);
      await waitForPosition(page, 0);
      const perItem: number[] = [];
      for (let position = 0; position < 20; position++) {
        const gold = await page.$eval('#options li.gold', (li) => li.dataset.letter!);
        const started = performance.now();
        // Every fifth item: a second right answer too, and invalid.
        const second = position % 5 === 4;
        const letters = second ? [gold, gold === 'A' ? 'B' : 'A'] : [gold];
        if (position === 0) {
          for (const l of letters) await page.keyboard.press(String('ABCD'.indexOf(l) + 1) as '1');
          await page.keyboard.press('v');
          // docs/review.png is this screenshot: INTENTSIM_UPDATE_DOCS=1 writes it there, else to the temp folder.
          const shot =
            process.env.INTENTSIM_UPDATE_DOCS === '1'
              ? new URL('../docs/review.png', import.meta.url).pathname
              : join(dir, 'review.png');
          mkdirSync(dirname(shot), { recursive: true });
          await page.screenshot({ path: shot as `${string}.png` });
          expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG');
          await page.keyboard.press('Enter');
          await waitForPosition(page, 1);
          continue;
        }
        await typeLabel(
          page,
          {
            id: '',
            correct: letters,
            validity: second ? 'invalid' : 'valid',
            reasons: second ? ['second-right-answer'] : [],
          },
          position,
        );
        perItem.push(performance.now() - started);
      }
      const { summary } = await exportReview({ reviewDir: join(dir, 'review'), out: join(dir, 'export') });
      expect(summary.judgements).toBe(20);
      expect(summary.validityCounts).toEqual({ valid: 16, invalid: 4, unsure: 0 });
      expect(summary.secondRightAnswer.successes).toBe(4);
      expect(summary.goldAgreement.successes).toBe(20);
      perItem.sort((x, y) => x - y);
      const median = perItem[perItem.length >> 1]!;
      process.stdout.write(
        `review-browser: 20 items by keyboard; keys to next item shown: median ${median.toFixed(0)} ms, ` +
          `max ${perItem[perItem.length - 1]!.toFixed(0)} ms (${perItem.length} items timed); ` +
          `page-measured median ${summary.medianMs} ms per item\n` +
          readFileSync(join(dir, 'export', 'summary.md'), 'utf8'),
      );
    } finally {
      await server.close();
      store.close();
    }
  }, 180_000);
});

/** `n` IntentionQA Task 1 items in the pipeline's words (four pairs, repeated with new ids). */
function realisticItems(n: number): string[] {
  const pairs = [
    {
      a: 'Quillon Rugged Phone Case for Galaxy S21',
      b: 'Pellucid Matte Screen Protector for Pixel 6 - 2 Pack',
      relation: 'usedFor',
      options: [
        'because they are both used for protecting a phone.',
        'because they both are related to mobile phones.',
        'because they are both used for listening to music on his phone.',
        'because he was packing for a long flight.',
      ] as [string, string, string, string],
    },
    {
      a: 'Glowbar Gentle Foaming Facial Cleanser, 8 fl oz',
      b: 'Dermalux Ceramide Night Repair Moisturizer, 1.7 oz',
      relation: 'isA',
      options: [
        'because they are both skin care products.',
        'because he wanted to brew coffee at home.',
        'because they are both used for camping.',
        'because they are both kitchen tools.',
      ] as [string, string, string, string],
    },
    {
      a: 'Stridemax Cushioned Road Running Shoes, Size 10',
      b: 'Coolrun Moisture-Wicking Running Socks, 3 Pairs',
      relation: 'usedFor',
      options: [
        'because they are both used for painting a room.',
        'because they are both used for running.',
        'because she was decorating a nursery.',
        'because they both are related to office supplies.',
      ] as [string, string, string, string],
    },
    {
      a: 'Colombian Medium Roast Whole Bean Coffee, 2 lb',
      b: 'Ceramic Pour-Over Coffee Dripper',
      relation: 'usedFor',
      options: [
        'because they are both used for gardening.',
        'because they are both used for hiking.',
        'because they are both used for making coffee.',
        'because they both are related to pet care.',
      ] as [string, string, string, string],
    },
  ];
  const difficulties = ['easy', 'medium', 'hard'];
  const golds = ['A', 'B', 'B', 'C'] as const;
  return Array.from({ length: n }, (_, i) => {
    const p = pairs[i % pairs.length]!;
    return intentionQaLine({
      id: `R${i + 1}`,
      task: 1,
      difficulty: difficulties[i % 3]!,
      relation: p.relation,
      a: p.a,
      b: p.b,
      options: p.options,
      gold: golds[i % pairs.length]!,
    });
  });
}
