// `intentsim tune --review DIR` (issue 34): window bounds from a review's labels, written as an item
// settings file for `pipeline --settings` and `demo --settings` (docs/tune.md).
import type { Command } from '@commander-js/extra-typings';
import { warning } from '../../core/notice.js';
import { declarePaths } from '../declared-paths.js';
import { fraction, nonNegativeInt } from '../options/value-parsers.js';
import { SETTING_FLAGS } from '../options/item-options.js';

const TUNE_HELP = `
Reads a review's labels (\`intentsim review start\`, best with --blind, or
\`review import\`): for every reviewed IntentionQA item, each distractor's
similarity (Task 1: Sim_i, Task 2: Sim_p; the items' distractors[].score) and
whether more than half of the item's judgements marked it right. Per task it fits
P(right | s) = σ(a + b·s) by maximum likelihood, estimates an item's F-Neg for a
window as 1 − (1 − p̄)³ (p̄: the curve's mean over the observed similarities in
the window), and proposes the window that keeps the most of them with that
estimate ≤ --max-f-neg: the upper bound lowered (or, for a falling curve, the
lower one raised). Intervals: 95%, bootstrap over items, seeded.

The rules' cut-offs the same way, where the items record what each rule read
(distractors[].fit, own_fit, pair_fit, asserted_cosine): --anchor-margin from
own_fit − fit (Task 1), --fit-margin from pair_fit − fit (Task 2),
--second-answer-cosine from asserted_cosine; each tightened to keep the most
distractors with the estimate ≤ --max-f-neg (never loosened: the items were made
with the rule on). A review keeps the items as they were when it started: --items
DIR reads them from a folder of the same items made again (same ids, options and
gold), e.g. by a pipeline that records the readings.

Writes --settings-out (JSON): {"format", "items": {"task1Window", "task2Window",
"anchorMargin", "fitMargin", "secondAnswerCosine"}, "tune": how they were found};
\`pipeline\` and \`demo\` take it with --settings FILE (the flag of a setting given
too overrides it). A setting with no proposal is left out, with a warning, and
listed in "notTuned" (--settings warns that its default applies); with none at
all nothing is written and the exit status is 1.

Example
  intentsim tune --review review/ --settings-out tuned.json --max-f-neg 0.05
  intentsim demo --out demo-tuned --settings tuned.json`;

export function registerTuneCommand(program: Command): void {
  const command = program
    .command('tune')
    .summary('window bounds from a review’s labels, under an F-Neg target, as a settings file')
    .description(TUNE_HELP)
    .requiredOption('--review <dir>', 'review folder (of `review start`)')
    .requiredOption('--settings-out <file>', 'the settings file to write (for `pipeline` / `demo --settings`)')
    .option(
      '--items <dir>',
      "the reviewed items made again (same ids, options and gold; e.g. with the rules' readings): read from here instead of the review's stored copy",
    )
    .option('--max-f-neg <x>', 'the largest estimated F-Neg of an item, in (0, 1)', fraction, 0.05)
    .option('--bootstrap <n>', 'bootstrap replicates for the intervals (0: none)', nonNegativeInt, 1000)
    .option('--seed <n>', 'seed of the bootstrap (same review + seed = same figures)', nonNegativeInt, 1);
  declarePaths(command, async (o) =>
    (await import('../../engine/review/tune-review.js')).tunePaths({
      reviewDir: o.review,
      settingsOut: o.settingsOut,
      ...(o.items === undefined ? {} : { itemsDir: o.items }),
    }),
  ).action(async (o) => {
    // The review store (better-sqlite3) loads when the command runs, not for `--help` (issue 50).
    const { tuneReview } = await import('../../engine/review/tune-review.js');
    const { renderCutoffTable, renderTuneTable } = await import('../../engine/review/tune-report.js');
    const r = await tuneReview({
      reviewDir: o.review,
      settingsOut: o.settingsOut,
      ...(o.items === undefined ? {} : { itemsDir: o.items }),
      maxFNeg: o.maxFNeg,
      bootstrap: o.bootstrap,
      seed: o.seed,
    });
    const lines = [
      ...(r.blind ? [] : ['NOTE: the review was not blind: its annotators saw the gold.', '']),
      ...renderTuneTable(r.result),
      '',
      ...(r.cutoffs.length > 0 ? [...renderCutoffTable(r.cutoffs), ''] : []),
      ...(r.file === null ? [] : [`wrote ${r.file}: ${JSON.stringify(r.settings)}`]),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    // A task without a proposal keeps its default window, which tune has just found failing: said
    // loudly, and recorded in the file (notTuned); with no proposal at all nothing is written.
    for (const [field, why] of Object.entries(r.notTuned)) {
      const flag = SETTING_FLAGS[field as keyof typeof SETTING_FLAGS];
      warning(`${flag}: ${why}; ${r.file === null ? 'no settings file written' : `${r.file} leaves it out`}`);
    }
    if (r.file === null) {
      process.stderr.write(
        `intentsim: no settings file written: no window or cut-off meets the target ` +
          `(--max-f-neg ${o.maxFNeg}); see the table above\n`,
      );
      process.exitCode = 1;
    }
  });
}
