// `score shoppingbench`: ShoppingBench relevance scores (CAR, ASR per intent) of an agent's run.
import type { Command } from '@commander-js/extra-typings';
import { checkPaths } from '../../core/check-paths.js';
import { UserError } from '../../core/errors.js';
import { openEncoder } from '../../workers/open-encoder.js';
import { notMeaningfulBecause } from '../../engine/scoring/shoppingbench/encoder-meaning.js';
import { scorePaths, scoreShoppingBench } from '../../engine/scoring/shoppingbench/score-run.js';
import { addModelOptions, encoderOptions } from '../options/model-options.js';
import { addBadInputOptions, inputLimits } from '../options/bad-input.js';

/** Titles per model call by default: the batch size the title-embedding benchmark measured
 * (docs/catalog.md); the other model commands default to 64. */
const SCORE_BATCH_SIZE = 256;

export function registerScoreCommands(program: Command): void {
  const score = program.command('score').description("score agents' outputs against benchmark targets");
  const command = score
    .command('shoppingbench')
    .summary('ShoppingBench relevance: r_pro, r_kw, r_shop, r_budget; CAR and ASR per intent')
    .description(
      `Scores an agent's recommended products against ShoppingBench targets.

Per recommended product, against its target:
  r_pro = (1[title_sim ≥ 0.5] + 1[min ≤ price ≤ max] + |F_t ∩ F_p|) / (2 + |F_t|)
  (F_t: the target's service, sku_options and attributes; matched in the best
  SKU or the attributes; a product whose id is the target's scores 1);
  r_kw = 1 if the knowledge text occurs in the title; r_shop = 1 if as many
  products as targets, all from one shop; r_budget = 1 if the total, before or
  after an applicable voucher, is ≤ budget.
CAR = mean over queries of the mean r_pro; ASR = share of queries whose
products all have r_pro = 1 (plus r_kw / r_shop / r_budget for knowledge /
shop / voucher queries). title_sim is the cosine of Sentence-BERT embeddings;
each distinct title is embedded once, in calls of --batch-size titles
(default 256 here).

Targets (the released evaluator's format), one query per line:
  {"query_id": "q1", "intent": "voucher",          (optional: inferred)
   "reward": {"product_id": "p1", "title": ["…"], "price": [{"less than": [0, 50]}],
              "service": ["COD"], "sku_options": [{"color": "red"}],
              "attributes": [{"material": ["cotton"]}], "knowledge": "IP68"},
   "voucher": {"voucher_type": "shop", "threshold": 100, "discount_type":
              "percentage", "discount": 0.1, "cap": 15, "budget": 180}}
  (reward may be a list, one object per target product; fixed vouchers give
  "face_value"; budget may also sit at the top level)
Predictions, one query per line:
  {"query_id": "q1", "products": [{"product_id": "p9", "title": "…", "price": 19.9,
   "shop_id": "s1", "service": ["COD"],
   "skus": [{"options": {"color": "red"}, "price": 21}],
   "attributes": {"material": ["cotton"]}}]}
Outputs (--out DIR, atomic): scores.jsonl (one line per target query),
summary.json, summary.md (CAR/ASR table and the voucher arithmetic of every
budget query), rejects.jsonl (with --on-error skip). The table is printed.

Similarities from --encoder offline-hashing-v1 or a generated model (random
weights) mean nothing; the summary says so.

Example
  intentsim score shoppingbench --predictions run.jsonl --targets targets.jsonl \\
    --out scores/ --model-dir all-MiniLM-L6-v2/`,
    )
    .requiredOption('--predictions <file>', 'predictions JSONL')
    .requiredOption('--targets <file>', 'targets JSONL')
    .option('--out <dir>', 'output folder (needed by --on-error skip, for rejects.jsonl)');
  addModelOptions(addBadInputOptions(command, 'OUT/rejects.jsonl'), { batchSize: SCORE_BATCH_SIZE }).action(
    async (o) => {
      if (o.onError === 'skip' && !o.out) throw new UserError('--on-error skip needs --out (for rejects.jsonl)');
      checkPaths(scorePaths(o));
      const encoder = await openEncoder(encoderOptions(o));
      try {
        const why = notMeaningfulBecause(encoder);
        if (why) process.stderr.write(`warning: title similarities are NOT meaningful: ${why}\n`);
        const result = await scoreShoppingBench({
          predictions: o.predictions,
          targets: o.targets,
          out: o.out,
          encoder,
          notMeaningfulBecause: why,
          onError: o.onError,
          limits: inputLimits(o),
          batchSize: o.batchSize,
        });
        process.stdout.write(result.markdown.split('\n## ')[0]!);
        if (result.unknownPredictionIds.length > 0)
          process.stderr.write(
            `${result.unknownPredictionIds.length} prediction line(s) name queries that are not in the targets (listed in summary.json)\n`,
          );
        if (result.rejected > 0)
          process.stderr.write(`${result.rejected} line(s) rejected (see ${o.out}/rejects.jsonl)\n`);
      } finally {
        await encoder.close();
      }
    },
  );
}
