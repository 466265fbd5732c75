// `intentsim items check`: the pipeline's validity rules over an existing IntentionQA item file
// (engine/items/intentionqa/check-items.ts).
import { Command, Option } from '@commander-js/extra-typings';
import { ENCODER_CHOICES } from '../../embeddings/encoder-choice.js';
import { LOCAL_EXECUTION } from '../../workers/encoder-spec.js';
import type { Encoder } from '../../workers/encoder.js';
import { CHECK_FILES } from '../../engine/evaluation/check-files.js';
import { UserError } from '../../core/errors.js';
import { declarePaths } from '../declared-paths.js';
import { INTENTIONQA_FILES } from '../../engine/items/intentionqa/item-files.js';
import { positiveInt } from '../options/value-parsers.js';

export function itemsCheckCommand() {
  const command = new Command('check')
    .summary("the pipeline's validity rules over any IntentionQA item file, ours or the released one")
    .description(
      `Checks IntentionQA items against the assertions they were made from, with the
pipeline's validity rules (one implementation: engine/items/intentionqa/validity-filters.ts):
  pair-asserted  a distractor asserted for the item's own pair (Task 1), or a distractor
                 product asserted with the given one for the gold's intention (Task 2)
  generic        a distractor intention asserted across --generic-min-groups unrelated
                 concept groups (the groups from the --products titles; without them, a pair each)
  second-answer  a distractor intention equal (after normalisation) to one asserted for the
                 pair: without intention vectors, only what pair-asserted does not already catch
  kind-asserted  a distractor asserted for another pair of the same kinds (beyond pair-asserted)
  group-generic  a distractor intention generic within a group both products belong to
  substitute     a Task-2 distractor of the gold's or the given product's kind (no vector test)
  vacuous        a distractor intention every word of which is generic (used for pairs across
                 6 unrelated concept groups), or that explains nothing of its own pair
  fits-as-well   a Task-2 distractor the gold's intention fits within the margin of the gold
  kind-words     a Task-1 distractor sharing a particular word with the intentions of either
                 product's kind
  generic-gold, vacuous-gold, unexplained  the gold's intention is generic, vacuous, or
                 explains nothing of its own pair
With --encoder (glove-100d: what \`pipeline --product-vectors\` of a glove-100d catalog index
uses), intention texts and titles are encoded as the pipeline encodes them: second-answer
compares vectors, the rules that read fits apply, and the kinds come from clusters of the
titles, with the encoder's cut-offs on title vectors. Without it, second-answer compares
equal texts, the fit rules hold for nothing and kinds come from the titles' head phrases.
Malformed items (not four options with distinct texts) are counted apart.

Input  --items FILE_OR_DIR: an items file, or a folder with intentionqa_task1.jsonl,
         intentionqa_task2.jsonl, released_task1.jsonl or released_task2.jsonl
       --assertions FILE: the assertions (assertions.jsonl, the released fields)
Output --out DIR: ${CHECK_FILES.summary} (per rule the items flagged and the texts behind it),
         ${CHECK_FILES.flagged} (one line per flagged option); with --drop-flagged,
         ${CHECK_FILES.keptDir}/<file> (the items no rule flags, lines as read) and
         ${CHECK_FILES.keptDir}/${INTENTIONQA_FILES.dropped} (the others, with reasons)`,
    )
    .requiredOption('--items <path>', 'IntentionQA items file or folder')
    .requiredOption('--assertions <file>', 'assertions JSONL (the items were made from them)')
    .option('--products <file>', 'products JSONL (id, title): concept groups for the generic rule')
    .option('--out <dir>', 'output folder (nothing is written without it)')
    .option('--drop-flagged', 'also write the items no rule flags, and the others with reasons (needs --out)')
    .option('--generic-min-groups <n>', 'concept groups that make an intention generic (default 3)', positiveInt)
    .addOption(
      new Option(
        '--encoder <name>',
        'encode intention texts and titles as the pipeline does (the rules that compare vectors and fits)',
      ).choices(ENCODER_CHOICES),
    );
  return declarePaths(command, async (o) =>
    (await import('../../engine/evaluation/check-items.js')).checkItemsPaths(o),
  ).action(async (o) => {
    if (o.dropFlagged && o.out === undefined)
      throw new UserError('--drop-flagged needs --out (the folder the kept items go to)');
    // The library code loads when the command runs, not for `--help` (issue 50).
    const { checkItems } = await import('../../engine/evaluation/check-items.js');
    const { withEncoder } = await import('../../workers/open-encoder.js');
    const check = (encoder?: Encoder) =>
      checkItems({
        items: o.items,
        assertions: o.assertions,
        products: o.products,
        out: o.out,
        dropFlagged: o.dropFlagged,
        genericMinGroups: o.genericMinGroups,
        ...(encoder ? { encoder } : {}),
      });
    const r =
      o.encoder === undefined ? await check() : await withEncoder({ encoder: o.encoder }, LOCAL_EXECUTION, check);
    const s = r.summary;
    const lines = [
      `${s.assertions} assertions; ${s.generic.length} generic intention(s) (cut-off ${s.genericMinGroups} concept groups${s.products === null ? ', no products: a pair is a group' : `, groups from ${s.products} titles`})`,
    ];
    for (const f of s.files) {
      lines.push(
        `${f.file}: ${f.items} items (Task ${f.task ?? '1 and 2'}); malformed ${f.malformed}; flagged ${f.flagged} (malformed included)`,
      );
      for (const rule of f.rules) {
        const top = rule.texts
          .slice(0, 3)
          .map((t) => `"${t.text}" ${t.items}`)
          .join('; ');
        lines.push(
          `  ${rule.rule.padEnd(14)} ${String(rule.items).padStart(6)} items${top === '' ? '' : `  e.g. ${top}`}`,
        );
      }
    }
    for (const skip of s.skipped) lines.push(`skipped ${skip.file}: ${skip.reason}; --items ${skip.file} checks it`);
    if (r.kept !== undefined)
      lines.push(
        `kept ${Object.entries(r.kept)
          .map(([f, n]) => `${n} of ${f}`)
          .join(', ')}; dropped ${r.dropped} → ${o.out}/${CHECK_FILES.keptDir}/`,
      );
    if (r.written.length > 0) lines.push(`written: ${r.written.join(', ')}`);
    process.stdout.write(lines.join('\n') + '\n');
  });
}
