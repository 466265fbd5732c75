// `intentsim pipeline --product-vectors PATH`: IntentionQA items from product vectors the user already
// has, without a graph: no matching, no context embedding. The vectors are a `catalog index` folder
// (its chunks, checked against their sidecars) or an `.npy` matrix with an ids file (given-vectors.ts).
// From there it is the pipeline's stage 2, the very code `pipeline --graph` runs (items-stage.ts): the
// window search, the draws with every validity rule, the report.
//
// What differs from `pipeline` with a graph, and is said in the manifest and the report:
//   - the calibration is the vectors' encoder's on *title* vectors when a catalog index names an
//     encoder that has one (glove-100d); an .npy names none, so its windows and difficulty cut points
//     must be given, and centering is off unless asked for;
//   - concept phrases (for concept overlap and the generic filter's groups) come from a concepts file,
//     or else from the titles' head phrases (engine/products/title-head-concepts.ts);
//   - the intention texts and titles that the rules compare are encoded by `encoder` when given.
// Layout of OUT: items/ as `pipeline` writes it, embeddings/ with the window search (reused by a rerun)
// and the mean when centered, and manifest.json last.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.js';
import { checkPaths, type PathChecks } from '../../core/check-paths.js';
import { ConfigError, UserError, type OnError } from '../../core/errors.js';
import type { InputLimits } from '../../core/jsonl.js';
import { withClaimedOutput } from '../../core/output-claim.js';
import { RejectsSink } from '../../core/rejects.js';
import { readAssertions, type Assertion } from '../items/intentionqa/assertions.js';
import type { DifficultyCuts } from '../items/intentionqa/difficulty.js';
import {
  presetOverrides,
  wordAndFitRules,
  type WordAndFitRules,
  type IntentionQaOptions,
  type PresetOptions,
  type WindowBounds,
} from '../items/intentionqa/intentionqa-options.js';
import type { ValiditySettings } from '../items/intentionqa/validity-filters.js';
import { loadUserConcepts } from '../products/concepts.js';
import { readProducts, type Product } from '../products/products.js';
import { titleHeadPhrases } from '../products/title-head-concepts.js';
import type { PipelineItemOptions } from './items-stage.js';
import { checkVectorsCoverProducts, givenVectorsInputs, givenVectorsModel, loadGivenVectors } from './given-vectors.js';
import { runItemsStage } from './items-stage.js';
import { hasCalibration } from '../items/intentionqa/calibration.js';
import type { SentenceEncoder } from '../../embeddings/sentence-encoder.js';

export interface ProductVectorsPipelineOptions {
  /** A `catalog index` folder, or an `.npy` matrix (rows × dim, float32) of product vectors. */
  productVectors: string;
  /** With an `.npy`: the ids of its rows, one a line (default: ids.txt beside it). */
  productIds?: string;
  /** Products JSONL (id, title): the titles of Task 2's options and of the report. */
  products: string;
  assertions: string;
  /** Concepts JSONL (id, phrases); absent: the titles' head phrases. */
  concepts?: string;
  /**
   * Stage 2's options. Windows and difficulty cut points left out take the calibration of the
   * vectors' encoder on title vectors when a catalog index names one that has it (glove-100d); an
   * .npy names none, so they are required there.
   */
  items: PipelineItemOptions;
  /**
   * The run's encoder for the texts the validity rules compare: the intention texts and the titles
   * (second-answer, unexplained, fits-as-well). Absent: those rules compare only equal texts or hold
   * for nothing, and the report says so.
   */
  encoder?: SentenceEncoder;
  out: string;
  onError: OnError;
  limits?: InputLimits;
  progress?: boolean;
}

