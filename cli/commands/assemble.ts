// `intentsim assemble sib`: SessionIntentBench tasks and distractor-backed items from sessions JSONL.
import { InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import { checkPaths } from '../../core/check-paths.js';
import { ModelNotFoundError } from '../../embeddings/model-resolution.js';
import { openEncoder } from '../../workers/open-encoder.js';
import { assembleSib, sibPaths, SIB_OUTPUT_FILES, type SibSummary } from '../../engine/items/sib/assemble-sib.js';
import { DEFAULT_WINDOWS, type CosineWindow, type DistractorWindows } from '../../engine/items/sib/distractors.js';
import { PROMPT_STYLES, type PromptStyle } from '../../engine/items/sib/sib-types.js';
import { addModelOptions, encoderExecution, encoderSpec } from '../options/model-options.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';
import { addOutDirOption } from '../options/output-options.js';
import { addSeedOption } from '../options/seed-option.js';
import { cosineBounds, positiveInt, seed } from '../options/value-parsers.js';

/** "zero-shot,cot" → the styles, in PROMPT_STYLES order. */
function promptStyles(value: string): PromptStyle[] {
  const styles = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of styles) {
    if (!(PROMPT_STYLES as readonly string[]).includes(s))
      throw new InvalidArgumentError(`Unknown style "${s}" (use ${PROMPT_STYLES.join(', ')}).`);
  }
  if (styles.length === 0) throw new InvalidArgumentError('Name at least one style.');
  return PROMPT_STYLES.filter((s) => styles.includes(s));
}

const fmt = (w: CosineWindow) => `${w.lo},${w.hi}`;

const HELP = `
Builds the four SessionIntentBench tasks at the last step t of every root-to-leaf trajectory of each
session's intention tree (T1 intent-based purchase likelihood, T2 valued-attribute regularisation,
T3 comparison justification, T4 intention evolution), with the paper's zero-shot, 5-shot and
chain-of-thought prompts, and distractor-backed items whose answers are known by construction.

Inputs (JSONL, one record a line):
  --sessions     {"session_id", "products": [{"id", "title", "attributes": {name: value}}],
                  "tree": [{"id", "parent" (null at the root), "step" (1-based product index),
                            "intention", "attribute", "rationale", "comparison"}]}
                 one root at step 1; a child is one step after its parent; comparison needed from step 2
  --annotations  {"session_id", "leaf_id", "task": 1-4, "answer": "B"}  or  "votes": ["A","B","A"]
  --catalog      {"id", "title", "attributes"}: products that may replace P_t in distractor items

Outputs in --out: ${SIB_OUTPUT_FILES.tasks}, ${SIB_OUTPUT_FILES.distractors}, ${SIB_OUTPUT_FILES.summary},
and ${SIB_OUTPUT_FILES.rejects} (with --on-error skip, when something was rejected).

Distractor-backed items (on when --catalog is given, or with --distractors; off with --no-distractors)
need a sentence encoder (Sentence-BERT through ONNX: --model-dir etc., or --encoder offline-hashing-v1,
a stand-in for demos whose similarities carry no meaning). Windows are [lo, hi) on exact cosines.

Example:
  intentsim assemble sib --sessions examples/sib/sessions.jsonl \\
    --annotations examples/sib/annotations.jsonl --catalog examples/sib/catalog.jsonl \\
    --encoder offline-hashing-v1 --per-session 10 --seed 7 --out out/sib`;

