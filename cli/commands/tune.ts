// `intentsim tune --review DIR` (issue 34): window bounds from a review's labels, written as an item
// settings file for `pipeline --settings` and `demo --settings` (docs/tune.md).
import type { Command } from '@commander-js/extra-typings';
import { warning } from '../../core/notice.js';
import { declarePaths } from '../declared-paths.js';
import { fraction, nonNegativeInt } from '../options/value-parsers.js';

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

Writes --settings-out (JSON): {"format", "items": {"task1Window", "task2Window"},
"tune": how they were found}; \`pipeline\` and \`demo\` take it with --settings FILE
(a --task1-window / --task2-window given too overrides it). A task with no window
that meets the target is left out, with a warning, and listed in "notTuned"
(--settings warns that its default applies); with none for any task nothing is
written and the exit status is 1.

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
    .option('--max-f-neg <x>', 'the largest estimated F-Neg of an item, in (0, 1)', fraction, 0.05)
    .option('--bootstrap <n>', 'bootstrap replicates for the intervals (0: none)', nonNegativeInt, 1000)
    .option('--seed <n>', 'seed of the bootstrap (same review + seed = same figures)', nonNegativeInt, 1);
  declarePaths(command, async (o) =>
    (await import('../../engine/review/tune-review.js')).tunePaths({ reviewDir: o.review, settingsOut: o.settingsOut }),
  ).action(async (o) => {
    // The review store (better-sqlite3) loads when the command runs, not for `--help` (issue 50).
    const { tuneReview } = await import('../../engine/review/tune-review.js');
    const { renderTuneTable } = await import('../../engine/review/tune-report.js');
    const r = await tuneReview({
      reviewDir: o.review,
      settingsOut: o.settingsOut,
      maxFNeg: o.maxFNeg,
      bootstrap: o.bootstrap,
      seed: o.seed,
    });
    const lines = [
      ...(r.blind ? [] : ['NOTE: the review was not blind: its annotators saw the gold.', '']),
      ...renderTuneTable(r.result),
      '',
      ...(r.file === null ? [] : [`wrote ${r.file}: ${JSON.stringify(r.settings)}`]),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    // A task without a proposal keeps its default window, which tune has just found failing: said
    // loudly, and recorded in the file (notTuned); with no proposal at all nothing is written.
    for (const [field, why] of Object.entries(r.notTuned)) {
      const flag = field === 'task1Window' ? '--task1-window' : '--task2-window';
      warning(`${flag}: ${why}; ${r.file === null ? 'no settings file written' : `${r.file} leaves it out`}`);
    }
    if (r.file === null) {
      process.stderr.write(
        `intentsim: no settings file written: no task has a window that meets the target ` +
          `(--max-f-neg ${o.maxFNeg}); see the table above\n`,
      );
      process.exitCode = 1;
    }
  });
}