export interface ProductVectorsManifest {
  format: 'intentsim-pipeline-vectors/1';
  inputs: {
    /** Where the vectors came from, and what kind of source it is. */
    productVectors: string;
    productVectorsKind: 'catalog-index' | 'npy';
    productIds: string | null;
    /** The catalog index's model, when the vectors are one; null for an `.npy`. */
    vectorsModel: string | null;
    products: string;
    assertions: string;
    concepts: string | null;
  };
  /** Why the windows and cut points were given, not calibrated; and how concepts and second answers were had. */
  notes: string[];
  options: {
    itemWorkers: number;
    seed: string;
    preset: string;
    sampling: string;
    presetOverrides: Partial<PresetOptions>;
    task1Window: WindowBounds;
    task2Window: WindowBounds;
    difficulty: DifficultyCuts;
    center: boolean;
    search: string;
    excludePairAsserted: boolean;
    excludeGeneric: boolean;
    excludeSecondAnswers: boolean;
    genericMinGroups: number;
    /** Every other rule's switch and cut-off, and the concept-overlap requirement, as resolved. */
    rules: WordAndFitRules &
      Pick<
        IntentionQaOptions,
        | 'excludeKindAsserted'
        | 'excludeGroupGeneric'
        | 'excludeSubstitutes'
        | 'substituteCosine'
        | 'secondAnswerCosine'
        | 'requireOverlap'
      >;
  };
  validity: ValiditySettings | null;
  counts: {
    vectors: number;
    dim: number;
    products: number;
    /** Products of the products file without a vector row. */
    productsWithoutVector: number;
    assertions: number;
    assertionsRejected: number;
    task1Items: number;
    task2Items: number;
    dropped: { task1: Record<string, number>; task2: Record<string, number>; both: Record<string, number> };
  };
  warnings: string[];
  timings: Record<string, number>;
  outputs: { items: string; report: string; mean: string | null };
}

/** Why the calibration is not applied: said in the manifest, the report and on stdout. */
export const NO_CALIBRATION_NOTE =
  "the vectors were given, not made by the pipeline's encoder: its calibration does not apply, so the windows and difficulty cut points are the ones given";

/** What the notes say when the calibration on title vectors applies. */
function calibrationNote(model: string): string {
  return `windows, difficulty cut points and the rules' cut-offs not given are ${model}'s calibration on title vectors (engine/items/intentionqa/calibration.ts; docs/real-data.md)`;
}

/** The paths read and written, checked before any work. */
export function productVectorsPaths(
  o: Pick<
    ProductVectorsPipelineOptions,
    'productVectors' | 'productIds' | 'products' | 'assertions' | 'concepts' | 'out'
  >,
): PathChecks {
  return {
    inputFiles: {
      products: o.products,
      assertions: o.assertions,
      concepts: o.concepts,
      ...givenVectorsInputs(o),
    },
    outputDirs: { out: o.out },
  };
}

