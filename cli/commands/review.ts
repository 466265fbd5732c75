// `review start`, `review export` and `review import` (issue 28): a person checks a sample of the
// items on a local web page, and the labels become a summary (validity, second right answers, gold
// agreement, κ) and, with --keep valid, filtered item files.
import { Option, type Command } from '@commander-js/extra-typings';
import { declarePaths } from '../declared-paths.js';
import { STRATUM_FIELDS, type StratumField } from '../../engine/review/sample-items.js';
import { nameList, nonNegativeInt, portNumber, positiveInt } from '../options/value-parsers.js';
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { malformedItemsLine } from '../malformed-items.js';
import { writeFileAtomic } from '../../core/atomic.js';

function stratumList(value: string): StratumField[] {
  const names = nameList(value);
  for (const n of names) {
    if (!STRATUM_FIELDS.includes(n as StratumField)) {
      throw new InvalidArgumentError(`Expected some of ${STRATUM_FIELDS.join(', ')}.`);
    }
  }
  return names as StratumField[];
}

export function registerReviewCommands(program: Command): void {
  const review = program
    .command('review')
    .description('check items by hand on a local web page, measure agreement, keep the items that pass');

  const start = review
    .command('start')
    .summary('serve the review page and print one link per annotator')
    .description(
      `Samples the items of --items (intentionqa_task1.jsonl, intentionqa_task2.jsonl,
sib-tasks.jsonl, sib-distractors.jsonl; whichever are there), stores the sample in
REVIEW_DIR/review.sqlite and serves the review page until Ctrl-C. Each annotator
gets a link carrying a token; labels are saved one transaction each, and a rerun
on the same REVIEW_DIR resumes (a different items folder or sample is refused).

Keys on the page: 1–4 toggle options (mark every correct one), v / i / u set the
validity, s g w f o toggle reasons, Enter saves and goes on, Backspace goes back.

--blind hides the gold: no answer line, no id, difficulty or relation, no product B
in Task 2 (it is the answer), IntentionQA options in an order of their own; the
annotator marks every right option, and the export gives the paper's per-item
Valid / F-Neg / Correct. A review is blind or not from its start.

Example
  intentsim review start --items out/items --out review/ --sample 200 \\
    --stratify task,difficulty --seed 7 --annotators ann,bob`,
    )
    .requiredOption('--items <dir>', 'items folder (what `pipeline`, `demo` or `items sib` wrote)')
    .requiredOption('--out <dir>', 'review folder (created; resumed when it holds a review)')
    .option('--sample <n>', 'review a sample of n items (default: all)', positiveInt)
    .option('--stratify <fields>', `strata of the sample: some of ${STRATUM_FIELDS.join(',')}`, stratumList)
    .option('--seed <seed>', 'seed of the sample (default 1; same items + seed = same sample)', nonNegativeInt)
    .option(
      '--annotators <names>',
      'comma-separated annotator names (default: annotator; a resumed review adds new ones)',
      nameList,
    )
    .option('--port <n>', 'port (0: any free one, printed)', portNumber, 0)
    .option('--host <address>', 'address to listen on (another than loopback needs tokens)', '127.0.0.1')
    .option('--no-tokens', 'links without tokens (loopback only)')
    .option('--blind', 'the page shows no gold, no ids; annotators mark every right option (fixed at the start)');
  // The review store (better-sqlite3) and server load when the command runs, not for `--help` (issue 50).
  declarePaths(start, async (o) =>
    (await import('../../engine/review/open-review.js')).openReviewPaths({ itemsDir: o.items, reviewDir: o.out }),
  ).action(async (o) => {
    const { openReview } = await import('../../engine/review/open-review.js');
    const { serveReview } = await import('../../engine/review/review-server.js');
    const { store, annotators, resumed, malformed } = await openReview({
      itemsDir: o.items,
      reviewDir: o.out,
      sample: o.sample,
      stratify: o.stratify,
      seed: o.seed,
      annotators: o.annotators,
      blind: o.blind,
    });
    const server = await serveReview({ store, host: o.host, port: o.port, tokens: o.tokens });
    const total = store.itemCount();
    process.stdout.write(
      `${resumed ? 'resuming' : 'started'} ${store.settings().blind ? 'blind ' : ''}review of ${total} items in ${o.out} ` +
        `(${store.labels().length} labels so far); serving ${server.url}\n`,
    );
    const setApart = malformedItemsLine(malformed, 'sampled');
    if (setApart !== undefined) process.stdout.write(`${setApart}\n`);
    for (const link of server.links) process.stdout.write(`  ${link.annotator}: ${link.url}\n`);
    process.stdout.write(`${annotators.length} annotator link(s); Ctrl-C stops (every save is already on disk)\n`);
    // Serve until interrupted: the interrupt handler of main.ts ends the process.
    await new Promise<never>(() => undefined);
  });

  const exportCommand = review
    .command('export')
    .summary('write labels.jsonl, the summary (JSON, markdown, SVG) and optionally the items that passed')
    .description(
      `Writes to --out: labels.jsonl (one line per annotator × item), summary.json,
summary.md and summary.svg (validity per task × difficulty with Wilson 95%
intervals, second right answers, gold agreement, Cohen's κ for two annotators or
Fleiss' κ for more; per item, by majority of the options marked right: Valid,
F-Neg, Correct; labels that say valid without marking the gold, or marking a
distractor too); with --keep valid, items/<file> holding the items more than half
of whose judgements say valid with marks that agree, in the input format (for
\`ask\` and \`score\`); with --mturk-csv, the Mechanical Turk batch input for
engine/review/assets/mturk-template.html (a blind review: mturk-template-blind.html,
no gold in the CSV).`,
    )
    .requiredOption('--review <dir>', 'review folder (of `review start`)')
    .requiredOption('--out <dir>', 'output folder')
    .addOption(new Option('--keep <which>', 'also write the items that passed').choices(['valid'] as const))
    .option('--mturk-csv <file>', 'also write the MTurk batch input CSV');
  declarePaths(exportCommand, async (o) =>
    (await import('../../engine/review/export-review.js')).exportReviewPaths({ ...o, reviewDir: o.review }),
  ).action(async (o) => {
    const { exportReview } = await import('../../engine/review/export-review.js');
    const r = await exportReview({ reviewDir: o.review, out: o.out, keep: o.keep, mturkCsv: o.mturkCsv });
    const s = r.summary;
    const kappa = s.agreement?.kappa;
    process.stdout.write(
      `${s.judgements} judgements of ${s.items.labelled} items; valid ${s.validityCounts.valid}; ` +
        (s.agreement
          ? `${s.agreement.method === 'cohen' ? "Cohen's" : "Fleiss'"} κ ${kappa === null ? 'undefined' : kappa?.toFixed(3)}`
          : s.judgements === 0
            ? `no labels yet: \`intentsim review start --items ITEMS --out ${o.review}\` serves the labelling pages again (it resumes), or \`intentsim review import\` reads a labelled MTurk batch`
            : 'no κ (one annotator per item)') +
        '\n',
    );
    for (const m of s.measures.filter((row) => row.difficulty === 'all')) {
      const cell = (p: { rate: number | null; successes: number; n: number }) =>
        `${p.rate === null ? '–' : (100 * p.rate).toFixed(1) + '%'} (${p.successes}/${p.n})`;
      process.stdout.write(
        `${m.task}: per item, Valid ${cell(m.valid)}, F-Neg ${cell(m.fNeg)}, Correct ${cell(m.correct)}` +
          `${s.blind ? ' (blind)' : ''}\n`,
      );
    }
    const c = s.consistency;
    if (c.labels.length > 0) {
      process.stdout.write(
        `flagged ${c.labels.length} labels that say valid: ${c.validWithoutGold} without the gold marked, ` +
          `${c.validWithDistractor} with a distractor marked (summary.md; not counted as votes to keep)\n`,
      );
    }
    if (r.kept) for (const [file, n] of Object.entries(r.kept)) process.stdout.write(`kept ${n} items of ${file}\n`);
    for (const f of r.files) process.stdout.write(`wrote ${f}\n`);
  });

  const importCommand = review
    .command('import')
    .summary("read Mechanical Turk's results CSV into a review")
    .requiredOption('--review <dir>', 'review folder (of `review start`)')
    .requiredOption(
      '--mturk-results <file>',
      'the results CSV MTurk gives for the batch of `review export --mturk-csv`',
    )
    .option(
      '--replace',
      "replace a worker's label from an earlier import that a row changes (default: refuse; the same label again is left as it is)",
    );
  declarePaths(importCommand, async (o) =>
    (await import('../../engine/review/mturk.js')).importMturkPaths({
      reviewDir: o.review,
      mturkResults: o.mturkResults,
    }),
  ).action(async (o) => {
    const { importMturkResults } = await import('../../engine/review/mturk.js');
    const { ReviewStore } = await import('../../engine/review/review-store.js');
    const store = ReviewStore.open(o.review);
    try {
      const r = await importMturkResults(store, o.mturkResults, { replace: o.replace === true });
      process.stdout.write(
        `imported ${r.imported} assignments by ${r.workers} workers` +
          (r.replaced > 0 ? ` (${r.replaced} replacing an earlier import's label)` : '') +
          (r.unchanged > 0 ? `; ${r.unchanged} already imported, unchanged` : '') +
          (r.rejected > 0 ? `; left out ${r.rejected} rejected assignments` : '') +
          '\n',
      );
    } finally {
      store.close();
    }
  });

  const sibSheet = review
    .command('sib-sheet')
    .summary('write a blind reading sheet of SessionIntentBench items (sheet, instructions, key)')
    .description(
      `Draws a seeded sample of the SessionIntentBench items of --items: --per-kind distinct
questions of each constructed kind (t1-hard-negative, t2-hard-negative, t3-negative,
next-product-choice) and --fillers original T1–T3 questions, shuffled, and writes
OUT/sheet.md (the questions as the blind review page shows them: no id, kind or
label), OUT/instructions.md (answer as the customer, one letter; every right option
for a next-product choice) and OUT/key.json (keep it from the annotators).
Score the answers with \`review sib-sheet-score\`.

Example
  intentsim review sib-sheet --items out/sib --out sheet/ --seed 11`,
    )
    .requiredOption('--items <dir>', 'items folder holding sib-tasks.jsonl and sib-distractors.jsonl')
    .requiredOption('--out <dir>', 'folder for sheet.md, instructions.md and key.json')
    .option('--per-kind <n>', 'distinct questions of each constructed kind', positiveInt, 20)
    .option('--fillers <n>', 'distinct original T1–T3 questions', nonNegativeInt, 20)
    .option('--seed <seed>', 'seed of the sample and its order', nonNegativeInt, 1);
  declarePaths(sibSheet, (o) => ({ inputDirs: { items: o.items }, outputDirs: { out: o.out } })).action(async (o) => {
    const { writeSibSheet } = await import('../../engine/review/sib-sheet.js');
    const key = await writeSibSheet({
      itemsDir: o.items,
      out: o.out,
      perKind: o.perKind,
      fillers: o.fillers,
      seed: o.seed,
    });
    const counts = new Map<string, number>();
    for (const q of key.questions) counts.set(q.kind, (counts.get(q.kind) ?? 0) + 1);
    process.stdout.write(
      `${key.questions.length} questions (${[...counts].map(([k, n]) => `${k} ${n}`).join(', ')}) → ${o.out}/sheet.md; key: ${o.out}/key.json\n`,
    );
  });

  const sibScore = review
    .command('sib-sheet-score')
    .summary("compute the SessionIntentBench figures from a sheet's answers")
    .description(
      `Reads the key of \`review sib-sheet\` and one answers file per annotator (lines
"N: C" or "N: A, C"; name=file) and prints the figures: per binary kind, the items
judged as labelled (majority side) and those with a strong answer (D for a
negative); per next-product kind, Valid / F-Neg / Correct (majority of marks).

Example
  intentsim review sib-sheet-score --key sheet/key.json --answers a=a.txt b=b.txt c=c.txt`,
    )
    .requiredOption('--key <file>', 'key.json of `review sib-sheet`')
    .requiredOption('--answers <name=file...>', "one annotator's answers file each, as name=file")
    .option('--out <file>', 'also write the figures (markdown) to this file');
  declarePaths(sibScore, (o) => ({
    inputFiles: { key: o.key, ...answerFiles(o.answers) },
    ...(o.out ? { outputFiles: { out: o.out } } : {}),
  })).action(async (o) => {
    const answers = answerFiles(o.answers);
    const { scoreSibSheet } = await import('../../engine/review/sib-sheet.js');
    const score = await scoreSibSheet(o.key, answers);
    process.stdout.write(score.markdown + '\n');
    if (o.out) await writeFileAtomic(o.out, score.markdown + '\n');
  });
}

/** `--answers name=file …` as {name: file}. */
function answerFiles(list: readonly string[] | undefined): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const a of list ?? []) {
    const at = a.indexOf('=');
    if (at <= 0) throw new InvalidArgumentError(`--answers: expected name=file, got ${JSON.stringify(a)}`);
    answers[a.slice(0, at)] = a.slice(at + 1);
  }
  return answers;
}