function registerSibCommand(assemble: Command): void {
  const command = assemble
    .command('sib')
    .description('SessionIntentBench: four tasks per trajectory in three prompt styles, plus distractor-backed items')
    .addHelpText('after', HELP)
    .requiredOption('--sessions <file>', 'sessions JSONL (streamed)')
    .option('--annotations <file>', 'annotations JSONL: gold letters or annotator votes')
    .option('--catalog <file>', 'catalogue JSONL for the T1/T2 hard negatives and next-product options');
  const withOutput = addOutDirOption(command).option(
    '--per-session <k>',
    'sample k trajectories per session (seeded); default: all',
    positiveInt,
  );
  const withSib = addSeedOption(withOutput, seed)
    .option('--styles <list>', `prompt styles, comma-separated: ${PROMPT_STYLES.join(',')}`, promptStyles, [
      ...PROMPT_STYLES,
    ])
    .option('--distractors', 'make distractor-backed items even without --catalog (T3 negatives only)')
    .option('--no-distractors', 'make no distractor-backed items (no encoder is opened)')
    .option(
      '--window-intention <lo,hi>',
      'T1 hard negatives: cosine(catalogue product, I_{t-1})',
      cosineBounds,
      DEFAULT_WINDOWS.intention,
    )
    .option(
      '--window-attribute <lo,hi>',
      'T2 hard negatives: cosine(catalogue product, A_{t-1})',
      cosineBounds,
      DEFAULT_WINDOWS.attribute,
    )
    .option(
      '--window-comparison <lo,hi>',
      "T3 negatives: cosine(other session's comparison, C_t)",
      cosineBounds,
      DEFAULT_WINDOWS.comparison,
    )
    .option(
      '--window-next <lo,hi>',
      'next-product options: cosine(catalogue product, P_t)',
      cosineBounds,
      DEFAULT_WINDOWS.nextProduct,
    )
    .option(
      '--comparison-pool <n>',
      'comparisons kept (seeded reservoir over all sessions) for T3 negatives',
      positiveInt,
      5000,
    )
    .option('--chunk-sessions <n>', 'sessions handled (and encoded) together; bounds memory', positiveInt, 32);
  addModelOptions(addBadInputOptions(withSib, `OUT/${SIB_OUTPUT_FILES.rejects}`)).action(async (o) => {
    checkPaths(sibPaths({ sessions: o.sessions, annotations: o.annotations, catalog: o.catalog, out: o.out }));
    const wantDistractors = o.distractors ?? o.catalog !== undefined;
    const encoder = wantDistractors
      ? await openEncoder(encoderSpec(o), encoderExecution(o)).catch((err: unknown) => {
          if (err instanceof ModelNotFoundError) {
            err.message +=
              '\nDistractor-backed items need a sentence encoder: pass --no-distractors to write the tasks only, or --encoder offline-hashing-v1 for a demo.';
          }
          throw err;
        })
      : null;
    const windows: DistractorWindows = {
      intention: o.windowIntention,
      attribute: o.windowAttribute,
      comparison: o.windowComparison,
      nextProduct: o.windowNext,
    };
    const started = process.hrtime.bigint();
    try {
      const summary = await assembleSib({
        sessions: o.sessions,
        annotations: o.annotations,
        catalog: o.catalog,
        out: o.out,
        perSession: o.perSession,
        seed: o.seed,
        styles: o.styles,
        encoder,
        windows,
        comparisonPool: o.comparisonPool,
        chunkSessions: o.chunkSessions,
        onError: o.onError,
        limits: inputLimits(o),
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      process.stdout.write(reportLines(summary, o.out, seconds, windows).join('\n') + '\n');
    } finally {
      await encoder?.close();
    }
  });
}

function reportLines(s: SibSummary, out: string, seconds: number, windows: DistractorWindows): string[] {
  const lines = [
    `sessions: ${s.sessions.read}, trajectories: ${s.sessions.selected_trajectories} of ${s.sessions.trajectories}`,
    `tasks: ${s.tasks.written} (T1 ${s.tasks.by_task.T1}, T2 ${s.tasks.by_task.T2}, T3 ${s.tasks.by_task.T3}, T4 ${s.tasks.by_task.T4}), ` +
      `labelled ${Object.values(s.tasks.labelled).reduce((a, b) => a + b, 0)}, ties ${s.tasks.label_ties}` +
      ` — ${Math.round(s.tasks.written / Math.max(seconds, 1e-9))} tasks/s`,
  ];
  if (s.annotations && s.annotations.unused > 0)
    lines.push(`annotations unused: ${s.annotations.unused} (${JSON.stringify(s.annotations.unused_by_reason)})`);
  if (s.distractors) {
    lines.push(
      `distractor items (encoder ${s.settings.encoder}; windows T1 ${fmt(windows.intention)}, T2 ${fmt(windows.attribute)}, T3 ${fmt(windows.comparison)}, next ${fmt(windows.nextProduct)}): ` +
        Object.entries(s.distractors.made)
          .map(([k, n]) => `${k} ${n}`)
          .join(', '),
    );
    for (const [kind, reasons] of Object.entries(s.distractors.failed)) {
      for (const [reason, n] of Object.entries(reasons)) lines.push(`  not made: ${kind}: ${reason}: ${n}`);
    }
  }
  if (s.rejects.count > 0) lines.push(`rejected: ${s.rejects.count} (see ${out}/${SIB_OUTPUT_FILES.rejects})`);
  lines.push(
    `written: ${out}/${SIB_OUTPUT_FILES.tasks}${s.outputs.distractors ? `, ${out}/${s.outputs.distractors}` : ''}, ${out}/${SIB_OUTPUT_FILES.summary}`,
  );
  return lines;
}

export function registerAssembleCommands(program: Command): void {
  const assemble = program
    .command('assemble')
    .description('assemble benchmark items: SessionIntentBench tasks and distractor-backed items');
  registerSibCommand(assemble);
}
