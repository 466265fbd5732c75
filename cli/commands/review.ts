// `review start`, `review export` and `review import` (issue 28): a person checks a sample of the
// items on a local web page, and the labels become a summary (validity, second right answers, gold
// agreement, κ) and, with --keep valid, filtered item files.
import { Option, type Command } from '@commander-js/extra-typings';
import { checkPaths } from '../../core/check-paths.js';
import { STRATUM_FIELDS, type StratumField } from '../../engine/review/sample-items.js';
import { nameList, nonNegativeInt, positiveInt } from '../options/value-parsers.js';
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { malformedItemsLine } from '../malformed-items.js';

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

  review
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
    .option('--port <n>', 'port (0: any free one, printed)', nonNegativeInt, 0)
    .option('--host <address>', 'address to listen on (another than loopback needs tokens)', '127.0.0.1')
    .option('--no-tokens', 'links without tokens (loopback only)')
    .option('--blind', 'the page shows no gold, no ids; annotators mark every right option (fixed at the start)')
    .action(async (o) => {
      // The review store (better-sqlite3) and server load when the command runs, not for `--help` (issue 50).
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
      const setApart = malformedItemsLine(malformed);
      if (setApart !== undefined) process.stdout.write(`${setApart}; not sampled\n`);
      for (const link of server.links) process.stdout.write(`  ${link.annotator}: ${link.url}\n`);
      process.stdout.write(`${annotators.length} annotator link(s); Ctrl-C stops (every save is already on disk)\n`);
      // Serve until interrupted: the interrupt handler of main.ts ends the process.
      await new Promise<never>(() => undefined);
    });

  review
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
    .option('--mturk-csv <file>', 'also write the MTurk batch input CSV')
    .action(async (o) => {
      // The review store (better-sqlite3) loads when the command runs, not for `--help` (issue 50).
      const { exportReview } = await import('../../engine/review/export-review.js');
      const r = await exportReview({ reviewDir: o.review, out: o.out, keep: o.keep, mturkCsv: o.mturkCsv });
      const s = r.summary;
      const kappa = s.agreement?.kappa;
      process.stdout.write(
        `${s.judgements} judgements of ${s.items.labelled} items; valid ${s.validityCounts.valid}; ` +
          (s.agreement
            ? `${s.agreement.method === 'cohen' ? "Cohen's" : "Fleiss'"} κ ${kappa === null ? 'undefined' : kappa?.toFixed(3)}`
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

  review
    .command('import')
    .summary("read Mechanical Turk's results CSV into a review")
    .requiredOption('--review <dir>', 'review folder (of `review start`)')
    .requiredOption(
      '--mturk-results <file>',
      'the results CSV MTurk gives for the batch of `review export --mturk-csv`',
    )
    .action(async (o) => {
      // The review store (better-sqlite3) loads when the command runs, not for `--help` (issue 50).
      const { importMturkPaths, importMturkResults } = await import('../../engine/review/mturk.js');
      const { ReviewStore } = await import('../../engine/review/review-store.js');
      checkPaths(importMturkPaths({ reviewDir: o.review, mturkResults: o.mturkResults }));
      const store = ReviewStore.open(o.review);
      try {
        const r = await importMturkResults(store, o.mturkResults);
        process.stdout.write(
          `imported ${r.imported} assignments by ${r.workers} workers` +
            (r.rejected > 0 ? `; left out ${r.rejected} rejected assignments` : '') +
            '\n',
        );
      } finally {
        store.close();
      }
    });
}