export async function runPipelineFromVectors(o: ProductVectorsPipelineOptions): Promise<ProductVectorsManifest> {
  checkPaths(productVectorsPaths(o));
  if (!existsSync(o.productVectors)) throw new UserError(`${o.productVectors}: no such file or folder`);
  // A catalog index names its encoder: its calibration on title vectors applies. An .npy names none.
  const model = await givenVectorsModel(o);
  const calibrated = model !== null && hasCalibration(model, 'title');
  const missing = (['task1Window', 'task2Window', 'difficulty'] as const).filter((k) => o.items[k] === undefined);
  if (!calibrated && missing.length > 0)
    throw new ConfigError(
      missing[0]!,
      `must be given with productVectors (missing: ${missing.join(', ')}): ${NO_CALIBRATION_NOTE}`,
    );
  const completionFiles = [join(o.out, 'manifest.json')];
  return withClaimedOutput(o.out, 'folder', { completionFiles }, async () => {
    const started = performance.now();
    const timings: Record<string, number> = {};
    const itemsDir = join(o.out, 'items');
    const searchDir = join(o.out, 'embeddings');
    const t = performance.now();
    const assertionRejects = new RejectsSink(join(itemsDir, 'assertions.rejects.jsonl'));
    const assertions: Assertion[] = [];
    for await (const a of readAssertions(o.assertions, { ...o.limits, onError: o.onError, rejects: assertionRejects }))
      assertions.push(a);
    await assertionRejects.close();
    const products: Product[] = [];
    for await (const p of readProducts(o.products, o.limits)) products.push({ id: p.id, title: p.title });
    const titles = new Map(products.map((p) => [p.id, p.title]));
    const phrases = o.concepts ? await loadUserConcepts(o.concepts, o.limits) : await titleHeadPhrases(products);
    const vectors = await loadGivenVectors(o);
    // Ids that match no product (issue 45: "3042 of 3042 products without a vector", 0 items, exit 0).
    checkVectorsCoverProducts(vectors.set.ids, vectors.ids ?? o.productVectors, titles.keys(), o.products);
    timings.loadInputs = Math.round(performance.now() - t);

    const source = `${vectors.kind === 'catalog-index' ? 'catalog index' : '.npy'} ${o.productVectors}${vectors.model ? ` (${vectors.model})` : ''}`;
    const notes = [
      calibrated ? calibrationNote(model) : NO_CALIBRATION_NOTE,
      o.concepts
        ? `concept phrases from ${o.concepts}`
        : "concept phrases from the titles' head phrases (no graph, no concepts file)",
      o.encoder
        ? `intention texts and titles encoded by ${o.encoder.name} for the validity rules that compare them`
        : 'no encoder for intention texts: the second-answer filter counts only equal normalised intention texts, and the unexplained and fits-as-well rules hold for nothing',
    ];
    const stage = await runItemsStage({
      assertions,
      titles,
      phrases,
      productVectors: vectors.set,
      calibration: calibrated ? { encoder: model, vectors: 'title' } : null,
      ...(o.encoder ? { textEncoder: o.encoder } : {}),
      // Head phrases split one kind into many: kinds from clusters of the titles instead.
      kindsFromTitles: o.concepts === undefined,
      items: o.items,
      searchDir,
      itemsDir,
      progress: o.progress,
      caveat: `product vectors given: ${source}; ${notes.join('; ')}`,
      encoderName: { name: vectors.model ?? basename(o.productVectors), sentenceBert: false },
    });
    Object.assign(timings, stage.timings);
    timings.total = Math.round(performance.now() - started);
    const { run, written, center, itemWorkers, settings, warnings } = stage;
    const set = vectors.set;
    const ro = run.options;
    const withVector = new Set(set.ids);
    const manifest: ProductVectorsManifest = {
      format: 'intentsim-pipeline-vectors/1',
      inputs: {
        productVectors: o.productVectors,
        productVectorsKind: vectors.kind,
        productIds: vectors.ids,
        vectorsModel: vectors.model,
        products: o.products,
        assertions: o.assertions,
        concepts: o.concepts ?? null,
      },
      notes,
      options: {
        itemWorkers,
        seed: String(ro.seed),
        preset: ro.preset,
        sampling: ro.sampling,
        presetOverrides: presetOverrides(ro),
        task1Window: ro.task1Window,
        task2Window: ro.task2Window,
        difficulty: ro.difficulty,
        center,
        search: settings.search,
        excludePairAsserted: ro.excludePairAsserted,
        excludeGeneric: ro.excludeGeneric,
        excludeSecondAnswers: ro.excludeSecondAnswers,
        genericMinGroups: ro.genericMinGroups,
        rules: {
          excludeKindAsserted: ro.excludeKindAsserted,
          excludeGroupGeneric: ro.excludeGroupGeneric,
          excludeSubstitutes: ro.excludeSubstitutes,
          substituteCosine: ro.substituteCosine,
          secondAnswerCosine: ro.secondAnswerCosine,
          ...wordAndFitRules(ro),
          requireOverlap: ro.requireOverlap,
        },
      },
      validity: run.validitySettings() ?? null,
      counts: {
        vectors: set.ids.length,
        dim: set.dim,
        products: products.length,
        productsWithoutVector: products.filter((p) => !withVector.has(p.id)).length,
        assertions: assertions.length + assertionRejects.count,
        assertionsRejected: assertionRejects.count,
        task1Items: written.stats.task1.items,
        task2Items: written.stats.task2.items,
        dropped: {
          task1: written.stats.task1.dropped,
          task2: written.stats.task2.dropped,
          both: written.stats.droppedBoth,
        },
      },
      warnings,
      timings,
      outputs: { items: itemsDir, report: written.files.report, mean: stage.meanFile },
    };
    await writeFileAtomic(join(o.out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    return manifest;
  });
}
