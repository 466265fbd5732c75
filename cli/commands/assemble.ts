// `intentsim items sib` (formerly `assemble sib`): SessionIntentBench tasks and distractor-backed
// items from sessions JSONL.
import { Command, InvalidArgumentError } from '@commander-js/extra-typings';
import type { SibSummary } from '../../engine/items/sib/assemble-sib.js';
import { SIB_OUTPUT_FILES } from '../../engine/items/sib/sib-files.js';
import {
  DEFAULT_WINDOWS,
  type CosineWindow,
  type DistractorWindows,
} from '../../engine/items/sib/distractor-windows.js';
import { PROMPT_STYLES, type PromptStyle } from '../../engine/items/sib/sib-types.js';
import { addModelOptions, encoderExecution, encoderSpec, modelPaths } from '../options/model-options.js';
import { declarePaths, mergePaths } from '../declared-paths.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';
import { addOutDirOption } from '../options/output-options.js';
import { addSeedOption } from '../options/seed-option.js';
import { cosineBounds, positiveInt, seed } from '../options/value-parsers.js';
import { addDeprecatedOptions, canonicalChoice, deprecateCommand } from '../options/deprecated-spellings.js';

/** The styles as the command line spells them (`ask` and `score` too); the files key prompts by PROMPT_STYLES. */
const STYLE_NAMES = {
  'zero-shot': 'zero_shot',
  'five-shot': 'five_shot',
  cot: 'cot',
} as const satisfies Record<PromptStyle, string>;
const STYLE_CHOICES = PROMPT_STYLES.map((s) => STYLE_NAMES[s]);

type StyleName = (typeof STYLE_NAMES)[PromptStyle];

/** "zero_shot,cot" → the style names, in PROMPT_STYLES order (the old "zero-shot" spelling with a note). */
function promptStyles(value: string): StyleName[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError('Name at least one style.');
  const styles = names.map((name) => {
    try {
      return canonicalChoice('--styles', name, STYLE_CHOICES);
    } catch {
      throw new InvalidArgumentError(`Unknown style "${name}" (use ${STYLE_CHOICES.join(', ')}).`);
    }
  });
  return STYLE_CHOICES.filter((s) => styles.includes(s));
}

/** The library's styles of the command line's names. */
function libraryStyles(names: readonly StyleName[]): PromptStyle[] {
  return PROMPT_STYLES.filter((s) => names.includes(STYLE_NAMES[s]));
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
  --catalog      {"id", "title", "attributes", "category"}: products that may replace P_t in
                 distractor items; "category" (optional, also on session products) is a path,
                 "Beauty > Skin Care > Sunscreens"; hard negatives come from P_t's and neighbouring ones

Outputs in --out: ${SIB_OUTPUT_FILES.tasks}, ${SIB_OUTPUT_FILES.distractors}, ${SIB_OUTPUT_FILES.summary},
and ${SIB_OUTPUT_FILES.rejects} (with --on-error skip, when something was rejected).

Distractor-backed items (on when --catalog is given, or with --distractors; off with --no-distractors)
need a sentence encoder (Sentence-BERT through ONNX: --model-dir etc., or --encoder offline-hashing-v1,
a stand-in for demos whose similarities carry no meaning). Windows are [lo, hi) on exact cosines.

Example:
  intentsim items sib --sessions examples/sib/sessions.jsonl \\
    --annotations examples/sib/annotations.jsonl --catalog examples/sib/catalog.jsonl \\
    --encoder offline-hashing-v1 --per-session 10 --seed 7 --out out/sib`;

/**
 * The SessionIntentBench command (`items sib`); `deprecatedFor` names the new path where this is the
 * old one (`assemble sib`), whose note then comes first, before any of its options' own.
 */
export function sibCommand(deprecatedFor?: string) {
  const base = new Command('sib');
  if (deprecatedFor !== undefined) deprecateCommand(base, deprecatedFor);
  const command = base
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
    .option('--styles <list>', `prompt styles, comma-separated: ${STYLE_CHOICES.join(',')}`, promptStyles, [
      ...STYLE_CHOICES,
    ])
    .option('--distractors', 'make distractor-backed items even without --catalog (T3 negatives only)')
    .option('--no-distractors', 'make no distractor-backed items (no encoder is opened)')
    .option(
      '--task1-window <lo,hi>',
      'T1 hard negatives: cosine(catalogue product, P_t); not serving I_{t-1} (docs/sib.md)',
      cosineBounds,
      DEFAULT_WINDOWS.intention,
    )
    .option(
      '--task2-window <lo,hi>',
      'T2 hard negatives: cosine(catalogue product, P_t); not holding A_{t-1} (docs/sib.md)',
      cosineBounds,
      DEFAULT_WINDOWS.attribute,
    )
    .option(
      '--task3-window <lo,hi>',
      "T3 negatives: cosine(other session's comparison, C_t)",
      cosineBounds,
      DEFAULT_WINDOWS.comparison,
    )
    .option(
      '--next-product-window <lo,hi>',
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
  addDeprecatedOptions(withSib, [
    { flags: '--window-intention <lo,hi>', use: '--task1-window', parse: cosineBounds },
    { flags: '--window-attribute <lo,hi>', use: '--task2-window', parse: cosineBounds },
    { flags: '--window-comparison <lo,hi>', use: '--task3-window', parse: cosineBounds },
    { flags: '--window-next <lo,hi>', use: '--next-product-window', parse: cosineBounds },
  ]);
  const paths = declarePaths(
    addModelOptions(addBadInputOptions(withSib, `OUT/${SIB_OUTPUT_FILES.rejects}`)),
    async (o) => mergePaths((await import('../../engine/items/sib/assemble-sib.js')).sibPaths(o), modelPaths(o)),
  );
  return paths.action(async (o) => {
    // The library and model code load when the command runs, not for `--help` (issue 50).
    const { ModelNotFoundError } = await import('../../embeddings/model-resolution.js');
    const { openEncoder } = await import('../../workers/open-encoder.js');
    const { assembleSib } = await import('../../engine/items/sib/assemble-sib.js');
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
      intention: o.task1Window,
      attribute: o.task2Window,
      comparison: o.task3Window,
      nextProduct: o.nextProductWindow,
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
        styles: libraryStyles(o.styles),
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

/** The old path `intentsim assemble sib`, for one release (the command is `items sib`). */
export function registerAssembleCommands(program: Command): void {
  const assemble = program.command('assemble', { hidden: true }).description('deprecated: use `intentsim items sib`');
  assemble.addCommand(sibCommand('items sib'));
}
